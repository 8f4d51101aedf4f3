// Whether an agent's label reads like one of our own items ("Reply with
// text…", "Open as page", "Answer", "Open"), or like another of its labels.
// One rule for every surface that lists agent options beside our actions
// (notification buttons, the inline quick input): an agent that labels an
// option like our own item could make a person pick the agent's option
// while meaning ours. Our items' words are l10n strings; the host passes
// them in.
import { foldForMatching } from '../base/matchFold';

/**
 * Characters that show nothing or nothing distinct: controls, format
 * characters (zero-width, bidi, BOM, tags), variation selectors. ZWJ/ZWNJ
 * are format characters too; for comparing they say nothing a reader sees.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\u{FE00}-\u{FE0F}\u{E0100}-\u{E01EF}\u180e]/gu;
/** Trailing dots, an ellipsis, or a mix: "Open…", "Open...", "Open. . ." read alike. */
const TRAILING_DOTS = /[\s.\u2026\u2024\u2025\u22ef\u00b7]+$/u;
/** Quotes and dashes that differ only in shape. */
const LOOK_ALIKE: ReadonlyArray<[RegExp, string]> = [
  [/[\u2018\u2019\u201a\u201b\u2032\u00b4`]/gu, "'"],
  [/[\u201c\u201d\u201e\u201f\u2033]/gu, '"'],
  [/[\u2010-\u2015\u2212]/gu, '-'],
];

/**
 * The text a label reads as, for comparing: compatibility forms folded
 * (NFKC: full-width letters, ligatures, the one-character ellipsis), the
 * look-alikes the redaction rules fold (matchFold.ts), invisible characters
 * removed, whitespace collapsed and trimmed, trailing dots and ellipses
 * dropped, case folded.
 */
export function readingKey(label: string): string {
  // Whitespace first: tabs and line breaks are controls too, and must stay word breaks.
  let text = foldForMatching(label.normalize('NFKC')).replace(/\s/gu, ' ').replace(INVISIBLE, '');
  for (const [pattern, replacement] of LOOK_ALIKE) text = text.replace(pattern, replacement);
  return text.replace(/\s+/gu, ' ').trim().replace(TRAILING_DOTS, '').toLocaleLowerCase().normalize('NFKC');
}

/** Whether `label` reads like one of `ours` (our own item words, as shown). */
export function readsLikeOurs(label: string, ours: readonly string[]): boolean {
  const key = readingKey(label);
  return ours.some((own) => readingKey(own) === key);
}

/**
 * The options that can stand beside our own items as they are (notification
 * buttons): each reads, as `shown` renders it, differently from our items
 * and from every other option, and reads as something. `shown` is the
 * surface's own rendering (its cap: two labels alike in their first 32
 * characters are alike as buttons). The rest are answered where the option
 * is named in full (the request page).
 */
export function distinctOptions<T extends { label: string }>(options: readonly T[], ours: readonly string[], shown: (label: string) => string = (label) => label): T[] {
  const keyOf = (label: string) => readingKey(shown(label));
  const counts = new Map<string, number>();
  for (const option of options) counts.set(keyOf(option.label), (counts.get(keyOf(option.label)) ?? 0) + 1);
  const own = new Set(ours.map(keyOf));
  return options.filter((option) => {
    const key = keyOf(option.label);
    return key !== '' && !own.has(key) && counts.get(key) === 1;
  });
}
