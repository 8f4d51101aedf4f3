/**
 * Capture down-levelling at the hub's fan-out (AEP-0001 §8.2, AEP-0003 §6.4):
 * a subscription with a capture ceiling receives each event rewritten to at
 * most that level, never up-levelled. Hub-side only; it never ships in the
 * extension.
 *
 * Pruning is driven by the `x-aep-capture` markers of the payload schemas
 * (AEP-0002 §5.1), read once at module load from the vendored copy in
 * test/fixtures/aep/schemas/types/ into a tree per type. The corpus pinning
 * this behaviour is test/fixtures/aep/downlevel/cases.json.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CAPTURE_LEVELS, DEFAULT_CAPTURE, captureRank, type CaptureLevel } from '../../../src/aep/levels';
import { repoRoot } from '../../support/fixtures';

/** One schema node's gate, with the gates of its properties and array items. */
interface Gate {
  readonly rank: number;
  readonly properties: ReadonlyMap<string, Gate>;
  readonly items: Gate | undefined;
}

const METADATA = captureRank('metadata');
const REDACTED = captureRank('redacted');
const FULL = captureRank('full');

const hasOwn = Object.prototype.hasOwnProperty;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isCaptureLevel(value: unknown): value is CaptureLevel {
  return typeof value === 'string' && (CAPTURE_LEVELS as readonly string[]).includes(value);
}

/**
 * Sets an own data property even for the key `__proto__`, which plain
 * assignment would turn into a prototype swap (a payload may carry one as an
 * ordinary member after `JSON.parse`).
 */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

function readGate(schema: unknown, where: string): Gate {
  if (!isRecord(schema)) throw new Error(`${where}: a schema node must be an object`);
  const marker = schema['x-aep-capture'];
  // AEP-0002 §5.1 rule 4: an unannotated field is metadata.
  let rank = METADATA;
  if (marker !== undefined) {
    if (!isCaptureLevel(marker)) throw new Error(`${where}: x-aep-capture ${JSON.stringify(marker)} is not a capture level`);
    rank = captureRank(marker);
  }
  const properties = new Map<string, Gate>();
  const declared = schema['properties'];
  if (isRecord(declared)) {
    for (const [name, child] of Object.entries(declared)) properties.set(name, readGate(child, `${where}.${name}`));
  }
  const items = schema['items'] === undefined ? undefined : readGate(schema['items'], `${where}[]`);
  return { rank, properties, items };
}

function loadGates(): ReadonlyMap<string, Gate> {
  const dir = path.join(repoRoot(), 'test', 'fixtures', 'aep', 'schemas', 'types');
  const suffix = '.schema.json';
  const gates = new Map<string, Gate>();
  for (const file of fs.readdirSync(dir).sort()) {
    if (!file.endsWith(suffix)) continue;
    const schema: unknown = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
    const gate = readGate(schema, file);
    // A schema that declares no properties (control.accepted, control.pause,
    // control.resume) gives a hop nothing to prune by, so its payload is
    // treated like an unknown type's: dropped whole. Dropping more than
    // required is always legal (AEP-0001 §8.2(b)); run.py does the same.
    if (gate.properties.size > 0) gates.set(file.slice(0, -suffix.length), gate);
  }
  return gates;
}

const GATES = loadGates();

/**
 * The gate the schemas give a payload path (`['answer', 'text']`,
 * `['documents', '[]', 'content']`), or undefined when the type has no
 * usable schema or the path names no declared field. For tests and
 * diagnostics; `downlevel` walks the tree directly.
 */
export function captureAnnotation(type: string, fieldPath: readonly string[]): CaptureLevel | undefined {
  let gate = GATES.get(type);
  for (const step of fieldPath) {
    gate = step === '[]' ? gate?.items : gate?.properties.get(step);
    if (gate === undefined) return undefined;
  }
  return gate === undefined ? undefined : (CAPTURE_LEVELS[gate.rank] ?? undefined);
}

/** The payload types with a usable schema, sorted. */
export function annotatedTypes(): string[] {
  return [...GATES.keys()];
}

/**
 * Rewrites `event` for a subscriber whose capture ceiling is `ceiling`.
 *
 * Returns the very same object when the event's capture (default
 * `metadata`) is already at or below the ceiling, so the hub can forward the
 * bytes it received. Otherwise returns a new event with `capture` rewritten
 * and `data` pruned; the input is never mutated, and unchanged sub-objects of
 * `data` may be shared with it, so treat both as immutable.
 *
 * A `capture` that is not a level is read as `full`: the hop cannot know what
 * such an event carries, so it is pruned against every ceiling below `full`.
 */
export function downlevel<T extends Record<string, unknown>>(event: T, ceiling: CaptureLevel): T | Record<string, unknown> {
  const declared = event['capture'];
  const sourceRank = declared === undefined ? captureRank(DEFAULT_CAPTURE) : isCaptureLevel(declared) ? captureRank(declared) : FULL;
  if (sourceRank <= captureRank(ceiling)) return event;

  // AEP-0001 §8.2(e): `redacted` is a provenance claim a mechanical hop can
  // never mint, so a `full` event under a `redacted` ceiling lands on
  // `metadata`. (Reaching here with a `redacted` ceiling means the source was
  // `full`; the check is spelled out so the rule reads as the spec states it.)
  const target: CaptureLevel = ceiling === 'redacted' && sourceRank === FULL ? 'metadata' : ceiling;
  const out: Record<string, unknown> = { ...event, capture: target };
  const data = event['data'];
  const declaredType = event['type'];
  const type = typeof declaredType === 'string' ? declaredType : '';
  const gate = GATES.get(type);
  // `none` is envelope only; an unknown type's payload cannot be pruned field
  // by field, so it goes whole (the conservative direction, corpus DL8).
  if (target === 'none' || gate === undefined || !isRecord(data)) {
    delete out['data'];
    return out;
  }
  const rank = captureRank(target);
  let pruned = pruneObject(data, gate, rank);
  // Below `redacted` the [metadata*] exception fields must be structural
  // (AEP-0002 §5.3). The schema marks them `metadata`, so pruning kept their
  // content; a hop has no source context to classify it, so it degrades them.
  if (rank < REDACTED) pruned = degradeExceptions(type, event, pruned);
  out['data'] = pruned;
  return out;
}

function pruneValue(value: unknown, gate: Gate | undefined, rank: number): unknown {
  if (Array.isArray(value)) return pruneArray(value, gate?.items, rank);
  if (isRecord(value)) return pruneObject(value, gate, rank);
  return value;
}

/** Copy-on-write: returns `items` itself when no element changes. */
function pruneArray(items: readonly unknown[], gate: Gate | undefined, rank: number): unknown[] | readonly unknown[] {
  // Items gated above the level may not appear at all (no current schema does this).
  if (gate !== undefined && gate.rank > rank) return [];
  let out: unknown[] | undefined;
  for (let index = 0; index < items.length; index++) {
    const item = items[index];
    const kept = pruneValue(item, gate, rank);
    if (out === undefined && kept !== item) out = items.slice(0, index);
    out?.push(kept);
  }
  return out ?? items;
}

/**
 * Drops every member gated above `rank` (AEP-0002 §5.1 rule 3), recursing
 * into nested objects and array items. Members the schema does not declare
 * default to `metadata` and stay (rule 4; the payload objects are open).
 * Copy-on-write: returns `object` itself when nothing below it changes.
 */
function pruneObject(object: Record<string, unknown>, gate: Gate | undefined, rank: number): Record<string, unknown> {
  const keys = Object.keys(object);
  let out: Record<string, unknown> | undefined;
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index] as string;
    const value = object[key];
    const child = gate?.properties.get(key);
    const allowed = (child?.rank ?? METADATA) <= rank;
    const kept = allowed ? pruneValue(value, child, rank) : undefined;
    if (out === undefined && (!allowed || kept !== value)) {
      out = {};
      for (let before = 0; before < index; before++) {
        const earlier = keys[before] as string;
        setOwn(out, earlier, object[earlier]);
      }
    }
    if (out !== undefined && allowed) setOwn(out, key, kept);
  }
  return out ?? object;
}

function degradeExceptions(type: string, event: Record<string, unknown>, data: Record<string, unknown>): Record<string, unknown> {
  switch (type) {
    case 'attention.requested':
      return structuralRequest(event, data);
    case 'attention.answered':
    case 'control.attention.respond':
      return structuralAnswer(data);
    default:
      return data;
  }
}

/**
 * AEP-0003 §9 item 2 synthesis: "{agent} requests {kind}: {subject}", built
 * from envelope attributes and the metadata-level `kind` only, so it carries
 * nothing the envelope does not. Without a subject the tail is omitted.
 */
export function synthesizePrompt(agent: unknown, kind: unknown, subject: unknown): string {
  const who = typeof agent === 'string' && agent !== '' ? agent : 'an agent';
  const what = typeof kind === 'string' && kind !== '' ? kind : 'attention';
  return typeof subject === 'string' && subject !== '' ? `${who} requests ${what}: ${subject}` : `${who} requests ${what}`;
}

/**
 * The structural placeholder for a label: the item's own id (corpus DL3,
 * DL4), or its 1-based position when it has no usable id (AEP-0002 §5.3's
 * own example of a placeholder).
 */
function placeholder(item: Record<string, unknown>, index: number): string {
  const id = item['id'];
  if (typeof id === 'string' && id !== '') return id;
  if (typeof id === 'number') return String(id);
  return String(index + 1);
}

/**
 * Relabels a list of `{id, label}` items. Non-object items are dropped: they
 * are malformed, and as bare strings they would carry their label text.
 */
function relabel(items: unknown, extra?: (item: Record<string, unknown>, out: Record<string, unknown>) => void): unknown[] | undefined {
  if (!Array.isArray(items)) return undefined;
  const out: unknown[] = [];
  items.forEach((item, index) => {
    if (!isRecord(item)) return;
    const copy: Record<string, unknown> = { ...item, label: placeholder(item, index) };
    extra?.(item, copy);
    out.push(copy);
  });
  return out;
}

function structuralRequest(event: Record<string, unknown>, data: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...data };
  if (hasOwn.call(data, 'prompt')) out['prompt'] = synthesizePrompt(event['agent'], data['kind'], event['subject']);
  replaceOrDrop(out, 'options', hasOwn.call(data, 'options') ? relabel(data['options']) : null);
  const fields = hasOwn.call(data, 'fields')
    ? relabel(data['fields'], (field, copy) => {
        if (hasOwn.call(field, 'choices')) replaceOrDrop(copy, 'choices', relabel(field['choices']));
      })
    : null;
  replaceOrDrop(out, 'fields', fields);
  return out;
}

/** `null`: the member was absent, leave it; `undefined`: malformed, drop it. */
function replaceOrDrop(target: Record<string, unknown>, key: string, value: unknown[] | undefined | null): void {
  if (value === null) return;
  if (value === undefined) delete target[key];
  else target[key] = value;
}

/**
 * `answer.values` below `redacted`: only number and boolean entries stay. A
 * string may be free text (a `string` field or an `other` answer) and even an
 * array of choice ids cannot be told apart from text without the request's
 * field specs, which a hop does not have (corpus DL1, DL2; AEP-0001 §8.2(b)
 * makes dropping more than required legal).
 */
function structuralAnswer(data: Record<string, unknown>): Record<string, unknown> {
  const answer = data['answer'];
  if (!isRecord(answer) || !hasOwn.call(answer, 'values')) return data;
  const values = answer['values'];
  const nextAnswer: Record<string, unknown> = { ...answer };
  if (isRecord(values)) {
    const kept: Record<string, unknown> = {};
    for (const key of Object.keys(values)) {
      const value = values[key];
      if (typeof value === 'number' || typeof value === 'boolean') setOwn(kept, key, value);
    }
    nextAnswer['values'] = kept;
  } else {
    delete nextAnswer['values'];
  }
  return { ...data, answer: nextAnswer };
}
