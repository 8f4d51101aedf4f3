// The secret class of the AEP-0003 §9.4 redaction pipeline (rule a), kept in
// one list for both users: the pipeline (redaction.ts) replaces every match,
// the credential detector (credentials.ts) names the ones that look like a
// real secret. The normative floor is the spec's five shapes (PEM blocks,
// `AKIA…`, `Bearer …`, `(password|passwd|secret|api[_-]?key|token)\s*[=:]\s*\S+`,
// JWTs); everything else here is hardening, which §9.4 allows ("adapters MAY
// redact more"), after the upstream corpus (conformance/fixtures/redaction).
//
// Every pattern is written to run in linear time on any input: each match
// attempt starts at a literal or a boundary and scans a bounded or
// non-overlapping run, so a megabyte of hostile text costs a few passes.

export const CREDENTIAL_KINDS = [
  'private key',
  'PEM block',
  'AWS access key',
  'GitHub token',
  'GitLab token',
  'Slack token',
  'OpenAI key',
  'Anthropic key',
  'Stripe key',
  'Google API key',
  'npm token',
  'PyPI token',
  'Hugging Face token',
  'SendGrid key',
  'Docker token',
  'Google OAuth token',
  'Shopify token',
  'DigitalOcean token',
  'Linear key',
  'Supabase token',
  'AWS secret key',
  'JSON Web Token',
  'bearer token',
  'Basic auth',
  'authorization header',
  'connection string with password',
  'password assignment',
  'key or token assignment',
  'field named like a credential',
  'configured secret',
] as const;
export type CredentialKind = (typeof CREDENTIAL_KINDS)[number];

/** One secret found in a piece of text: `[start, end)` is what the pipeline replaces. */
export interface SecretMatch {
  start: number;
  end: number;
  kind: CredentialKind;
  /**
   * The match looks like a real secret, not a placeholder or a word: the
   * detector names only these. The pipeline replaces every match either way
   * (the §9.4 floor redacts `token: none` too).
   */
  confident: boolean;
  /**
   * A value that runs to the next space (`password=…`, `Authorization: …`,
   * the floor's `\S+`): where a rule before it replaced part of the value, the
   * text glued to that replacement is still this value (see redaction.ts).
   */
  runsOn?: boolean;
}

import { foldForMatching } from '../base/matchFold';

export const SECRET_MARK = '[REDACTED:secret]';
export const PII_MARK = '[REDACTED:pii]';
const MARK_PREFIX = '[REDACTED:';

/** Text with a replacement in it (`[REDACTED:…`), ours or another pipeline's: it passed one, not as it was typed. */
export function holdsRedactionMark(value: string): boolean {
  return value.includes(MARK_PREFIX);
}

/** Exactly a replacement this pipeline writes: already redacted, so a second run leaves it alone. */
export function isOwnMark(value: string): boolean {
  return value === SECRET_MARK || value === PII_MARK;
}

/**
 * A value that is our replacements and nothing else but the quotes and syntax
 * around them (`"[REDACTED:secret]",`): what a first run left, so a second run
 * leaves it alone. `[REDACTED:x]hunter2` is not: it only starts like one.
 */
export function isRedactedValue(value: string): boolean {
  return MARKS_ONLY.test(value);
}
// Markers (one or more, as glued replacements leave them) and the quotes and syntax around them.
const MARKS_ONLY = /^["'`]*(?:\[REDACTED:(?:secret|pii)\]["'`,;:)}\]]*)+$/;

// ---- what a secret value looks like -----------------------------------------

const PLACEHOLDER_WORDS = new Set([
  'none', 'null', 'nil', 'empty', 'undefined', 'unset', 'na', 'n/a', 'tbd', 'todo', 'yes', 'no', 'true', 'false',
  'redacted', 'hidden', 'secret', 'password', 'passwd', 'token', 'required', 'optional', 'unknown', 'example',
]);
const PLACEHOLDER_SHAPES: readonly RegExp[] = [
  /^<[^<>]*>$/, // <enter it later>
  /^\{\{[^{}]*\}\}$/, // {{ secret }}
  /^\$\{[^{}]*\}$/, // ${DB_PASSWORD}
  /^\$[A-Za-z_][A-Za-z0-9_]*$/, // $DB_PASSWORD
  /^%[A-Za-z0-9_(]/, // %s, %(password)s
  /^(.)\1*$/, // ********, xxxxxxxx, ...
  /(?:^|[_-])(?:your|my|example|placeholder|dummy|sample)(?:[_-]|$)/i, // your_token_here
];

/** A value that only stands in for a secret: `none`, `<enter it later>`, `${VAR}`, `****`, the marker itself. */
export function isPlaceholder(value: string): boolean {
  return value === '' || isRedactedValue(value) || PLACEHOLDER_WORDS.has(value.toLowerCase()) || PLACEHOLDER_SHAPES.some((shape) => shape.test(value));
}

/**
 * Length and character mix of a secret: at least `minLength` characters and
 * at least two classes among lower case, upper case past the first letter,
 * digits and symbols (or 24 characters of anything). `hunter2sequel`,
 * `tok_9f8e7d6c` pass; `none`, `Santa`, `changeme`, `<enter it later>` do not.
 */
export function looksLikeSecret(raw: string, minLength = 8): boolean {
  const value = raw.replace(/^["'`]+|["'`,;]+$/g, '');
  if (value.length < minLength || isPlaceholder(value)) return false;
  const classes =
    Number(/[a-z]/.test(value)) + Number(/.[A-Z]/.test(value)) + Number(/[0-9]/.test(value)) + Number(/[^A-Za-z0-9]/.test(value));
  return classes >= 2 || value.length >= 24;
}

// ---- credential-named keys ---------------------------------------------------

// The floor's keywords end the name (`DB_PASSWORD`, `mytoken`, `x-api-key`);
// `\b` would miss `DB_PASSWORD=` since `_` is a word character.
const PASSWORD_NAME = /(?:password|passwd|passphrase|(?:^|[_.-])(?:pass|pwd))$/;
// `AccountKey=` (Azure storage), `sig=` (a SAS signature).
const KEY_NAME = /(?:secret|api[_-]?key|token|credentials?|(?:private|secret|access|account|signing|encryption|master|client|app|auth|session)[_.-]?key|^sig)$/;
/** Names short enough to be a word (`pass: 3 tests`): their value counts only where it looks like a secret. */
const SHORT_NAME = /^(?:pass|pwd|sig)$/;
const ENV_KEY_NAME = /^[A-Z0-9_]*_KEY$/; // AWS_SECRET_ACCESS_KEY, STRIPE_KEY: upper case only, so `sort_key` stays a key
const AUTHORIZATION_NAME = /^(?:proxy-)?authorization$/;

/** Whether a key name says its value is a password (as opposed to another secret). */
function isPasswordName(lower: string): boolean {
  return PASSWORD_NAME.test(lower);
}

/** A key or variable name that says its value is a credential: `password`, `DB_PASSWORD`, `api_key`, `client_secret`, `GITHUB_TOKEN`. */
export function isCredentialName(name: string): boolean {
  // Folded as the rules fold text (`ſecret`, `ｔｏｋｅｎ`); a final newline does not
  // make another name (the reference's Python `$` matches before it).
  const folded = foldForMatching(name.length > 65 ? name.slice(-65) : name).replace(/\n$/, '');
  const tail = folded.length > 64 ? folded.slice(-64) : folded;
  const lower = tail.toLowerCase();
  return isPasswordName(lower) || KEY_NAME.test(lower) || ENV_KEY_NAME.test(tail);
}

// A credential name and its separator at the end of a text: what comes next is its value.
// `token: Bearer ` before a bearer token: the floor's Bearer rule takes the word and its space, so the value runs on through it.
const NAME_BEFORE_VALUE = /([A-Za-z][A-Za-z0-9_.-]{0,63})["']?\s{0,64}(?::=|=>|==|[=:])\s{0,64}["']?(?:[Bb][Ee][Aa][Rr][Ee][Rr]\s{1,64})?$/;

/**
 * The assignment `text` ends with, when its value was cut off there
 * (`API_KEY=` before a token another rule replaced): the kind its value is.
 */
export function assignmentEndingAt(text: string): CredentialKind | undefined {
  const name = NAME_BEFORE_VALUE.exec(text.slice(-160))?.[1];
  if (name === undefined || !isCredentialKey(name)) return undefined;
  if (AUTHORIZATION_NAME.test(name.toLowerCase())) return 'authorization header';
  return isPasswordName(name.toLowerCase()) ? 'password assignment' : 'key or token assignment';
}

/** `isCredentialName`, plus the names of headers that carry one (`Authorization`): for object keys, whose value is dropped whole. */
export function isCredentialKey(name: string): boolean {
  return isCredentialName(name) || AUTHORIZATION_NAME.test(foldForMatching(name).replace(/\n$/, '').toLowerCase());
}

// ---- the rules ----------------------------------------------------------------

type Finder = (text: string) => SecretMatch[];

/** Every match of a global regex; `pick` turns one into a secret span (or skips it). */
function scan(re: RegExp, text: string, pick: (m: RegExpExecArray) => SecretMatch | undefined): SecretMatch[] {
  const out: SecretMatch[] = [];
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const found = pick(m);
    if (found) out.push(found);
    if (m[0].length === 0) re.lastIndex++;
  }
  return out;
}

/** The span of the last capture group, which every pattern below puts at the end of its match. */
function tail(m: RegExpExecArray, group: string): { start: number; end: number } {
  const end = m.index + m[0].length;
  return { start: end - group.length, end };
}

// PEM blocks (floor). The END line is searched once per label and position,
// so many headers without an END stay linear; an unterminated block is
// redacted through its base64 body.
const PEM_BEGIN = /-----BEGIN ([A-Z0-9][A-Z0-9 ]{0,62})-----/g;
const PEM_BODY = /[ \t]*[A-Za-z0-9+/=]*(?:\r?\n[A-Za-z0-9+/=:][A-Za-z0-9+/=,:. \t-]*)*/y;

const findPem: Finder = (text) => {
  const out: SecretMatch[] = [];
  const nextEnd = new Map<string, number>();
  PEM_BEGIN.lastIndex = 0;
  for (let m = PEM_BEGIN.exec(text); m; m = PEM_BEGIN.exec(text)) {
    const label = m[1] ?? '';
    const headerEnd = m.index + m[0].length;
    const endLine = `-----END ${label}-----`;
    let endAt = nextEnd.get(label);
    if (endAt === undefined || (endAt !== -1 && endAt < headerEnd)) {
      endAt = text.indexOf(endLine, headerEnd);
      nextEnd.set(label, endAt);
    }
    let end: number;
    if (endAt !== -1) end = endAt + endLine.length;
    else {
      PEM_BODY.lastIndex = headerEnd;
      PEM_BODY.exec(text);
      end = PEM_BODY.lastIndex;
    }
    const isPrivate = label.includes('PRIVATE KEY');
    out.push({ start: m.index, end, kind: isPrivate ? 'private key' : 'PEM block', confident: isPrivate });
    PEM_BEGIN.lastIndex = end;
  }
  return out;
};

// Token shapes with a vendor prefix: specific enough to be confident on sight.
const TOKEN_SHAPES: ReadonlyArray<{ kind: CredentialKind; re: RegExp }> = [
  { kind: 'GitHub token', re: /(?<![A-Za-z0-9])(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/g },
  { kind: 'GitLab token', re: /(?<![A-Za-z0-9])gl(?:pat|ptt|dt|rt|soat|cbt)-[A-Za-z0-9_-]{20,}/g },
  { kind: 'Slack token', re: /(?<![A-Za-z0-9])(?:xox[abposre]|xapp)-[A-Za-z0-9-]{10,}/g },
  { kind: 'Slack token', re: /(?<=hooks\.slack\.com\/services\/)[A-Za-z0-9_/]{8,}/g },
  { kind: 'Anthropic key', re: /(?<![A-Za-z0-9])sk-ant-[A-Za-z0-9_-]{20,}/g },
  { kind: 'OpenAI key', re: /(?<![A-Za-z0-9])sk-(?!ant-)[A-Za-z0-9_-]{20,}/g },
  { kind: 'Stripe key', re: /(?<![A-Za-z0-9])(?:(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{8,}|whsec_[A-Za-z0-9]{16,})/g },
  { kind: 'Google API key', re: /(?<![A-Za-z0-9])AIza[A-Za-z0-9_-]{30,}/g },
  { kind: 'npm token', re: /(?<![A-Za-z0-9])npm_[A-Za-z0-9]{30,}/g },
  { kind: 'PyPI token', re: /(?<![A-Za-z0-9])pypi-AgE[A-Za-z0-9_-]{30,}/g },
  { kind: 'Hugging Face token', re: /(?<![A-Za-z0-9])hf_[A-Za-z0-9]{30,}/g },
  { kind: 'SendGrid key', re: /(?<![A-Za-z0-9])SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/g },
  { kind: 'Docker token', re: /(?<![A-Za-z0-9])dckr_pat_[A-Za-z0-9_-]{20,}/g },
  { kind: 'Google OAuth token', re: /(?<![A-Za-z0-9])ya29\.[A-Za-z0-9_-]{20,}/g },
  { kind: 'Shopify token', re: /(?<![A-Za-z0-9])shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}/g },
  { kind: 'DigitalOcean token', re: /(?<![A-Za-z0-9])do[por]_v1_[a-f0-9]{64}/g },
  { kind: 'Linear key', re: /(?<![A-Za-z0-9])lin_api_[A-Za-z0-9]{40}/g },
  { kind: 'Supabase token', re: /(?<![A-Za-z0-9])sbp_[a-f0-9]{40}/g },
  // JWT (floor): three base64url segments, the first a JSON object (`eyJ` = `{"`); an unsigned one has an empty third.
  { kind: 'JSON Web Token', re: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{2,}\.[A-Za-z0-9_-]{2,}\.[A-Za-z0-9_-]*/g },
];

const shapeFinder = (kind: CredentialKind, re: RegExp): Finder => (text) =>
  scan(re, text, (m) => ({ start: m.index, end: m.index + m[0].length, kind, confident: true }));

// AWS access key ids. `AKIA…` is the floor and matched anywhere, as the spec
// writes it; the other prefixes (temporary `ASIA…` and friends) need edges.
const AWS_AKIA = /AKIA[0-9A-Z]{16}/g;
const AWS_OTHER = /(?<![A-Za-z0-9])(?:ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|APKA|AROA|ASCA)[0-9A-Z]{16}(?![A-Za-z0-9])/g;
const awsFinder = (re: RegExp): Finder => (text) =>
  scan(re, text, (m) => ({ start: m.index, end: m.index + m[0].length, kind: 'AWS access key', confident: /[0-9]/.test(m[0]) }));

// `scheme://user:password@host`: the password only; the password runs to the
// authority's last `@`, so an unencoded `@` in it does not leak its tail.
const CONNECTION = /(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{1,30}:\/\/[^\s:/?#@"'<>]{0,256}:([^\s/?#"'<>]{1,256})(?=@)/g;
const findConnection: Finder = (text) =>
  scan(CONNECTION, text, (m) => {
    const password = m[1] ?? '';
    if (isRedactedValue(password)) return undefined;
    return { ...tail(m, password), kind: 'connection string with password', confident: !isPlaceholder(password) };
  });

// `Bearer <token>` (floor, canonical case: any token of 8+ characters). Other
// cases (RFC 6750 schemes are case-insensitive) need a token that looks like
// one, so "the bearer of good news" and "bearer instruments" stay prose.
const BEARER = /(?<![A-Za-z0-9])(bearer)\s+([A-Za-z0-9\-._~+/]{8,}=*)/gi;
const findBearer: Finder = (text) =>
  scan(BEARER, text, (m) => {
    const token = m[2] ?? '';
    const looks = looksLikeSecret(token, 8);
    if (m[1] !== 'Bearer' && !looks) return undefined;
    return { ...tail(m, token), kind: 'bearer token', confident: looks };
  });

// `Basic <base64 user:password>`: a credential when it looks like base64, not a word.
const BASIC = /(?<![A-Za-z0-9])basic\s+([A-Za-z0-9+/]{8,}={0,2})/gi;
const findBasic: Finder = (text) =>
  scan(BASIC, text, (m) => {
    const token = m[1] ?? '';
    if (!looksLikeSecret(token, 8)) return undefined;
    return { ...tail(m, token), kind: 'Basic auth', confident: true };
  });

// `Authorization: <scheme> <credentials>`: whatever the scheme, the value is a credential.
const SCHEMES = new Set(['bearer', 'basic', 'token', 'digest', 'negotiate', 'ntlm', 'bot', 'key', 'apikey', 'aws4-hmac-sha256']);
// The value runs to space or a quote, through `,` and `;`: the floor's `\S+` does.
// Unquoted, it runs on through quotes too; quoted, past the closing quote
// only where letters or digits follow (compact JSON), as assignments do.
const AUTHORIZATION = /(?<![A-Za-z0-9])(?:proxy-)?authorization["']?\s*[=:]\s*(["']?)(?:(bearer|basic|token|digest|negotiate|ntlm|bot|key|apikey|aws4-hmac-sha256)\s+)?([^\s"']+)/gi;
const findAuthorization: Finder = (text) =>
  scan(AUTHORIZATION, text, (m) => {
    const value = m[3] ?? '';
    if (isRedactedValue(value) || SCHEMES.has(value.toLowerCase())) return undefined;
    const scheme = (m[2] ?? '').toLowerCase();
    const kind: CredentialKind = scheme === 'bearer' ? 'bearer token' : scheme === 'basic' ? 'Basic auth' : 'authorization header';
    const span = tail(m, value);
    const run = sticky(NON_SPACE, text, span.end) ?? span.end;
    const quote = m[1] ?? '';
    if (quote === '' || (text[span.end] === quote && CONTENT.test(text.slice(span.end + 1, run)))) span.end = run;
    AUTHORIZATION.lastIndex = Math.max(AUTHORIZATION.lastIndex, span.end);
    return { ...span, kind, confident: looksLikeSecret(value, 8), runsOn: true };
  });

// `<credential name> = value` (floor: `(password|passwd|secret|api[_-]?key|token)\s*[=:]\s*\S+`),
// hardened: the name may end in the keyword (`DB_PASSWORD=`), be quoted
// (`"token": "…"`), take `=>`/`:=`; a quoted value is redacted to its closing
// quote, a `<placeholder>` whole. Names are scanned as tokens, then the
// separator and value are read at fixed positions: linear on any input.
const IDENTIFIER = /[A-Za-z][A-Za-z0-9_.-]*/g;
const SEPARATOR = /["']?\s*(?::=|=>|==|[=:])\s*/y;
const QUOTED: Record<string, RegExp> = {
  '"': /"(?:[^"\\\r\n]|\\.){0,4096}"/y,
  "'": /'(?:[^'\\\r\n]|\\.){0,4096}'/y,
  '`': /`(?:[^`\\\r\n]|\\.){0,4096}`/y,
};
const ANGLED = /<[^<>\r\n]{0,64}>/y;
const NON_SPACE = /\S+/y;

function sticky(re: RegExp, text: string, at: number): number | undefined {
  re.lastIndex = at;
  const m = re.exec(text);
  return m ? at + m[0].length : undefined;
}

/** What may follow a closing quote and still end the value there: space, JSON and code syntax, or nothing. */
const AFTER_QUOTE = /[\s,;:)}\]]/;
const SPACE = /\s/;
const CONTENT = /[\p{L}\p{N}]/u;

/**
 * Where the value after a separator lies; undefined when there is none to
 * redact. Never less than the floor's `\S+`: a quoted value is cut at its
 * closing quote only when space or syntax follows it (`"…"},`), a
 * `<placeholder>` is taken whole only when it holds a space (it is then
 * longer than the run of non-space). Only the characters of the value
 * itself are read: a value cut short leaves the rest to be scanned once.
 */
function valueAt(text: string, at: number): { start: number; end: number } | undefined {
  const first = text[at];
  if (first === undefined) return undefined;
  const quoted = QUOTED[first];
  if (quoted) {
    const end = sticky(quoted, text, at);
    const next = end === undefined ? undefined : text[end];
    if (end !== undefined && (next === undefined || AFTER_QUOTE.test(next))) {
      if (end - at <= 2) return undefined;
      // Compact JSON (`"x","user":"bob"}`): the floor's `\S+` runs on past
      // the closing quote, so where letters or digits follow it, so do we.
      const run = sticky(NON_SPACE, text, end) ?? end;
      return { start: at + 1, end: CONTENT.test(text.slice(end, run)) ? run : end - 1 };
    }
  }
  if (first === '<') {
    const end = sticky(ANGLED, text, at);
    if (end !== undefined && SPACE.test(text.slice(at, end))) return { start: at, end };
  }
  const run = sticky(NON_SPACE, text, at);
  return run === undefined ? undefined : { start: at, end: run };
}

const findAssignments: Finder = (text) => {
  const out: SecretMatch[] = [];
  IDENTIFIER.lastIndex = 0;
  for (let m = IDENTIFIER.exec(text); m; m = IDENTIFIER.exec(text)) {
    const name = m[0];
    if (!isCredentialName(name)) continue;
    const afterName = m.index + name.length;
    const valueStart = sticky(SEPARATOR, text, afterName);
    if (valueStart === undefined) continue;
    const span = valueAt(text, valueStart);
    if (!span) continue;
    const value = text.slice(span.start, span.end);
    // A value that is a marker was redacted already (by a rule above, or by an
    // earlier run); a lone quote is what is left of a quoted value a rule above replaced.
    if (isRedactedValue(value) || /^["'`]+$/.test(value)) continue;
    const password = isPasswordName(name.slice(-64).toLowerCase());
    if (SHORT_NAME.test(name.toLowerCase()) && !looksLikeSecret(value, 6)) continue;
    out.push({ ...span, kind: password ? 'password assignment' : 'key or token assignment', confident: looksLikeSecret(value, password ? 6 : 8), runsOn: true });
    IDENTIFIER.lastIndex = Math.max(IDENTIFIER.lastIndex, span.end);
  }
  return out;
};

// A password said in words or passed on a command line: `my password is …`,
// `mysql -pX`, `sshpass -p X`, `--password X`. Each starts at a literal and
// reads a bounded stretch of one line, so each stays linear.
const PASSWORD_PHRASES: readonly RegExp[] = [
  /(?<![A-Za-z0-9])(?:password|passwd|passphrase|pwd)\s{1,8}(?:is|was|would be|will be)\s{1,8}(?:["'`]?)([^\s"'`]+)/gi,
  /(?<![A-Za-z0-9_-])(?:mysql|mysqldump|mysqladmin|mariadb)\b[^\n]{0,200}?\s-p([^\s-]\S*)/g,
  /(?<![A-Za-z0-9_-])sshpass\s{1,8}(?:-[a-oq-z]\s{1,8}\S{1,200}\s{1,8})?-p\s{0,8}(\S+)/g,
  /(?<![A-Za-z0-9_-])--(?:password|passwd|pass)\s{1,8}([^\s-]\S*)/g,
];
// In prose (`my password is wrong`) the word after `is` counts only where it looks like a secret.
const findPasswordPhrases: Finder = (text) =>
  PASSWORD_PHRASES.flatMap((re, index) =>
    scan(re, text, (m) => {
      const value = m[1] ?? '';
      const looks = looksLikeSecret(value, 6);
      if (isRedactedValue(value) || (index === 0 && !looks)) return undefined;
      return { ...tail(m, value), kind: 'password assignment', confident: looks };
    }),
  ).sort((a, b) => a.start - b.start);

// A bare AWS secret access key: 40 characters of base64 with all of lower,
// upper, digit and `/` or `+` (a Git SHA, hex, never has them all).
const AWS_SECRET = /(?<![A-Za-z0-9/+=])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/g;
const findAwsSecret: Finder = (text) =>
  scan(AWS_SECRET, text, (m) =>
    /[a-z]/.test(m[0]) && /[A-Z]/.test(m[0]) && /[0-9]/.test(m[0]) && /[/+]/.test(m[0]) ? { start: m.index, end: m.index + m[0].length, kind: 'AWS secret key', confident: true } : undefined,
  );

/**
 * Rule (a) of the pipeline, in the order it runs: each rule sees only text
 * that no rule before it replaced, so a specific shape (a GitHub token in
 * `API_KEY=ghp_…`) is named before the generic assignment around it.
 */
export const SECRET_RULES: readonly Finder[] = [
  findPem,
  ...TOKEN_SHAPES.map(({ kind, re }) => shapeFinder(kind, re)),
  awsFinder(AWS_AKIA),
  awsFinder(AWS_OTHER),
  findAwsSecret,
  findConnection,
  findBearer,
  findBasic,
  findAuthorization,
  findPasswordPhrases,
  findAssignments,
];
