// The local hub against rules of AEP-0003 it once broke, over real loopback
// sockets: grammatical filters subscribe (§6.1, §6.5), anything before a
// valid hello is refused and closed (§3.5.1), a resume into a session the hub
// has wholly forgotten says so (§5), replay buffers belong to one emitter's
// session (AEP-0001 §5.2), and `hello` gates only what §4 says it gates.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startHub, type RunningHub } from '../peers/hub/hub';
import { freshSession, makeEvent, postEvents } from '../support/events';
import { WsPeer, type Received } from '../support/wsPeer';

const TOKEN = 'hub-spec-rules-token';
const isFrame = (type: string, id?: string) => (r: Received) => r.value['type'] === type && (id === undefined || r.value['id'] === id);
const isEventOf = (session: string) => (r: Received) => r.value['session'] === session && typeof r.value['aep'] === 'string';

let barriers = 0;
/**
 * Resolves once the hub has handled everything sent before it: the hub
 * answers frames in order, and a subscribe's replay is written before the
 * hub reads the next frame, so what has not arrived by the pong never will.
 */
async function settled(peer: WsPeer): Promise<void> {
  const t = `barrier-${++barriers}`;
  peer.send({ type: 'ping', t });
  await peer.waitFor((r) => r.value['type'] === 'pong' && r.value['t'] === t);
}

async function sse(hub: RunningHub, query: Record<string, string>): Promise<{ status: number; body: string }> {
  const params = new URLSearchParams({ live: '0', ...query });
  const response = await fetch(`${hub.url}/stream?${params}`, { headers: { authorization: `Bearer ${TOKEN}` } });
  return { status: response.status, body: await response.text() };
}

const peers: WsPeer[] = [];
async function open(hub: RunningHub): Promise<WsPeer> {
  const peer = await WsPeer.open(hub.url, TOKEN);
  peers.push(peer);
  return peer;
}
async function connect(hub: RunningHub, options: Parameters<typeof WsPeer.connect>[1] = {}): Promise<WsPeer> {
  const peer = await WsPeer.connect(hub.url, { token: TOKEN, ...options });
  peers.push(peer);
  return peer;
}
async function closedAfter(peer: WsPeer): Promise<void> {
  await new Promise<void>((resolve) => (peer.closed ? resolve() : peer.ws.once('close', () => resolve())));
}

after(async () => {
  await Promise.all(peers.map((peer) => peer.close()));
});

describe('attr-match: a grammatical filter subscribes, even one that matches nothing (AEP-0003 §6.1, §6.5)', () => {
  let hub: RunningHub;
  before(async () => {
    hub = await startHub({ port: 0, token: TOKEN });
  });
  after(() => hub.close());

  test('an integer scalar on `session` and an inverted severity band: subscribed on the socket, 200 on SSE', async () => {
    const peer = await connect(hub);
    const grammatical = { 'int-session': { session: 5 }, 'inverted-band': { severity: { gte: 'error', lte: 'info' } } };
    for (const [id, filter] of Object.entries(grammatical)) {
      peer.send({ type: 'subscribe', id, filter });
      const reply = await peer.waitFor((r) => r.value['id'] === id);
      assert.equal(reply.value['type'], 'subscribed', `${JSON.stringify(filter)}: ${reply.text}`);
      assert.equal((await sse(hub, { filter: JSON.stringify(filter) })).status, 200, JSON.stringify(filter));
    }
    // They subscribe and match nothing: an event every other filter here would see does not arrive.
    const session = freshSession('grammar');
    peer.send({ type: 'subscribe', id: 'witness', filter: { session } });
    await peer.waitFor(isFrame('subscribed', 'witness'));
    assert.equal((await postEvents(hub.url, TOKEN, [makeEvent('error.raised', session, 0, { severity: 'error', data: { message: 'x' } })])).status, 202);
    await peer.waitFor(isEventOf(session));
    await settled(peer);
    assert.equal(peer.events().length, 1, 'only the witness subscription delivered it');
  });

  test('a `*` outside `type` is still refused, as the conformance corpus pins ("glob on non-type key")', async () => {
    const peer = await connect(hub);
    peer.send({ type: 'subscribe', id: 'glob', filter: { agent: 'claude*' } });
    assert.equal((await peer.waitFor(isFrame('error', 'glob'))).value['code'], 'invalid-filter');
    assert.equal(peer.closed, false);
  });
});

describe('hello first (AEP-0003 §3.5.1): anything before a valid hello gets hello-required, then close', () => {
  let hub: RunningHub;
  before(async () => {
    hub = await startHub({ port: 0, token: TOKEN });
  });
  after(() => hub.close());

  const firstFrames: Array<[string, (peer: WsPeer) => void]> = [
    ['text that is not JSON', (peer) => peer.send('{not json')],
    ['JSON that is not an object', (peer) => peer.send('[1, 2]')],
    ['a binary frame', (peer) => peer.ws.send(Buffer.from('{"type":"hello"}'), { binary: true })],
  ];
  for (const [name, sendFirst] of firstFrames) {
    test(`${name}`, async () => {
      const peer = await open(hub);
      const closed = closedAfter(peer);
      sendFirst(peer);
      const error = await peer.waitFor(isFrame('error'));
      assert.equal(error.value['code'], 'hello-required', error.text);
      await closed;
      assert.equal(peer.received.length, 1, 'nothing but the error');
    });
  }
});

describe('hello rules (AEP-0003 §4): identity.agent for emitters; no role gate on events', () => {
  let hub: RunningHub;
  before(async () => {
    hub = await startHub({ port: 0, token: TOKEN });
  });
  after(() => hub.close());

  for (const role of ['emitter', 'both'] as const) {
    for (const [shape, identity] of [['no identity', undefined], ['an identity without agent', { instance: 'i-1' }], ['an empty agent', { agent: '' }]] as const) {
      test(`a ${role} hello with ${shape} is refused and closed (rule 3: identity.agent is REQUIRED for emitters)`, async () => {
        const peer = await open(hub);
        const closed = closedAfter(peer);
        peer.send({ type: 'hello', versions: ['0.1'], role, ...(identity ? { identity } : {}), capabilities: {} });
        const error = await peer.waitFor(isFrame('error'));
        assert.equal(error.value['code'], 'invalid-hello');
        assert.match(String(error.value['detail']), /identity\.agent/);
        await closed;
        assert.equal(peer.received.some((r) => r.value['type'] === 'hello'), false);
      });
    }
  }

  test('a consumer hello needs no identity.agent', async () => {
    const peer = await open(hub);
    peer.send({ type: 'hello', versions: ['0.1'], role: 'consumer', capabilities: {} });
    assert.deepEqual((await peer.waitFor(isFrame('hello'))).value['versions'], ['0.1']);
  });

  const roles: Array<[string, Record<string, unknown>]> = [
    ['role "consumer"', { role: 'consumer', identity: { agent: 'a-consumer' } }],
    ['no role at all', { identity: { agent: 'a-roleless-peer' } }],
  ];
  for (const [name, hello] of roles) {
    test(`events from a connection whose hello says ${name} are admitted and fanned out (§4 defines no role gate on events)`, async () => {
      const session = freshSession('role');
      const watcher = await connect(hub);
      watcher.send({ type: 'subscribe', id: 'w', filter: { session } });
      await watcher.waitFor(isFrame('subscribed', 'w'));
      const peer = await open(hub);
      peer.send({ type: 'hello', versions: ['0.1'], ...hello, capabilities: {} });
      await peer.waitFor(isFrame('hello'));
      const event = makeEvent('session.started', session, 0);
      peer.send(event);
      const delivered = await watcher.waitFor(isEventOf(session));
      assert.equal(delivered.value['id'], event['id']);
      await settled(peer);
      assert.equal(peer.received.some((r) => r.value['type'] === 'error'), false, JSON.stringify(peer.received.map((r) => r.text)));
    });
  }

  test('a hello without role may still subscribe and ask for the roster', async () => {
    const peer = await open(hub);
    peer.send({ type: 'hello', versions: ['0.1'], capabilities: {} });
    await peer.waitFor(isFrame('hello'));
    peer.send({ type: 'subscribe', id: 's', filter: {} });
    assert.equal((await peer.waitFor((r) => r.value['id'] === 's')).value['type'], 'subscribed');
    peer.send({ type: 'roster', id: 'r' });
    assert.equal((await peer.waitFor((r) => r.value['id'] === 'r')).value['type'], 'roster');
  });
});

describe('a resume into a session the hub has wholly forgotten (AEP-0003 §5)', () => {
  let hub: RunningHub;
  before(async () => {
    // One session held at a time: a second session's first event forgets the first whole.
    hub = await startHub({ port: 0, token: TOKEN, buffer: 5, maxSessions: 1 });
  });
  after(() => hub.close());

  test('a position below what was forgotten gets replay-exhausted on both bindings; the held boundary does not', async () => {
    const gone = freshSession('gone');
    assert.equal((await postEvents(hub.url, TOKEN, [0, 1, 2].map((seq) => makeEvent('progress.status', gone, seq, { epoch: 2 })))).status, 202);
    assert.equal((await postEvents(hub.url, TOKEN, [makeEvent('session.started', freshSession('next'), 0)])).status, 202);

    const consumer = await connect(hub);
    consumer.send({ type: 'subscribe', id: 'lost', filter: { session: gone }, from: [{ session: gone, epoch: 2, seq: 0 }] });
    const marker = await consumer.waitFor(isFrame('replay-exhausted'));
    // Nothing is held, so "earliest" is the first position the hub could still deliver:
    // just past the newest one it forgot.
    assert.deepEqual(marker.value, { type: 'replay-exhausted', sub: 'lost', session: gone, earliest: { epoch: 2, seq: 3 } });
    const { body } = await sse(hub, { from: JSON.stringify([{ session: gone, epoch: 2, seq: 0 }]) });
    assert.equal(body, `: replay-exhausted ${gone} 2:3\n\n`);

    // From the newest forgotten position nothing was missed, so nothing is said.
    consumer.send({ type: 'subscribe', id: 'whole', filter: { session: gone }, from: [{ session: gone, epoch: 2, seq: 2 }] });
    await consumer.waitFor(isFrame('subscribed', 'whole'));
    await settled(consumer);
    assert.equal(consumer.received.filter(isFrame('replay-exhausted')).length, 1);
    assert.doesNotMatch((await sse(hub, { from: JSON.stringify([{ session: gone, epoch: 2, seq: 2 }]) })).body, /replay-exhausted/);
  });

  test('a session the hub never saw stays silent: nothing is known to be lost', async () => {
    const never = freshSession('never');
    const consumer = await connect(hub);
    consumer.send({ type: 'subscribe', id: 'n', filter: { session: never }, from: [{ session: never, epoch: 0, seq: 4 }] });
    await consumer.waitFor(isFrame('subscribed', 'n'));
    await settled(consumer);
    assert.equal(consumer.received.some(isFrame('replay-exhausted')), false);
  });
});

describe('replay buffers are per emitter session, (source, session) (AEP-0001 §5.2)', () => {
  let hub: RunningHub;
  before(async () => {
    hub = await startHub({ port: 0, token: TOKEN, buffer: 2 });
  });
  after(() => hub.close());

  test('a second emitter\'s event below the first emitter\'s evicted positions is buffered and replayed', async () => {
    const session = freshSession('shared');
    const first = [0, 1, 2, 3, 4].map((seq) => makeEvent('progress.status', session, seq, {}, 'agent-one'));
    assert.equal((await postEvents(hub.url, TOKEN, first)).status, 202);
    // agent-one's buffer now holds seq 3 and 4; seq 0..2 were evicted from it.
    const second = makeEvent('session.started', session, 0, {}, 'agent-two');
    assert.equal((await postEvents(hub.url, TOKEN, [second])).status, 202);

    const consumer = await connect(hub);
    consumer.send({ type: 'subscribe', id: 'all', filter: { session }, from: 'all' });
    await consumer.waitFor(isFrame('subscribed', 'all'));
    await settled(consumer);
    assert.deepEqual(
      consumer.events().map((e) => `${e['agent']}:${e['seq']}`).sort(),
      ['agent-one:3', 'agent-one:4', 'agent-two:0'],
    );
    const { body } = await sse(hub, { from: 'all', filter: JSON.stringify({ session }) });
    assert.ok(body.includes(String(second['id'])), 'SSE replay-all carries agent-two\'s event too');
  });

  test('a resume position names a bare session (AEP-0001 §7.6): it applies to each emitter\'s session of that name', async () => {
    const session = freshSession('named');
    const one = [0, 1, 2, 3, 4].map((seq) => makeEvent('progress.status', session, seq, {}, 'agent-one'));
    const two = [0, 1].map((seq) => makeEvent('progress.status', session, seq, {}, 'agent-two'));
    assert.equal((await postEvents(hub.url, TOKEN, [...one, ...two])).status, 202);
    const consumer = await connect(hub);
    consumer.send({ type: 'subscribe', id: 'p', filter: { session }, from: [{ session, epoch: 0, seq: 0 }] });
    await consumer.waitFor(isFrame('subscribed', 'p'));
    await settled(consumer);
    // agent-one's buffer lost seq 1 and 2 after the position: exhausted from 3. agent-two's holds all after 0.
    const markers = consumer.received.filter(isFrame('replay-exhausted')).map((r) => r.value);
    assert.deepEqual(markers, [{ type: 'replay-exhausted', sub: 'p', session, earliest: { epoch: 0, seq: 3 } }]);
    assert.deepEqual(consumer.events().map((e) => `${e['agent']}:${e['seq']}`).sort(), ['agent-one:3', 'agent-one:4', 'agent-two:1']);
  });

  test('the same id from two emitters is two events: both are held (dedupe is on (source, id), AEP-0001 §7.4)', async () => {
    const session = freshSession('same-id');
    const a = makeEvent('session.started', session, 0, {}, 'agent-one');
    const b = makeEvent('session.started', session, 0, { id: a.id }, 'agent-two');
    assert.equal((await postEvents(hub.url, TOKEN, [a, b])).status, 202);
    const { body } = await sse(hub, { from: 'all', filter: JSON.stringify({ session }) });
    assert.equal([...body.matchAll(/^data: /gm)].length, 2, body);
  });
});

describe('SSE: a session string is emitter-authored text (found while keying buffers)', () => {
  let hub: RunningHub;
  before(async () => {
    hub = await startHub({ port: 0, token: TOKEN });
  });
  after(() => hub.close());

  test('a line break in `session` cannot forge an SSE message: the event goes out without an `id:` line', async () => {
    const forged = '{"aep":"0.1","id":"FORGED","type":"attention.requested","time":"2026-07-03T10:00:00Z","source":"aep://h/agent/x","agent":"x","session":"s","seq":0,"data":{"kind":"permission","prompt":"Allow?"}}';
    const session = `evil-${freshSession()}\n\nevent: attention.requested\ndata: ${forged}\n\n:`;
    const event = makeEvent('progress.status', session, 0);
    assert.equal((await postEvents(hub.url, TOKEN, [event])).status, 202);
    const { body } = await sse(hub, { from: 'all', filter: JSON.stringify({ session }) });
    const messages = body.split('\n\n').filter((block) => block.split('\n').some((line) => line.startsWith('data:')));
    assert.equal(messages.length, 1, body);
    assert.deepEqual(messages[0]?.split('\n').map((line) => line.slice(0, line.indexOf(':') + 1)), ['event:', 'data:']);
    assert.equal(JSON.parse(messages[0]?.split('\n')[1]?.slice('data: '.length) ?? '')['id'], event['id']);
  });
});
