// The page's strings: every user-visible string goes through `l10n.t` of
// '@vscode/l10n', as on the host (src/words/l10n.ts says why that form),
// with the English text as the key; a sentence that embeds an element is the
// same `l10n.t` call, filled with SLOTS and handed to `sentenceNodes`, so the
// bundle export (which sees only `l10n.t` calls) finds it too. The host passes
// its loaded bundle (`vscode.l10n.bundle`) in the `init` message and the page
// loads it here; without one the English is shown unchanged.
import * as l10n from '@vscode/l10n';

export type StringBundle = Record<string, string>;

/** Loads the host's bundle for the display language; `undefined` means English. Call before rendering. */
export function configureStrings(bundle: StringBundle | undefined): void {
  l10n.config({ contents: bundle ?? {} });
}

/** First private-use character: slot `i` stands for argument `i` while the sentence is translated. */
const SLOT = 0xe000;
/** More than any sentence of the page embeds; `l10n.t` ignores the ones its message does not name. */
const MAX_SLOTS = 8;

/**
 * The arguments of a sentence that embeds elements, as `l10n.t` is given
 * them: `sentenceNodes(l10n.t('(id {0})', ...SLOTS), code)`. Each stands for
 * the argument of its index until `sentenceNodes` puts the real one back;
 * agent text never goes into `l10n.t` itself, so it cannot pass for a slot.
 */
export const SLOTS: readonly string[] = Array.from({ length: MAX_SLOTS }, (_, index) => String.fromCharCode(SLOT + index));

/**
 * One slot, for a sentence whose words the page shares with the host
 * (src/shared) and which takes its arguments one by one: the words are called
 * with `slot(0)`, `slot(1)`, … and handed to `sentenceNodes` with the real ones.
 */
export function slot(index: number): string {
  if (!Number.isInteger(index) || index < 0 || index >= MAX_SLOTS) throw new RangeError(`a sentence embeds at most ${MAX_SLOTS} arguments`);
  return String.fromCharCode(SLOT + index);
}

/**
 * A translated sentence (`l10n.t` of the English, filled with SLOTS) as
 * nodes: the sentence is split on the slots and each argument put in its
 * place, where the translation moved it. Every piece of text, and every
 * string argument, becomes a text node (never HTML), so neither a
 * translation nor agent text can add markup.
 */
export function sentenceNodes(sentence: string, ...args: Array<Node | string | number>): Node[] {
  if (args.length > MAX_SLOTS) throw new RangeError(`a sentence embeds at most ${MAX_SLOTS} arguments`);
  const nodes: Node[] = [];
  const used = new Set<number>();
  let run = '';
  for (const char of sentence) {
    const index = char.charCodeAt(0) - SLOT;
    const arg = index >= 0 && index < args.length ? args[index] : undefined;
    if (arg === undefined) {
      run += char;
      continue;
    }
    if (run) nodes.push(document.createTextNode(run));
    run = '';
    if (typeof arg === 'string' || typeof arg === 'number') nodes.push(document.createTextNode(String(arg)));
    // A translation may use a placeholder twice; a node can be in one place only.
    else nodes.push(used.has(index) ? arg.cloneNode(true) : arg);
    used.add(index);
  }
  if (run) nodes.push(document.createTextNode(run));
  return nodes;
}
