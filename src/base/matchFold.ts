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

/** What each UTF-16 code unit met so far folds to: `foldChar` of it, looked up once (65 536 at most). */
const foldedUnits = new Map<number, string>();

function foldUnit(code: number): string {
  let folded = foldedUnits.get(code);
  if (folded === undefined) {
    folded = foldChar(String.fromCharCode(code));
    foldedUnits.set(code, folded);
  }
  return folded;
}

/** Whether a code point outside the BMP is a decimal digit, remembered for the first few thousand met. */
const astralDigits = new Map<number, boolean>();
const ASTRAL_DIGITS_REMEMBERED = 4_096;

function isAstralDigit(code: number): boolean {
  let digit = astralDigits.get(code);
  if (digit === undefined) {
    digit = ND.test(String.fromCodePoint(code));
    if (astralDigits.size < ASTRAL_DIGITS_REMEMBERED) astralDigits.set(code, digit);
  }
  return digit;
}

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
    if (code >= 0xd800 && code <= 0xdbff) {
      const point = text.codePointAt(i) ?? 0;
      if (point > 0xffff) {
        // A pair: a digit becomes its value twice, anything else stays as it is.
        if (isAstralDigit(point)) {
          out += text.slice(copied, i) + digitValue(point).repeat(2);
          copied = i + 2;
        }
        i++;
        continue;
      }
    }
    const folded = foldUnit(code);
    if (folded.charCodeAt(0) !== code) {
      out += text.slice(copied, i) + folded;
      copied = i + 1;
    }
  }
  return copied === 0 ? text : out + text.slice(copied);
}
