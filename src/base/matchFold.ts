// The text the redaction rules match against: the same length as the text
// itself, character for character, so every offset found in it is an offset
// in the original, and what is replaced is always the original's text.
//
// Folded are the look-alikes a pasted or typed secret brings that the rules,
// written in ASCII, would otherwise miss, and that the spec's reference
// pipeline (Python, Unicode-aware) already treats as their ASCII selves:
// full-width forms (`ｐａｓｓｗｏｒｄ：…`, IME input), decimal digits of any
// script (`٥٥٥١٢٣٤٥٦٧` is a phone number to Python's `\d`; one outside the
// BMP, `𝟎𝟔 𝟏𝟐 …`, is two units and becomes its value twice, so a number
// written in them reads as one with each digit doubled), the letters
// Python's case-insensitive matching folds (`ſ` ~ s, `K` ~ k, `ı` `İ` ~ i),
// the separators Python calls space (U+001C–U+001F, U+0085) and every other
// space (no-break, thin, ideographic: a phone number's groups are split by
// them too) as a plain space, and U+FEFF, which JavaScript calls space and
// Python does not (a BOM inside a value must not end it).

const FULL_WIDTH_FIRST = 0xff01; // ！ … ～ are ! … ~ shifted
const FULL_WIDTH_LAST = 0xff5e;
const FULL_WIDTH_SHIFT = 0xfee0;

const LETTERS: Record<string, string> = { ſ: 's', K: 'K', ı: 'i', İ: 'I' };
const ND = /\p{Nd}/u;
const SPACE = /[^\S\ufeff]/;
const NEEDS_FOLD = /[^\x20-\x7e\t\n\r]/;

const digitValues = new Map<number, string>();

/** Unicode keeps each script's decimal digits 0–9 contiguous and in order: the value is the place in its run. */
function digitValue(code: number): string {
  let value = digitValues.get(code);
  if (value === undefined) {
    let steps = 0;
    while (steps < 9 && ND.test(String.fromCodePoint(code - steps - 1))) steps++;
    value = String(steps);
    digitValues.set(code, value);
  }
  return value;
}

function foldChar(ch: string): string {
  const code = ch.charCodeAt(0);
  if (code >= FULL_WIDTH_FIRST && code <= FULL_WIDTH_LAST) return String.fromCharCode(code - FULL_WIDTH_SHIFT);
  if ((code >= 0x1c && code <= 0x1f) || code === 0x85 || (code > 0x7f && SPACE.test(ch))) return ' ';
  if (code === 0xfeff) return '\u2060';
  const letter = LETTERS[ch];
  if (letter !== undefined) return letter;
  if (code > 0x7f && ND.test(ch)) return digitValue(code);
  return ch;
}

/** What each UTF-16 code unit met so far folds to: `foldChar` of it, worked out once. */
const foldedUnits: string[] = [];

/**
 * `text`, folded for matching; the same length, so offsets carry over. Runs of
 * characters that fold to themselves (nearly all, in most text) are copied whole.
 */
export function foldForMatching(text: string): string {
  if (!NEEDS_FOLD.test(text)) return text;
  let out = '';
  let copied = 0; // text before this offset is in `out`
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x20 && code <= 0x7e) continue; // printable ASCII is itself
    const point = text.codePointAt(i) ?? 0;
    const pair = point > 0xffff;
    // A pair is a digit, its value twice, or stays as it is.
    const folded = pair ? (ND.test(String.fromCodePoint(point)) ? digitValue(point).repeat(2) : undefined) : (foldedUnits[code] ??= foldChar(text[i] ?? ''));
    if (folded !== undefined && folded !== text[i]) {
      out += text.slice(copied, i) + folded;
      copied = i + (pair ? 2 : 1);
    }
    if (pair) i++;
  }
  return copied === 0 ? text : out + text.slice(copied);
}
