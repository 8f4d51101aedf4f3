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
import { isRecord } from '../base/isRecord';

export { PII_MARK, SECRET_MARK } from './secretRules';
export const HOME_MARK = '~';

export type RedactionRule = 'secret' | 'configured' | 'home' | 'pii';

export interface RedactionOptions {
  /** Rule (c): the user's home directory. `/home/<user>`, `/Users/<user>` and `C:\Users\<user>` are replaced whatever it is. */
  home?: string | undefined;
  /**
   * Rule (b): values listed as secret. The host passes the person's
   * always-secret values and the hub tokens it holds
   * (src/app/hubs/alwaysSecretValues.ts); the conformance corpus its own.
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

// Phone numbers, found as the spec's reference finds them: a run of eight
// characters or more of digits, spaces, brackets, dots and dashes, from a
// digit to a digit, not inside a word. Nothing narrower: people write
// `06 12 34 56 78`, `612 345 678`, `079 123 45 67`, `(11) 91234-5678`, and no
// pattern of groups tells those from other numbers. Ours also starts at `(`
// and `+ `, runs over tabs, and never crosses a line (a number is written on one).
//
// A run is cut at its spaces into chunks, and only these chunks stay, each not
// personal data though the reference takes it. This is the one list of them (a
// phone number is never among them; the differential test's generator leaves
// out these shapes and no other number):
//   - a calendar date, `2024-01-15`, `2024.01.15`, `15.01.2024`, `15-01-2024`
//     (month and day in range, a year 19xx or 20xx): when something happened;
//   - a version, three or four dotted groups, one after the first of one digit,
//     the first with no leading zero: `10.0.19041.1`, never `1.800.555.1234`,
//     `12345.6`, nor `0033.6.12.34.56.78` or `33.6.12.34.56.78` (a French number
//     after its country code: a leading zero is a trunk or an exit prefix, and
//     no version runs to five groups): which software;
//   - the seconds of a time, `45.123456` after `12:30:`: when, again;
//   - what is left between those with fewer than six digits (the hour of
//     `2024-01-15 12:30`; `1 2 3 4 5`): no national number in common use is that short.
// A date or version stays only where it opens the run or follows a number of
// its own: after a shorter fragment (`06 12.12.2024`) it is the rest of that number.
// An IPv4 address is not on the list: Denmark and Norway write `12.34.56.78`,
// Spain `91.234.56.78`, in range and without a leading zero, so no shape of
// the address tells it from a phone number, and an address can be personal
// data itself. Short ones stay all the same (`127.0.0.1`, `10.0.0.1`: too few digits,
// and `192.168.1.10` is a version's shape).
// A run that opens with `+` is in international form, whatever its groups
// look like: it goes whole. Taking more than a phone (`10 000 000`, a year
// range `2019-2024`) is allowed (§9.4: adapters MAY redact more).
const PHONE = /(?<![A-Za-z0-9_])(?:\+ ?)?\(?\d[\d \t().-]{6,}\d(?![A-Za-z0-9_])/g;
const CHUNK = /[^ \t]+/g;
const NOT_PHONES = [
  /^(?:(?:19|20)\d\d([.-])(?:0?[1-9]|1[0-2])\1(?:0?[1-9]|[12]\d|3[01])|(?:0?[1-9]|[12]\d|3[01])([.-])(?:0?[1-9]|1[0-2])\2(?:19|20)\d\d)$/,
  /^(?=.*\.\d(?:\.|$))(?!0\d)\d+(?:\.\d+){2,3}$/,
];
const SECONDS = /^[0-5]\d(?:\.\d+)?$/;
const AFTER_MINUTES = /:\d\d:$/;

const findPhones: Finder = (text) => {
  const spans: Span[] = [];
  const sixDigits = (from: number, to: number) => (text.slice(from, to).match(/\d/g) ?? []).length >= 6;
  // Chunks [from, to) of one run: a phone from its first digit, `+` or `(` (one it closes) to its last digit, when it has six digits.
  const phone = (from: number, to: number) => {
    const part = text.slice(from, to);
    const start = part.search(/[\d+(]/);
    if (sixDigits(from, to)) spans.push({ start: from + start + (part[start] === '(' && !part.includes(')') ? 1 : 0), end: from + part.search(/\d\D*$/) + 1 });
  };
  PHONE.lastIndex = 0;
  for (let m = PHONE.exec(text); m; m = PHONE.exec(text)) {
    const run = m[0];
    let from = -1;
    let to = 0;
    CHUNK.lastIndex = 0;
    for (let c = CHUNK.exec(run); c; c = CHUNK.exec(run)) {
      const at = m.index + c.index;
      const chunk = c[0];
      const stays =
        run[0] !== '+' &&
        ((NOT_PHONES.some((shape) => shape.test(chunk)) && (from < 0 || sixDigits(from, to))) || (c.index === 0 && SECONDS.test(chunk) && AFTER_MINUTES.test(text.slice(Math.max(0, at - 4), at))));
      if (!stays) {
        if (from < 0) from = at;
        to = at + chunk.length;
      } else if (from >= 0) {
        phone(from, to);
        from = -1;
      }
    }
    if (from >= 0) phone(from, to);
  }
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

/**
 * The pipeline over a structured value (the corpus's `value_cases`): every
 * string through `redactText`; the value under a credential-named key
 * (`token`, `API_KEY`, `Password`, `authorization`…) replaced whole, whatever
 * its shape, since the key says what it is. Numbers, booleans and null pass.
 */
export function redactValue(value: unknown, options: RedactionOptions = {}, depth = 0): unknown {
  if (typeof value === 'string') return redactText(value, options).text;
  if (depth >= MAX_DEPTH && (Array.isArray(value) || isRecord(value))) return SECRET_MARK;
  if (Array.isArray(value)) return value.map((item) => redactValue(item, options, depth + 1));
  if (!isRecord(value)) return value;
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
