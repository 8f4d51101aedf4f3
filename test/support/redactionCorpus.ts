// A seeded generator of strings for the redaction differential test:
// secrets, PII and home paths in the shapes people paste and type, alone and
// mixed into prose, with the Unicode a pasted text brings (full-width and
// non-ASCII digits, some outside the BMP, no-break and ideographic spaces,
// letters Python folds).
//
// Phone numbers come as people write them across the world: national
// formats (FR, BE, CH, DE, ES, DK, NO, NL, IT, IN, BR, JP, AU, UK, US) and E.164 with
// any grouping, some with a link or label glued on (`tel:`, `wa.me/`).
//
// What it does not generate, on purpose: the number runs the pipeline keeps
// though the reference's phone rule takes them (the list and each reason are
// in redaction.ts, beside the phone rule; none is a phone number), `git@host:`
// SSH remotes (no person's address), `/home/<user>` inside a longer path or a
// URL (`/mnt/home/x`, `https://h/Users/list`): not someone's home. Those are
// the pipeline's deliberate choices, each with its own test in redaction.test.ts.
import type { ReferenceOptions } from './referenceRedaction';

/** mulberry32: small, seeded, the same sequence on every machine. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Phone numbers in national and international formats as people write them: `#` is any digit, other digits are the format's own (a trunk 0, a mobile prefix). */
export const PHONE_FORMATS: Readonly<Record<string, readonly string[]>> = {
  FR: ['06 ## ## ## ##', '06-##-##-##-##', '06.##.##.##.##', '01########', '+33 6 ## ## ## ##', '+33 (0)1 ## ## ## ##', '+33########', '0033.6.##.##.##.##', '33.6.##.##.##.##'],
  BE: ['0471 ## ## ##', '02 ### ## ##', '0471.##.##.##', '+32 471 ## ## ##', '+32 2 ### ## ##'],
  CH: ['079 ### ## ##', '044 ### ## ##', '+41 79 ### ## ##', '+41 (0)44 ### ## ##', '079.###.##.##'],
  DE: ['+49 30 #######', '030 #######', '030 ### ### ##', '0151 ########', '(030) #####-##', '+49 (0)151 ########', '0151-########'],
  ES: ['612 ### ###', '612 ## ## ##', '91 ### ## ##', '+34 612 ### ###', '+34 91 ### ## ##', '91.###.##.##', '612.##.##.##', '0034 91.###.##.##'],
  DK: ['## ## ## ##', '##.##.##.##', '+45 ## ## ## ##', '+45 ##.##.##.##', '0045 ##.##.##.##'],
  NO: ['## ## ## ##', '##.##.##.##', '4## ## ###', '+47 ## ## ## ##', '0047 ##.##.##.##'],
  NL: ['06 ########', '06-########', '020 ### ####', '+31 6 ########', '+31 (0)20 ### ####', '06-## ## ## ##'],
  IT: ['347 ### ####', '+39 347 ### ####', '02 #### ####', '06 #######', '0471 ######', '+39 06 #### ####'],
  IN: ['+91 98765 #####', '98765 #####', '098765 #####', '+91-98765-#####', '022 #### ####', '+91 22 #### ####'],
  BR: ['(11) 9####-####', '+55 11 9####-####', '11 9#### ####', '(21) ####-####', '+55 (21) ####-####'],
  JP: ['090-####-####', '03-####-####', '+81 90-####-####', '0120-###-###', '+81 3 #### ####'],
  AU: ['0412 ### ###', '+61 412 ### ###', '(02) #### ####', '02 #### ####', '+61 2 #### ####'],
  UK: ['07700 ######', '+44 7700 ######', '020 #### ####', '(020) #### ####'],
  US: ['(###) ###-####', '###-###-####', '+1 ###-###-####', '1-800-###-####', '1.800.###.####'],
};

export interface CorpusCase {
  text: string;
  options: ReferenceOptions;
}

const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = LOWER.toUpperCase();
const DIGITS = '0123456789';
const ALNUM = LOWER + UPPER + DIGITS;
const B64 = ALNUM + '+/';
const B64URL = ALNUM + '-_';

export function corpus(seed: number, size: number): CorpusCase[] {
  const rnd = prng(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rnd() * items.length)] as T;
  const chance = (p: number) => rnd() < p;
  const str = (alphabet: string | readonly string[], lo: number, hi = lo) => Array.from({ length: int(lo, hi) }, () => alphabet[Math.floor(rnd() * alphabet.length)]).join('');

  const words = ['the', 'deploy', 'is', 'ready', 'use', 'this', 'for', 'staging', 'ok', 'then', 'run', 'call', 'me', 'at', 'see', 'logs', 'in', 'and', 'done', 'café', 'naïve', 'über', '東京', 'проверка'];
  const prose = () => Array.from({ length: int(1, 4) }, () => pick(words)).join(' ');
  const spaces = [' ', ' ', ' ', '  ', '\t', '\n', '\u00a0', '\u3000', '\u2009'];
  const space = () => pick(spaces);

  // ---- secrets
  const pem = () => {
    const label = pick(['RSA PRIVATE KEY', 'OPENSSH PRIVATE KEY', 'EC PRIVATE KEY', 'PRIVATE KEY', 'CERTIFICATE', 'PUBLIC KEY']);
    const body = Array.from({ length: int(1, 3) }, () => str(B64, 8, 40)).join('\n');
    return `-----BEGIN ${label}-----\n${body}\n-----END ${label}-----`;
  };
  const akia = () => 'AKIA' + str(UPPER + DIGITS, 16);
  const bearer = () => `${pick(['Bearer', 'bearer', 'BEARER', 'BeArEr'])}${pick([' ', '  ', '\t', '\u00a0'])}${str(ALNUM + '-._~+/', 8, 40)}${'='.repeat(int(0, 2))}`;
  const jwt = () => `eyJ${str(B64URL, 4, 30)}.${str(B64URL, 4, 40)}.${str(B64URL, 4, 40)}`;
  const vendor = () =>
    pick([
      () => `${pick(['ghp', 'gho', 'ghu', 'ghs', 'ghr'])}_${str(ALNUM, 20, 40)}`,
      () => `github_pat_${str(ALNUM + '_', 20, 60)}`,
      () => `glpat-${str(ALNUM + '_-', 20, 30)}`,
      () => `xox${pick([...'baprs'])}-${str(ALNUM + '-', 10, 40)}`,
      () => `sk-${str(ALNUM + '_-', 20, 48)}`,
      () => `AIza${str(ALNUM + '_-', 35)}`,
    ])();
  const credentialKeys = [
    'password', 'passwd', 'secret', 'api_key', 'api-key', 'apikey', 'token', 'authorization',
    'Password', 'PASSWORD', 'Token', 'API_KEY', 'Secret', 'AUTHORIZATION', 'x.token', 'my-secret',
    'paſſword', 'ſecret', 'toKen', 'apı_key', 'AUTHORİZATION',
  ];
  const secretValue = () =>
    pick([
      () => str(ALNUM, 1, 24),
      () => str(ALNUM + '!@#$%^&*-_.', 4, 24),
      () => `[REDACTED:${str(LOWER, 1, 6)}]${str(ALNUM, 0, 12)}`,
      () => `[REDACTED:secret]${str(ALNUM, 1, 12)}`,
      () => `${str(LOWER, 3, 8)}@${str(LOWER, 3, 8)}.com`,
      () => `${str(ALNUM, 3, 8)}é${str(ALNUM, 0, 8)}`,
      () => `<${str(LOWER, 3, 8)}>`,
      () => `${str(ALNUM, 4, 10)},${str(LOWER, 3, 8)}`,
      () => `${str(ALNUM, 3, 8)}\ufeff${str(ALNUM, 3, 8)}`,
    ])();
  const assignment = () => {
    const key = pick(credentialKeys);
    const keyQuote = chance(0.3) ? pick(['"', "'"]) : '';
    const open = keyQuote ? `${keyQuote}${key}${keyQuote}` : key;
    const ws = () => (chance(0.6) ? '' : pick([' ', '  ', '\t', '\n', '\u00a0', '\x1c']));
    const sep = pick(['=', ':', '=', ':']);
    const valueQuote = chance(0.3) ? pick(['"', "'"]) : '';
    const value = secretValue();
    const after = valueQuote ? valueQuote + pick(['', ',', '}', ', "region": "eu"', ',"user":"bob"}']) : '';
    return `${open}${ws()}${sep}${ws()}${valueQuote}${value}${after}`;
  };
  const secret = () => pick([pem, akia, bearer, jwt, vendor, vendor, assignment, assignment, assignment])();

  // ---- PII
  const email = () => `${str(LOWER + DIGITS, 1, 12)}${pick(['', '.', '_', '+', '-'])}${str(LOWER, 1, 8)}@${Array.from({ length: int(1, 3) }, () => str(LOWER + DIGITS, 1, 10)).join('.')}.${pick(['com', 'org', 'co.uk', 'io', 'dev', 'museum'])}`;
  // By character, not UTF-16 unit: mathematical digits are outside the BMP.
  const digitSets = [DIGITS, DIGITS, DIGITS, '٠١٢٣٤٥٦٧٨٩', '０１２３４５６７８９', '०१२३४५६७८९', '𝟎𝟏𝟐𝟑𝟒𝟓𝟔𝟕𝟖𝟗'].map((set) => [...set]);
  const groupSeparators = [' ', ' ', '-', '.', '\u00a0', '\u2009', '\t'];
  const phone = () => {
    const set = pick(digitSets);
    const d = (n: number) => str(set, n);
    const national = () =>
      pick(PHONE_FORMATS[pick(Object.keys(PHONE_FORMATS))] ?? []).replace(/[#\d]/g, (ch) => (ch === '#' ? d(1) : (set[Number(ch)] ?? ch)));
    // E.164: a country code and up to fourteen digits in all, grouped any way, one separator or several.
    const e164 = () => {
      let out = `+${d(int(1, 3))}`;
      const sep = pick(groupSeparators);
      for (let left = int(7, 12); left > 0; ) {
        const group = Math.min(left, int(1, 5));
        out += (chance(0.8) ? sep : pick(groupSeparators)) + d(group);
        left -= group;
      }
      return out;
    };
    const shape = pick([
      () => d(int(8, 15)),
      () => `0${d(10)}`,
      () => `${d(3)}.${d(3)}.${d(4)}`,
      () => `${d(2)}.${d(2)}.${d(2)}.${d(2)}.${d(2)}`,
      () => `+${d(int(1, 3))}.${d(3)}.${d(3)}.${d(4)}`,
      () => `${d(3)}-${d(3)}-${d(4)}`,
      () => `(${d(3)}) ${d(3)}-${d(4)}`,
      () => `+${d(1)} (${d(3)}) ${d(3)}-${d(4)}`,
      () => `+${d(2)} ${d(4)} ${d(6)}`,
      () => `${d(3)} ${d(3)} ${d(4)}`,
      () => `${d(3)}${pick(['\u00a0', '\u2009'])}${d(3)}${pick(['\u00a0', '\u2009'])}${d(4)}`,
      () => `+${d(int(8, 14))}`,
      () => `${d(5)} ${d(6)}`,
      national,
      national,
      national,
      e164,
    ]);
    return shape();
  };
  // A link or a label glued to the number, as in `tel:+33…`, `wa.me/33…`, `Tel.:06…`.
  const phoneLabel = () => pick(['', '', '', 'tel:', 'Tel.', 'Tel.:', 'phone:', 'wa.me/', '#']);
  const pii = () => (chance(0.4) ? email() : phoneLabel() + phone());

  // ---- home paths
  const user = () => str(LOWER, 1, 1) + str(LOWER + DIGITS + '._-', 0, 10).replace(/\.+$/, '');
  const rest = () => (chance(0.7) ? Array.from({ length: int(1, 3) }, () => str(LOWER + DIGITS + '.-_', 0, 9) + str(LOWER, 1)).join('/') : '');
  const path = () =>
    pick([
      () => `/home/${user()}${chance(0.7) ? '/' + rest() : ''}`,
      () => `/Users/${user()}${chance(0.7) ? '/' + rest() : ''}`,
      () => `C:\\Users\\${user()}${chance(0.7) ? '\\' + rest().replace(/\//g, '\\') : ''}`,
    ])();

  const part = () => pick([secret, secret, pii, path])();
  const glue = () => pick([space(), space(), ', ', ' and ', ': ', ' (', ') ', '; ', '"', ' = ', '\n\n']);

  const cases: CorpusCase[] = [];
  for (let n = 0; n < size; n++) {
    const parts: string[] = [];
    if (chance(0.6)) parts.push(prose());
    const count = int(1, 3);
    for (let i = 0; i < count; i++) parts.push(part());
    if (chance(0.5)) parts.push(prose());
    const text = parts.map((p, i) => (i === 0 ? p : glue() + p)).join('');
    const options: ReferenceOptions = { home: '/nonexistent-home' };
    // Rule (b): a value the operator lists, taken from the text itself now and then.
    if (chance(0.2)) {
      // Not one that may overlap a marker (`[REDACTED`, `secret]x`, `secret`): inside a marker a listed value is left, so a second run changes nothing.
      const words = text.split(/[\s,;:()"=]+/).filter((w) => w.length > 0 && !/[[\]]/.test(w) && !'[REDACTED:secret] [REDACTED:pii]'.includes(w));
      // A text of markers only (`secret=[REDACTED:x]y`) has no word to take.
      options.secretValues = words.length > 0 ? [pick(words), str(ALNUM, 1, 3)] : [str(ALNUM, 1, 3)];
    }
    if (chance(0.1)) options.pii = false;
    cases.push({ text, options });
  }
  return cases;
}
