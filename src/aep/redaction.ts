// The AEP-0003 §9.4 redaction pipeline, the minimum in its order: (a)
// secrets and credentials → `[REDACTED:secret]`, (b) values configured as
// secret → `[REDACTED:secret]`, (c) home paths → `~`, (d) PII (emails, phone
// numbers) → `[REDACTED:pii]`, on unless switched off. `capture: "redacted"`
// on anything we send is a claim that its free text passed through here
// (AEP-0001 §8.2, AEP-0002 §5.1 rule 2).
//
// Plain TypeScript, no `vscode`, no `node:`: the request page runs the same
// pipeline to show the person what would be replaced before anything is sent.
//
// Each rule sees only text no earlier rule replaced (a password that is also
// an email address is a secret, not PII), and a replacement is never matched
// again, so the pipeline is idempotent: over its own output it changes
// nothing. Every pattern runs in linear time (see secretRules.ts).
import { foldForMatching } from '../base/matchFold';
import { assignmentEndingAt, isCredentialKey, isOwnMark, PII_MARK, SECRET_MARK, SECRET_RULES, type CredentialKind } from './secretRules';

export { PII_MARK, SECRET_MARK } from './secretRules';
export const HOME_MARK = '~';

export type RedactionRule = 'secret' | 'configured' | 'home' | 'pii';

export interface RedactionOptions {
  /** Rule (c): the user's home directory. `/home/<user>`, `/Users/<user>` and `C:\Users\<user>` are replaced whatever it is. */
  home?: string | undefined;
  /**
   * Rule (b): values the operator lists as secret (environment variables,
   * config keys). This extension has no such setting today, so it passes
   * none; the option is honoured for the conformance corpus and for when it does.
   */
  secretValues?: readonly string[] | undefined;
  /** Rule (d), emails and phone numbers: on unless `false` (§9.4 "ON by default, operator-disableable"). */
  pii?: boolean | undefined;
}

/** One replacement: `original` (input offsets `[start, end)`) became `replacement`. */
export interface Replacement {
  rule: RedactionRule;
  start: number;
  end: number;
  original: string;
  replacement: string;
  /** Secrets only: which kind of credential. */
  kind?: CredentialKind;
  /** Secrets only: it looks like a real one, not a placeholder (the credential detector names only these). */
  confident?: boolean;
}

export interface Redaction {
  text: string;
  /** In input order; empty when the text passed unchanged. */
  replacements: Replacement[];
}

interface Span {
  start: number;
  end: number;
  kind?: CredentialKind;
  confident?: boolean;
  runsOn?: boolean;
}
type Finder = (text: string) => Span[];
interface Stage {
  rule: RedactionRule;
  replacement: string;
  find: Finder;
  /** Match against the folded text (matchFold.ts); values the operator or the user gave are matched as given. */
  fold: boolean;
}

/** Text still open to the rules, or a replacement already made. */
type Piece = { at: number; text: string } | { at: number; done: Replacement; runsOn?: boolean };

function runStage(pieces: readonly Piece[], stage: Stage): Piece[] {
  const out: Piece[] = [];
  for (const piece of pieces) {
    if ('done' in piece || piece.text === '') {
      out.push(piece);
      continue;
    }
    const spans = stage.find(stage.fold ? foldForMatching(piece.text) : piece.text);
    let cursor = 0;
    for (const span of spans) {
      if (span.start < cursor || span.end <= span.start) continue;
      const original = piece.text.slice(span.start, span.end);
      if (original === stage.replacement) continue;
      if (span.start > cursor) out.push({ at: piece.at + cursor, text: piece.text.slice(cursor, span.start) });
      const done: Replacement = { rule: stage.rule, start: piece.at + span.start, end: piece.at + span.end, original, replacement: stage.replacement };
      if (span.kind !== undefined) done.kind = span.kind;
      if (span.confident !== undefined) done.confident = span.confident;
      out.push(span.runsOn ? { at: piece.at + span.start, done, runsOn: true } : { at: piece.at + span.start, done });
      cursor = span.end;
    }
    if (cursor === 0) out.push(piece);
    else if (cursor < piece.text.length) out.push({ at: piece.at + cursor, text: piece.text.slice(cursor) });
  }
  return out;
}

// ---- (a) values cut short by another rule's replacement -----------------------

const LEADING_RUN = /^\S+/;
const BEARER_WORD = /(?<![A-Za-z0-9])bearer$/i;
const CONTENT = /[\p{L}\p{N}]/u;

/**
 * The floor's assignment is `name=\S+`: the value runs to the next space. A
 * rule before the assignment rule may have replaced part of it (the JWT in
 * `API_KEY=x"eyJ…"tail`), cutting the text in pieces the assignment rule sees
 * one by one; the text glued to such a replacement, up to the next space, is
 * still the value, and goes too (where it holds letters or digits: a closing
 * quote and comma are syntax).
 */
function runOnValues(pieces: readonly Piece[]): Piece[] {
  const out: Piece[] = [];
  // The kind of the value the pieces so far belong to, while it is still open.
  let open: CredentialKind | undefined;
  for (const piece of pieces) {
    if ('done' in piece) {
      if (open === undefined && piece.runsOn) open = piece.done.kind;
      out.push(piece);
      continue;
    }
    let text = piece.text;
    let at = piece.at;
    // `token: Bearer abc…`: the value `Bearer`, a space, the token the Bearer rule replaced: one value still.
    const last = out[out.length - 1];
    if (open !== undefined && /^\s+$/.test(text) && last && 'done' in last && BEARER_WORD.test(last.done.original)) {
      out.push(piece);
      continue;
    }
    if (open !== undefined) {
      const run = LEADING_RUN.exec(foldForMatching(text))?.[0] ?? '';
      if (run !== '' && CONTENT.test(run)) {
        out.push({ at, done: { rule: 'secret', start: at, end: at + run.length, original: text.slice(0, run.length), replacement: SECRET_MARK, kind: open, confident: false } });
        at += run.length;
        text = text.slice(run.length);
      } else if (run === text) {
        // Only syntax (`","`) between two replacements: the value goes on.
        out.push(piece);
        continue;
      }
    }
    // Still open only when the whole piece was value, glued to what follows.
    open = text === '' ? open : assignmentEndingAt(foldForMatching(text));
    if (text !== '') out.push({ at, text });
  }
  return out;
}

// ---- (b) configured values ------------------------------------------------------

function configuredFinder(values: readonly string[]): Finder | undefined {
  // Shorter values would replace ordinary words; the longest wins where two overlap.
  const usable = [...new Set(values)].filter((v) => [...v].length >= 4 && !isOwnMark(v)).sort((a, b) => b.length - a.length);
  if (usable.length === 0) return undefined;
  return (text) => {
    // A value inside a marker a first run wrote (`secret` in `[REDACTED:secret]`) is left there: the pipeline stays idempotent.
    const marks = ownMarksIn(text);
    const found: Span[] = [];
    for (const value of usable) {
      for (let at = text.indexOf(value); at !== -1; at = text.indexOf(value, at + value.length)) {
        const end = at + value.length;
        if (!marks.some((m) => at < m.end && end > m.start)) found.push({ start: at, end, kind: 'configured secret', confident: true });
      }
    }
    found.sort((a, b) => a.start - b.start || b.end - a.end);
    const kept: Span[] = [];
    for (const span of found) if (kept.length === 0 || span.start >= (kept[kept.length - 1]?.end ?? 0)) kept.push(span);
    return kept;
  };
}

function ownMarksIn(text: string): Array<{ start: number; end: number }> {
  const marks: Array<{ start: number; end: number }> = [];
  for (const mark of [SECRET_MARK, PII_MARK]) {
    for (let at = text.indexOf(mark); at !== -1; at = text.indexOf(mark, at + mark.length)) marks.push({ start: at, end: at + mark.length });
  }
  return marks;
}

// ---- (c) home paths ---------------------------------------------------------------

const PATH_CHAR = /[A-Za-z0-9._-]/;

/** The given home, where it is a whole path component: `/home/op` in `/home/op/x`, not in `/home/operator` or `/mnt/home/op`. */
function ownHomeFinder(home: string | undefined): Finder | undefined {
  const trimmed = (home ?? '').replace(/[\\/]+$/, '');
  if (trimmed.length < 2 || /^[A-Za-z]:$/.test(trimmed) || trimmed === '~') return undefined;
  return (text) => {
    const spans: Span[] = [];
    for (let at = text.indexOf(trimmed); at !== -1; at = text.indexOf(trimmed, at + 1)) {
      const before = text[at - 1];
      const after = text[at + trimmed.length];
      if ((before !== undefined && PATH_CHAR.test(before)) || (after !== undefined && PATH_CHAR.test(after))) continue;
      spans.push({ start: at, end: at + trimmed.length });
      at += trimmed.length - 1;
    }
    return spans;
  };
}

// Anyone's home, on Linux, macOS and Windows (doubled backslashes as in JSON text too).
const UNIX_HOME = /(?<![A-Za-z0-9._~-])\/(?:home|Users)\/(?!\.\.?(?:[/\\\s]|$))[^/\\\s"'`<>|:;,()[\]{}*?]+/g;
const WINDOWS_HOME = /(?<![A-Za-z0-9])[A-Za-z]:(?:\\{1,2}|\/)Users(?:\\{1,2}|\/)[^/\\\s"'`<>|:;,()[\]{}*?]+/gi;

const pathFinder = (re: RegExp): Finder => (text) => {
  const spans: Span[] = [];
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    // A sentence's full stop after the user name is not part of it.
    const end = m.index + m[0].replace(/\.+$/, '').length;
    if (end > m.index) spans.push({ start: m.index, end });
  }
  return spans;
};

// ---- (d) PII ------------------------------------------------------------------------

const EMAIL = /(?<![A-Za-z0-9._%+-])([A-Za-z0-9._%+-]{1,64})@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,8}\.[A-Za-z]{2,24}(?![A-Za-z0-9-])/g;

const findEmails: Finder = (text) => {
  const spans: Span[] = [];
  EMAIL.lastIndex = 0;
  for (let m = EMAIL.exec(text); m; m = EMAIL.exec(text)) {
    const end = m.index + m[0].length;
    // `git@github.com:org/repo.git` is an SSH remote, not a person.
    if (m[1] === 'git' && text[end] === ':') continue;
    spans.push({ start: m.index, end });
  }
  return spans;
};

// A run of digits and phone punctuation, then checked by shape so versions
// (22.11.0), IP addresses, dates, decimals and short numbers are not phones.
// The spec's reference takes any run of eight or more digits and separators;
// we keep those that are plainly not phones readable, and never less than a
// phone: eight digits or more in a row (`5551234567`, `07700900123`) are one,
// so are dotted groups (`138.656.7769`, `06.12.34.56.78`).
// A run is taken whole (it cannot restart inside itself: the lookbehind), then cut (phonesIn).
const PHONE = /(?<![A-Za-z0-9_+./:-])(?:\+ ?)?\(?\d[\d ().-]{5,}\d(?![A-Za-z0-9_])/g;

const isDigit = (code: number) => code >= 48 && code <= 57;
/** The longest phone, in characters, and in space-separated chunks (isPhone allows six groups). */
const MAX_PHONE = 40;
const MAX_CHUNKS = 6;

function isPhone(candidate: string): boolean {
  if (candidate.length > MAX_PHONE && /[^\d+]/.test(candidate)) return false;
  const groups = candidate.split(/\D+/).filter((g) => g !== '');
  const digits = groups.join('').length;
  const separators = candidate.replace(/[\d+]/g, '');
  const plus = candidate.startsWith('+');
  if (separators === '') return digits >= 8 || (plus && digits >= 7);
  // Up to 19 digits: a card number (16–19) is personal data too.
  if (digits < 7 || digits > 19 || groups.length > 6 || /\s{2,}/.test(candidate)) return false;
  // One bracket pair at most; an unclosed one is a typo, not a reason to keep the number.
  if (candidate.split('(').length > 2 || candidate.split(')').length > 2) return false;
  const [first = '', second = '', third = ''] = groups;
  const last = groups[groups.length - 1] ?? '';
  if (plus) return true;
  const isYear = (g: string) => g.length === 4 && /^(?:19|20)/.test(g);
  if (groups.length === 3 && ((isYear(first) && second.length <= 2 && third.length <= 2) || (isYear(third) && first.length <= 2 && second.length <= 2))) return false;
  if (/^\.+$/.test(separators)) {
    // 138.656.7769, 06.12.34.56.78; not 192.168.100.200, nor a version's 10.0.19041.1.
    const ipv4 = groups.length === 4 && groups.every((g) => g.length <= 3 && Number(g) <= 255);
    return digits >= 8 && !ipv4 && groups.every((g) => g.length >= 2);
  }
  if (last.length < 3) return false;
  // 10 000 000: thousands, not a phone.
  if (/^ +$/.test(separators) && first.length <= 3 && groups.slice(1).every((g) => g.length === 3)) return false;
  return true;
}


/** Chunks `i..j` of a run, trimmed to start at a digit, `+` or `(` and end at a digit; an unclosed `(` goes too. */
function trimmedPhone(candidate: string, from: number, to: number): Span | undefined {
  let start = from;
  let end = to;
  while (start < end && !/[\d+(]/.test(candidate[start] ?? '')) start++;
  while (end > start && !/\d/.test(candidate[end - 1] ?? '')) end--;
  const count = (ch: string) => candidate.slice(start, end).split(ch).length - 1;
  while (candidate[start] === '(' && count('(') > count(')')) start++;
  return end > start && isPhone(candidate.slice(start, end)) ? { start, end } : undefined;
}

/**
 * The phones in one run of digits and punctuation. A run is often two
 * numbers (`555-123-4567) 555-765-4321`) or one with a bracket around it
 * (`(07700900123`): where the whole run is not a phone, it is cut at its
 * spaces into the phones that cover the most digits (a phone is at most six
 * chunks, so this is linear in the run).
 */
function phonesIn(candidate: string, at: number): Span[] {
  if (isPhone(candidate)) return [{ start: at, end: at + candidate.length }];
  // Chunks between spaces, and the digits in each, in one pass (a run may be a megabyte).
  const starts: number[] = [];
  const ends: number[] = [];
  const chunkDigits: number[] = [];
  for (let i = 0; i < candidate.length; i++) {
    if (candidate[i] === ' ') continue;
    const start = i;
    let digits = 0;
    for (; i < candidate.length && candidate[i] !== ' '; i++) if (isDigit(candidate.charCodeAt(i))) digits++;
    starts.push(start);
    ends.push(i);
    chunkDigits.push(digits);
  }
  const n = starts.length;
  // From chunk i on, the phones covering the most digits: how many, the first (when it starts at i), where the rest begin.
  const bestDigits = new Int32Array(n + 1);
  const bestNext = new Int32Array(n + 1);
  const bestPhone: Array<Span | undefined> = new Array<Span | undefined>(n + 1).fill(undefined);
  for (let i = n - 1; i >= 0; i--) {
    bestDigits[i] = bestDigits[i + 1] ?? 0;
    bestNext[i] = i + 1;
    let windowDigits = 0;
    for (let j = i; j < Math.min(n, i + MAX_CHUNKS); j++) {
      windowDigits += chunkDigits[j] ?? 0;
      // No phone has fewer than seven digits: most windows of a long run end here.
      if (windowDigits < 7) continue;
      const phone = trimmedPhone(candidate, starts[i] ?? 0, ends[j] ?? 0);
      if (!phone) continue;
      const digits = candidate.slice(phone.start, phone.end).replace(/\D/g, '').length + (bestDigits[j + 1] ?? 0);
      if (digits > (bestDigits[i] ?? 0)) {
        bestDigits[i] = digits;
        bestNext[i] = j + 1;
        bestPhone[i] = phone;
      }
    }
  }
  const spans: Span[] = [];
  for (let i = 0; i < n; i = bestNext[i] ?? n) {
    const phone = bestPhone[i];
    if (phone) spans.push({ start: at + phone.start, end: at + phone.end });
  }
  return spans;
}

const findPhones: Finder = (text) => {
  const spans: Span[] = [];
  PHONE.lastIndex = 0;
  for (let m = PHONE.exec(text); m; m = PHONE.exec(text)) spans.push(...phonesIn(m[0], m.index));
  return spans;
};

// ---- the pipeline -------------------------------------------------------------------

const LAST_SECRET_RULE = SECRET_RULES[SECRET_RULES.length - 1];

function stagesFor(options: RedactionOptions): Stage[] {
  const stages: Stage[] = SECRET_RULES.map((find) => ({ rule: 'secret' as const, replacement: SECRET_MARK, find, fold: true }));
  const configured = configuredFinder(options.secretValues ?? []);
  if (configured) stages.push({ rule: 'configured', replacement: SECRET_MARK, find: configured, fold: false });
  const ownHome = ownHomeFinder(options.home);
  if (ownHome) stages.push({ rule: 'home', replacement: HOME_MARK, find: ownHome, fold: false });
  stages.push({ rule: 'home', replacement: HOME_MARK, find: pathFinder(UNIX_HOME), fold: true }, { rule: 'home', replacement: HOME_MARK, find: pathFinder(WINDOWS_HOME), fold: true });
  if (options.pii !== false) stages.push({ rule: 'pii', replacement: PII_MARK, find: findEmails, fold: true }, { rule: 'pii', replacement: PII_MARK, find: findPhones, fold: true });
  return stages;
}

/** Runs the §9.4 pipeline over one text: the redacted text and what was replaced. */
export function redactText(text: string, options: RedactionOptions = {}): Redaction {
  let pieces: Piece[] = [{ at: 0, text }];
  for (const stage of stagesFor(options)) {
    pieces = runStage(pieces, stage);
    if (stage.find === LAST_SECRET_RULE) pieces = runOnValues(pieces);
  }
  const replacements: Replacement[] = [];
  let out = '';
  for (const piece of pieces) {
    if ('done' in piece) {
      replacements.push(piece.done);
      out += piece.done.replacement;
    } else out += piece.text;
  }
  return { text: replacements.length === 0 ? text : out, replacements };
}

/** Nesting past this depth is replaced whole: redacting more is allowed, a stack overflow is not. */
const MAX_DEPTH = 64;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The pipeline over a structured value (the corpus's `value_cases`): every
 * string through `redactText`; the value under a credential-named key
 * (`token`, `API_KEY`, `Password`, `authorization`…) replaced whole, whatever
 * its shape, since the key says what it is. Numbers, booleans and null pass.
 */
export function redactValue(value: unknown, options: RedactionOptions = {}, depth = 0): unknown {
  if (typeof value === 'string') return redactText(value, options).text;
  if (depth >= MAX_DEPTH && (Array.isArray(value) || isPlainObject(value))) return SECRET_MARK;
  if (Array.isArray(value)) return value.map((item) => redactValue(item, options, depth + 1));
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, dropsValue(key, item) ? SECRET_MARK : redactValue(item, options, depth + 1)]),
  );
}

/**
 * A credential-named key's value goes whole; an empty one or our own marker
 * has nothing left to hide. Only the marker exactly: `[REDACTED:x]hunter2`
 * is a value that merely starts like one.
 */
export function dropsValue(key: string, value: unknown): boolean {
  if (value === null || value === undefined || !isCredentialKey(key)) return false;
  return !(typeof value === 'string' && (value === '' || isOwnMark(value)));
}
