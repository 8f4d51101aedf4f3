/**
 * Deepest nesting of arrays and objects accepted from the network. The
 * deepest thing AEP 0.1 defines (an envelope, its data, a form's fields, a
 * field, its choices, a choice) is six levels; 64 leaves room for extension
 * data. Deeper text is refused before `JSON.parse` builds it, because a tree
 * that deep overflows the stack of every recursive reader after it (the
 * persistence's `JSON.stringify` in `Memento.update` among them).
 */
export const MAX_JSON_DEPTH = 64;

/** Thrown by `parseUntrustedJson` for text nested deeper than `MAX_JSON_DEPTH`; its message is for the user. */
export class JsonTooDeepError extends Error {
  constructor(readonly limit: number) {
    super(`arrays and objects nested more than ${limit} levels deep (AEP Attention reads at most ${limit})`);
    this.name = 'JsonTooDeepError';
  }
}

/**
 * `JSON.parse` for text from the network. A `__proto__` member is an own
 * property after `JSON.parse`, but copying it (as schema parsers do) would
 * swap the copy's prototype and let a hostile sender plant inherited members
 * such as `kind`. Such members are removed after parsing, by an iterative
 * walk (no recursion, so deep nesting cannot exhaust the stack) that runs only
 * when the text could contain one, spelled out or behind `\u` escapes.
 * Throws `JsonTooDeepError` for text nested deeper than `maxDepth`, and
 * `SyntaxError` for text that is not JSON.
 */
export function parseUntrustedJson(text: string, maxDepth = MAX_JSON_DEPTH): unknown {
  if (opensMoreThan(text, maxDepth) && nestsDeeperThan(text, maxDepth)) throw new JsonTooDeepError(maxDepth);
  const value: unknown = JSON.parse(text);
  if (text.includes('__proto__') || text.includes('\\u')) dropProtoMembers(value);
  return value;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/**
 * Whether the text holds more than `limit` opening brackets anywhere, strings
 * included: text with no more cannot nest deeper than `limit`, so the exact
 * scan below runs only on text that has that many (an event of the usual
 * size has a few dozen at most, found by `indexOf` far faster than the scan
 * walks the text).
 */
function opensMoreThan(text: string, limit: number): boolean {
  let opened = 0;
  for (let at = text.indexOf('{'); at >= 0; at = text.indexOf('{', at + 1)) if (++opened > limit) return true;
  for (let at = text.indexOf('['); at >= 0; at = text.indexOf('[', at + 1)) if (++opened > limit) return true;
  return false;
}

/**
 * One linear pass over the text: brackets outside strings counted, strings
 * skipped whole with `indexOf` (a quote preceded by an odd run of
 * backslashes is escaped; every backslash run is looked at once, before the
 * quote that ends it). Text that is not JSON may pass; `JSON.parse` refuses it.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) i = closingQuote(text, i);
    else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > limit) return true;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth--;
  }
  return false;
}

/** The index of the quote that closes the string opened at `open`, or the text's length when none does. */
function closingQuote(text: string, open: number): number {
  let at = open;
  for (;;) {
    at = text.indexOf('"', at + 1);
    if (at < 0) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
}

function dropProtoMembers(root: unknown): void {
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value !== 'object' || value === null) continue;
    if (Array.isArray(value)) {
      for (const item of value) pending.push(item);
      continue;
    }
    if (Object.hasOwn(value, '__proto__')) delete (value as Record<string, unknown>)['__proto__'];
    for (const key of Object.keys(value)) pending.push((value as Record<string, unknown>)[key]);
  }
}

/** JSON with every object's keys sorted: two values that mean the same give the same text, whatever order they were built in. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    return `{${Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
