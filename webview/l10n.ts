// The page's strings: every user-visible string goes through `l10n.t` of
// '@vscode/l10n', as on the host (src/ui/words/l10n.ts says why that form), or
// `tNodes` when the sentence embeds an element, with the English text as the
// key. The host passes its loaded bundle (`vscode.l10n.bundle`) in the `init`
// message and the page loads it here; without one the English is shown unchanged.
import * as l10n from '@vscode/l10n';

export type StringBundle = Record<string, string>;

/** Loads the host's bundle for the display language; `undefined` means English. Call before rendering. */
export function configureStrings(bundle: StringBundle | undefined): void {
  l10n.config({ contents: bundle ?? {} });
}

/** First private-use character: slot `i` stands for argument `i` while the sentence is translated. */
const SLOT = 0xe000;

/**
 * A sentence that embeds elements (`{0}` is a `<code>`, say), translated as
 * one message: each argument is stood in for by a private-use character,
 * the translated sentence is split on them and the arguments put back in
 * their place. Every piece of text, and every string argument, becomes a
 * text node (never HTML), so neither a translation nor agent text can add
 * markup, and agent text can never be mistaken for a slot.
 */
export function tNodes(message: string, ...args: Array<Node | string | number>): Node[] {
  const sentence = l10n.t(message, ...args.map((_, index) => String.fromCharCode(SLOT + index)));
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
