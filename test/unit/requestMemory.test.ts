// One copy of each request in memory (issue 40): the parsed request reads the
// event's own lists where a copy would equal them, items share what they have
// not got yet, and none of it changes what a surface is given or what the
// event holds. fast-check prints the seed and the shrunk case on failure.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { parseAttentionRequest, type AttentionRequest, type FieldSpec } from '../../src/aep/attention';
import { parseEnvelope, type AepEvent } from '../../src/aep/envelope';
import { Inbox } from '../../src/inbox/inbox';
import { emitterEvents } from '../support/events';

const SOURCE = 'aep://h/agent/codex/session/s1';

/** An `attention.requested` as the client gets it: fresh objects from JSON text, through the envelope parser. */
function requested(data: Record<string, unknown>, id = 'Q1', seq = 0): AepEvent {
  const raw = { aep: '0.1', id, type: 'attention.requested', time: '2026-07-03T10:00:00Z', source: SOURCE, agent: 'codex', session: 's1', seq, capture: 'redacted', data };
  const parsed = parseEnvelope(JSON.parse(JSON.stringify(raw)));
  assert.ok(parsed.ok);
  return parsed.value;
}

function parsedRequest(event: AepEvent): AttentionRequest {
  const parsed = parseAttentionRequest(event);
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.problem.message);
  return parsed.value;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const member of Object.values(value)) deepFreeze(member);
    Object.freeze(value);
  }
  return value;
}

const FORM = {
  kind: 'form',
  prompt: 'Deploy?',
  options: [{ id: 'ok', label: 'OK' }],
  respond_via: ['control'],
  fields: [
    { id: 'name', type: 'string', label: 'Name', required: true },
    { id: 'regions', type: 'select', label: 'Regions', multi: true, choices: [{ id: '1', label: 'us-east' }, { id: '2', label: 'eu-west' }] },
  ],
};

describe('a parsed request beside its event', () => {
  test("reads the event's own choice, option and respond_via lists where a copy would equal them", () => {
    const event = requested(FORM);
    const data = event.data as typeof FORM;
    const request = parsedRequest(event);
    const regions = request.fields[1];
    assert.ok(regions?.type === 'select');
    assert.equal(regions.choices, data.fields[1]?.choices, 'the choices are the event’s list');
    assert.equal(request.options, data.options, 'the options are the event’s list');
    assert.equal(request.respondVia, data.respond_via, 'respond_via is the event’s list');
  });

  test('a choice or option with any other key is read as a copy without it, and the event keeps it', () => {
    const choices = [{ id: '1', label: 'us-east', note: 'hostile' }, { id: '2', label: 'eu-west' }];
    const event = requested({ ...FORM, options: [{ id: 'ok', label: 'OK', ['__proto__']: { polluted: true } }], fields: [{ id: 'regions', type: 'select', label: 'R', choices }] });
    const data = event.data as { options: object[]; fields: Array<{ choices: object[] }> };
    const request = parsedRequest(event);
    const regions = request.fields[0];
    assert.ok(regions?.type === 'select');
    assert.notEqual(regions.choices, data.fields[0]?.choices);
    assert.deepEqual(regions.choices, [{ id: '1', label: 'us-east' }, { id: '2', label: 'eu-west' }]);
    assert.notEqual(request.options, data.options);
    assert.deepEqual(Object.keys(request.options[0] ?? {}), ['id', 'label']);
    assert.deepEqual(data.fields[0]?.choices[0], { id: '1', label: 'us-east', note: 'hostile' }, 'the event is as it came');
  });

  // Any of the lists the request shares with its event, changed by the parse or later by the reader, would break
  // the reload (the event is what is saved); and what a surface is given is the request as JSON (the page's messages).
  const choice = fc.record({ id: fc.string({ minLength: 1, maxLength: 6 }), label: fc.string({ maxLength: 8 }) }, { requiredKeys: ['id', 'label'] });
  const extra = fc.option(fc.record({ note: fc.string({ maxLength: 4 }) }), { nil: undefined });
  const withExtra = fc.tuple(choice, extra).map(([c, e]) => ({ ...c, ...e }));
  const uniqueChoices = fc.uniqueArray(withExtra, { selector: (c) => c.id, minLength: 1, maxLength: 4 });
  const field = fc.oneof(
    fc.record({ type: fc.constant('string'), label: fc.string({ maxLength: 8 }), required: fc.option(fc.boolean(), { nil: undefined }) }),
    fc.record({ type: fc.constant('select'), label: fc.string({ maxLength: 8 }), multi: fc.option(fc.boolean(), { nil: undefined }), choices: uniqueChoices }),
  );
  const data = fc.record({
    kind: fc.constantFrom('form', 'permission', 'input'),
    prompt: fc.string({ maxLength: 12 }),
    options: fc.option(uniqueChoices, { nil: undefined }),
    fields: fc.array(field, { minLength: 1, maxLength: 4 }),
    respond_via: fc.option(fc.array(fc.constantFrom('control', 'oob'), { maxLength: 2 }), { nil: undefined }),
  }).map((d) => ({ ...d, fields: d.fields.map((f, i) => ({ ...f, id: `f${i}` })) }));

  test('for generated requests: the event is never changed, and the request as a surface gets it is what a copy of every list gives', () => {
    fc.assert(
      fc.property(data, (d) => {
        const event = requested(JSON.parse(JSON.stringify(d)) as Record<string, unknown>);
        const before = JSON.stringify(event);
        const shared = parseAttentionRequest(deepFreeze(event));
        const copied = parseAttentionRequest(structuredClone(event));
        assert.equal(JSON.stringify(event), before, 'the event is as it came');
        assert.equal(JSON.stringify(shared), JSON.stringify(copied), 'sharing changes nothing a surface reads');
        if (!shared.ok) return;
        const pick = (list: Array<{ id: string; label: string }> | undefined) => list?.map(({ id, label }) => ({ id, label }));
        assert.deepEqual(shared.value.options, pick(d.options) ?? []);
        for (const [i, f] of d.fields.entries()) {
          const read: FieldSpec | undefined = shared.value.fields[i];
          if (read?.type === 'select') assert.deepEqual(read.choices, pick((f as { choices: Array<{ id: string; label: string }> }).choices));
        }
        assert.deepEqual(shared.value.respondVia, d.respond_via);
      }),
    );
  });
});

describe('items of the inbox', () => {
  test('share one empty routers list until routed; a routed request gets its own, and the others stay empty', () => {
    const inbox = new Inbox();
    const session = emitterEvents({ agent: 'codex', session: 's1' });
    inbox.apply(session.request('R1', 0));
    inbox.apply(session.request('R2', 1));
    const [a, b] = inbox.open();
    assert.ok(a && b);
    assert.equal(a.routedBy, b.routedBy, 'one list for both');
    // Seq-less, as another emitter routes (AEP-0002 §7 rule 3).
    const router = emitterEvents({ agent: 'router', session: 's1' });
    assert.equal(inbox.apply(router.event({ id: 'X1', type: 'attention.routed', subject: 'R1', data: { to: 'phone' } })).applied, true);
    assert.deepEqual(inbox.open().map((item) => [item.requestId, [...item.routedBy]]), [['R1', ['router']], ['R2', []]]);
  });

  test('a request keeps its event verbatim for a reload, and its item key names hub, emitter, session and id', () => {
    const inbox = new Inbox({ hub: 'http://127.0.0.1:8787' });
    const event = requested(FORM);
    const saved = JSON.stringify(event);
    inbox.apply(event);
    const [item] = inbox.open();
    assert.ok(item);
    assert.equal(item.requestEvent, event);
    assert.equal(JSON.stringify(item.requestEvent), saved);
    assert.equal(item.key, `http://127.0.0.1:8787\u0000${SOURCE}\u0000s1\u0000Q1`);
  });

  test("a request's timeline entry holds it whole while its item does; once the item is forgotten its data goes, its envelope stays", async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const inbox = new Inbox({ maxClosed: 1 });
    const session = emitterEvents({ agent: 'codex', session: 's1' });
    // Made and let go in a function of its own, so nothing here still holds the request or its data.
    const data = ((): WeakRef<object> => {
      const request = session.request('R1', 0, { prompt: 'Which branch?'.repeat(50) });
      inbox.apply(request);
      assert.ok(request.data);
      return new WeakRef(request.data);
    })();
    assert.equal(inbox.resolveCause(session.answered('A1', 'R1', 1))?.data, undefined, 'the cause resolves to the envelope');
    inbox.apply(session.resolved('A1', 'R1', 1));
    await nextTurn();
    gc();
    assert.ok(data.deref(), 'held by the closed item');
    // A second request closed: past maxClosed, the first is forgotten.
    inbox.apply(session.request('R2', 2));
    inbox.apply(session.resolved('A2', 'R2', 3));
    assert.equal(inbox.findRequest('s1', 'R1'), undefined, 'R1 is forgotten');
    await nextTurn();
    gc();
    assert.equal(data.deref(), undefined, 'nothing holds its data');
    const timeline = inbox.timeline(session.source, 's1');
    assert.deepEqual(timeline.map((event) => event.id), ['R1', 'A1', 'R2', 'A2'], 'the history is whole');
    assert.ok(timeline.every((event) => !('data' in event)), 'envelopes only');
  });
});
