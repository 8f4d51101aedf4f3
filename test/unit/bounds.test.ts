// Per-event bounds (src/aep/bounds.ts) at the inbox's one entry point: the
// oversize part of the hostile corpus goes through Inbox.apply without a throw
// and comes out within the caps, or is refused in words; events within the
// caps are stored exactly as sent.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseAttentionRequest } from '../../src/aep/attention';
import { boundEvent, capText, DROPPED_KEY, EVENT_BOUNDS } from '../../src/aep/bounds';
import { parseEnvelope, type AepEvent } from '../../src/aep/envelope';
import { parseWireMessage } from '../../src/aep/frames';
import { Inbox } from '../../src/inbox/inbox';
import { goldenEvents, readAepJson } from '../support/fixtures';
import { hostileStrings } from '../support/hostileCorpus';
import { oversizeEvents } from '../support/oversizeEvents';

const MARK = /… \[truncated by AEP Attention: ([\d,]+) characters, first ([\d,]+) shown\]$/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** What one stored event may add up to: a request's budget plus envelope, extension attributes and slack. */
const MAX_EVENT_CHARS = EVENT_BOUNDS.request + 48 * 1024;

/**
 * The caps, checked independently of how bounds.ts meets them: no string
 * longer than a member may be, no array or object wider than the widest
 * count, no nesting deeper than the wire accepts, a bounded total, and a
 * JSON round trip (what workspaceState persistence does) that neither throws
 * nor changes anything.
 */
function assertWithinBounds(event: unknown, name: string): void {
  let chars = 0;
  const stack: Array<{ value: unknown; depth: number }> = [{ value: event, depth: 1 }];
  while (stack.length > 0) {
    const { value, depth } = stack.pop() as { value: unknown; depth: number };
    if (typeof value === 'string') {
      // Strings in the agent's own words are cut to the text cap; one nested in a kept member is within the member's size.
      assert.ok(value.length <= EVENT_BOUNDS.member, `${name}: a string of ${value.length} characters`);
      chars += value.length;
    } else if (typeof value === 'object' && value !== null) {
      assert.ok(depth <= EVENT_BOUNDS.depth, `${name}: nested ${depth} deep`);
      const keys = Object.keys(value);
      assert.ok(keys.length <= EVENT_BOUNDS.choicesPerField, `${name}: ${keys.length} members or items`);
      for (const key of keys) {
        chars += key.length;
        stack.push({ value: (value as Record<string, unknown>)[key], depth: depth + 1 });
      }
    }
  }
  assert.ok(chars <= MAX_EVENT_CHARS, `${name}: ${chars} characters in all`);
  const text = JSON.stringify(event);
  assert.deepEqual(JSON.parse(text), event, `${name}: survives a JSON round trip`);
}

/** Bounding what was already bounded and saved changes nothing (restored events go through apply again). */
function assertIdempotent(event: AepEvent, name: string): void {
  const again = JSON.parse(JSON.stringify(event)) as AepEvent;
  assert.equal(boundEvent(again, 'stored'), undefined, `${name}: refused the second time`);
  assert.deepEqual(again, JSON.parse(JSON.stringify(event)), `${name}: changed the second time`);
}

/** The string at a path into a JSON value, or '' when there is none. */
function at(value: unknown, ...path: Array<string | number>): string {
  let here = value;
  for (const step of path) here = typeof here === 'object' && here !== null ? (here as Record<string | number, unknown>)[step] : undefined;
  return typeof here === 'string' ? here : '';
}

function storedCopies(inbox: Inbox, event: AepEvent): unknown[] {
  const item = event.session === undefined ? undefined : inbox.findRequest(event.session, event.type === 'attention.requested' ? event.id : (event.subject ?? ''), event.source);
  return [event, item?.requestEvent, item?.answeredEvent].filter((copy) => copy !== undefined);
}

describe('the oversize corpus through Inbox.apply', () => {
  const corpus = oversizeEvents();

  test('the corpus is not vacuous', () => {
    assert.ok(corpus.length >= 30, `${corpus.length} entries`);
    for (const expect of ['refused', 'unshowable', 'kept']) assert.ok(corpus.some((entry) => entry.expect === expect), expect);
    assert.ok(corpus.filter((entry) => entry.text.length > 1_000_000).length >= 20, 'most entries are past a megabyte');
  });

  for (const entry of corpus) {
    test(`${entry.name}: ${entry.expect}`, () => {
      // Both ways in: over the wire (parseWireMessage drops `__proto__` members)
      // and as a plain JSON.parse result (own `__proto__` members kept), as a
      // restored or test-built event would arrive.
      const wire = parseWireMessage(entry.text);
      assert.equal(wire.kind, 'event', wire.kind === 'invalid' ? wire.problem : wire.kind);
      const plain = parseEnvelope(JSON.parse(entry.text));
      assert.ok(plain.ok, plain.ok ? '' : plain.problem);
      for (const [way, event] of [['wire', wire.kind === 'event' ? wire.event : undefined], ['plain', plain.ok ? plain.value : undefined]] as const) {
        assert.ok(event);
        const inbox = new Inbox();
        const before = inbox.stats();
        const outcome = inbox.apply(event);
        if (entry.expect === 'refused') {
          assert.ok(!outcome.applied && outcome.reason === 'refused', `${way}: ${JSON.stringify(outcome).slice(0, 300)}`);
          assert.match(outcome.problem, entry.problem ?? /./);
          assert.ok(outcome.problem.length < 1_000, `${way}: the problem is a sentence, not a payload (${outcome.problem.length})`);
          assert.deepEqual(inbox.stats(), before, `${way}: nothing was stored`);
          continue;
        }
        if (entry.expect === 'unshowable') {
          // Shown, never with parts silently missing: an open item that cannot be answered here and says why.
          assert.ok(outcome.applied && outcome.problem !== undefined, `${way}: ${JSON.stringify(outcome).slice(0, 300)}`);
          const item = inbox.findRequest(event.session ?? '', event.id, event.source);
          assert.ok(item && item.request === undefined && item.status === 'pending', `${way}: an open item without a request`);
          assert.match(item.problem?.message ?? '', entry.problem ?? /./);
          assert.ok((item.problem?.message.length ?? 0) < 1_000, `${way}: the reason is a sentence, not a payload`);
          assert.deepEqual(Object.keys(item.requestEvent.data ?? {}).sort(), ['aepattentionunshowable', 'kind', 'prompt'].filter((key) => key in (item.requestEvent.data ?? {})).sort());
          for (const stored of storedCopies(inbox, event)) assertWithinBounds(stored, `${entry.name} (${way})`);
          assertIdempotent(event, `${entry.name} (${way})`);
          continue;
        }
        assert.ok(outcome.applied, `${way}: ${JSON.stringify(outcome).slice(0, 300)}`);
        for (const stored of storedCopies(inbox, event)) assertWithinBounds(stored, `${entry.name} (${way})`);
        assertIdempotent(event, `${entry.name} (${way})`);
        assert.equal(inbox.apply(event).applied, false, `${way}: a second delivery is a duplicate`);
      }
    });
  }
});

describe('what the marks say', () => {
  const inbox = () => new Inbox();
  const request = (data: Record<string, unknown>, extra: Record<string, unknown> = {}): AepEvent => ({
    aep: '0.1', id: 'R1', type: 'attention.requested', time: 't', source: 'aep://h/agent/a', agent: 'a', session: 's', seq: 1, capture: 'full', ...extra,
    data,
  });

  test('a cut prompt keeps its start, says how long it was and how much is shown, and still renders', () => {
    const prompt = 'Q'.repeat(1_048_576);
    const event = request({ kind: 'input', prompt });
    const target = inbox();
    assert.equal(target.apply(event).applied, true);
    const item = target.findRequest('s', 'R1');
    const shownPrompt = item?.request?.prompt ?? '';
    const mark = MARK.exec(shownPrompt);
    assert.ok(mark, shownPrompt.slice(-120));
    assert.equal(mark[1], '1,048,576');
    const shown = Number(mark[2]?.replaceAll(',', ''));
    assert.equal(shownPrompt.slice(0, shown), prompt.slice(0, shown));
    assert.ok(shownPrompt.length <= EVENT_BOUNDS.prompt && shown > EVENT_BOUNDS.prompt - 100);
  });

  test('every oversize string of the corpus, in every text slot, is cut with a mark and never splits a character', () => {
    const strings = hostileStrings().filter((s) => s.name.startsWith('oversize/'));
    assert.ok(strings.length >= 10, `${strings.length} oversize strings`);
    for (const { name, text } of strings) {
      const event = request({
        kind: 'form', prompt: text,
        options: [{ id: 'ok', label: text }],
        fields: [{ id: 'db', type: 'select', label: text, choices: [{ id: 'pg', label: text }] }],
        context: { note: text },
        note: text,
      }, { tenant: text });
      const target = inbox();
      assert.equal(target.apply(event).applied, true, name);
      const stored = target.findRequest('s', 'R1')?.requestEvent;
      assertWithinBounds(stored, name);
      const slots: Array<[string, string, number]> = [
        ['prompt', at(stored, 'data', 'prompt'), EVENT_BOUNDS.prompt],
        ['option label', at(stored, 'data', 'options', 0, 'label'), EVENT_BOUNDS.label],
        ['field label', at(stored, 'data', 'fields', 0, 'label'), EVENT_BOUNDS.label],
        ['choice label', at(stored, 'data', 'fields', 0, 'choices', 0, 'label'), EVENT_BOUNDS.label],
        ['data member', at(stored, 'data', 'note'), EVENT_BOUNDS.text],
        ['extension attribute', at(stored, 'tenant'), EVENT_BOUNDS.extensionAttribute],
      ];
      for (const [slot, value, cap] of slots) {
        assert.ok(value.length <= cap, `${name} as ${slot}: ${value.length} > ${cap}`);
        if (text.length > cap) assert.match(value, MARK, `${name} as ${slot}`);
        else assert.equal(value, text, `${name} as ${slot}`);
        assert.doesNotMatch(value.replace(MARK, ''), LONE_SURROGATE, `${name} as ${slot}: a character was split`);
        assert.ok(text.startsWith(value.replace(MARK, '')), `${name} as ${slot}: the start is kept as sent`);
      }
      if (text.length > EVENT_BOUNDS.context) assert.match(at(stored, 'data', 'context', DROPPED_KEY), /^\[dropped by AEP Attention: more than 16,384 characters of JSON\]$/);
      const parsed = parseAttentionRequest(stored as AepEvent);
      assert.ok(parsed.ok, `${name}: the bounded request still renders (${parsed.ok ? '' : parsed.problem.message})`);
    }
  });

  test('the answer of attention.answered is bounded: text and option cut, values past 200 dropped with a count', () => {
    const values: Record<string, unknown> = {};
    for (let i = 0; i < 10_000; i++) values[`f${i}`] = `v${i}`;
    const answered: AepEvent = {
      aep: '0.1', id: 'A1', type: 'attention.answered', time: 't', source: 'aep://h/agent/a', agent: 'a', session: 's', seq: 2, subject: 'R1',
      data: { answer: { option: 'o'.repeat(100_000), text: 'T'.repeat(1_048_576), values }, by: 'b'.repeat(50_000) },
    };
    const target = inbox();
    target.apply(request({ kind: 'input', prompt: 'Name?' }));
    assert.equal(target.apply(answered).applied, true);
    const item = target.findRequest('s', 'R1');
    assert.equal(item?.status, 'answered');
    assert.match(item?.answer?.text ?? '', MARK);
    assert.match(item?.answer?.option ?? '', MARK);
    const kept = Object.keys(item?.answer?.values ?? {});
    assert.ok(kept.length <= EVENT_BOUNDS.answerValues, `${kept.length} values kept`);
    assert.match(String(item?.answer?.values?.[DROPPED_KEY]), /^\[[\d,]+ more members dropped by AEP Attention\]$/);
    assertWithinBounds(item?.answeredEvent, 'answered');
  });

  test('a control.rejected detail is cut before the control sender reads it, in the same object', () => {
    const rejected: AepEvent = {
      aep: '0.1', id: 'K1', type: 'control.rejected', time: 't', source: 'aep://h/agent/a', agent: 'a', session: 's', seq: 3, cause: 'C1',
      data: { reason: 'invalid', detail: 'x'.repeat(1_048_576) },
    };
    assert.equal(new Inbox().apply(rejected).applied, true);
    assert.ok(String(rejected.data?.['detail']).length <= EVENT_BOUNDS.text);
    assert.match(String(rejected.data?.['detail']), MARK);
    assert.equal(rejected.data?.['reason'], 'invalid');
  });

  test('a hub error frame\'s detail and code are cut as the frame is read', () => {
    const message = parseWireMessage(JSON.stringify({ type: 'error', code: 'c'.repeat(5_000), cause: 'C1', detail: 'd'.repeat(1_048_576) }));
    assert.equal(message.kind, 'frame');
    if (message.kind !== 'frame' || message.frame.type !== 'error') return;
    assert.ok((message.frame.detail ?? '').length <= EVENT_BOUNDS.text && MARK.test(message.frame.detail ?? ''));
    assert.ok(message.frame.code.length <= EVENT_BOUNDS.identifier && MARK.test(message.frame.code));
    assert.equal(message.frame.cause, 'C1');
  });

  test('a hub hello or error listing 100 000 versions is cut to a sentence\'s worth, keeping ours', () => {
    const versions = [...Array.from({ length: 100_000 }, (_, i) => `9.${i}`), '0.1'];
    const hello = parseWireMessage(JSON.stringify({ type: 'hello', versions, role: 'both' }));
    assert.ok(hello.kind === 'frame' && hello.frame.type === 'hello');
    if (hello.kind !== 'frame' || hello.frame.type !== 'hello') return;
    assert.equal(hello.frame.versions.length, 16);
    assert.ok(hello.frame.versions.includes('0.1'));
    const error = parseWireMessage(JSON.stringify({ type: 'error', code: 'version-unsupported', versions: ['v'.repeat(1_000_000)] }));
    assert.ok(error.kind === 'frame' && error.frame.type === 'error');
    if (error.kind !== 'frame' || error.frame.type !== 'error') return;
    assert.deepEqual(error.frame.versions, [`${'v'.repeat(40)}…`]);
  });

  test('extra data members past the count are dropped with their number; what the request means is never dropped for room', () => {
    const data: Record<string, unknown> = {};
    for (let i = 0; i < 100; i++) data[`x${i}`] = i;
    Object.assign(data, { kind: 'permission', prompt: 'May I?', options: [{ id: 'allow', label: 'Allow' }], respond_via: ['oob'], expires_at: '2999-01-01T00:00:00Z' });
    const event = request(data);
    const target = inbox();
    assert.equal(target.apply(event).applied, true);
    const stored = target.findRequest('s', 'R1')?.requestEvent.data ?? {};
    assert.equal(Object.keys(stored).filter((key) => key.startsWith('x')).length, EVENT_BOUNDS.dataMembers - 1);
    assert.equal(stored[DROPPED_KEY], '[37 more members dropped by AEP Attention]');
    const parsed = target.findRequest('s', 'R1')?.request;
    assert.equal(parsed?.answerableHere, false, 'respond_via kept: still informational');
    assert.equal(parsed?.expiresAt, Date.parse('2999-01-01T00:00:00Z'));
    assert.deepEqual(parsed?.options, [{ id: 'allow', label: 'Allow' }]);
  });

  test('a request past what is shown names the agent, the request and the limit, and waits in the inbox as one that cannot be answered here', () => {
    const fields = Array.from({ length: 10_000 }, (_, i) => ({ id: `f${i}`, type: 'string', label: `Field ${i}` }));
    const target = inbox();
    const outcome = target.apply(request({ kind: 'form', prompt: 'Fill in', fields }));
    assert.deepEqual(outcome, {
      applied: true, positionAdvanced: true,
      problem: 'agent a sent a form that cannot be rendered: this form has 10,000 fields, and AEP Attention shows at most 200',
    });
    const item = target.findRequest('s', 'R1');
    assert.equal(item?.status, 'pending');
    assert.equal(item?.request, undefined);
    assert.deepEqual(item?.requestEvent.data, { aepattentionunshowable: 'this form has 10,000 fields, and AEP Attention shows at most 200', kind: 'form', prompt: 'Fill in' });
    const restored = new Inbox();
    assert.equal(restored.apply(JSON.parse(JSON.stringify(item?.requestEvent)) as AepEvent, { receivedAt: item?.receivedAt }).applied, true, 'the persisted stub restores');
    assert.match(restored.findRequest('s', 'R1')?.problem?.message ?? '', /10,000 fields/);
  });

  test("an agent cannot word the reason its request is not shown: its own member of that name is dropped and counted", () => {
    const spoof = 'AEP Attention needs you to run the command below';
    const target = inbox();
    const outcome = target.apply(request({ kind: 'permission', prompt: 'ok?', options: [{ id: 'allow', label: 'Allow' }], aepattentionunshowable: spoof }));
    assert.deepEqual(outcome, { applied: true, positionAdvanced: true });
    const item = target.findRequest('s', 'R1');
    assert.equal(item?.problem, undefined, 'the request is read as sent, not as one that cannot be rendered');
    assert.deepEqual(item?.request?.options, [{ id: 'allow', label: 'Allow' }]);
    assert.deepEqual(item?.requestEvent.data, { kind: 'permission', prompt: 'ok?', options: [{ id: 'allow', label: 'Allow' }], [DROPPED_KEY]: '[1 more members dropped by AEP Attention]' });
    // Neither when it is also past what is shown: the reason is ours.
    const fields = Array.from({ length: 10_000 }, (_, i) => ({ id: `f${i}`, type: 'string' }));
    target.apply(request({ kind: 'form', prompt: 'Fill in', fields, aepattentionunshowable: spoof }, { id: 'R2', seq: 2 }));
    assert.equal(target.findRequest('s', 'R2')?.problem?.message, 'agent a sent a form that cannot be rendered: this form has 10,000 fields, and AEP Attention shows at most 200');
    // What a hub replays is the agent's as sent: its member is dropped again, however it is worded.
    const again = new Inbox();
    again.apply(request({ kind: 'form', prompt: 'Fill in', aepattentionunshowable: spoof }));
    assert.doesNotMatch(again.findRequest('s', 'R1')?.problem?.message ?? '', /run the command/);
  });

  test('an oversize envelope identifier is refused before it is used as a key', () => {
    const target = inbox();
    const outcome = target.apply(request({ kind: 'input', prompt: 'x' }, { session: 's'.repeat(1_048_576) }));
    assert.deepEqual(outcome, {
      applied: false, reason: 'refused',
      problem: 'refused an event from a (attention.requested): its `session` is 1,048,576 characters long, and AEP Attention accepts at most 1,024',
    });
    assert.equal(target.stats().dedupeKeys, 0);
    assert.equal(target.stats().sessions, 0);
  });

  test("an oversize envelope identifier is refused even when the agent's data names the request unshowable", () => {
    const target = inbox();
    const id = 'i'.repeat(100_000);
    const outcome = target.apply(request({ kind: 'permission', prompt: 'ok?', aepattentionunshowable: 'spoofed' }, { id }));
    assert.deepEqual(outcome, {
      applied: false, reason: 'refused',
      problem: 'refused an event from a (attention.requested): its `id` is 100,000 characters long, and AEP Attention accepts at most 1,024',
    });
    assert.equal(target.findRequest('s', id), undefined);
    assert.equal(target.stats().dedupeKeys, 0);
  });
});

describe('nesting built deeper than JSON can be written', () => {
  function deepArray(depth: number): unknown {
    let value: unknown = [];
    for (let i = 0; i < depth; i++) value = [value];
    return value;
  }
  function deepObject(depth: number): Record<string, unknown> {
    let value: Record<string, unknown> = {};
    for (let i = 0; i < depth; i++) value = { a: value };
    return value;
  }

  test('100 000 levels anywhere in an event are dropped with a mark, and the event persists', () => {
    const deep = deepArray(100_000);
    const event: AepEvent = {
      aep: '0.1', id: 'D1', type: 'attention.requested', time: 't', source: 'aep://h/agent/a', agent: 'a', session: 's', seq: 1, capture: 'full',
      deepext: deep,
      data: {
        kind: 'form', prompt: 'Deep', context: deepObject(100_000), deep,
        options: [deep, { id: 'ok', label: 'OK', deep }],
        fields: [{ id: 'db', type: 'select', label: 'DB', deep, choices: [{ id: 'pg', label: 'PG', deep }] }],
      },
    };
    assert.throws(() => JSON.stringify(event), RangeError, 'as built, the event cannot be persisted');
    const target = new Inbox();
    assert.equal(target.apply(event).applied, true);
    const stored = target.findRequest('s', 'D1')?.requestEvent;
    assertWithinBounds(stored, 'deep');
    assert.match(JSON.stringify(stored), /nested more than 56 levels deep/);
    assertIdempotent(event, 'deep');
  });

  test('answer values nested 100 000 deep are dropped with a mark', () => {
    const answered: AepEvent = {
      aep: '0.1', id: 'D2', type: 'attention.answered', time: 't', source: 'aep://h/agent/a', agent: 'a', session: 's', seq: 2, subject: 'D1',
      data: { answer: { values: { deep: deepArray(100_000) } }, deep: deepObject(100_000) },
    };
    assert.equal(new Inbox().apply(answered).applied, true);
    assertWithinBounds(answered, 'deep answer');
  });
});

describe('events within every cap are untouched', () => {
  test('every golden line is stored exactly as sent', () => {
    for (const [index, event] of goldenEvents().entries()) {
      const before = JSON.parse(JSON.stringify(event)) as unknown;
      assert.equal(boundEvent(event), undefined, `golden line ${index + 1} refused`);
      assert.deepEqual(event, before, `golden line ${index + 1} changed`);
    }
  });

  test('every mapping fixture (real agents\' request payloads) is stored exactly as sent', () => {
    let checked = 0;
    for (const file of ['claude-code', 'hermes']) {
      const stack: unknown[] = [readAepJson(`mappings/${file}.json`)];
      while (stack.length > 0) {
        const value = stack.pop();
        if (typeof value !== 'object' || value === null) continue;
        for (const [key, child] of Object.entries(value)) {
          stack.push(child);
          if (!key.startsWith('expected_data') || typeof child !== 'object' || child === null || typeof (child as { kind?: unknown }).kind !== 'string') continue;
          const event: AepEvent = {
            aep: '0.1', id: `M${checked}`, type: 'attention.requested', time: 't', source: 'aep://h/agent/a', agent: 'a', session: 's', seq: 1,
            data: JSON.parse(JSON.stringify(child)) as Record<string, unknown>,
          };
          const before = JSON.parse(JSON.stringify(event)) as unknown;
          assert.equal(boundEvent(event), undefined, `${file}: ${key} refused`);
          assert.deepEqual(event, before, `${file}: ${key} changed`);
          checked++;
        }
      }
    }
    assert.ok(checked >= 4, `${checked} mapping payloads checked`);
  });

  test('capText leaves text at its cap alone and cuts one character more', () => {
    const cap = 2_000;
    assert.equal(capText('a'.repeat(cap), cap), 'a'.repeat(cap));
    const cut = capText('a'.repeat(cap + 1), cap);
    assert.ok(cut.length <= cap);
    assert.match(cut, /… \[truncated by AEP Attention: 2,001 characters, first [\d,]+ shown\]$/);
    assert.equal(capText(cut, cap), cut);
  });
});
