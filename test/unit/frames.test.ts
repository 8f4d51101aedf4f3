// parseWireMessage: every inbound WebSocket frame of AEP-0003 (§2, §3.5, §4,
// §4.1, §5, §6.5) and the relay-behalf command refusal of AEP-0004 §4.2, plus
// the events/frames split and the refusal of hostile text.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseWireMessage, type InboundFrame } from '../../src/aep/frames';
import { goldenLines } from '../support/fixtures';

type FrameOf<T extends InboundFrame['type']> = Extract<InboundFrame, { type: T }>;

function wire(input: unknown): string {
  return typeof input === 'string' ? input : JSON.stringify(input);
}

/** Parses and insists on a frame of the given type, returning it narrowed. */
function frameOf<T extends InboundFrame['type']>(input: unknown, type: T): FrameOf<T> {
  const message = parseWireMessage(wire(input));
  if (message.kind !== 'frame') assert.fail(`expected a ${type} frame, got ${JSON.stringify(message)}`);
  const isWanted = (frame: InboundFrame): frame is FrameOf<T> => frame.type === type;
  if (!isWanted(message.frame)) assert.fail(`expected a ${type} frame, got a ${message.frame.type} frame`);
  return message.frame;
}

/** Parses and insists on `invalid`, returning the problem sentence. */
function problemOf(input: unknown): string {
  const message = parseWireMessage(wire(input));
  if (message.kind !== 'invalid') assert.fail(`expected invalid, got ${JSON.stringify(message)}`);
  assert.equal(typeof message.problem, 'string');
  assert.ok(message.problem.length > 0, 'the problem says something');
  return message.problem;
}

describe('parseWireMessage: hello (AEP-0003 §4)', () => {
  test('a hub hello with every capability reads into typed fields', () => {
    const hello = frameOf(
      {
        type: 'hello',
        versions: ['0.1'],
        role: 'both',
        identity: { agent: 'aep-hub', instance: 'hub/1', card: null },
        capabilities: {
          emits: ['session', 'attention'],
          capture: ['none', 'metadata', 'redacted'],
          control: { accepts: ['control.attention.respond', 'control.cancel'], ack_window_ms: 7500 },
          replay: { buffer: 10000, all: true },
          filters: ['attr-match'],
          roster: {},
          experimental: { 'x-feature': { on: true } },
        },
      },
      'hello',
    );
    assert.deepEqual(hello.versions, ['0.1']);
    assert.equal(hello.role, 'both');
    assert.equal(hello.identity?.agent, 'aep-hub');
    assert.equal(hello.identity?.instance, 'hub/1');
    const capabilities = hello.capabilities;
    assert.ok(capabilities, 'capabilities are kept');
    assert.deepEqual(capabilities.control?.accepts, ['control.attention.respond', 'control.cancel']);
    assert.equal(capabilities.control?.ack_window_ms, 7500);
    assert.equal(capabilities.replay?.all, true);
    assert.equal(capabilities.replay?.buffer, 10000);
    assert.deepEqual(capabilities.roster, {});
    assert.deepEqual(capabilities.filters, ['attr-match']);
    assert.deepEqual(capabilities.capture, ['none', 'metadata', 'redacted']);
    assert.deepEqual(capabilities.emits, ['session', 'attention']);
    assert.deepEqual(capabilities.experimental, { 'x-feature': { on: true } });
  });

  test('the minimal hello (versions only) is a hello with nothing declared', () => {
    const hello = frameOf({ type: 'hello', versions: ['0.1'] }, 'hello');
    assert.deepEqual(hello.versions, ['0.1']);
    assert.equal(hello.role, undefined);
    assert.equal(hello.capabilities, undefined);
    assert.equal(hello.identity, undefined);
  });

  test('undeclared control, replay.all and roster read as absent', () => {
    const hello = frameOf({ type: 'hello', versions: ['0.1'], capabilities: { replay: { buffer: 5 } } }, 'hello');
    assert.equal(hello.capabilities?.control, undefined);
    assert.equal(hello.capabilities?.replay?.all, undefined);
    assert.equal(hello.capabilities?.roster, undefined);
    assert.equal(hello.capabilities?.replay?.buffer, 5);
  });

  test('a control capability without ack_window_ms leaves the window undeclared', () => {
    const hello = frameOf(
      { type: 'hello', versions: ['0.1'], capabilities: { control: { accepts: ['control.attention.respond'] } } },
      'hello',
    );
    assert.deepEqual(hello.capabilities?.control, { accepts: ['control.attention.respond'] });
    assert.equal(hello.capabilities?.control?.ack_window_ms, undefined);
  });

  test('malformed capabilities are treated as undeclared, never fail the hello (§4 rule 4)', () => {
    const hello = frameOf(
      {
        type: 'hello',
        versions: ['0.1'],
        capabilities: {
          control: 5,
          replay: 'x',
          roster: [],
          emits: 'attention',
          filters: [1, 2],
          capture: { none: true },
          experimental: 'on',
          // Unknown capability keys MUST be ignored, and never fail the hello either.
          teleport: { range: 'far' },
        },
      },
      'hello',
    );
    const capabilities = hello.capabilities;
    assert.ok(capabilities, 'the capabilities object itself survives');
    assert.equal(capabilities.control, undefined);
    assert.equal(capabilities.replay, undefined);
    assert.equal(capabilities.roster, undefined);
    assert.equal(capabilities.emits, undefined);
    assert.equal(capabilities.filters, undefined);
    assert.equal(capabilities.capture, undefined);
    assert.equal(capabilities.experimental, undefined);
  });

  test('a malformed part inside control is dropped while the rest of control is kept', () => {
    const badWindow = frameOf(
      {
        type: 'hello',
        versions: ['0.1'],
        capabilities: { control: { accepts: ['control.attention.respond'], ack_window_ms: -1 } },
      },
      'hello',
    );
    assert.deepEqual(badWindow.capabilities?.control?.accepts, ['control.attention.respond']);
    assert.equal(badWindow.capabilities?.control?.ack_window_ms, undefined, 'a negative window is not a window');

    for (const ack_window_ms of [0, 1.5, '10000', null]) {
      const hello = frameOf(
        { type: 'hello', versions: ['0.1'], capabilities: { control: { accepts: [], ack_window_ms } } },
        'hello',
      );
      assert.equal(hello.capabilities?.control?.ack_window_ms, undefined, `ack_window_ms ${JSON.stringify(ack_window_ms)}`);
    }

    const badAccepts = frameOf(
      { type: 'hello', versions: ['0.1'], capabilities: { control: { accepts: 'control.attention.respond', ack_window_ms: 2000 } } },
      'hello',
    );
    assert.deepEqual(badAccepts.capabilities?.control?.accepts, [], 'malformed accepts declares nothing');
    assert.equal(badAccepts.capabilities?.control?.ack_window_ms, 2000);
  });

  test('a malformed replay.all or replay.buffer is dropped, the other kept', () => {
    const hello = frameOf({ type: 'hello', versions: ['0.1'], capabilities: { replay: { buffer: 'lots', all: true } } }, 'hello');
    assert.equal(hello.capabilities?.replay?.all, true);
    assert.equal(hello.capabilities?.replay?.buffer, undefined);
    const notBoolean = frameOf({ type: 'hello', versions: ['0.1'], capabilities: { replay: { buffer: 3, all: 'yes' } } }, 'hello');
    assert.equal(notBoolean.capabilities?.replay?.all, undefined, '"yes" is not `all: true`');
    assert.equal(notBoolean.capabilities?.replay?.buffer, 3);
  });

  test('capabilities or identity that are not objects are dropped, the hello survives', () => {
    const hello = frameOf({ type: 'hello', versions: ['0.1'], role: 'consumer', capabilities: 5, identity: 'hub' }, 'hello');
    assert.equal(hello.capabilities, undefined);
    assert.equal(hello.identity, undefined);
    assert.equal(hello.role, 'consumer');
  });

  test('a hello without versions, or with an empty list, is invalid and says `versions`', () => {
    assert.match(problemOf({ type: 'hello' }), /malformed `hello` frame: `versions`/);
    assert.match(problemOf({ type: 'hello', versions: [] }), /`hello`.*`versions`/);
    assert.match(problemOf({ type: 'hello', versions: [1] }), /`versions\[0\]`/);
  });

  test('a hello with a role outside emitter | consumer | both is invalid and names `role`', () => {
    assert.match(problemOf({ type: 'hello', versions: ['0.1'], role: 'god' }), /`role`/);
  });
});

describe('parseWireMessage: subscription frames (AEP-0003 §6.5)', () => {
  test('subscribed and unsubscribed carry the subscription id', () => {
    assert.equal(frameOf({ type: 'subscribed', id: 'sub-1' }, 'subscribed').id, 'sub-1');
    assert.equal(frameOf({ type: 'unsubscribed', id: 'sub-2' }, 'unsubscribed').id, 'sub-2');
  });

  test('subscribed or unsubscribed without a string id is invalid and names `id`', () => {
    assert.match(problemOf({ type: 'subscribed' }), /malformed `subscribed` frame: `id`/);
    assert.match(problemOf({ type: 'subscribed', id: 7 }), /`subscribed`.*`id`/);
    assert.match(problemOf({ type: 'unsubscribed', id: null }), /malformed `unsubscribed` frame: `id`/);
  });

  test('a refused subscribe: error with the subscription id, code and detail', () => {
    const error = frameOf(
      { type: 'error', id: 'sub-1', code: 'invalid-filter', detail: 'unknown key `colour`' },
      'error',
    );
    assert.equal(error.id, 'sub-1');
    assert.equal(error.code, 'invalid-filter');
    assert.equal(error.detail, 'unknown key `colour`');
    assert.equal(error.cause, undefined);
  });

  test('an error code outside the closed sets is still an error frame, surfaced verbatim', () => {
    const error = frameOf({ type: 'error', id: 'sub-9', code: 'quota-melted' }, 'error');
    assert.equal(error.code, 'quota-melted');
  });
});

describe('parseWireMessage: error frames', () => {
  test('a relay-behalf command refusal carries cause = command id (AEP-0004 §4.2)', () => {
    const error = frameOf(
      { type: 'error', cause: '01JX9YB6CMD00000000000GOLD', code: 'no-route', detail: 'no live claimant for s_8f2c' },
      'error',
    );
    assert.equal(error.cause, '01JX9YB6CMD00000000000GOLD');
    assert.equal(error.code, 'no-route');
    assert.equal(error.detail, 'no live claimant for s_8f2c');
    assert.equal(error.id, undefined);
    for (const code of ['unauthorized', 'unsupported', 'ambiguous']) {
      assert.equal(frameOf({ type: 'error', cause: 'c1', code }, 'error').code, code);
    }
  });

  test('version-unsupported lists the versions the hub speaks', () => {
    const error = frameOf({ type: 'error', code: 'version-unsupported', versions: ['0.2', '1.0'] }, 'error');
    assert.equal(error.code, 'version-unsupported');
    assert.deepEqual(error.versions, ['0.2', '1.0']);
  });

  test('hello-required is an error frame with a code and nothing else', () => {
    const error = frameOf({ type: 'error', code: 'hello-required' }, 'error');
    assert.equal(error.code, 'hello-required');
    assert.equal(error.id, undefined);
    assert.equal(error.cause, undefined);
    assert.equal(error.versions, undefined);
  });

  test('an error without a string code, or with a non-string cause, is invalid', () => {
    assert.match(problemOf({ type: 'error', id: 'sub-1' }), /malformed `error` frame: `code`/);
    assert.match(problemOf({ type: 'error', code: 404 }), /`code`/);
    assert.match(problemOf({ type: 'error', code: 'no-route', cause: 12 }), /`cause`/);
    assert.match(problemOf({ type: 'error', code: 'version-unsupported', versions: '0.2' }), /`versions`/);
  });
});

describe('parseWireMessage: replay-exhausted (AEP-0003 §5)', () => {
  test('reads sub, session and the earliest held position', () => {
    const frame = frameOf(
      { type: 'replay-exhausted', sub: 'sub-1', session: 's_8f2c', earliest: { epoch: 3, seq: 187 } },
      'replay-exhausted',
    );
    assert.equal(frame.sub, 'sub-1');
    assert.equal(frame.session, 's_8f2c');
    assert.deepEqual(frame.earliest, { epoch: 3, seq: 187 });
  });

  test('a negative, fractional or missing position is invalid and names the attribute', () => {
    const base = { type: 'replay-exhausted', sub: 'sub-1', session: 's' };
    assert.match(problemOf({ ...base, earliest: { epoch: 0, seq: -1 } }), /malformed `replay-exhausted` frame: `earliest\.seq`/);
    assert.match(problemOf({ ...base, earliest: { epoch: -2, seq: 0 } }), /`earliest\.epoch`/);
    assert.match(problemOf({ ...base, earliest: { epoch: 0, seq: 1.5 } }), /`earliest\.seq`/);
    assert.match(problemOf(base), /`earliest`/);
    assert.match(problemOf({ type: 'replay-exhausted', session: 's', earliest: { epoch: 0, seq: 0 } }), /`sub`/);
  });
});

describe('parseWireMessage: closing (AEP-0003 §3.5 rule 4)', () => {
  test('reads the reason and the delivered positions per subscription', () => {
    const frame = frameOf(
      {
        type: 'closing',
        reason: 'shutdown',
        delivered: [
          { sub: 'sub-1', session: 's_8f2c', epoch: 0, seq: 20 },
          { session: 's_form', epoch: 1, seq: 2 },
        ],
      },
      'closing',
    );
    assert.equal(frame.reason, 'shutdown');
    assert.deepEqual(frame.delivered, [
      { sub: 'sub-1', session: 's_8f2c', epoch: 0, seq: 20 },
      { session: 's_form', epoch: 1, seq: 2 },
    ]);
  });

  test('a closing without delivered, or with a malformed list, still closes, with nothing delivered', () => {
    assert.deepEqual(frameOf({ type: 'closing' }, 'closing').delivered, []);
    assert.deepEqual(frameOf({ type: 'closing', delivered: 'all of it' }, 'closing').delivered, []);
    assert.deepEqual(
      frameOf({ type: 'closing', delivered: [{ session: 's', epoch: 0, seq: -4 }] }, 'closing').delivered,
      [],
      'a negative position is not a position',
    );
  });
});

describe('parseWireMessage: liveness (AEP-0003 §3.5 rule 5)', () => {
  test('ping and pong keep their token whatever its type', () => {
    assert.equal(frameOf({ type: 'ping', t: 1751537700000 }, 'ping').t, 1751537700000);
    assert.equal(frameOf({ type: 'ping' }, 'ping').t, undefined);
    assert.deepEqual(frameOf({ type: 'pong', t: { n: 1 } }, 'pong').t, { n: 1 });
    assert.equal(frameOf({ type: 'pong', t: 'abc' }, 'pong').t, 'abc');
  });
});

describe('parseWireMessage: roster (AEP-0003 §4.1)', () => {
  test('a roster reply reads every entry, a repeated session kept as two entries', () => {
    const roster = frameOf(
      {
        type: 'roster',
        id: 'r-1',
        entries: [
          {
            session: 's_8f2c',
            agent: 'claude-code',
            instance: 'host-a/7c1f',
            control: { accepts: ['control.attention.respond'], ack_window_ms: 10000 },
            emits: ['session', 'run', 'tool', 'attention'],
          },
          { session: 's_8f2c', agent: 'impostor', instance: 'host-z/1' },
          { session: 's_watch' },
        ],
      },
      'roster',
    );
    assert.equal(roster.id, 'r-1');
    assert.equal(roster.entries.length, 3);
    const [first, second, third] = roster.entries;
    assert.equal(first?.session, 's_8f2c');
    assert.equal(first?.agent, 'claude-code');
    assert.equal(first?.instance, 'host-a/7c1f');
    assert.deepEqual(first?.control, { accepts: ['control.attention.respond'], ack_window_ms: 10000 });
    assert.deepEqual(first?.emits, ['session', 'run', 'tool', 'attention']);
    assert.equal(second?.session, 's_8f2c', 'ambiguity stays visible');
    assert.equal(second?.control, undefined, 'no control declared, none read');
    assert.equal(third?.agent, undefined);
  });

  test('an empty roster is a roster: nobody is live', () => {
    assert.deepEqual(frameOf({ type: 'roster', id: 'r-2', entries: [] }, 'roster').entries, []);
  });

  test('a malformed control declaration in an entry reads as undeclared, the entry kept', () => {
    const roster = frameOf({ type: 'roster', id: 'r-3', entries: [{ session: 's1', control: 5, emits: 'x' }] }, 'roster');
    assert.equal(roster.entries.length, 1);
    assert.equal(roster.entries[0]?.control, undefined);
    assert.equal(roster.entries[0]?.emits, undefined);
  });

  test('a roster without entries, or an entry without a session, is invalid and says where', () => {
    assert.match(problemOf({ type: 'roster', id: 'r-1' }), /malformed `roster` frame: `entries`/);
    assert.match(problemOf({ type: 'roster', id: 'r-1', entries: [{ agent: 'a' }] }), /`entries\[0\]\.session`/);
    assert.match(problemOf({ type: 'roster', id: 'r-1', entries: [{ session: '' }] }), /`entries\[0\]\.session`/);
    assert.match(problemOf({ type: 'roster', entries: [] }), /`id`/);
  });
});

describe('parseWireMessage: what is not a known frame', () => {
  test('an unknown frame type is unknown-frame, with its type', () => {
    assert.deepEqual(parseWireMessage(JSON.stringify({ type: 'teleport', to: 'mars' })), { kind: 'unknown-frame', type: 'teleport' });
  });

  test('an unknown frame type is reported cut to 64 characters', () => {
    const message = parseWireMessage(JSON.stringify({ type: 'z'.repeat(5000) }));
    assert.deepEqual(message, { kind: 'unknown-frame', type: 'z'.repeat(64) });
  });

  test('prototype member names are unknown frame types, not known ones', () => {
    for (const type of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
      const message = parseWireMessage(`{"type":${JSON.stringify(type)}}`);
      assert.deepEqual(message, { kind: 'unknown-frame', type }, type);
    }
  });

  test('frames we only send are unknown inbound (subscribe, unsubscribe)', () => {
    assert.equal(parseWireMessage(JSON.stringify({ type: 'subscribe', id: 's', filter: {} })).kind, 'unknown-frame');
    assert.equal(parseWireMessage(JSON.stringify({ type: 'unsubscribe', id: 's' })).kind, 'unknown-frame');
  });

  test('a type with a dot is an event, read through the envelope', () => {
    for (const line of goldenLines()) {
      const message = parseWireMessage(line);
      if (message.kind !== 'event') assert.fail(`golden line is not an event: ${JSON.stringify(message)}`);
      const raw: unknown = JSON.parse(line);
      assert.ok(typeof raw === 'object' && raw !== null && 'id' in raw && 'type' in raw);
      assert.equal(message.event.id, raw.id);
      assert.equal(message.event.type, raw.type);
    }
  });

  test('an event keeps its extension attributes and unknown vendor type', () => {
    const line = goldenLines().find((l) => l.includes('"acmeregion"'));
    assert.ok(line, 'the golden corpus has an extension attribute');
    const message = parseWireMessage(line);
    if (message.kind !== 'event') assert.fail(JSON.stringify(message));
    assert.equal(message.event['acmeregion'], 'eu-1');
    const vendor = parseWireMessage(
      JSON.stringify({ aep: '0.1', id: 'v1', type: 'x.acme.thing.happened', time: 't', source: 'aep://h/agent/a', agent: 'a' }),
    );
    assert.equal(vendor.kind, 'event');
  });

  test('a dotted type with a malformed envelope is invalid and names the attribute', () => {
    const problem = problemOf({ aep: '0.1', id: 'e1', type: 'attention.requested', time: 't', agent: 'a' });
    assert.match(problem, /malformed event: `source`/);
    assert.match(problemOf({ aep: '0.1', id: 'e1', type: 'run.started', time: 't', source: 's', agent: 'a', seq: -1 }), /`seq`/);
    assert.match(problemOf({ aep: '9.9', id: 'e1', type: 'run.started', time: 't', source: 's', agent: 'a' }), /`aep`/);
    assert.match(problemOf({ type: '.' }), /malformed event/);
  });
});

describe('parseWireMessage: hostile text is invalid, never a throw', () => {
  test('text that is not JSON says so, and quotes the start of it', () => {
    const problem = problemOf('{"type":"hello",');
    assert.match(problem, /^not JSON \(16 characters starting /);
    assert.ok(problem.includes(JSON.stringify('{"type":"hello",')), problem);
    assert.match(problemOf(''), /^not JSON \(0 characters/);
    const long = problemOf('x'.repeat(100_000));
    assert.match(long, /not JSON \(100000 characters/);
    assert.ok(long.length < 200, 'the quote is cut short');
  });

  test('JSON that is not an object is refused as not an object', () => {
    for (const text of ['[]', '[{"type":"hello","versions":["0.1"]}]', '5', '-0.5e3', 'null', 'true', '"hello"']) {
      assert.match(problemOf(text), /must be a JSON object/, text);
    }
  });

  test('an object without a string type is refused and says `type`', () => {
    for (const value of [{}, { type: 5 }, { type: null }, { type: '' }, { type: ['hello'] }, { type: { hello: true } }, { kind: 'hello' }]) {
      assert.match(problemOf(value), /needs a string `type`/, JSON.stringify(value));
    }
  });

  test('a __proto__ member in a frame does not reach the parsed frame', () => {
    const frame = frameOf('{"type":"subscribed","id":"sub-1","__proto__":{"id":"evil","polluted":true}}', 'subscribed');
    assert.equal(frame.id, 'sub-1');
    assert.equal(Object.getPrototypeOf(frame), Object.prototype);
    assert.equal((frame as Record<string, unknown>)['polluted'], undefined);
    assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
  });
});
