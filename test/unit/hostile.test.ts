// Hostile input: a seeded, deterministic fuzzer mutates the golden corpus and
// feeds every result through parseWireMessage and one long-lived, tightly
// bounded Inbox. Nothing may throw, nothing may pollute Object.prototype, and
// every bounded structure must stay inside its bound. A failure names the
// seed and input index; `generateInputs(SEED, index + 1)[index]` regenerates
// that input exactly. AEP_FUZZ_STATS=1 prints the run's counters and maxima.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { before, describe, test } from 'node:test';
import { PAYLOAD_FAST_PATHS } from '../../src/aep/attention';
import { buildRespondCommand } from '../../src/aep/control';
import { envelopeSchema, parseEnvelope } from '../../src/aep/envelope';
import { parseUntrustedJson } from '../../src/base/json';
import { validateFormValues } from '../../src/aep/formValidation';
import { parseWireMessage } from '../../src/aep/frames';
import { Inbox } from '../../src/inbox/inbox';
import { goldenLines } from '../support/fixtures';
import { resumePosition, resumePositions } from '../support/resumePositions';

const SEED = 0xae9_0003;
const INPUTS = 4000;
// The dedupe window is small enough to fill: most mutated events land on a taken position and are not stored (AEP-0001 §7.2).
const BOUNDS = { dedupeCapacity: 250, timelineLimit: 20, maxSessions: 50, maxClosed: 100, maxParked: 100 } as const;
const NOW = Date.parse('2026-07-03T10:30:00.000Z');
const SENDER = { agent: 'vscode-aep', source: 'aep://workstation/agent/vscode-aep' };

// ---- a tiny seeded PRNG (mulberry32) --------------------------------------------

class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[this.int(items.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  }
}

// ---- JSON trees, handled as unknown --------------------------------------------------

type Container = Record<string, unknown> | unknown[];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

interface Slot {
  parent: Container;
  key: string | number;
}

/** Every value position in the tree (not the root), breadth first, bounded in depth. */
function slots(root: unknown, maxDepth = 6): Slot[] {
  const out: Slot[] = [];
  const queue: Array<{ node: unknown; depth: number }> = [{ node: root, depth: 0 }];
  for (let i = 0; i < queue.length; i++) {
    const entry = queue[i];
    if (!entry || entry.depth >= maxDepth) continue;
    const { node, depth } = entry;
    if (Array.isArray(node)) {
      node.forEach((child, index) => {
        out.push({ parent: node, key: index });
        queue.push({ node: child, depth: depth + 1 });
      });
    } else if (isRecord(node)) {
      for (const key of Object.keys(node)) {
        out.push({ parent: node, key });
        queue.push({ node: node[key], depth: depth + 1 });
      }
    }
  }
  return out;
}

function records(root: unknown): Array<Record<string, unknown>> {
  const found: Array<Record<string, unknown>> = isRecord(root) ? [root] : [];
  for (const slot of slots(root)) {
    const value = Array.isArray(slot.parent) ? slot.parent[Number(slot.key)] : slot.parent[String(slot.key)];
    if (isRecord(value)) found.push(value);
  }
  return found;
}

function setSlot(slot: Slot, value: unknown): void {
  if (Array.isArray(slot.parent)) slot.parent[Number(slot.key)] = value;
  else slot.parent[String(slot.key)] = value;
}

function deleteSlot(slot: Slot): void {
  if (Array.isArray(slot.parent)) slot.parent.splice(Number(slot.key), 1);
  else delete slot.parent[String(slot.key)];
}

/** An own, enumerable property even for `__proto__`, so JSON.stringify writes it out as a key. */
function defineOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function dataOf(root: Record<string, unknown>): Record<string, unknown> {
  const existing = root['data'];
  if (isRecord(existing)) return existing;
  const created: Record<string, unknown> = {};
  root['data'] = created;
  return created;
}

// ---- hostile values ------------------------------------------------------------------

const HUGE = 'A'.repeat(100_000);
const ATTENTION_TYPES = [
  'attention.requested',
  'attention.answered',
  'attention.resolved',
  'attention.timeout',
  'attention.routed',
  'attention.unknown-next-thing',
] as const;
const OTHER_TYPES = [
  'session.ended',
  'session.started',
  'control.attention.respond',
  'control.accepted',
  'control.rejected',
  'x.vendor.thing.done',
  'attention',
  'attention.',
  '.',
  'hello',
  'subscribed',
  'roster',
  'closing',
  '__proto__',
  'constructor',
] as const;
const POSITIONS: readonly unknown[] = [
  -1,
  -0,
  0,
  1,
  2,
  0.5,
  -3.25,
  1e21,
  -1e21,
  Number.MAX_SAFE_INTEGER,
  Number.MAX_SAFE_INTEGER + 2,
  2 ** 63,
  1e308,
  '1',
  null,
  true,
  [],
  {},
];
const PROTO_KEYS = ['__proto__', 'constructor', 'prototype'] as const;
const SESSIONS = ['s_8f2c', 's_form', 's_opt', 's_shared', 's_epoch', 's_min', '', ' ', '__proto__', 'constructor'] as const;
const SOURCES = [
  'aep://host-a/agent/claude-code/session/s_8f2c',
  'aep://host-a/agent/claude-code/session/s_form',
  'aep://host-b/agent/telegram-sink',
  'aep://evil/agent/x',
  '__proto__',
] as const;
const REQUEST_IDS = [
  '01JX9YB4RQ000000000000GOLD',
  '01JX9YBQARQ20000000000GOLD',
  '01JX9YBEFRQ0000000000GOLD3',
  'toString',
  '__proto__',
] as const;

class Mutator {
  private unique = 0;

  constructor(private readonly rng: Rng) {}

  hostileValue(depth = 0): unknown {
    const rng = this.rng;
    switch (rng.int(depth > 2 ? 10 : 14)) {
      case 0:
        return null;
      case 1:
        return rng.pick([0, -1, 1.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 4294967296]);
      case 2:
        return rng.pick([true, false]);
      case 3:
        return '';
      case 4:
        return rng.pick(['x', 'MariaDB', '1', 'allow', ' ', '\u0000', '\u2028', '😀', '<script>alert(1)</script>']);
      case 5:
        return HUGE;
      case 6:
        return rng.pick(POSITIONS);
      case 7:
        return { polluted: 'yes' };
      case 8:
        return [];
      case 9:
        return {};
      case 10:
        return [this.hostileValue(depth + 1), this.hostileValue(depth + 1)];
      case 11:
        return { a: this.hostileValue(depth + 1), b: [this.hostileValue(depth + 1)] };
      case 12: {
        // Nested arrays, deep but within what JSON.stringify can write.
        let nested: unknown = [];
        for (let i = rng.int(500) + 1; i > 0; i--) nested = [nested];
        return nested;
      }
      default:
        return Array.from({ length: rng.int(50) + 1 }, (_, i) => (rng.chance(0.5) ? String(i) : i));
    }
  }

  private hostileString(): string {
    const rng = this.rng;
    if (rng.chance(0.15)) return HUGE;
    if (rng.chance(0.5)) return `fz-${++this.unique}`;
    return rng.pick(['a', 'x', '1', ' ', '\u0000', '😀', 'toString', 'hasOwnProperty']);
  }

  /** One structural mutation of a parsed golden event. Returns its name. */
  mutateTree(root: Record<string, unknown>): string {
    const rng = this.rng;
    switch (rng.int(13)) {
      case 0: {
        const all = slots(root);
        if (all.length > 0) setSlot(rng.pick(all), this.hostileValue());
        return 'replace-value';
      }
      case 1: {
        const all = slots(root);
        if (all.length > 0) deleteSlot(rng.pick(all));
        return 'delete-key';
      }
      case 2: {
        const target = rng.pick(records(root));
        const payload: Record<string, unknown> = { polluted: 'yes', seq: -1, session: 'evil', type: 'attention.requested' };
        if (rng.chance(0.3)) defineOwn(payload, '__proto__', { polluted: 'deep' });
        defineOwn(target, rng.pick(PROTO_KEYS), rng.chance(0.8) ? payload : this.hostileValue());
        return 'proto-key';
      }
      case 3:
        root['type'] = rng.chance(0.7) ? rng.pick(ATTENTION_TYPES) : rng.pick(OTHER_TYPES);
        // A lifecycle event for a request that may never come: it is parked.
        if (rng.chance(0.8)) root['subject'] = rng.chance(0.3) ? rng.pick(REQUEST_IDS) : `fz-subject-${++this.unique}`;
        return 'swap-type';
      case 4:
        this.mutateFields(root);
        return 'fields';
      case 5: {
        const key = rng.pick(['seq', 'epoch'] as const);
        if (rng.chance(0.2)) delete root[key];
        else root[key] = rng.chance(0.2) ? rng.int(1_000_000) : rng.pick(POSITIONS);
        return 'position';
      }
      case 6: {
        // Identity churn: new sessions, sources and ids stress every bound.
        const key = rng.pick(['session', 'source', 'id', 'subject', 'agent', 'cause'] as const);
        if (key === 'session') root[key] = rng.chance(0.5) ? rng.pick(SESSIONS) : this.hostileString();
        else if (key === 'source') root[key] = rng.chance(0.5) ? rng.pick(SOURCES) : `aep://h/${this.hostileString()}`;
        else if (key === 'subject' || key === 'cause') root[key] = rng.chance(0.6) ? rng.pick(REQUEST_IDS) : this.hostileString();
        else root[key] = this.hostileString();
        return 'identity';
      }
      case 7: {
        const data = dataOf(root);
        const answer: Record<string, unknown> = {};
        if (rng.chance(0.5)) answer['option'] = rng.chance(0.7) ? rng.pick(['allow', 'deny', '']) : this.hostileValue();
        if (rng.chance(0.4)) answer['text'] = rng.chance(0.7) ? 'free text' : this.hostileValue();
        if (rng.chance(0.7)) {
          const values: Record<string, unknown> = {};
          for (const key of ['name', 'staged', 'regions', 'db', 'extra']) if (rng.chance(0.6)) values[key] = this.hostileValue();
          if (rng.chance(0.2)) defineOwn(values, rng.pick(PROTO_KEYS), ['1']);
          answer['values'] = rng.chance(0.9) ? values : this.hostileValue();
        }
        data['answer'] = rng.chance(0.9) ? answer : this.hostileValue();
        return 'answer';
      }
      case 8: {
        const data = dataOf(root);
        data['expires_at'] = rng.pick(['2000-01-01T00:00:00Z', '2999-01-01T00:00:00Z', 'soon', '', 17, null]);
        if (rng.chance(0.5)) data['respond_via'] = rng.pick([['oob'], ['control'], [], 'control', [5]]);
        if (rng.chance(0.5)) {
          data['options'] = rng.pick([
            [{ id: 'allow', label: 'Allow' }, { id: 'allow', label: 'Again' }],
            [{ id: '', label: 'x' }],
            'allow',
            [null],
          ]);
        }
        return 'request-data';
      }
      case 9: {
        const data = dataOf(root);
        data['kind'] = rng.pick(['form', 'permission', 'input', 'other', 'teleport', '', 5, null]);
        if (rng.chance(0.5)) data['prompt'] = rng.chance(0.5) ? HUGE : this.hostileValue();
        return 'kind';
      }
      case 11: {
        // A lifecycle event for a request that never arrives: parked until the bound evicts it.
        root['type'] = rng.pick(['attention.answered', 'attention.resolved', 'attention.timeout', 'attention.routed']);
        root['subject'] = `fz-orphan-${++this.unique}`;
        // A position of its own: at the original's, it would be a second event there and not applied (AEP-0001 §7.2).
        if (typeof root['seq'] === 'number') root['seq'] = 10_000_000 + this.unique;
        if (typeof root['session'] !== 'string' || root['session'] === '') root['session'] = rng.pick(SESSIONS.slice(0, 6));
        return 'orphan-lifecycle';
      }
      case 10:
        root['data'] = rng.chance(0.5) ? this.hostileValue() : { resolution: this.hostileValue(), reason: this.hostileValue() };
        return 'data';
      default: {
        const key = rng.pick(['aep', 'time', 'severity', 'capture', 'run', 'step', 'traceparent'] as const);
        root[key] = rng.chance(0.5) ? this.hostileValue() : rng.pick(['0.1', '0.2', 'debug', 'critical', 'full', 'none', '']);
        return 'attribute';
      }
    }
  }

  private mutateFields(root: Record<string, unknown>): void {
    const rng = this.rng;
    root['type'] = 'attention.requested';
    const data = dataOf(root);
    data['kind'] = rng.chance(0.8) ? 'form' : rng.pick(['permission', 'teleport']);
    if (typeof data['prompt'] !== 'string') data['prompt'] = 'p';
    const golden: unknown[] = [
      { id: 'name', type: 'string', label: 'Service name', required: true },
      { id: 'staged', type: 'boolean', label: 'Staged?' },
      { id: 'regions', type: 'select', label: 'Regions', multi: true, choices: [{ id: '1', label: 'a' }, { id: '2', label: 'b' }] },
      { id: 'db', type: 'select', label: 'Database', other: true, choices: [{ id: '1', label: 'PostgreSQL' }] },
      { id: 'n', type: 'number', label: 'N', min: 1, max: 5 },
    ];
    const fields = Array.isArray(data['fields']) ? data['fields'] : golden;
    data['fields'] = fields;
    const entry = fields.length > 0 ? fields[rng.int(fields.length)] : undefined;
    switch (rng.int(9)) {
      case 0:
        if (isRecord(entry)) delete entry['choices'];
        break;
      case 1:
        if (isRecord(entry)) entry['type'] = rng.pick(['datetime', 'file', 'SELECT', '', 'select ', '__proto__', 'constructor', 7]);
        break;
      case 2:
        if (entry !== undefined) fields.push(JSON.parse(JSON.stringify(entry)) as unknown);
        break;
      case 3: {
        const other = fields[rng.int(fields.length)];
        if (isRecord(entry) && isRecord(other)) entry['id'] = other['id'];
        break;
      }
      case 4:
        if (isRecord(entry)) entry['choices'] = [{ id: 'x', label: 'X' }, { id: 'x', label: 'again' }];
        break;
      case 5:
        if (isRecord(entry)) Object.assign(entry, { type: 'number', min: 10, max: 1 });
        break;
      case 6:
        for (let i = rng.int(300); i > 0; i--) fields.push({ id: `f${i}`, type: 'string', label: 'x', required: rng.chance(0.5) });
        break;
      case 7:
        if (entry !== undefined) fields[rng.int(fields.length)] = this.hostileValue();
        break;
      default:
        if (isRecord(entry)) {
          entry['choices'] = [];
          entry['other'] = rng.chance(0.5);
          entry['id'] = rng.pick(['__proto__', 'constructor', '', 'hasOwnProperty']);
        }
    }
  }

  /** One textual mutation of the serialized input. Returns its name. */
  mutateText(text: string): { text: string; name: string } {
    const rng = this.rng;
    const at = () => rng.int(text.length + 1);
    switch (rng.int(7)) {
      case 0: {
        const chars = [...text];
        for (let i = rng.int(4) + 1; i > 0 && chars.length > 0; i--) {
          chars[rng.int(chars.length)] = rng.pick(['{', '}', '[', ']', '"', ',', ':', '\\', ' ', 'a', 'Z', '0', '.', 'é', '😀', '\u0000', '\u2028']);
        }
        return { text: chars.join(''), name: 'char-flip' };
      }
      case 1: {
        // A byte flip, read back as UTF-8 the way a socket would.
        const bytes = Buffer.from(text, 'utf8');
        if (bytes.length > 0) {
          const i = rng.int(bytes.length);
          bytes[i] = (bytes[i] ?? 0) ^ (1 << rng.int(8));
        }
        return { text: bytes.toString('utf8'), name: 'byte-flip' };
      }
      case 2:
        return { text: text.slice(0, at()), name: 'truncate' };
      case 3: {
        const i = at();
        return { text: text.slice(0, i) + rng.pick(['}', ']', '"', ',', '{"a":', 'null', '\\u', '\uFEFF']) + text.slice(i), name: 'insert' };
      }
      case 4: {
        // Duplicate a key; JSON.parse keeps the last one.
        const key = rng.pick(['type', 'id', 'session', 'seq', 'epoch', 'data', 'source', '__proto__', 'constructor']);
        const value = rng.pick(['null', '-1', '"attention.requested"', '"s_dup"', '{"polluted":"yes"}', '[]', '1e400']);
        if (!text.startsWith('{') || !text.endsWith('}')) return { text, name: 'duplicate-key' };
        const injected = rng.chance(0.5) ? `{"${key}":${value},${text.slice(1)}` : `${text.slice(0, -1)},"${key}":${value}}`;
        return { text: injected, name: 'duplicate-key' };
      }
      case 5: {
        // Nesting deeper than JSON.stringify can write back, as an extension attribute.
        if (!text.startsWith('{')) return { text, name: 'deep-nesting' };
        const depth = rng.int(20_000) + 1;
        return { text: `{"deepnest":${'['.repeat(depth)}${']'.repeat(depth)},${text.slice(1)}`, name: 'deep-nesting' };
      }
      default:
        return {
          text: rng.pick(['null', '[]', '[{"type":"hello","versions":["0.1"]}]', '5', '"attention.requested"', '{}', '', ' ', '{"type":""}']),
          name: 'not-an-object',
        };
    }
  }
}

/** The whole input stream for a seed: golden lines, mutated. Deterministic. */
function generateInputs(seed: number, count: number): Array<{ text: string; mutations: string[] }> {
  const rng = new Rng(seed);
  const mutator = new Mutator(rng);
  const lines = goldenLines();
  const out: Array<{ text: string; mutations: string[] }> = [];
  for (let i = 0; i < count; i++) {
    const line = rng.pick(lines);
    if (rng.chance(0.05)) {
      out.push({ text: line, mutations: ['none'] });
      continue;
    }
    const mutations: string[] = [];
    let text = line;
    if (rng.chance(0.8)) {
      const parsed: unknown = JSON.parse(line);
      assert.ok(isRecord(parsed));
      for (let n = rng.int(3) + 1; n > 0; n--) mutations.push(mutator.mutateTree(parsed));
      // Fresh ids keep the dedupe window under pressure; golden ids keep duplicates coming.
      if (rng.chance(0.4)) parsed['id'] = `fz-id-${i}`;
      text = JSON.stringify(parsed);
    }
    if (mutations.length === 0 || rng.chance(0.25)) {
      const mutated = mutator.mutateText(text);
      text = mutated.text;
      mutations.push(mutated.name);
    }
    out.push({ text, mutations });
  }
  return out;
}

// ---- the run ----------------------------------------------------------------------------

interface Violation {
  index: number;
  what: string;
  mutations: string[];
  input: string;
}

interface FuzzRun {
  inputs: number;
  invalid: number;
  frames: number;
  unknownFrames: number;
  events: number;
  applied: number;
  duplicates: number;
  problems: number;
  commandsChecked: number;
  /** Inputs after which more than maxSessions sessions were tracked (allowed only for open requests). */
  overMaxSessions: number;
  throws: Violation[];
  bounds: Map<string, Violation>;
  pollution: string[];
  max: Record<string, number>;
  mutationCounts: Map<string, number>;
}

function snapshotPrototypes(): string {
  const describe = (name: string, target: object) =>
    `${name}:${[...Object.getOwnPropertyNames(target), ...Object.getOwnPropertySymbols(target).map(String)].sort().join(',')}`;
  return [
    describe('Object', Object.prototype),
    describe('Array', Array.prototype),
    describe('Function', Function.prototype),
    describe('String', String.prototype),
  ].join('\n');
}

function pollutionProblems(before: string): string[] {
  const problems: string[] = [];
  const probe: Record<string, unknown> = {};
  for (const key of ['polluted', 'seq', 'session', 'type', 'id']) {
    if (probe[key] !== undefined) problems.push(`({}).${key} is ${String(probe[key])}`);
  }
  if (([] as unknown as Record<string, unknown>)['polluted'] !== undefined) problems.push('[].polluted is set');
  if (Object.getPrototypeOf(probe) !== Object.prototype) problems.push('a fresh object literal has a different prototype');
  const after = snapshotPrototypes();
  if (after !== before) problems.push(`built-in prototypes changed:\n${before}\n---\n${after}`);
  return problems;
}

function runFuzz(seed: number, count: number): FuzzRun {
  const prototypesBefore = snapshotPrototypes();
  const inbox = new Inbox({ ...BOUNDS, now: () => NOW });
  const run: FuzzRun = {
    inputs: 0,
    invalid: 0,
    frames: 0,
    unknownFrames: 0,
    events: 0,
    applied: 0,
    duplicates: 0,
    problems: 0,
    commandsChecked: 0,
    overMaxSessions: 0,
    throws: [],
    bounds: new Map(),
    pollution: [],
    max: { dedupeKeys: 0, sessions: 0, parked: 0, timelineEvents: 0, items: 0, open: 0, closed: 0 },
    mutationCounts: new Map(),
  };
  const inputs = generateInputs(seed, count);
  inputs.forEach(({ text, mutations }, index) => {
    run.inputs++;
    for (const name of mutations) run.mutationCounts.set(name, (run.mutationCounts.get(name) ?? 0) + 1);
    const violation = (what: string): Violation => ({ index, what, mutations, input: text.length > 600 ? `${text.slice(0, 600)}… (${text.length} chars)` : text });
    const bound = (name: string, ok: boolean, detail: string) => {
      if (!ok && !run.bounds.has(name)) run.bounds.set(name, violation(detail));
    };
    try {
      const message = parseWireMessage(text);
      switch (message.kind) {
        case 'invalid':
          run.invalid++;
          assert.equal(typeof message.problem, 'string');
          return;
        case 'frame':
          run.frames++;
          return;
        case 'unknown-frame':
          run.unknownFrames++;
          return;
        case 'event':
          run.events++;
      }
      const event = message.event;
      const outcome = inbox.apply(event);
      if (!outcome.applied) run.duplicates++;
      else {
        run.applied++;
        if (outcome.problem !== undefined) run.problems++;
      }

      // Whatever the inbox holds for a request stays answerable without a throw,
      // and the command we would send for it passes our own envelope parser.
      if (event.session !== undefined && (event.type === 'attention.requested' || event.subject !== undefined)) {
        const requestId = event.type === 'attention.requested' ? event.id : (event.subject ?? '');
        const item = inbox.findRequest(event.session, requestId, event.seq === undefined ? undefined : event.source);
        if (item?.request) {
          const values = item.answer?.values ?? {};
          validateFormValues(item.request.fields, values);
          // Sent as typed (the hostile text may hold secrets): always built, at an honest capture.
          const built = buildRespondCommand(item.request, item.answer ?? { option: 'allow' }, SENDER, NOW, { verbatim: true });
          bound('respond-command-builds', built.ok, built.ok ? '' : built.refusal.reason);
          if (built.ok) {
            const reparsed = parseEnvelope(built.command);
            bound('respond-command-parses', reparsed.ok, reparsed.ok ? '' : reparsed.problem);
            run.commandsChecked++;
          }
        }
      }
      inbox.resolveCause(event);
      // Only an event of a session moves that session's position, so checking this one checks them all.
      for (const position of resumePositions(inbox, [event])) {
        bound(
          'positions',
          Number.isSafeInteger(position.seq) && position.seq >= 0 && Number.isSafeInteger(position.epoch) && position.epoch >= 0,
          `resume position ${position.session} ${position.epoch}:${position.seq}`,
        );
      }
      if (index % 97 === 0) inbox.noteDeadlinesPassed();

      const stats = inbox.stats();
      const closed = stats.items - stats.open;
      for (const [key, value] of Object.entries({ ...stats, closed })) {
        const known = run.max[key];
        if (known !== undefined && value > known) run.max[key] = value;
      }
      bound('dedupeKeys', stats.dedupeKeys <= BOUNDS.dedupeCapacity, `dedupeKeys ${stats.dedupeKeys} > ${BOUNDS.dedupeCapacity}`);
      // evictSessions forgets only sessions without open requests (by design:
      // inbox.test.ts "sessions with open requests are never evicted"), at
      // least one per apply, and an apply adds at most one session. So the
      // count may pass maxSessions only by sessions that hold open requests.
      const openSessions = new Set(inbox.open().map((item) => `${item.source}\u0000${item.session}`)).size;
      if (stats.sessions > BOUNDS.maxSessions) run.overMaxSessions++;
      bound(
        'sessions',
        stats.sessions <= BOUNDS.maxSessions + openSessions,
        `sessions ${stats.sessions} > maxSessions ${BOUNDS.maxSessions} + ${openSessions} sessions holding open requests`,
      );
      bound('parked', stats.parked <= BOUNDS.maxParked, `parked ${stats.parked} > ${BOUNDS.maxParked}`);
      const timelineBound = stats.sessions * BOUNDS.timelineLimit;
      bound('timelineEvents', stats.timelineEvents <= timelineBound, `timelineEvents ${stats.timelineEvents} > ${timelineBound}`);
      bound('closed', closed <= BOUNDS.maxClosed, `closed requests kept ${closed} > ${BOUNDS.maxClosed}`);
    } catch (error) {
      run.throws.push(violation(error instanceof Error ? `${error.name}: ${error.message}` : String(error)));
    }
  });
  run.pollution = pollutionProblems(prototypesBefore);
  inbox.dispose();
  return run;
}

function report(violation: Violation | undefined): string {
  if (!violation) return '';
  return `seed ${SEED}, input #${violation.index} (${violation.mutations.join(' + ')}): ${violation.what}\n  input: ${violation.input}`;
}

describe(`hostile input: ${INPUTS} seeded mutations of the golden corpus (seed ${SEED})`, () => {
  let run: FuzzRun;

  before(() => {
    run = runFuzz(SEED, INPUTS);
    if (process.env['AEP_FUZZ_STATS']) console.log({ ...run, mutationCounts: Object.fromEntries(run.mutationCounts), bounds: [...run.bounds] });
  });

  test('the fuzzer is deterministic: one seed, one input stream', () => {
    const digest = (seed: number) => {
      const hash = createHash('sha256');
      for (const { text } of generateInputs(seed, 300)) hash.update(text).update('\u0000');
      return hash.digest('hex');
    };
    assert.equal(digest(SEED), digest(SEED));
    assert.notEqual(digest(SEED), digest(SEED + 1));
  });

  test('the run is not vacuous: thousands of inputs, both refused and applied', () => {
    assert.ok(run.inputs >= 3000, `${run.inputs} inputs`);
    assert.ok(run.invalid > 0, 'some inputs were refused as invalid');
    assert.ok(run.applied > 0, 'some inputs were applied to the inbox');
    assert.ok(run.problems > 0, 'some applied events carried a problem (an unrenderable request, a malformed lifecycle event)');
    assert.ok(run.duplicates > 0, 'some events were deduplicated');
    assert.ok(run.commandsChecked > 0, 'some requests were answered through buildRespondCommand');
    const kinds = ['replace-value', 'delete-key', 'proto-key', 'swap-type', 'fields', 'position', 'identity', 'orphan-lifecycle'];
    for (const name of [...kinds, 'char-flip', 'byte-flip', 'truncate', 'duplicate-key', 'deep-nesting']) {
      assert.ok((run.mutationCounts.get(name) ?? 0) > 0, `mutation ${name} was exercised`);
    }
    // The bounds were actually under pressure, not trivially met.
    assert.equal(run.max['dedupeKeys'], BOUNDS.dedupeCapacity, 'the dedupe set filled up');
    assert.equal(run.max['parked'], BOUNDS.maxParked, 'the parking lot filled up');
  });

  test('nothing throws: parseWireMessage, Inbox.apply and the answer path', () => {
    assert.deepEqual(run.throws.map((v) => report(v)), []);
  });

  test('Object.prototype and the other built-in prototypes are not polluted', () => {
    assert.deepEqual(run.pollution, []);
    assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
  });

  test('the dedupe set stays within dedupeCapacity', () => {
    assert.equal(report(run.bounds.get('dedupeKeys')), '');
    assert.ok((run.max['dedupeKeys'] ?? Infinity) <= BOUNDS.dedupeCapacity);
  });

  test('tracked sessions stay within maxSessions, plus only sessions holding open requests', () => {
    assert.equal(report(run.bounds.get('sessions')), '', `max sessions seen ${run.max['sessions']}, max open ${run.max['open']}`);
    assert.equal(run.max['sessions'], BOUNDS.maxSessions, 'the session bound was reached, so eviction ran');
  });

  test('parked lifecycle events stay within maxParked', () => {
    assert.equal(report(run.bounds.get('parked')), '');
  });

  test('timeline events stay within sessions × timelineLimit', () => {
    assert.equal(report(run.bounds.get('timelineEvents')), '');
  });

  test('closed requests kept stay within maxClosed', () => {
    assert.equal(report(run.bounds.get('closed')), '');
  });

  test('resume positions are non-negative safe integers', () => {
    assert.equal(report(run.bounds.get('positions')), '');
  });

  test('a command built for any request the inbox accepted passes our own envelope parser', () => {
    assert.equal(report(run.bounds.get('respond-command-builds')), '', 'an answer sent as typed is always built');
    assert.equal(report(run.bounds.get('respond-command-parses')), '');
  });
});

describe('hostile input: directed cases', () => {
  function requestLine(source: string, session: string, id: string): string {
    return JSON.stringify({
      aep: '0.1',
      id,
      type: 'attention.requested',
      time: '2026-07-03T10:00:00Z',
      source,
      agent: 'a',
      session,
      seq: 0,
      severity: 'notice',
      data: { kind: 'permission', prompt: 'May I?', options: [{ id: 'allow', label: 'Allow' }] },
    });
  }

  function apply(inbox: Inbox, line: string) {
    const message = parseWireMessage(line);
    if (message.kind !== 'event') assert.fail(JSON.stringify(message));
    return inbox.apply(message.event);
  }

  test('quiet sessions are forgotten so the count stays within maxSessions', () => {
    const inbox = new Inbox({ ...BOUNDS, now: () => NOW });
    for (let i = 0; i < 200; i++) {
      apply(
        inbox,
        JSON.stringify({ aep: '0.1', id: `e${i}`, type: 'run.started', time: 't', source: `aep://h/agent/a${i}`, agent: 'a', session: `s${i}`, seq: 0 }),
      );
      assert.ok(inbox.stats().sessions <= BOUNDS.maxSessions, `after ${i + 1} sessions: ${inbox.stats().sessions}`);
    }
  });

  test('sessions holding open requests are kept past maxSessions; once closed they are forgotten again', () => {
    // One unanswered permission request in each of 200 distinct sessions: a
    // flood an emitter can send. Open requests are never forgotten, so
    // neither are their sessions (memory grows with the open requests).
    const inbox = new Inbox({ ...BOUNDS, now: () => NOW });
    for (let i = 0; i < 200; i++) apply(inbox, requestLine(`aep://h/agent/a${i}`, `s${i}`, `r${i}`));
    assert.equal(inbox.stats().open, 200, 'every request is open');
    assert.equal(inbox.stats().sessions, 200, 'every session holding an open request is kept');
    // A quiet session arriving now is the one forgotten.
    apply(inbox, JSON.stringify({ aep: '0.1', id: 'q', type: 'run.started', time: 't', source: 'aep://h/agent/quiet', agent: 'q', session: 'sq', seq: 0 }));
    assert.equal(inbox.stats().sessions, 200);
    // Resolving the requests makes their sessions quiet; eviction catches up.
    for (let i = 0; i < 200; i++) {
      apply(
        inbox,
        JSON.stringify({
          aep: '0.1',
          id: `done${i}`,
          type: 'attention.resolved',
          subject: `r${i}`,
          time: 't',
          source: `aep://h/agent/a${i}`,
          agent: 'a',
          session: `s${i}`,
          seq: 1,
          data: { resolution: 'dismissed' },
        }),
      );
    }
    assert.equal(inbox.stats().open, 0);
    assert.ok(inbox.stats().sessions <= BOUNDS.maxSessions, `sessions ${inbox.stats().sessions} after every request closed`);
  });

  test('a __proto__ session, source and id are ordinary strings', () => {
    const inbox = new Inbox({ ...BOUNDS, now: () => NOW });
    const outcome = apply(inbox, requestLine('__proto__', '__proto__', '__proto__'));
    assert.deepEqual(outcome, { applied: true, positionAdvanced: true });
    assert.equal(inbox.findRequest('__proto__', '__proto__', '__proto__')?.status, 'pending');
    assert.deepEqual(resumePosition(inbox, '__proto__', '__proto__'), { session: '__proto__', epoch: 0, seq: 0 });
    assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
    assert.equal(Object.getPrototypeOf({}), Object.prototype);
  });

  /** Valid JSON: a request carrying an extension attribute nested `depth` arrays deep. */
  function deepRequest(depth: number, prompt: string): string {
    const line = requestLine('aep://h/agent/deep', 's_deep', 'r_deep').replace('"May I?"', prompt);
    return `{"deepnest":${'['.repeat(depth)}${']'.repeat(depth)},${line.slice(1)}`;
  }

  test('an event nested deeper than JSON.stringify can write never throws', () => {
    const line = deepRequest(50_000, '"May I?"');
    assert.doesNotThrow(() => JSON.parse(line), 'the text is valid JSON');
    const message = parseWireMessage(line);
    if (message.kind === 'invalid') assert.doesNotMatch(message.problem, /^not JSON/, 'valid JSON is not called "not JSON"');
    else {
      assert.equal(message.kind, 'event');
      const inbox = new Inbox({ ...BOUNDS, now: () => NOW });
      assert.doesNotThrow(() => inbox.apply(message.event));
    }
  });

  test('deep nesting is classified the same whatever the spelling of its strings', () => {
    // "caf\u00e9" and "café" are the same JSON string; the outcome must not
    // depend on which spelling the sender chose.
    const depth = 5_000;
    const escaped = deepRequest(depth, '"caf\\u00e9"');
    const raw = deepRequest(depth, '"café"');
    assert.equal(JSON.parse('"caf\\u00e9"'), JSON.parse('"café"'), 'the two spellings are the same JSON string');
    assert.doesNotThrow(() => JSON.parse(escaped), 'the text is valid JSON');
    assert.equal(escaped.replace('caf\\u00e9', 'café'), raw, 'and it is the only difference');
    const a = parseWireMessage(escaped);
    const b = parseWireMessage(raw);
    assert.equal(a.kind, b.kind, `escaped: ${a.kind === 'invalid' ? a.problem.slice(0, 60) : a.kind}; raw: ${b.kind}`);
    for (const message of [a, b]) {
      if (message.kind === 'invalid') assert.doesNotMatch(message.problem, /^not JSON/, 'valid JSON is not called "not JSON"');
    }
  });
});

/** The mutated inputs that are still JSON objects, parsed, beside their text. */
function* mutatedObjects(seed: number, count: number): Generator<{ text: string; value: Record<string, unknown> }> {
  for (const { text } of generateInputs(seed, count)) {
    let value: unknown;
    try {
      value = parseUntrustedJson(text);
    } catch {
      continue;
    }
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) yield { text, value: value as Record<string, unknown> };
  }
}

describe('envelope fast path', () => {
  test('gives the schema\'s verdict on every mutated input (differential)', () => {
    let objects = 0;
    let accepted = 0;
    for (const { text, value } of mutatedObjects(0x5eed, 3_000)) {
      objects++;
      const fast = parseEnvelope(value).ok;
      const schema = envelopeSchema.safeParse(value).success;
      assert.equal(fast, schema, `verdicts differ for ${text}`);
      if (fast) accepted++;
    }
    assert.ok(objects > 2_000 && accepted > 300 && accepted < objects, `${accepted} of ${objects}`);
  });
});

describe('payload fast paths', () => {
  test('give the schemas\' verdicts and outputs on every mutated payload (differential)', () => {
    const tried = new Map<string, { inputs: number; accepted: number }>(PAYLOAD_FAST_PATHS.map((p) => [p.name, { inputs: 0, accepted: 0 }]));
    const check = (path: (typeof PAYLOAD_FAST_PATHS)[number], value: unknown, input: string) => {
      const text = input.length > 300 ? `${input.slice(0, 300)}… (${input.length} chars)` : input;
      const counts = tried.get(path.name)!;
      counts.inputs++;
      const fast = path.certain(value);
      const schema = path.schema.safeParse(value);
      assert.equal(fast !== undefined, schema.success, `${path.name}: verdicts differ for ${text}`);
      if (schema.success) {
        assert.deepEqual(fast, schema.data, `${path.name}: outputs differ for ${text}`);
        counts.accepted++;
      }
    };
    for (const { text, value } of mutatedObjects(0xfa57, 3_000)) {
      const data = value['data'];
      if (data === undefined) continue;
      for (const path of PAYLOAD_FAST_PATHS) {
        if (path.name !== 'field_spec') check(path, data, text);
      }
      const fields = typeof data === 'object' && data !== null ? (data as { fields?: unknown }).fields : undefined;
      if (Array.isArray(fields)) for (const field of fields) check(PAYLOAD_FAST_PATHS.find((p) => p.name === 'field_spec')!, field, text);
    }
    for (const [name, { inputs, accepted }] of tried) {
      assert.ok(accepted > 20 && accepted < inputs, `${name}: ${accepted} of ${inputs} accepted; the corpus must exercise both verdicts`);
    }
  });
});
