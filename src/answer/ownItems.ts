// Whether an agent's label reads like one of our own items ("Reply with
// text…", "Open as page", "Answer", "Answer 3 Similar…": the registry in
// src/shared/ownActionWords.ts), or like another of its labels. One rule for
// every surface that lists agent options beside our actions (notification
// buttons, the inline quick input, Answer Similar, the request page): an
// agent that labels an option like our own item could make a person pick
// the agent's option while meaning ours. Our items' words are l10n strings;
// the registry words them, and a surface may pass its own too.
import { foldNearLooking, foldSameLooking } from '../base/lookAlikes';
import { foldForMatching } from '../base/matchFold';
import { ANY_COUNT, ownActionWords } from '../shared/ownActionWords';

/**
 * Characters that show nothing or nothing distinct: controls, format
 * characters (zero-width, bidi, BOM, tags), and every default-ignorable code
 * point (variation selectors, the combining grapheme joiner, the Hangul
 * fillers some fonts draw as a blank and others not at all), plus blanks
 * that are letters or symbols to Unicode and draw nothing: the braille
 * blank, the Khitan filler, the musical null notehead. ZWJ/ZWNJ are format
 * characters too; for comparing they say nothing a reader sees. A label
 * made of these alone reads as nothing.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\u2800\u{16FE4}\u{1D159}]/gu;
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
 * look-alikes the redaction rules fold (matchFold.ts), letters of other
 * scripts drawn exactly like Latin ones (lookAlikes.ts: Cyrillic "Yеs" is
 * "Yes"), invisible characters removed, whitespace collapsed and trimmed,
 * trailing dots and ellipses dropped, case folded. Two labels with one key
 * are the same words to a reader.
 */
export function readingKey(label: string): string {
  // Whitespace first: tabs and line breaks are controls too, and must stay word breaks.
  let text = foldSameLooking(foldForMatching(label.normalize('NFKC'))).replace(/\s/gu, ' ').replace(INVISIBLE, '');
  for (const [pattern, replacement] of LOOK_ALIKE) text = text.replace(pattern, replacement);
  return text.replace(/\s+/gu, ' ').trim().replace(TRAILING_DOTS, '').toLocaleLowerCase().normalize('NFKC');
}

/**
 * The key folded further, so labels a reader could take for each other are
 * one (I and l, 0 and O, rn and m, Greek ν and v). Only for asking whether a
 * label could pass for another: there, folding more is the safe side.
 */
export function lookAlikeKey(label: string): string {
  return foldNearLooking(readingKey(label));
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Whether a label reads like any of `ours`, as a test of the label. An own
 * word with a number (`ANY_COUNT`) reads like ours with any text in its
 * place: "Answer 2 Similar…", "Answer 99 similar...", "Answer ２ Similar".
 */
function ownMatcher(ours: readonly string[]): (label: string) => boolean {
  const exact = new Set<string>();
  const patterns: RegExp[] = [];
  for (const own of ours) {
    if (!own.includes(ANY_COUNT)) {
      exact.add(lookAlikeKey(own));
      continue;
    }
    const parts = own.split(ANY_COUNT).map((part) => lookAlikeKey(part));
    patterns.push(new RegExp(`^${parts.map(escape).join('.*')}$`, 'u'));
  }
  return (label) => {
    const key = lookAlikeKey(label);
    return key !== '' && (exact.has(key) || patterns.some((pattern) => pattern.test(key)));
  };
}

/** Whether `label` reads like one of `ours` (our own item words, as shown): by default every word of the registry. */
export function readsLikeOurs(label: string, ours: readonly string[] = ownActionWords()): boolean {
  return ownMatcher(ours)(label);
}

/**
 * Whether an agent's option could pass for one of our own items, so that
 * sending it takes a second step (the quick input's "Send the agent's
 * option", the page's confirmation) and its name says whose it is. `words`
 * is its label as the surface names it; undefined when the label is
 * withheld at capture and the surface names it by place and id, in our
 * words. The one question every surface asks; a notification shows no such
 * option at all (distinctOptions).
 */
export function optionPassesForOurs(words: string | undefined): boolean {
  return words !== undefined && readsLikeOurs(words);
}

/**
 * The options that can stand beside our own items as they are (notification
 * buttons): each reads, as `shown` renders it, differently from our items
 * (every word of the registry, and `ours`) and from every other option, and
 * reads as something. `shown` is the surface's own rendering (its cap: two
 * labels alike in their first 32 characters are alike as buttons). The rest
 * are answered where the option is named in full (the request page).
 */
export function distinctOptions<T extends { label: string }>(options: readonly T[], ours: readonly string[] = [], shown: (label: string) => string = (label) => label): T[] {
  const keyOf = (label: string) => lookAlikeKey(shown(label));
  const counts = new Map<string, number>();
  for (const option of options) counts.set(keyOf(option.label), (counts.get(keyOf(option.label)) ?? 0) + 1);
  const own = ownMatcher([...ownActionWords(), ...ours]);
  return options.filter((option) => {
    const key = keyOf(option.label);
    return key !== '' && !own(shown(option.label)) && !own(option.label) && counts.get(key) === 1;
  });
}
