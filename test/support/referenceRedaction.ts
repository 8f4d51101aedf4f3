// The spec's reference redaction (upstream conformance/run.py, `redact_text`
// and `redact_value`, AEP-0003 §9.4), ported to JavaScript regular
// expressions with Python's semantics kept: `\b`, `\w`, `\d` and `\s` are
// Python's Unicode classes (JavaScript's are ASCII, and its `\s` differs),
// `re.IGNORECASE` is spelled out letter by letter with the four non-ASCII
// letters Python also folds (`ı` `İ` ~ i, `ſ` ~ s, `K` ~ k), `$` also matches
// before a final newline. The port tracks, for every character of the
// output, which input character it came from, so a test can ask which input
// characters the reference removed, not only what its output says.

const W = String.raw`[\p{L}\p{N}_]`; // Python's \w on str
const SPACE_CHARS = String.raw`\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000`;
const S = `[${SPACE_CHARS}]`; // Python's \s on str (str.isspace)
const NS = `[^${SPACE_CHARS}]`;
const D = String.raw`\p{Nd}`; // Python's \d on str
const B = `(?:(?<=${W})(?!${W})|(?<!${W})(?=${W}))`; // Python's \b

/** A literal word under re.IGNORECASE, as Python folds it. */
function ci(word: string): string {
  const extra: Record<string, string> = { i: 'ıİ', s: 'ſ', k: 'K' };
  return [...word]
    .map((ch) => {
      const lower = ch.toLowerCase();
      if (!/[a-z]/.test(lower)) return ch;
      return `[${lower}${lower.toUpperCase()}${extra[lower] ?? ''}]`;
    })
    .join('');
}
/** [A-Za-z] under re.IGNORECASE also holds these four. */
const AZ_I = 'A-Za-zıİſK';

interface Rule {
  re: RegExp;
  /** For the rules whose match opens with a keyword (`Bearer `, `password=`): the secret is this group, the keyword is its label. */
  valueGroup?: number;
}
const rule = (source: string, valueGroup?: number): Rule => ({ re: new RegExp(source, 'gu'), ...(valueGroup === undefined ? {} : { valueGroup }) });

export const SECRET_RES: readonly Rule[] = [
  rule(String.raw`-----BEGIN [A-Z ]+-----[\s\S]*?-----END [A-Z ]+-----`),
  rule(String.raw`AKIA[0-9A-Z]{16}`),
  rule(`${B}${ci('bearer')}${S}+([${AZ_I}0-9\\-._~+/]{8,}=*)`, 1),
  rule(`${B}(?:${ci('password')}|${ci('passwd')}|${ci('secret')}|${ci('api')}[_-]?${ci('key')}|${ci('token')}|${ci('authorization')})${B}["']?${S}*[=:]${S}*["']?(${NS}+)`, 1),
  rule(String.raw`${B}eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+${B}`),
  rule(String.raw`${B}(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}${B}`),
  rule(String.raw`${B}github_pat_[A-Za-z0-9_]{20,}${B}`),
  rule(String.raw`${B}glpat-[A-Za-z0-9_-]{20,}${B}`),
  rule(String.raw`${B}xox[baprs]-[A-Za-z0-9-]{10,}${B}`),
  rule(String.raw`${B}sk-[A-Za-z0-9_-]{20,}${B}`),
  rule(String.raw`${B}AIza[A-Za-z0-9_-]{35}${B}`),
];
export const PII_RES: readonly Rule[] = [
  rule(String.raw`${B}[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}${B}`),
  // (?<![\d\w]) and (?![\d\w]): Python's \d is part of its \w.
  rule(`(?<!${W})\\+?${D}[${D}${SPACE_CHARS}().-]{6,}${D}(?!${W})`),
];
/**
 * The phone pattern with its separators kept to one line: the reference's
 * `\s` lets a phone run on across line breaks, so a path that ends in a digit
 * on the line before a phone number (`C:\Users\x\4` ⏎ `555…`) loses its
 * last component with it. A phone number is written on one line; the
 * differential test compares with this one (`phonesWithinLines`).
 */
const LINE_SPACES = String.raw`\t \x1f\xa0\u1680\u2000-\u200a\u202f\u205f\u3000`;
const PHONE_ON_ONE_LINE = rule(`(?<!${W})\\+?${D}[${D}${LINE_SPACES}().-]{6,}${D}(?!${W})`);
export const HOME_RES: readonly Rule[] = [rule(String.raw`(?:/home|/Users)/[^/${SPACE_CHARS}"']+`), rule(String.raw`[A-Za-z]:\\Users\\[^\\${SPACE_CHARS}"']+`)];
const SECRET_KEY_RE = new RegExp(
  `^(?:${['password', 'passwd', 'secret'].map(ci).join('|')}|${ci('api')}[_-]?${ci('key')}|${ci('token')}|${ci('authorization')}|${ci('credential')}${ci('s')}?|${ci('private')}[_-]?${ci('key')}|${ci('access')}[_-]?${ci('key')})(?=\\n?$)`,
  'u',
);

export interface ReferenceOptions {
  home?: string;
  secretValues?: readonly string[];
  pii?: boolean;
  /** Phones do not run on across line breaks (see PHONE_ON_ONE_LINE); off, the reference exactly. */
  phonesWithinLines?: boolean;
}

export const SECRET_MARK = '[REDACTED:secret]';

/** Text whose every character knows the input offset it came from (-1: written by a replacement). */
class Tracked {
  constructor(
    public text: string,
    public origin: number[],
  ) {}
  static of(text: string): Tracked {
    return new Tracked(text, [...Array(text.length).keys()]);
  }
  /** `re.sub`: replaces every match; records the input characters each one removed (its value group only, for keyword rules). */
  sub(r: Rule, replacement: string, removed: Set<number>): void {
    let text = '';
    const origin: number[] = [];
    let cursor = 0;
    r.re.lastIndex = 0;
    for (let m = r.re.exec(this.text); m; m = r.re.exec(this.text)) {
      const start = m.index;
      const end = start + m[0].length;
      let secretStart = start;
      if (r.valueGroup !== undefined) secretStart = end - (m[r.valueGroup] ?? '').length;
      for (let i = secretStart; i < end; i++) if ((this.origin[i] ?? -1) >= 0) removed.add(this.origin[i] ?? -1);
      text += this.text.slice(cursor, start) + replacement;
      origin.push(...this.origin.slice(cursor, start), ...Array<number>(replacement.length).fill(-1));
      cursor = end;
      if (m[0].length === 0) r.re.lastIndex++;
    }
    text += this.text.slice(cursor);
    origin.push(...this.origin.slice(cursor));
    this.text = text;
    this.origin = origin;
  }
  /** `str.replace(value, replacement)`: every occurrence, left to right. */
  replaceAll(value: string, replacement: string, removed: Set<number>): void {
    const escaped = value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    this.sub({ re: new RegExp(escaped, 'gu') }, replacement, removed);
  }
}

export interface ReferenceResult {
  text: string;
  /** Input offsets the reference replaced (for keyword rules, the value only). */
  removed: Set<number>;
}

/** `redact_text(text, opts)`, with what it removed. */
export function referenceRedactText(input: string, opts: ReferenceOptions = {}): ReferenceResult {
  const removed = new Set<number>();
  if (input === '') return { text: input, removed };
  const t = Tracked.of(input);
  for (const r of SECRET_RES) t.sub(r, SECRET_MARK, removed);
  for (const v of opts.secretValues ?? []) if (v && [...v].length >= 4) t.replaceAll(v, SECRET_MARK, removed);
  if (opts.home && opts.home !== '/') t.replaceAll(opts.home, '~', removed);
  for (const r of HOME_RES) t.sub(r, '~', removed);
  const pii = opts.phonesWithinLines ? [PII_RES[0] as Rule, PHONE_ON_ONE_LINE] : PII_RES;
  if (opts.pii !== false) for (const r of pii) t.sub(r, '[REDACTED:pii]', removed);
  return { text: t.text, removed };
}

/** `redact_value(v, opts)`: strings through `redact_text`; under a credential-named key, any non-null value replaced whole. */
export function referenceRedactValue(value: unknown, opts: ReferenceOptions = {}): unknown {
  if (typeof value === 'string') return referenceRedactText(value, opts).text;
  if (Array.isArray(value)) return value.map((item) => referenceRedactValue(item, opts));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, x]) => [k, SECRET_KEY_RE.test(k) && x !== null ? SECRET_MARK : referenceRedactValue(x, opts)]));
  }
  return value;
}

/** Whether the reference drops the value under this key whole. */
export function referenceDropsKey(key: string): boolean {
  return SECRET_KEY_RE.test(key);
}
