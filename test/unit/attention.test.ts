import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseAttentionRequest, readAnswered, readResolved } from '../../src/aep/attention';
import { parseEnvelope, type AepEvent } from '../../src/aep/envelope';
import { validateFormValues } from '../../src/aep/formValidation';
import { validEvent, type EventFields } from '../support/events';
import { goldenEvents, readAepJson } from '../support/fixtures';

/** An `attention.requested` from codex (unless `fields` say otherwise) whose `data` is what the parser is asked to judge. */
const event = (fields: EventFields): AepEvent => validEvent({
  id: 'Q1', type: 'attention.requested', time: '2026-07-03T10:00:00Z',
  source: 'aep://h/agent/codex/session/s1', agent: 'codex', session: 's1', seq: 0, capture: 'redacted',
  ...fields,
});

interface InvalidCase { name: string; event?: Record<string, unknown>; events?: Record<string, unknown>[] }
const invalid = readAepJson<{ cases: InvalidCase[] }>('invalid/cases.json').cases;
const invalidCase = (name: string) => {
  const found = invalid.find((c) => c.name === name);
  assert.ok(found, `invalid case "${name}" exists`);
  return found;
};

describe('attention.requested parsing', () => {
  test('the golden requests parse, with their kinds', () => {
    const requests = goldenEvents().filter((e) => e.type === 'attention.requested').map((e) => parseAttentionRequest(e));
    assert.deepEqual(requests.map((r) => r.ok && r.value.renderKind), ['permission', 'permission', 'form']);
  });

  test('invalid fixture: a form select field without choices is a problem naming agent and field', () => {
    const raw = invalidCase('form select field without choices').event;
    const parsed = parseEnvelope(raw);
    assert.ok(parsed.ok, 'the envelope itself is fine');
    const request = parseAttentionRequest(parsed.value);
    assert.equal(request.ok, false);
    if (!request.ok) {
      assert.equal(request.problem.message, 'agent a sent a form that cannot be rendered: select field `1` has no choices');
      assert.equal(request.problem.session, 's1');
    }
  });

  test('invalid fixture: a non-choice value without other is refused by the validator', () => {
    const stream = invalidCase('form answered with a non-choice string for a select without other:true').events ?? [];
    const [requestRaw, answeredRaw] = stream.map((raw) => {
      const parsed = parseEnvelope(raw);
      assert.ok(parsed.ok);
      return parsed.value;
    });
    const request = parseAttentionRequest(requestRaw!);
    assert.ok(request.ok);
    const answered = readAnswered(answeredRaw!);
    assert.ok(answered.ok);
    const check = validateFormValues(request.value.fields, answered.value.answer.values ?? {});
    assert.equal(check.ok, false);
    if (!check.ok) assert.deepEqual(check.errors.map((e) => e.fieldId), ['1']);
  });

  test('hermes respond_via ["oob"] cards are informational', () => {
    const hermes = readAepJson<{ hooks: Record<string, { expected?: Array<{ type: string; data: Record<string, unknown>; subject?: string }> }> }>(
      'mappings/hermes.json',
    );
    const cards = Object.values(hermes.hooks)
      .flatMap((hook) => hook.expected ?? [])
      .filter((e) => e.type === 'attention.requested');
    assert.ok(cards.length >= 2);
    for (const card of cards) {
      const request = parseAttentionRequest(event({ data: card.data, ...(card.subject ? { subject: card.subject } : {}) }));
      assert.ok(request.ok, request.ok ? '' : request.problem.message);
      assert.equal(request.value.answerableHere, false, JSON.stringify(card.data).slice(0, 80));
    }
    // Options of an informational card are still there to be shown as information.
    const approval = cards.find((c) => JSON.stringify(c.data).includes('Allow once'));
    const parsed = parseAttentionRequest(event({ data: approval?.data }));
    assert.ok(parsed.ok && parsed.value.options.length === 4);
  });

  test('respond_via absent or containing control is answerable here', () => {
    for (const respondVia of [undefined, ['control'], ['oob', 'control']]) {
      const data = { kind: 'input', prompt: 'Which branch?', ...(respondVia ? { respond_via: respondVia } : {}) };
      const parsed = parseAttentionRequest(event({ data }));
      assert.ok(parsed.ok && parsed.value.answerableHere, JSON.stringify(respondVia));
    }
  });

  test('an unknown kind is kept and rendered as prompt plus reply', () => {
    const parsed = parseAttentionRequest(event({ data: { kind: 'negotiate', prompt: 'Counter-offer?' } }));
    assert.ok(parsed.ok);
    assert.equal(parsed.value.kind, 'negotiate');
    assert.equal(parsed.value.renderKind, 'other');
  });

  test('an unknown field type degrades to an unsupported field, the rest of the form intact', () => {
    const parsed = parseAttentionRequest(event({
      data: { kind: 'form', prompt: 'p', fields: [
        { id: 'when', type: 'date', label: 'When' },
        { id: 'n', type: 'number', label: 'How many', min: 1, max: 3, required: true },
      ] },
    }));
    assert.ok(parsed.ok);
    assert.deepEqual(parsed.value.fields.map((f) => f.type), ['unsupported', 'number']);
    assert.equal(validateFormValues(parsed.value.fields, { n: 2 }).ok, true);
  });

  test('problems name what is wrong', () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ kind: 'form', prompt: 'p' }, /a form that cannot be rendered: it has no fields/],
      [{ kind: 'input' }, /`prompt`/],
      [{ kind: 'form', prompt: 'p', fields: [{ id: 'a', type: 'string', label: 'A' }, { id: 'a', type: 'boolean', label: 'B' }] }, /field id `a` is used twice/],
      [{ kind: 'form', prompt: 'p', fields: [{ id: 'n', type: 'number', label: 'N', min: 5, max: 1 }] }, /min 5 above max 1/],
      [{ kind: 'form', prompt: 'p', fields: [{ id: 's', type: 'select', label: 'S', choices: [{ id: '1', label: 'a' }, { id: '1', label: 'b' }] }] }, /choice `1` twice/],
      [{ kind: 'form', prompt: 'p', fields: [{ type: 'string', label: 'no id' }] }, /field 1 is malformed/],
      [{ kind: 'permission', prompt: 'p', expires_at: 'soon' }, /`expires_at` \("soon"\) is not a date/],
      [{ kind: 'permission', prompt: 'p', options: [{ id: 'allow' }] }, /options\[0\]\.label/],
    ];
    for (const [data, pattern] of cases) {
      const parsed = parseAttentionRequest(event({ data }));
      assert.equal(parsed.ok, false, JSON.stringify(data));
      if (!parsed.ok) assert.match(parsed.problem.message, pattern);
      if (!parsed.ok) assert.match(parsed.problem.message, /^agent codex sent /);
    }
  });

  test('expires_at becomes epoch milliseconds', () => {
    const parsed = parseAttentionRequest(event({ data: { kind: 'permission', prompt: 'p', expires_at: '2026-07-03T10:05:00Z' } }));
    assert.ok(parsed.ok);
    assert.equal(parsed.value.expiresAt, Date.parse('2026-07-03T10:05:00Z'));
  });
});

describe('lifecycle payloads', () => {
  test('resolved needs a resolution; unknown resolutions still close', () => {
    assert.equal(readResolved(event({ type: 'attention.resolved', data: {} })).ok, false);
    const future = readResolved(event({ type: 'attention.resolved', data: { resolution: 'escalated' } }));
    assert.ok(future.ok && future.value.resolution === 'escalated');
  });
  test('answered needs an answer object', () => {
    const bad = readAnswered(event({ type: 'attention.answered', data: { answer: 'yes' } }));
    assert.equal(bad.ok, false);
    if (!bad.ok) assert.match(bad.problem, /attention\.answered from codex is malformed: `answer`/);
  });
});
