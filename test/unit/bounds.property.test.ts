// What bounding an event (src/aep/bounds.ts, boundEvent) promises, held as
// properties so that any rewrite of it is held to them, on generated events
// that reach every edge: strings at their cap, one past it and far past it
// (surrogate pairs at the cut included), options, fields, choices, data
// members and extension attributes at and past their counts, requests past
// their total, and every event type whose data bounds.ts reads
// (attention.requested, attention.answered, control.rejected; any other
// type's data, tool.denied's among them, is bounded as extra members). Per
// verdict:
// - accepted (undefined): within every cap, a cut text keeps its start and
//   says so, a dropped member is counted under DROPPED_KEY, what an answer
//   names is unchanged, an agent's own UNSHOWABLE_KEY is dropped (its
//   reason is worded as ours), and bounding it again changes nothing;
// - not kept as sent ({ problem, kept }): the sentence is bounded; an
//   envelope past its caps is left untouched and refused whole (the inbox
//   turns it away), whatever its data says, and only a request past what is
//   shown is refused for its data: it is reduced to an unshowable request,
//   which the inbox keeps and bounding accepts as it is;
// - an event within every cap is left exactly as sent.
// fast-check prints the seed and the shrunk case on failure.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { parseAttentionRequest } from '../../src/aep/attention';
import { boundEvent, DROPPED_KEY, EVENT_BOUNDS, UNSHOWABLE_KEY, type BoundRefusal } from '../../src/aep/bounds';
import type { AepEvent } from '../../src/aep/envelope';
import { isRecord } from '../../src/base/isRecord';

type Json = Record<string, unknown>;

const ENVELOPE_STRINGS = ['id', 'type', 'agent', 'session', 'subject', 'cause', 'run', 'step', 'time', 'traceparent'] as const;
const ENVELOPE_KEYS: readonly string[] = ['aep', 'source', 'seq', 'epoch', 'severity', 'capture', 'data', ...ENVELOPE_STRINGS];
const TYPES = ['attention.requested', 'attention.answered', 'control.rejected', 'tool.denied', 'tool.called', 'session.started', 'attention.routed', 'x.custom'] as const;
/** The member limits bounds.ts sets inline for what is nested in a request or an answer (not in EVENT_BOUNDS). */
const CHOICE_MEMBERS = { count: 8, size: 2 * 1_024, member: 1_024 };
const FIELD_MEMBERS = { count: 16, size: 4 * 1_024, member: 1_024 };
const ANSWER_MEMBERS = { count: 8, size: 4 * 1_024, member: 1_024 };
const DATA_MEMBERS = { count: EVENT_BOUNDS.dataMembers, size: EVENT_BOUNDS.dataSize, member: EVENT_BOUNDS.member };
const VALUE_MEMBERS = { count: EVENT_BOUNDS.answerValues, size: EVENT_BOUNDS.dataSize, member: EVENT_BOUNDS.member };
const EXTENSION_MEMBERS = { count: EVENT_BOUNDS.extensionAttributes, size: EVENT_BOUNDS.extensionSize, member: EVENT_BOUNDS.extensionAttribute };
/** A refusal is one sentence for the log, whatever the agent sent. */
const MAX_REFUSAL = 1_024;

const CUT_MARK = /… \[truncated by AEP Attention: ([\d,]+) characters, first ([\d,]+) shown\]$/;
const MEMBERS_MARK = /^\[([\d,]+) more members dropped by AEP Attention\]$/;
const VALUE_MARK = /^\[dropped by AEP Attention: /;

// ---- generators ------------------------------------------------------------------

const FACE = '\u{1F600}';
/** Every cap a string meets somewhere in an event. */
const CAPS = [EVENT_BOUNDS.label, EVENT_BOUNDS.source, EVENT_BOUNDS.text, EVENT_BOUNDS.member];

/** `length` code units of ASCII, or of surrogate pairs from an even or odd start, so that a cut falls inside a pair or between two. */
function textOf(length: number, style: number, unit: string): string {
  if (style === 0) return unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
  const lead = 'a'.repeat(style - 1);
  const text = (lead + FACE.repeat(Math.ceil(length / 2))).slice(0, length);
  // A lone high surrogate at the very end is the generator's slice, not a case.
  return /[\ud800-\udbff]$/.test(text) ? `${text.slice(0, -1)}b` : text;
}

/** A length around a cap: one under, at, one and two past, and far past. */
const edgeLength = (caps: readonly number[]) => fc.constantFrom(...caps).chain((cap) => fc.constantFrom(cap - 1, cap, cap + 1, cap + 2, 2 * cap));
const sizedText = (lengths: fc.Arbitrary<number>) =>
  fc.tuple(lengths, fc.integer({ min: 0, max: 2 }), fc.string({ minLength: 1, maxLength: 3 })).map(([length, style, unit]) => textOf(length, style, unit));
/** Short text of any code units (lone surrogates included), or now and then text at the edge of a cap. */
const text = (caps: readonly number[] = CAPS, short = 8) =>
  fc.oneof(
    { weight: short, arbitrary: fc.oneof(fc.string({ maxLength: 12 }), fc.string({ unit: 'binary', maxLength: 8 })) },
    { weight: 1, arbitrary: sizedText(edgeLength(caps)) },
  );
/** An envelope string: rarely at its cap or past it, as most events should get past the envelope. */
const envelopeText = (cap: number) =>
  fc.oneof({ weight: 30, arbitrary: fc.string({ minLength: 1, maxLength: 12 }) }, { weight: 1, arbitrary: sizedText(edgeLength([cap])) });
/** Ids as agents send them: short, or at and past the identifier cap. */
const identifier = fc.oneof(
  { weight: 10, arbitrary: fc.string({ minLength: 1, maxLength: 10 }) },
  { weight: 1, arbitrary: sizedText(fc.constantFrom(EVENT_BOUNDS.identifier - 1, EVENT_BOUNDS.identifier, EVENT_BOUNDS.identifier + 1)) },
);

/**
 * Keys as agents send them, the awkward ones included, the names of
 * bounding's own marks among them (an earlier drop mark's, an unshowable
 * request's reason: an agent may send either, and the verdict must not
 * follow it), and one longer than a member may be.
 */
const key = fc.oneof(
  { weight: 12, arbitrary: fc.string({ maxLength: 8 }) },
  { weight: 2, arbitrary: fc.constantFrom('__proto__', 'constructor', 'toString', '0', '10', 'id', 'label', DROPPED_KEY, UNSHOWABLE_KEY) },
  { weight: 1, arbitrary: sizedText(fc.constantFrom(1_100, 2_100)) },
);

/** Nesting at and past what bounding keeps (MAX_JSON_DEPTH, counted from the event). */
const deep = fc.tuple(fc.integer({ min: 52, max: 70 }), fc.boolean()).map(([depth, arrays]) => {
  let value: unknown = 'bottom';
  for (let level = 0; level < depth; level++) value = arrays ? [value] : { n: value };
  return value;
});

const { value: jsonish } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    // Values nest, so a long text among them is rarer than in the members bounds.ts reads.
    { weight: 6, arbitrary: fc.oneof(text(CAPS, 40), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null)) },
    { weight: 2, arbitrary: fc.array(tie('value'), { maxLength: 4 }) },
    { weight: 2, arbitrary: fc.dictionary(key, tie('value'), { maxKeys: 4 }) },
    {
      weight: 1,
      arbitrary: fc.oneof(
        deep,
        fc.tuple(sizedText(edgeLength([EVENT_BOUNDS.member])), fc.boolean()).map(([long, inArray]) => (inArray ? [long] : { long })),
        fc.array(fc.integer(), { minLength: 80, maxLength: 150 }),
      ),
    },
  ),
}));

/** `count` members named m0, m1, … holding the same kind of value, for counts at and past a limit. */
const wide = (counts: readonly number[], value: fc.Arbitrary<unknown>) =>
  fc.tuple(fc.constantFrom(...counts), value).map(([n, member]) => Object.fromEntries(Array.from({ length: n }, (_, index) => [`m${index}`, member])));
/** Members beyond the ones bounds.ts reads: a few of anything, or many at and past a count. */
const extras = (counts: readonly number[]) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.dictionary(key, jsonish, { maxKeys: 3 }) },
    { weight: 1, arbitrary: wide(counts, fc.oneof({ weight: 4, arbitrary: fc.oneof(fc.string({ maxLength: 6 }), fc.integer()) }, { weight: 1, arbitrary: sizedText(fc.constantFrom(600, 1_100)) })) },
  );
/** A short list, or one at and past its limit of a small item (lists nest, so their sizes multiply). */
const list = <T>(item: fc.Arbitrary<T>, small: fc.Arbitrary<T>, limit: number) =>
  fc.oneof(
    { weight: 8, arbitrary: fc.array(item, { maxLength: 4 }) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(limit - 1, limit, limit + 1), small).map(([n, one]) => Array.from({ length: n }, () => one)) },
  );
const maybe = <T>(value: fc.Arbitrary<T>) => fc.option(value, { nil: undefined, freq: 3 });
/** A record of the optional members given, then `more` spread in first (what bounds.ts reads wins over an extra of the same name). */
const withExtras = (members: Record<string, fc.Arbitrary<unknown>>, more: fc.Arbitrary<Json>) =>
  fc.tuple(fc.record(members, { requiredKeys: [] }), more).map(([known, extra]) => ({ ...extra, ...known }));

const smallChoice = fc.record({ id: fc.string({ minLength: 1, maxLength: 6 }), label: fc.string({ maxLength: 6 }) }, { requiredKeys: ['id'] });
const choice = fc.oneof(
  { weight: 8, arbitrary: withExtras({ id: identifier, label: text([EVENT_BOUNDS.label]) }, extras([7, 8, 9])) },
  { weight: 1, arbitrary: jsonish },
);
const field = fc.oneof(
  {
    weight: 8,
    arbitrary: withExtras(
      {
        id: identifier,
        type: fc.oneof(fc.constantFrom('text', 'select', 'boolean', 'number'), identifier),
        label: text([EVENT_BOUNDS.label]),
        required: fc.boolean(),
        multi: fc.oneof(fc.boolean(), fc.string({ maxLength: 3 })),
        other: fc.boolean(),
        min: fc.oneof(fc.integer(), fc.string({ maxLength: 3 })),
        max: fc.integer(),
        choices: list(choice, smallChoice, EVENT_BOUNDS.choicesPerField),
      },
      extras([15, 16, 17]),
    ),
  },
  { weight: 1, arbitrary: jsonish },
);
const smallField = fc.record({ id: fc.string({ minLength: 1, maxLength: 6 }), type: fc.constantFrom('text', 'select'), choices: fc.array(smallChoice, { maxLength: 3 }) }, { requiredKeys: ['id', 'type'] });
/** A request larger in all than a request may be once its texts are cut, one just within it, and one with a choice too many. */
const bulky = fc.constantFrom([EVENT_BOUNDS.choicesPerField, 300], [EVENT_BOUNDS.choicesPerField, 240], [EVENT_BOUNDS.choicesPerField + 1, 8]).map(([choices, idLength]) => ({
  kind: 'form',
  prompt: 'Pick',
  fields: [{ id: 'f', type: 'select', choices: Array.from({ length: choices }, (_, index) => ({ id: `${index}`.padEnd(idLength, 'c') })) }],
}));
const requested = fc.oneof(
  {
    weight: 30,
    arbitrary: withExtras(
      {
        kind: fc.oneof(fc.constantFrom('approval', 'choice', 'form', 'permission', 'question'), text([EVENT_BOUNDS.label])),
        prompt: text([EVENT_BOUNDS.prompt]),
        options: list(choice, smallChoice, EVENT_BOUNDS.options),
        fields: list(field, smallField, EVENT_BOUNDS.fields),
        expires_at: text([EVENT_BOUNDS.label]),
        respond_via: fc.oneof(fc.array(fc.constantFrom('vscode', 'slack', 'cli'), { maxLength: 3 }), fc.array(text([EVENT_BOUNDS.label]), { maxLength: 2 }), fc.constant([[['deep']]])),
        context: fc.oneof(fc.dictionary(key, jsonish, { maxKeys: 3 }), wide([20], sizedText(fc.constantFrom(700, 900)))),
        // The agent's own: the name of an unshowable request's reason, which bounding never takes for its own.
        [UNSHOWABLE_KEY]: fc.string({ maxLength: 12 }),
      },
      extras([63, 64, 65]),
    ),
  },
  { weight: 2, arbitrary: bulky },
);
const answered = withExtras(
  {
    answer: fc.oneof(
      withExtras(
        {
          option: identifier,
          text: text([EVENT_BOUNDS.text]),
          values: fc.oneof(fc.dictionary(key, jsonish, { maxKeys: 4 }), wide([199, 200, 201], fc.oneof(fc.boolean(), fc.string({ maxLength: 4 }), sizedText(fc.constant(400))))),
        },
        extras([7, 8, 9]),
      ),
      jsonish,
    ),
    by: text([EVENT_BOUNDS.label]),
    via: text([EVENT_BOUNDS.label]),
  },
  extras([63, 64, 65]),
);
const rejected = withExtras({ detail: text([EVENT_BOUNDS.text]) }, extras([63, 64, 65]));

const dataFor = (type: string): fc.Arbitrary<Json | undefined> => {
  const data = type === 'attention.requested' ? requested : type === 'attention.answered' ? answered : type === 'control.rejected' ? rejected : extras([63, 64, 65]);
  return fc.option(data, { nil: undefined, freq: 12 });
};

/** Extension attributes: none or a few, or many at and past their count, names never an envelope attribute's. */
const extensions = fc.oneof(
  { weight: 6, arbitrary: fc.dictionary(key.filter((name) => !ENVELOPE_KEYS.includes(name)), jsonish, { maxKeys: 3 }) },
  { weight: 1, arbitrary: wide([31, 32, 33, 40], fc.oneof(fc.string({ maxLength: 6 }), fc.integer(), sizedText(fc.constantFrom(100, 300)))) },
);

/**
 * A well-formed envelope (as parseEnvelope accepts it) of any type, envelope
 * strings now and then at and past their caps, with data and extension
 * attributes as above. It goes through JSON text first, as every event
 * does (live, replayed or restored), so no value is shared and a
 * `__proto__` member is an own one.
 */
const envelopeString = envelopeText(EVENT_BOUNDS.envelopeString);
const event: fc.Arbitrary<AepEvent> = fc
  .constantFrom(...TYPES)
  .chain((type) =>
    fc.tuple(
      fc.record(
        {
          aep: fc.constant('0.1'),
          id: envelopeString,
          type: fc.constant(type),
          time: envelopeString,
          source: envelopeText(EVENT_BOUNDS.source),
          agent: envelopeString,
          session: maybe(envelopeString),
          subject: maybe(envelopeString),
          run: maybe(envelopeString),
          step: maybe(envelopeString),
          cause: maybe(envelopeString),
          traceparent: maybe(envelopeString),
          seq: maybe(fc.nat()),
          epoch: maybe(fc.nat()),
          severity: maybe(fc.constantFrom('info', 'warning', 'error')),
          capture: maybe(fc.constantFrom('none', 'metadata', 'redacted', 'full')),
          data: dataFor(type),
        },
        { requiredKeys: ['aep', 'id', 'type', 'time', 'source', 'agent'] },
      ),
      extensions,
    ),
  )
  .map(([envelope, attributes]) => JSON.parse(JSON.stringify({ ...attributes, ...envelope })) as AepEvent);

// ---- what is checked ----------------------------------------------------------------

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Characters of `value` as JSON text, escapes not counted (as bounds.ts
 * counts them), and how many of them are in numbers past 8 characters each:
 * bounds.ts counts a number as 8 characters (its sizes are "near enough"),
 * so a long number may take more room than it counted.
 */
function measure(value: unknown): { chars: number; longNumbers: number } {
  let chars = 0;
  let longNumbers = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === 'string') chars += item.length + 2;
    else if (typeof item === 'number') {
      const length = JSON.stringify(item).length;
      chars += length;
      longNumbers += Math.max(0, length - 8);
    } else if (Array.isArray(item)) {
      chars += 2 + Math.max(0, item.length - 1);
      pending.push(...(item as unknown[]));
    } else if (isRecord(item)) {
      const keys = Object.keys(item);
      chars += 2 + Math.max(0, keys.length - 1);
      for (const name of keys) {
        chars += name.length + 3;
        pending.push(item[name]);
      }
    } else chars += String(item).length;
  }
  return { chars, longNumbers };
}
function assertSize(value: unknown, cap: number, where: string): void {
  const { chars, longNumbers } = measure(value);
  assert.ok(chars <= cap + longNumbers, `${where}: ${chars} characters of JSON (${longNumbers} of them in numbers past 8 characters each), past ${cap}`);
}
function depthOf(value: unknown): number {
  let deepest = 0;
  const pending: Array<[unknown, number]> = [[value, 1]];
  while (pending.length > 0) {
    const [item, depth] = pending.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    deepest = Math.max(deepest, depth);
    for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
  return deepest;
}

/** `after` is `before` when that fits `cap`, else its start, cut between characters, then the mark saying how long it was and how much is shown. */
function assertCut(before: unknown, after: unknown, cap: number, where: string): void {
  // Any other value there is one bounds.ts does not read, checked with the other members.
  if (typeof before !== 'string') return;
  assert.equal(typeof after, 'string', `${where}: no longer a string`);
  const cut = after as string;
  assert.ok(cut.length <= cap, `${where}: ${cut.length} characters, past ${cap}`);
  if (before.length <= cap) return assert.equal(cut, before, `${where}: within ${cap}, yet changed`);
  const mark = CUT_MARK.exec(cut);
  assert.ok(mark, `${where}: cut without the mark: …${cut.slice(-60)}`);
  const shown = cut.slice(0, mark.index);
  assert.equal(mark[1], before.length.toLocaleString('en-US'), `${where}: the mark misstates the length`);
  assert.equal(mark[2], shown.length.toLocaleString('en-US'), `${where}: the mark misstates what is shown`);
  assert.ok(before.startsWith(shown), `${where}: the cut is not the original's start`);
  assert.ok(!/[\ud800-\udbff]$/.test(shown), `${where}: the cut splits a surrogate pair`);
}

/** A value bounds.ts did not read: kept as it was, cut if a string, or replaced whole by a mark of the same JSON type. */
function assertLoose(before: unknown, after: unknown, cap: number, where: string): void {
  if (typeof before === 'string') return assertCut(before, after, Math.min(cap, EVENT_BOUNDS.text), where);
  assertSize(after, cap, where);
  if (same(after, before)) return;
  const mark = Array.isArray(before) ? (Array.isArray(after) && after.length === 1 ? after[0] : undefined) : isRecord(after) ? after[DROPPED_KEY] : undefined;
  assert.ok(typeof mark === 'string' && VALUE_MARK.test(mark), `${where}: changed without a drop mark`);
  assert.equal(Object.keys(after as object).length, 1, `${where}: a drop mark beside other members`);
}

/**
 * The members of `after` that bounds.ts did not read (`handled`) are within
 * the limits, each kept, cut or marked; members missing from `before` are
 * counted in a mark under DROPPED_KEY; nothing else is added.
 */
function assertMembers(before: Json, after: Json, handled: readonly string[], limits: { count: number; size: number; member: number }, where: string): void {
  const others = Object.keys(after).filter((name) => !handled.includes(name));
  assert.ok(others.length <= limits.count, `${where}: ${others.length} members, past ${limits.count}`);
  assertSize(Object.fromEntries(others.map((name) => [name, after[name]])), limits.size, `${where} (their sum)`);
  const missing = Object.keys(before).filter((name) => !handled.includes(name) && name !== DROPPED_KEY && !Object.hasOwn(after, name));
  const mark = after[DROPPED_KEY];
  const counted = typeof mark === 'string' && mark !== before[DROPPED_KEY] ? MEMBERS_MARK.exec(mark) : null;
  for (const name of others) {
    if (name === DROPPED_KEY && (counted !== null || !Object.hasOwn(before, name))) {
      assert.ok(counted, `${where}: ${DROPPED_KEY} added, saying ${String(mark).slice(0, 80)}`);
      continue;
    }
    assert.ok(Object.hasOwn(before, name), `${where}: member ${name} added`);
    assertLoose(before[name], after[name], limits.member, `${where}.${name}`);
  }
  if (missing.length === 0) return;
  assert.ok(counted, `${where}: ${missing.length} members dropped without a mark counting them`);
  // An agent's own member of that name (not an earlier mark) may be one more of those the mark counts.
  if (!Object.hasOwn(before, DROPPED_KEY)) assert.equal(counted[1], missing.length.toLocaleString('en-US'), `${where}: the mark miscounts`);
}

/** Options, or a select field's choices: as many as before, ids unchanged, labels cut, other members bounded. */
function assertChoices(before: unknown[], after: unknown, where: string): void {
  assert.ok(Array.isArray(after) && after.length === before.length, `${where}: not as many as sent`);
  before.forEach((was, index) => {
    const now: unknown = after[index];
    const here = `${where}[${index}]`;
    if (!isRecord(was)) return assertLoose(was, now, EVENT_BOUNDS.member, here);
    assert.ok(isRecord(now), `${here}: no longer an object`);
    if (typeof was['id'] === 'string') assert.equal(now['id'], was['id'], `${here}: its id changed`);
    assertCut(was['label'], now['label'], EVENT_BOUNDS.label, `${here}.label`);
    assertMembers(was, now, read(was, { id: 'string', label: 'string' }), CHOICE_MEMBERS, here);
  });
}

/** The members bounds.ts reads itself, when of the type it reads. */
function read(record: Json, types: Record<string, 'string' | 'array' | 'record' | 'boolean' | 'number'>): string[] {
  return Object.keys(types).filter((name) => {
    const value = record[name];
    const type = types[name];
    return type === 'array' ? Array.isArray(value) : type === 'record' ? isRecord(value) : typeof value === type;
  });
}

function assertRequest(before: Json, after: Json): void {
  const handled = read(before, { kind: 'string', prompt: 'string', options: 'array', fields: 'array', expires_at: 'string', respond_via: 'array', context: 'record' });
  assertCut(before['kind'], after['kind'], EVENT_BOUNDS.label, 'kind');
  assertCut(before['prompt'], after['prompt'], EVENT_BOUNDS.prompt, 'prompt');
  assertCut(before['expires_at'], after['expires_at'], EVENT_BOUNDS.label, 'expires_at');
  if (Array.isArray(before['respond_via'])) assert.ok(same(after['respond_via'], before['respond_via']), 'respond_via changed');
  if (Array.isArray(before['options'])) {
    assert.ok(before['options'].length <= EVENT_BOUNDS.options, `${before['options'].length} options accepted`);
    assertChoices(before['options'], after['options'], 'options');
  }
  const fields = before['fields'];
  if (Array.isArray(fields)) {
    assert.ok(fields.length <= EVENT_BOUNDS.fields, `${fields.length} fields accepted`);
    const now = after['fields'];
    assert.ok(Array.isArray(now) && now.length === fields.length, 'fields: not as many as sent');
    fields.forEach((was: unknown, index) => {
      const here = `fields[${index}]`;
      if (!isRecord(was)) return assertLoose(was, now[index], EVENT_BOUNDS.member, here);
      const field: unknown = now[index];
      assert.ok(isRecord(field), `${here}: no longer an object`);
      const kept = read(was, { id: 'string', type: 'string', label: 'string', required: 'boolean', multi: 'boolean', other: 'boolean', min: 'number', max: 'number', choices: 'array' });
      for (const name of kept) if (name !== 'label' && name !== 'choices') assert.ok(same(field[name], was[name]), `${here}.${name} changed`);
      assertCut(was['label'], field['label'], EVENT_BOUNDS.label, `${here}.label`);
      const choices = was['choices'];
      if (Array.isArray(choices)) {
        assert.ok(choices.length <= EVENT_BOUNDS.choicesPerField, `${here}: ${choices.length} choices accepted`);
        assertChoices(choices, field['choices'], `${here}.choices`);
      }
      assertMembers(was, field, kept, FIELD_MEMBERS, here);
    });
  }
  if (isRecord(before['context'])) {
    assertSize(after['context'], EVENT_BOUNDS.context, 'context');
    if (!same(after['context'], before['context'])) {
      const context = after['context'];
      assert.ok(isRecord(context) && Object.keys(context).length === 1 && VALUE_MARK.test(String(context[DROPPED_KEY])), 'context changed without a drop mark');
    }
  }
  assertMembers(before, after, handled, DATA_MEMBERS, 'data');
  assertSize(after, EVENT_BOUNDS.request, 'the request');
}

function assertAnswered(before: Json, after: Json): void {
  const handled = read(before, { answer: 'record', by: 'string', via: 'string' });
  assertCut(before['by'], after['by'], EVENT_BOUNDS.label, 'by');
  assertCut(before['via'], after['via'], EVENT_BOUNDS.label, 'via');
  const answer = before['answer'];
  if (isRecord(answer)) {
    const now = after['answer'];
    assert.ok(isRecord(now), 'the answer is no longer an object');
    assertCut(answer['option'], now['option'], EVENT_BOUNDS.label, 'answer.option');
    assertCut(answer['text'], now['text'], EVENT_BOUNDS.text, 'answer.text');
    const values = answer['values'];
    if (isRecord(values)) {
      assert.ok(isRecord(now['values']), 'answer.values is no longer an object');
      assertMembers(values, now['values'], [], VALUE_MEMBERS, 'answer.values');
    }
    assertMembers(answer, now, read(answer, { option: 'string', text: 'string', values: 'record' }), ANSWER_MEMBERS, 'answer');
  }
  assertMembers(before, after, handled, DATA_MEMBERS, 'data');
}

/** Accepted: within every cap, what names anything unchanged, texts cut with a mark, drops counted; and bounding it again changes nothing. */
function assertAccepted(before: AepEvent, after: AepEvent): void {
  for (const name of ENVELOPE_KEYS) if (name !== 'data') assert.ok(same(after[name], before[name]), `the envelope's ${name} changed`);
  for (const name of ENVELOPE_STRINGS) {
    const value = after[name];
    if (typeof value === 'string') assert.ok(value.length <= EVENT_BOUNDS.envelopeString, `${name} past its cap`);
  }
  assert.ok(after.source.length <= EVENT_BOUNDS.source, 'source past its cap');
  assertMembers(before, after, ENVELOPE_KEYS, EXTENSION_MEMBERS, 'extension attributes');
  assert.ok(depthOf(after) <= EVENT_BOUNDS.depth, `nested ${depthOf(after)} deep`);
  // Its reason is shown as ours: only a request bounding itself made unshowable holds it.
  assert.ok(!isRecord(after.data) || !Object.hasOwn(after.data, UNSHOWABLE_KEY), `an accepted event keeps the agent's own ${UNSHOWABLE_KEY}`);
  const data = before.data;
  if (data === undefined) assert.equal(after.data, undefined, 'data added');
  else {
    assert.ok(isRecord(after.data), 'data no longer an object');
    if (after.type === 'attention.requested') assertRequest(data, after.data);
    else if (after.type === 'attention.answered') assertAnswered(data, after.data);
    else if (after.type === 'control.rejected') {
      assertCut(data['detail'], after.data['detail'], EVENT_BOUNDS.text, 'detail');
      assertMembers(data, after.data, read(data, { detail: 'string' }), DATA_MEMBERS, 'data');
    } else assertMembers(data, after.data, [], DATA_MEMBERS, 'data');
  }
  assertBoundedAgainUnchanged(after, 'an accepted event');
}

/** Bounding what was bounded and saved (a restored event, applied again) accepts it and changes nothing. */
function assertBoundedAgainUnchanged(bounded: AepEvent, what: string): void {
  const text = JSON.stringify(bounded);
  const again = JSON.parse(text) as AepEvent;
  assert.equal(boundEvent(again, 'stored'), undefined, `${what} is refused when bounded again`);
  assert.equal(JSON.stringify(again), text, `${what} changed when bounded again`);
}

const envelopePastCaps = (event: AepEvent) =>
  event.source.length > EVENT_BOUNDS.source || ENVELOPE_STRINGS.some((name) => String(event[name] ?? '').length > EVENT_BOUNDS.envelopeString);

/** Whether a request is past what is shown: too many options, fields or choices, an id or type too long, `respond_via` too long or nested, or too large in all. */
function pastWhatIsShown(data: Json): boolean {
  const records = (list: unknown) => (Array.isArray(list) ? list.filter(isRecord) : []);
  const tooLong = (value: unknown) => typeof value === 'string' && value.length > EVENT_BOUNDS.identifier;
  const options = data['options'];
  const fields = data['fields'];
  const respondVia = data['respond_via'];
  if (Array.isArray(options) && (options.length > EVENT_BOUNDS.options || records(options).some((option) => tooLong(option['id'])))) return true;
  if (Array.isArray(fields) && fields.length > EVENT_BOUNDS.fields) return true;
  for (const field of records(fields)) {
    if (tooLong(field['id']) || tooLong(field['type'])) return true;
    const choices = field['choices'];
    if (Array.isArray(choices) && (choices.length > EVENT_BOUNDS.choicesPerField || records(choices).some((one) => tooLong(one['id'])))) return true;
  }
  // Near its cap counts as past: bounds.ts sizes JSON near enough, not to the character.
  if (Array.isArray(respondVia) && (depthOf(respondVia) > 2 || measure(respondVia).chars > EVENT_BOUNDS.label - 8)) return true;
  return measure(data).chars > EVENT_BOUNDS.request;
}

/**
 * Not kept as sent: one bounded sentence. An envelope past its caps is left
 * untouched and refused whole (`kept` false: the inbox turns it away with the
 * sentence), whatever its data holds. Only a request past what is shown is
 * refused for its data (`kept` true); it keeps its envelope, its kind,
 * its cut prompt and the reason under UNSHOWABLE_KEY, and nothing else; the
 * inbox keeps it, the request reader says it cannot be answered here and
 * why, and bounding it again accepts it as it is.
 */
function assertRefused(before: AepEvent, after: AepEvent, { problem: refusal, kept }: BoundRefusal): 'envelope' | 'request' {
  assert.ok(refusal.length > 0 && refusal.length <= MAX_REFUSAL, `a refusal of ${refusal.length} characters`);
  if (envelopePastCaps(before)) {
    assert.equal(JSON.stringify(after), JSON.stringify(before), 'an event refused for its envelope was changed');
    assert.equal(kept, false, 'an event refused for its envelope is kept as an unshowable request');
    return 'envelope';
  }
  assert.equal(after.type, 'attention.requested', `a ${after.type} refused`);
  assert.ok(isRecord(before.data) && pastWhatIsShown(before.data), `a request within what is shown refused: ${refusal.slice(0, 200)}`);
  assert.equal(kept, true, 'a request past what is shown is not kept as an unshowable one');
  assert.ok(isRecord(after.data) && typeof after.data[UNSHOWABLE_KEY] === 'string', 'a refused request is not made an unshowable one');
  for (const name of ENVELOPE_KEYS) if (name !== 'data') assert.ok(same(after[name], before[name]), `the envelope's ${name} changed`);
  const data = after.data!;
  const was = before.data!;
  assert.deepEqual(Object.keys(data).sort(), [UNSHOWABLE_KEY, ...read(was, { kind: 'string', prompt: 'string' })].sort(), 'an unshowable request keeps more than its kind, prompt and reason');
  const why = data[UNSHOWABLE_KEY] as string;
  assert.ok(why.length > 0 && refusal.endsWith(`: ${why}`), 'the refusal does not end with the reason kept');
  assertCut(was['kind'], data['kind'], EVENT_BOUNDS.label, 'kind');
  assertCut(was['prompt'], data['prompt'], EVENT_BOUNDS.prompt, 'prompt');
  assertBoundedAgainUnchanged(after, 'an unshowable request');
  if (after.session !== undefined) {
    const parsed = parseAttentionRequest(after);
    assert.ok(!parsed.ok && parsed.problem.message.endsWith(why), 'an unshowable request is read as one that can be answered');
  }
  return 'request';
}

// ---- the properties ---------------------------------------------------------------

test('bounding any well-formed event never throws, and what it accepts or refuses keeps every promise of its verdict', () => {
  const seen = { accepted: 0, cut: 0, dropped: 0, envelope: 0, request: 0 };
  fc.assert(
    fc.property(event, (generated) => {
      // Bounded in place: a copy, so that a failure prints the event as it was sent.
      const text = JSON.stringify(generated);
      const sent = JSON.parse(text) as AepEvent;
      const before = JSON.parse(text) as AepEvent;
      let verdict: BoundRefusal | undefined;
      assert.doesNotThrow(() => (verdict = boundEvent(sent)));
      if (verdict === undefined) {
        assertAccepted(before, sent);
        seen.accepted++;
        const bounded = JSON.stringify(sent);
        if (bounded.includes('[truncated by AEP Attention')) seen.cut++;
        if (bounded.includes('dropped by AEP Attention')) seen.dropped++;
      } else seen[assertRefused(before, sent, verdict)]++;
    }),
    { numRuns: 2_000, includeErrorInReport: true },
  );
  // The generators reach every verdict, and cuts and drops among the accepted, often enough to matter.
  for (const [what, times] of Object.entries(seen)) assert.ok(times >= 25, `${what}: reached ${times} times`);
});

/**
 * Events within every cap, up to exactly a cap: strings at their caps,
 * option, field, choice, data member and extension attribute counts at
 * their limits, sizes short of a budget (bounds.ts keeps room in a budget
 * for a drop mark, so "within" is below the budget less that room).
 */
const fits = (cap: number) => fc.oneof({ weight: 6, arbitrary: fc.string({ maxLength: 10 }) }, { weight: 1, arbitrary: sizedText(fc.constantFrom(cap - 1, cap)) });
const fitsId = fits(EVENT_BOUNDS.identifier).map((id) => (id === '' ? 'x' : id));
const smallValue = fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.integer(), { maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 4 }), fc.boolean(), { maxKeys: 3 }));
const fewMembers = (most: number) => fc.integer({ min: 0, max: most }).chain((n) => fc.array(smallValue, { minLength: n, maxLength: n })).map((values) => Object.fromEntries(values.map((value, index) => [`m${index}`, value])));
const atCount = <T>(item: fc.Arbitrary<T>, limit: number) =>
  fc.oneof({ weight: 6, arbitrary: fc.array(item, { maxLength: 3 }) }, { weight: 1, arbitrary: item.map((one) => Array.from({ length: limit }, () => one)) });
const tidyChoice = withExtras({ id: fitsId, label: fits(EVENT_BOUNDS.label) }, fewMembers(CHOICE_MEMBERS.count));
const tidyField = withExtras(
  { id: fitsId, type: fitsId, label: fits(EVENT_BOUNDS.label), required: fc.boolean(), min: fc.integer(), choices: atCount(tidyChoice.map((choice) => ({ id: String(choice['id']).slice(0, 8) })), EVENT_BOUNDS.choicesPerField) },
  fewMembers(FIELD_MEMBERS.count),
);
const tidyData: Record<string, fc.Arbitrary<Json>> = {
  'attention.requested': withExtras(
    {
      kind: fc.constantFrom('approval', 'choice', 'form'),
      prompt: fits(EVENT_BOUNDS.prompt),
      options: atCount(tidyChoice, EVENT_BOUNDS.options),
      fields: fc.oneof({ weight: 6, arbitrary: fc.array(tidyField, { maxLength: 3 }) }, { weight: 1, arbitrary: fc.constant(Array.from({ length: EVENT_BOUNDS.fields }, (_, index) => ({ id: `f${index}`, type: 'text' }))) }),
      expires_at: fits(EVENT_BOUNDS.label),
      respond_via: fc.constant(['vscode']),
      context: fewMembers(8),
    },
    fewMembers(EVENT_BOUNDS.dataMembers),
  ),
  'attention.answered': withExtras(
    {
      answer: withExtras({ option: fits(EVENT_BOUNDS.label), text: fits(EVENT_BOUNDS.text), values: fewMembers(EVENT_BOUNDS.answerValues) }, fewMembers(ANSWER_MEMBERS.count - 3)),
      by: fits(EVENT_BOUNDS.label),
      via: fits(EVENT_BOUNDS.label),
    },
    fewMembers(EVENT_BOUNDS.dataMembers - 3),
  ),
  'control.rejected': withExtras({ detail: fits(EVENT_BOUNDS.text) }, fewMembers(EVENT_BOUNDS.dataMembers - 1)),
};
const tidyEvent: fc.Arbitrary<AepEvent> = fc
  .constantFrom(...TYPES)
  .chain((type) =>
    fc.tuple(
      fc.record(
        {
          aep: fc.constant('0.1'),
          id: fitsId,
          type: fc.constant(type),
          time: fits(EVENT_BOUNDS.envelopeString),
          source: fits(EVENT_BOUNDS.source).map((source) => source || 's'),
          agent: fitsId,
          session: maybe(fitsId),
          traceparent: maybe(fits(EVENT_BOUNDS.envelopeString)),
          seq: maybe(fc.nat()),
          data: maybe(tidyData[type] ?? fewMembers(EVENT_BOUNDS.dataMembers)),
        },
        { requiredKeys: ['aep', 'id', 'type', 'time', 'source', 'agent'] },
      ),
      fewMembers(EVENT_BOUNDS.extensionAttributes).map((members) => Object.fromEntries(Object.entries(members).map(([name, value]) => [`x${name}`, value]))),
    ),
  )
  .map(([envelope, attributes]) => JSON.parse(JSON.stringify({ ...attributes, ...envelope })) as AepEvent);

test('an event within every cap, up to exactly a cap, is accepted and left exactly as sent', () => {
  fc.assert(
    fc.property(tidyEvent, (sent) => {
      const before = JSON.stringify(sent);
      assert.equal(boundEvent(sent), undefined);
      assert.equal(JSON.stringify(sent), before);
    }),
    { numRuns: 1_000, includeErrorInReport: true },
  );
});
