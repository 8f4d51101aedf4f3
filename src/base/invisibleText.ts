// The characters agent text may not carry as such onto any surface: one list,
// which each surface applies its own way (removed from a one-line surface,
// written as a visible escape where the text is shown whole). Line breaks are
// not in it: each surface decides on those.

/** C0 controls but tab and the line breaks `\n` and `\r`, DEL, C1: a character-class body. */
export const CONTROL_CHARS = '\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f';

/**
 * The Unicode bidirectional controls (Trojan Source) and the invisible format
 * characters that could hide text or break words unseen: zero-width space,
 * word joiner and invisible operators, BOM, Mongolian vowel separator,
 * interlinear annotation marks. ZWNJ/ZWJ (U+200C/U+200D) are not among them:
 * emoji sequences and several scripts need them. A character-class body.
 */
export const FORMAT_CHARS = '\\u061c\\u180e\\u200b\\u200e\\u200f\\u202a-\\u202e\\u2060-\\u2064\\u2066-\\u2069\\ufeff\\ufff9-\\ufffb';

/**
 * The Unicode tag characters, which hide text from the eye (and carry
 * "invisible" prompt injection): a character-class body for a `u` regex.
 */
export const TAG_CHARS = '\\u{E0000}-\\u{E007F}';

/**
 * The bidi controls that reorder what is drawn (embeddings, overrides,
 * isolates): with U+202E a label reads "password" on screen while its
 * characters spell "drowssap". The direction marks (U+200E, U+200F, U+061C)
 * are not among them: they cannot reverse letters, and right-to-left text
 * needs them. A character-class body.
 */
export const REORDERING_CHARS = '\\u202a-\\u202e\\u2066-\\u2069';
const REORDERING = new RegExp(`[${REORDERING_CHARS}]`, 'g');

/**
 * Agent text as the request page draws it: without the reordering controls,
 * so that it draws the words every check reads (readingKey drops them too,
 * with the other characters that show nothing), and in the agent's order.
 */
export function withoutReordering(text: string): string {
  return text.replace(REORDERING, '');
}
