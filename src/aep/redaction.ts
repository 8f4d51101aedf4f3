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
import { isCredentialKey, isRedactionMark, PII_MARK, SECRET_MARK, SECRET_RULES, type CredentialKind } from './secretRules';

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
}
type Finder = (text: string) => Span[];
interface Stage {
  rule: RedactionRule;
  replacement: string;
  find: Finder;
}

/** Text still open to the rules, or a replacement already made. */
type Piece = { at: number; text: string } | { at: number; done: Replacement };

function runStage(pieces: readonly Piece[], stage: Stage): Piece[] {
  const out: Piece[] = [];
  for (const piece of pieces) {
    if ('done' in piece || piece.text === '') {
      out.push(piece);
      continue;
    }
    const spans = stage.find(piece.text);
    let cursor = 0;
    for (const span of spans) {
      if (span.start < cursor || span.end <= span.start) continue;
      const original = piece.text.slice(span.start, span.end);
      if (original === stage.replacement) continue;
      if (span.start > cursor) out.push({ at: piece.at + cursor, text: piece.text.slice(cursor, span.start) });
      const done: Replacement = { rule: stage.rule, start: piece.at + span.start, end: piece.at + span.end, original, replacement: stage.replacement };
      if (span.kind !== undefined) done.kind = span.kind;
      if (span.confident !== undefined) done.confident = span.confident;
      out.push({ at: piece.at + span.start, done });
      cursor = span.end;
    }
    if (cursor === 0) out.push(piece);
    else if (cursor < piece.text.length) out.push({ at: piece.at + cursor, text: piece.text.slice(cursor) });
  }
  return out;
}

// ---- (b) configured values ------------------------------------------------------

function configuredFinder(values: readonly string[]): Finder | undefined {
  // Shorter values would replace ordinary words; the longest wins where two overlap.
  const usable = [...new Set(values)].filter((v) => v.length >= 4 && !isRedactionMark(v)).sort((a, b) => b.length - a.length);
  if (usable.length === 0) return undefined;
  return (text) => {
    const found: Span[] = [];
    for (const value of usable) {
      for (let at = text.indexOf(value); at !== -1; at = text.indexOf(value, at + value.length)) found.push({ start: at, end: at + value.length, kind: 'configured secret', confident: true });
    }
    found.sort((a, b) => a.start - b.start || b.end - a.end);
    const kept: Span[] = [];
    for (const span of found) if (kept.length === 0 || span.start >= (kept[kept.length - 1]?.end ?? 0)) kept.push(span);
    return kept;
  };
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
// (22.11.0), IP addresses, dates, decimals and plain numbers are not phones.
const PHONE = /(?<![A-Za-z0-9_+./:-])(?:\+ ?)?\(?\d[\d ().-]{5,18}\d(?![A-Za-z0-9_])/g;

function isPhone(candidate: string): boolean {
  const groups = candidate.split(/\D+/).filter((g) => g !== '');
  const digits = groups.join('').length;
  if (digits < 7 || digits > 15 || groups.length > 6 || /\s{2,}/.test(candidate)) return false;
  const plus = candidate.startsWith('+');
  const opens = candidate.split('(').length - 1;
  if (opens !== candidate.split(')').length - 1 || opens > 1) return false;
  const separators = candidate.replace(/[\d+]/g, '');
  if (separators === '') return plus;
  const [first = '', second = '', third = ''] = groups;
  const last = groups[groups.length - 1] ?? '';
  if (/^\.+$/.test(separators)) return groups.length === 3 && first.length === 3 && second.length === 3 && third.length === 4;
  if (plus) return true;
  if (last.length < 3) return false;
  const isYear = (g: string) => g.length === 4 && /^(?:19|20)/.test(g);
  if (groups.length === 3 && ((isYear(first) && second.length <= 2 && third.length <= 2) || (isYear(third) && first.length <= 2 && second.length <= 2))) return false;
  // 10 000 000: thousands, not a phone.
  if (/^ +$/.test(separators) && first.length <= 3 && groups.slice(1).every((g) => g.length === 3)) return false;
  return true;
}

const findPhones: Finder = (text) => {
  const spans: Span[] = [];
  PHONE.lastIndex = 0;
  for (let m = PHONE.exec(text); m; m = PHONE.exec(text)) if (isPhone(m[0])) spans.push({ start: m.index, end: m.index + m[0].length });
  return spans;
};

// ---- the pipeline -------------------------------------------------------------------

function stagesFor(options: RedactionOptions): Stage[] {
  const stages: Stage[] = SECRET_RULES.map((find) => ({ rule: 'secret' as const, replacement: SECRET_MARK, find }));
  const configured = configuredFinder(options.secretValues ?? []);
  if (configured) stages.push({ rule: 'configured', replacement: SECRET_MARK, find: configured });
  const ownHome = ownHomeFinder(options.home);
  if (ownHome) stages.push({ rule: 'home', replacement: HOME_MARK, find: ownHome });
  stages.push({ rule: 'home', replacement: HOME_MARK, find: pathFinder(UNIX_HOME) }, { rule: 'home', replacement: HOME_MARK, find: pathFinder(WINDOWS_HOME) });
  if (options.pii !== false) stages.push({ rule: 'pii', replacement: PII_MARK, find: findEmails }, { rule: 'pii', replacement: PII_MARK, find: findPhones });
  return stages;
}

/** Runs the §9.4 pipeline over one text: the redacted text and what was replaced. */
export function redactText(text: string, options: RedactionOptions = {}): Redaction {
  let pieces: Piece[] = [{ at: 0, text }];
  for (const stage of stagesFor(options)) pieces = runStage(pieces, stage);
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

/** A credential-named key's value goes whole; an empty one or a marker has nothing left to hide. */
export function dropsValue(key: string, value: unknown): boolean {
  if (value === null || value === undefined || !isCredentialKey(key)) return false;
  return !(typeof value === 'string' && (value === '' || isRedactionMark(value)));
}
