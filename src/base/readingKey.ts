// The text as a reader reads it, for comparing words: what is drawn alike is
// one, what shows nothing is gone. Labels compare by it (Answer Similar, our
// own items), and the words that name a secret are looked for in it.
import { foldSameLooking } from './lookAlikes';
import { foldForMatching } from './matchFold';

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
