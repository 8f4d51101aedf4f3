// Agent- and hub-authored text made inert for the places VS Code shows it.
// No vscode import: the whole rule is plain string logic, tested in Node.
//
// What VS Code interprets, and where (microsoft/vscode; checked in VS Code
// 1.139 under code-server by test/e2e/oneWorkbench/untrustedText.ts):
// - notification messages (show*Message): `[label](href "title")` becomes a
//   link when href starts with http(s)://, command: or file:
//   (src/vs/base/common/linkedText.ts, LINK_SYNTAX below); a command: link
//   runs its command on click.
// - quick pick label/description/detail and status bar text: `$(name)` and
//   `$(name~modifier)` become codicons (src/vs/base/common/iconLabels.ts,
//   ICON_SYNTAX below). Tree item labels and notification buttons showed the
//   syntax as text in 1.139, but tree labels can opt into icons (a proposed
//   API), so every surface gets the same treatment.
// - MarkdownString (tree item and status bar tooltips): Markdown and, unless
//   supportHtml is off, HTML. Its appendText escapes Markdown punctuation but
//   leaves `<…>` autolinks and bare URLs/e-mail addresses (GFM autolink
//   literals) live: `<https://x>` through appendText renders a link.
// Every surface also gets: control and bidi characters removed (Trojan
// Source), invisible characters removed, whitespace collapsed where the
// surface is one line, and a length cap with a visible ellipsis.
//
// The neutraliser is a U+2060 WORD JOINER between the two characters that
// open the syntax (`]` `(`, `$` `(`, and for Markdown `:` `//`, `www` `.`,
// `@`, an ordered-list number and its `.`): invisible, so the text reads as
// the agent wrote it, and no parser sees the syntax any more. Plain surfaces
// are idempotent (sanitising twice changes nothing), so a sentence built from
// sanitised pieces can be sanitised whole again; Markdown text is encoded
// (`&` to `&amp;`) and must be produced once, at the end.

import { CONTROL_CHARS, FORMAT_CHARS, TAG_CHARS } from '../base/invisibleText';

/** Where a string is shown. Each surface has its own cap and line rule. */
export type Surface =
  | 'notificationMessage'
  | 'notificationButton'
  | 'quickPickLabel'
  | 'quickPickDescription'
  | 'quickPickDetail'
  | 'treeLabel'
  | 'treeDescription'
  | 'statusBarText'
  | 'panelTitle'
  | 'accessibilityLabel'
  /** An OS notification's title and body (the browser `Notification`): plain text, shown outside the window. */
  | 'osNotificationTitle'
  | 'osNotificationBody'
  /** Text for `MarkdownString.appendText` (tree item and status bar tooltips, hovers). */
  | 'markdownText';

export interface SurfaceRule {
  /** Most UTF-16 code units the result may have, ellipsis included. */
  readonly cap: number;
  /** `one`: every run of whitespace becomes one space. `many`: line breaks kept (at most one blank line), at most `maxLines`. */
  readonly lines: 'one' | 'many';
  readonly maxLines: number;
  /** Text bound for a MarkdownString: HTML and autolinks neutralised too. */
  readonly markdown: boolean;
}

const oneLine = (cap: number): SurfaceRule => ({ cap, lines: 'one', maxLines: 1, markdown: false });

export const SURFACES: Readonly<Record<Surface, SurfaceRule>> = {
  // VS Code itself cuts notification messages at 1000 and drops line breaks.
  notificationMessage: oneLine(400),
  // A long label squeezes the extension's own buttons out of sight.
  notificationButton: oneLine(32),
  quickPickLabel: oneLine(200),
  quickPickDescription: oneLine(120),
  quickPickDetail: oneLine(300),
  treeLabel: oneLine(200),
  treeDescription: oneLine(160),
  statusBarText: oneLine(60),
  panelTitle: oneLine(80),
  accessibilityLabel: oneLine(500),
  // Notification centers cut titles near 64 characters and bodies after a few lines.
  osNotificationTitle: oneLine(64),
  osNotificationBody: oneLine(200),
  markdownText: { cap: 2000, lines: 'many', maxLines: 20, markdown: true },
};

/** Caps for a piece of agent text inside a sentence of ours, so one piece cannot push the rest out. */
export const PIECES = { agent: 64, session: 64, kind: 32, prompt: 200, detail: 300, source: 200 } as const;

export const WORD_JOINER = '\u2060';
export const ELLIPSIS = '…';

/** VS Code's notification link syntax (linkedText.ts), for tests and for anyone checking output. */
export const LINK_SYNTAX = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;
/** VS Code's codicon syntax (iconLabels.ts), escaped form `\$(…)` included. */
export const ICON_SYNTAX = /\\?\$\([A-Za-z0-9-]+(?:~[A-Za-z]+)?\)/g;

/**
 * Characters removed everywhere (src/base/invisibleText.ts, the one list every
 * surface uses): C0 and C1 controls and DEL (line breaks and tabs are handled
 * first), bidi controls and marks, and invisible format characters.
 */
const REMOVED = new RegExp(`[${CONTROL_CHARS}${FORMAT_CHARS}]`, 'g');

/**
 * Unicode tag characters (TAG_CHARS) hide text from the eye (and carry "invisible" prompt
 * injection); they are kept only inside an emoji tag sequence (a subdivision
 * flag: U+1F3F4, tags, U+E007F).
 */
const TAG_RUNS = new RegExp(`(\\u{1F3F4}[\\u{E0020}-\\u{E007E}]+\\u{E007F})|[${TAG_CHARS}]`, 'gu');

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const LINE_BREAKS = /\r\n|[\r\n\u000b\u000c\u0085\u2028\u2029]/g;

/** Every opening of syntax some surface parses, for all surfaces. */
const PLAIN_OPENINGS: ReadonlyArray<[RegExp, string]> = [
  [/\]\(/g, `]${WORD_JOINER}(`],
  [/\$\(/g, `$${WORD_JOINER}(`],
];

/**
 * What Markdown (marked, GFM) turns into links without brackets: scheme URLs,
 * www., e-mail addresses; and the one block marker appendText leaves alone,
 * an ordered list item (`1.` at the start of a line).
 */
const MARKDOWN_OPENINGS: ReadonlyArray<[RegExp, string]> = [
  [/:\/\//g, `:${WORD_JOINER}//`],
  [/(www)\./gi, `$1${WORD_JOINER}.`],
  [/@/g, `@${WORD_JOINER}`],
  [/^(\d+)([.)])/gm, `$1${WORD_JOINER}$2`],
];

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Code units read from the input at most: beyond that only the ellipsis says there was more. */
function readLimit(rule: SurfaceRule): number {
  return rule.cap * 4 + 256;
}

function removeInvisible(text: string): string {
  return text
    .replace(LONE_SURROGATE, '\ufffd')
    .replace(REMOVED, '')
    .replace(TAG_RUNS, (_match, flag: string | undefined) => flag ?? '');
}

function collapseWhitespace(text: string, rule: SurfaceRule): { text: string; cut: boolean } {
  if (rule.lines === 'one') return { text: text.replace(/\s+/g, ' ').trim(), cut: false };
  const lines = text
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim());
  // Runs of empty lines become one blank line: a flood of line breaks cannot push text out of a tooltip.
  const kept: string[] = [];
  for (const line of lines) {
    if (line === '' && (kept.length === 0 || kept[kept.length - 1] === '')) continue;
    kept.push(line);
  }
  while (kept[kept.length - 1] === '') kept.pop();
  const cut = kept.length > rule.maxLines;
  return { text: kept.slice(0, rule.maxLines).join('\n'), cut };
}

function breakOpenings(text: string, rule: SurfaceRule): string {
  let out = text;
  for (const [pattern, replacement] of PLAIN_OPENINGS) out = out.replace(pattern, replacement);
  if (rule.markdown) for (const [pattern, replacement] of MARKDOWN_OPENINGS) out = out.replace(pattern, replacement);
  return out;
}

/** HTML out of reach of the Markdown renderer; appendText escapes the Markdown punctuation. */
function markdownEntities(grapheme: string): string {
  return grapheme.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Whole graphemes up to the cap (an emoji sequence, an entity, is never split), then an ellipsis if anything was left out. */
function fit(text: string, rule: SurfaceRule, cut: boolean): string {
  const encode = rule.markdown ? markdownEntities : (grapheme: string) => grapheme;
  const pieces: string[] = [];
  let length = 0;
  let overflow = false;
  for (const { segment } of segmenter.segment(text)) {
    const piece = encode(segment);
    if (length + piece.length > rule.cap) {
      overflow = true;
      break;
    }
    pieces.push(piece);
    length += piece.length;
  }
  if (!overflow && !cut) return pieces.join('');
  // Room for the ellipsis: drop whole pieces from the end until it fits.
  while (pieces.length > 0 && length + ELLIPSIS.length > rule.cap) length -= pieces.pop()?.length ?? 0;
  return `${pieces.join('').trimEnd()}${ELLIPSIS}`;
}

/** `text` as inert plain text for `surface`. */
export function forSurface(surface: Surface, text: string): string {
  return withRule(SURFACES[surface], text);
}

/** The same with an explicit rule (a piece of a sentence: one line, its own cap). */
export function withRule(rule: SurfaceRule, text: string): string {
  const limit = readLimit(rule);
  let input = text;
  let cut = false;
  if (input.length > limit) {
    // Never end on half a surrogate pair.
    const end = /[\ud800-\udbff]/.test(input.charAt(limit - 1)) ? limit - 1 : limit;
    input = input.slice(0, end);
    cut = true;
  }
  const visible = removeInvisible(input.replace(LINE_BREAKS, '\n').replace(/\t/g, ' '));
  const collapsed = collapseWhitespace(visible, rule);
  return fit(breakOpenings(collapsed.text, rule), rule, cut || collapsed.cut);
}

/**
 * A piece of agent or hub text inside a sentence of ours: one line, capped,
 * inert. The surface sanitises the whole sentence again; capping the piece
 * first keeps a huge agent name from pushing the rest out.
 */
export function piece(text: string, cap: number): string {
  return withRule(oneLine(cap), text);
}

/** A codicon name for a status bar or tree icon: `name` or `name~modifier`, anything else refused. */
export function codiconName(name: string): string | undefined {
  return /^[a-z0-9]+(?:-[a-z0-9]+)*(?:~[a-z]+)?$/.test(name) ? name : undefined;
}
