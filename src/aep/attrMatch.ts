/**
 * The `attr-match` filter dialect (AEP-0003 §6): an object of predicates on
 * envelope attributes, ANDed. Used by the local hub per event per
 * subscription and by the extension to check a user's `filter` setting, so
 * it imports nothing from `vscode` or Node and runs in a browser too.
 *
 * Validation fails closed (§6.2 rule 1): anything outside the grammar is
 * refused with a sentence naming the key, never treated as match-all. It
 * refuses nothing the grammar allows: §6.5 keeps `invalid-filter` for a
 * malformed filter or an illegal key, so a grammatical filter that can never
 * match (`{"session": 5}`) subscribes. `unsatisfiablePredicate` names such a
 * predicate for a caller that can ask a person to fix it.
 * Matching assumes the filter validated.
 */
import { CAPTURE_LEVELS, DEFAULT_CAPTURE, DEFAULT_SEVERITY, SEVERITIES } from './levels';
import { parsedOk, parsedProblem, type Parsed } from '../base/result';
import { isRecord } from '../base/isRecord';

export type AttrFilter = Readonly<Record<string, unknown>>;

// Core attributes whose wire type is a string (AEP-0001 §5.1).
const STRING_KEYS: ReadonlySet<string> = new Set(['id', 'type', 'subject', 'source', 'agent', 'session', 'run', 'step', 'cause']);
const FILTERABLE_KEYS: readonly string[] = [...STRING_KEYS, 'epoch', 'severity', 'capture'];
const FILTERABLE: ReadonlySet<string> = new Set(FILTERABLE_KEYS);

// §6.2 rule 1: core attributes that are carried, not filtered. Each reason is
// the one the spec gives, phrased as what the user should do instead.
const NOT_FILTERABLE: ReadonlyMap<string, string> = new Map([
  ['seq', 'positions are for resuming, not filtering (resume with the subscription\'s `from` instead)'],
  ['time', 'time is display metadata, never a routing key (filter on `session`, `run` or `type` instead)'],
  ['aep', 'it is the envelope version, the same on every event'],
  ['traceparent', 'trace context is passed through for joining traces, not for routing'],
  ['data', 'routing never looks inside payloads (filter on envelope attributes such as `type` or `subject` instead)'],
]);

// AEP-0001 §5.4. Core names also fit this shape; they are caught first.
const EXTENSION_NAME = /^[a-z0-9]{1,20}$/;
// `prefix.*` where the prefix is one or more dot-separated type segments.
// The segment alphabet is the union of the category and vendor segments of
// the envelope schema's `type` pattern, so every pattern could match a legal type.
const TYPE_PATTERN = /^[a-z0-9_-]+(?:\.[a-z0-9_-]+)*\.\*$/;

const SEVERITY_RANK: ReadonlyMap<unknown, number> = new Map(SEVERITIES.map((level, index) => [level, index]));
const CAPTURE_SET: ReadonlySet<unknown> = new Set(CAPTURE_LEVELS);
const SEVERITY_LIST = SEVERITIES.join(', ');
const CAPTURE_LIST = CAPTURE_LEVELS.join(', ');

const hasOwn = Object.prototype.hasOwnProperty;

/** A key or value as it should appear in a message: short, and visibly a literal. */
function shown(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

function shownKey(key: string): string {
  return key.length > 40 ? `${key.slice(0, 39)}…` : key;
}

function describeJsonType(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a fractional number';
  return `a ${typeof value}`;
}

/**
 * Checks an untrusted value against the §6.1 grammar and §6.2 rule 1. On
 * success the value is the same object, now known to be a filter.
 *
 * One reading goes beyond the bare grammar: a `*` in a string is a pattern,
 * legal only on `type`. The grammar alone would take `{"agent": "claude*"}`
 * as a scalar, but the conformance corpus (normative for the badge,
 * AEP-0001 §10) refuses it as "glob on non-type key", as does the upstream
 * runner written from the spec text.
 */
export function validateFilter(filter: unknown): Parsed<AttrFilter> {
  if (!isRecord(filter)) {
    return parsedProblem(
      `a filter must be a JSON object of attribute predicates such as {"type": "attention.*"}, not ${describeJsonType(filter)}`,
    );
  }
  for (const key of Object.keys(filter)) {
    const problem = keyProblem(key) ?? predicateProblem(key, filter[key]);
    if (problem !== undefined) return parsedProblem(problem);
  }
  return parsedOk(filter);
}

function keyProblem(key: string): string | undefined {
  const reason = NOT_FILTERABLE.get(key);
  if (reason !== undefined) return `filter key \`${key}\` is not filterable: ${reason}`;
  if (FILTERABLE.has(key) || EXTENSION_NAME.test(key)) return undefined;
  if (key.startsWith('data.') || key.startsWith('data[')) {
    return `filter key \`${shownKey(key)}\` is not filterable: ${NOT_FILTERABLE.get('data') ?? ''}`;
  }
  const lower = key.toLowerCase();
  const hint = FILTERABLE.has(lower) || NOT_FILTERABLE.has(lower) ? ` (attribute names are lowercase: \`${lower}\`)` : '';
  return (
    `filter key \`${shownKey(key)}\` is not an event attribute${hint}: filter on ${FILTERABLE_KEYS.join(', ')}, ` +
    'or an extension attribute named with 1 to 20 lowercase letters and digits'
  );
}

function predicateProblem(key: string, predicate: unknown): string | undefined {
  if (key === 'severity' && isRecord(predicate)) return severityBandProblem(predicate);
  if (Array.isArray(predicate)) {
    if (predicate.length === 0) {
      return `filter key \`${key}\` has an empty list, which would match nothing: list at least one value, or remove the key to match every event`;
    }
    for (const item of predicate) {
      if (Array.isArray(item) || isRecord(item)) {
        return `filter key \`${key}\` has ${describeJsonType(item)} inside its list: list items are strings, integers or booleans (lists do not nest)`;
      }
      const problem = scalarProblem(key, item);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }
  if (isRecord(predicate)) {
    return `filter key \`${key}\` has an object: a predicate is a string, integer or boolean, or a list of them (only \`severity\` takes {"gte": …, "lte": …})`;
  }
  return scalarProblem(key, predicate);
}

function scalarProblem(key: string, value: unknown): string | undefined {
  if (value === null) {
    return `filter key \`${key}\` has null: a predicate is a string, integer or boolean (absent attributes are omitted, never null, so null matches nothing)`;
  }
  if (typeof value === 'number' && !Number.isInteger(value)) {
    return `filter key \`${key}\` has ${shown(value)}: numbers in a filter must be integers`;
  }
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
    return `filter key \`${key}\` has ${describeJsonType(value)}: a predicate is a string, integer or boolean`;
  }
  if (typeof value === 'string' && value.includes('*')) return patternProblem(key, value);
  return undefined;
}

function patternProblem(key: string, value: string): string | undefined {
  if (key !== 'type') {
    return `filter key \`${key}\` has ${shown(value)}, but only \`type\` takes \`*\` patterns: \`${key}\` values are compared exactly`;
  }
  if (value === '*') {
    return 'filter key `type` has "*", which is not a pattern: remove the `type` key to match every type (AEP-0003 §6.2 rule 3)';
  }
  if (!TYPE_PATTERN.test(value)) {
    return `filter key \`type\` has ${shown(value)}, which is not a pattern: a type pattern is a type prefix followed by ".*", such as "attention.*" or "x.acme.*"`;
  }
  return undefined;
}

function severityBandProblem(band: Record<string, unknown>): string | undefined {
  const keys = Object.keys(band);
  const stray = keys.find((bound) => bound !== 'gte' && bound !== 'lte');
  if (stray !== undefined) {
    return `filter key \`severity\` compares with \`${shownKey(stray)}\`, which is not supported: use \`gte\` and/or \`lte\` (both inclusive), such as {"gte": "notice"}`;
  }
  if (keys.length === 0) {
    return 'filter key `severity` has an empty comparison: give `gte`, `lte` or both, such as {"gte": "notice"}';
  }
  for (const bound of keys) {
    if (!SEVERITY_RANK.has(band[bound])) {
      return `filter key \`severity\` has \`${bound}\` ${shown(band[bound])}, which is not a severity: use one of ${SEVERITY_LIST}`;
    }
  }
  return undefined;
}

/**
 * For a filter that passed `validateFilter`: a sentence naming a predicate
 * no event can satisfy, or undefined. Core attributes have one wire type
 * each (AEP-0001 §5.1) and comparison is exact (§6.2 rule 2), so `{"session":
 * 5}` or `{"severity": "warn"}` is grammatical yet can never match; neither
 * can a band whose `gte` is above its `lte`. An endpoint must subscribe such
 * a filter (§6.5); a person who wrote it wants to hear about it, since a
 * filter that silently matches nothing looks like a quiet agent.
 */
export function unsatisfiablePredicate(filter: AttrFilter): string | undefined {
  for (const key of Object.keys(filter)) {
    const predicate = filter[key];
    if (key === 'severity' && isRecord(predicate)) {
      const low = SEVERITY_RANK.get(predicate['gte']);
      const high = SEVERITY_RANK.get(predicate['lte']);
      if (low !== undefined && high !== undefined && low > high) {
        return `filter key \`severity\` asks for at least ${shown(predicate['gte'])} and at most ${shown(predicate['lte'])}, which no event can be: swap the bounds`;
      }
      continue;
    }
    for (const value of Array.isArray(predicate) ? predicate : [predicate]) {
      const problem = wireTypeProblem(key, value);
      if (problem !== undefined) return problem;
    }
  }
  return undefined;
}

function wireTypeProblem(key: string, value: unknown): string | undefined {
  if (STRING_KEYS.has(key) && typeof value !== 'string') {
    return `filter key \`${key}\` has ${shown(value)}, but \`${key}\` is a string and values are compared exactly: write ${shown(String(value))}`;
  }
  if (key === 'severity' && !SEVERITY_RANK.has(value)) {
    return `filter key \`severity\` has ${shown(value)}, which is not a severity: use one of ${SEVERITY_LIST}`;
  }
  if (key === 'capture' && !CAPTURE_SET.has(value)) {
    return `filter key \`capture\` has ${shown(value)}, which is not a capture level: use one of ${CAPTURE_LIST}`;
  }
  if (key === 'epoch' && !(typeof value === 'number' && value >= 0)) {
    return `filter key \`epoch\` has ${shown(value)}, but an epoch is a non-negative integer and values are compared exactly`;
  }
  return undefined;
}

/**
 * True when `event` satisfies every predicate of a filter that passed
 * `validateFilter` (§6.2). Allocates nothing per call: the hub runs it for
 * every event against every subscription.
 */
export function matchesFilter(filter: AttrFilter, event: Readonly<Record<string, unknown>>): boolean {
  for (const key in filter) {
    if (!hasOwn.call(filter, key)) continue;
    if (!matchesPredicate(key, filter[key], attributeOf(event, key))) return false;
  }
  return true;
}

/** The attribute as matched: own members only, with the §6.2 rule 5 defaults. */
function attributeOf(event: Readonly<Record<string, unknown>>, key: string): unknown {
  const value = hasOwn.call(event, key) ? event[key] : undefined;
  if (value !== undefined) return value;
  switch (key) {
    case 'severity':
      return DEFAULT_SEVERITY;
    case 'capture':
      return DEFAULT_CAPTURE;
    case 'epoch':
      return 0;
    default:
      return undefined;
  }
}

function matchesPredicate(key: string, predicate: unknown, value: unknown): boolean {
  if (value === undefined) return false;
  if (Array.isArray(predicate)) {
    for (let index = 0; index < predicate.length; index++) {
      if (matchesScalar(key, predicate[index], value)) return true;
    }
    return false;
  }
  if (isRecord(predicate)) return withinSeverityBand(predicate, value);
  return matchesScalar(key, predicate, value);
}

function matchesScalar(key: string, expected: unknown, value: unknown): boolean {
  if (key === 'type' && typeof expected === 'string' && typeof value === 'string' && isTypePattern(expected)) {
    return hasTypePrefix(value, expected);
  }
  // §6.2 rule 2: exact JSON comparison, so 1 never equals "1".
  return expected === value;
}

function isTypePattern(expected: string): boolean {
  const length = expected.length;
  return length >= 3 && expected.charCodeAt(length - 1) === 42 /* * */ && expected.charCodeAt(length - 2) === 46 /* . */;
}

/**
 * `p.*` matches a type strictly beginning with `p.` (§6.2 rule 3), so
 * `attention.*` matches `attention.requested` but neither `attention` nor
 * `attentionx.y`. Compared in place to avoid slicing the pattern per event.
 */
function hasTypePrefix(type: string, pattern: string): boolean {
  const prefixLength = pattern.length - 1; // includes the dot
  if (type.length <= prefixLength) return false;
  for (let index = 0; index < prefixLength; index++) {
    if (type.charCodeAt(index) !== pattern.charCodeAt(index)) return false;
  }
  return true;
}

function withinSeverityBand(band: Record<string, unknown>, value: unknown): boolean {
  const rank = SEVERITY_RANK.get(value);
  if (rank === undefined) return false;
  const low = band['gte'];
  if (low !== undefined && rank < (SEVERITY_RANK.get(low) ?? Infinity)) return false;
  const high = band['lte'];
  if (high !== undefined && rank > (SEVERITY_RANK.get(high) ?? -Infinity)) return false;
  return true;
}
