// The local hub over real loopback sockets: HTTP ingest, discovery, the
// WebSocket binding, fan-out with filters and ceilings, resume, replay
// exhaustion, roster, and relay-behalf command refusals.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startHub, type RunningHub } from '../peers/hub/hub';
import { freshSession, makeCommand, makeEvent, makeRequest, postEvents, rawEnvelope } from '../support/events';
import { WsPeer, type Received } from '../support/wsPeer';
import { waitUntil } from '../support/waitUntil';

const TOKEN = 'test-token-0123456789';
const isFrame = (type: string, id?: string) => (r: Received) => r.value['type'] === type && (id === undefined || r.value['id'] === id);
const isEventOf = (session: string) => (r: Received) => r.value['session'] === session && typeof r.value['aep'] === 'string';

describe('hub: HTTP binding', () => {
  let hub: RunningHub;
  before(async () => {
    hub = await startHub({ port: 0, token: TOKEN, maxBody: 64 * 1024, maxBatch: 50 });
  });
  after(() => hub.close());

  test('discovery at /events and /.well-known/aep advertises what the hub implements', async () => {
    for (const path of ['/events', '/.well-known/aep']) {
      const response = await fetch(`${hub.url}${path}`, { headers: { authorization: `Bearer ${TOKEN}` } });
      assert.equal(response.status, 200);
      const doc = (await response.json()) as { aep: unknown; endpoints: unknown; capabilities: Record<string, unknown> };
      assert.deepEqual(doc.aep, ['0.1']);
      assert.deepEqual(doc.endpoints, { events: '/events', stream: '/stream', socket: '/socket' });
      assert.deepEqual(doc.capabilities['replay'], { buffer: 10_000, all: true });
      assert.deepEqual(doc.capabilities['filters'], ['attr-match']);
      assert.ok(doc.capabilities['roster']);
      assert.deepEqual(doc.capabilities['control'], { accepts: [] });
    }
  });

  test('auth: 401 without the token, by header or access_token; /healthz is open', async () => {
    assert.equal((await fetch(`${hub.url}/events`)).status, 401);
    assert.equal((await fetch(`${hub.url}/events`, { headers: { authorization: 'Bearer wrong' } })).status, 401);
    assert.equal((await fetch(`${hub.url}/events?access_token=${TOKEN}`)).status, 200);
    assert.equal((await fetch(`${hub.url}/healthz`)).status, 200);
    await assert.rejects(WsPeer.open(hub.url), /401/);
  });

  test('POST /events answers 202, 400 with the failing line, 415, 426, 413', async () => {
    const session = freshSession();
    const good = [makeEvent('session.started', session, 0), makeEvent('run.started', session, 1, { run: 'r1' })];
    assert.equal((await postEvents(hub.url, TOKEN, good)).status, 202);

    const noId = rawEnvelope({ ...makeEvent('run.started', session, 2), id: undefined });
    const bad = await postEvents(hub.url, TOKEN, [makeEvent('progress.status', session, 3), JSON.stringify(noId)]);
    assert.equal(bad.status, 400);
    assert.equal(bad.body['error'], 'invalid-event');
    assert.equal(bad.body['line'], 1);
    assert.match(String(bad.body['detail']), /line 2: .*`id`/);

    const unknownCategory = await postEvents(hub.url, TOKEN, [makeEvent('banana.peeled', session, 4)]);
    assert.equal(unknownCategory.status, 400);
    const commandOverHttp = await postEvents(hub.url, TOKEN, [makeCommand('control.pause', session)]);
    assert.equal(commandOverHttp.status, 400);
    assert.match(String(commandOverHttp.body['detail']), /WebSocket/);

    assert.equal((await postEvents(hub.url, TOKEN, good, { 'content-type': 'text/plain' })).status, 415);
    const version = await postEvents(hub.url, TOKEN, good, { 'aep-version': '9.9' });
    assert.equal(version.status, 426);
    assert.deepEqual(version.body['versions'], ['0.1']);
    const huge = makeEvent('progress.status', session, 5, { data: { message: 'x'.repeat(70 * 1024) } });
    assert.equal((await postEvents(hub.url, TOKEN, [huge])).status, 413);
    const many = Array.from({ length: 51 }, (_, i) => makeEvent('progress.status', session, 100 + i));
    assert.equal((await postEvents(hub.url, TOKEN, many)).status, 413);
  });

  test('a live SSE stream with nothing to replay is open at once, not at its first ping (30 s)', async () => {
    const opened = new AbortController();
    const response = await Promise.race([
      fetch(`${hub.url}/stream?${new URLSearchParams({ filter: JSON.stringify({ session: freshSession('quiet') }) })}`, {
        headers: { authorization: `Bearer ${TOKEN}` },
        signal: opened.signal,
      }),
      new Promise<never>((_, reject) => AbortSignal.timeout(5_000).addEventListener('abort', () => reject(new Error('no response headers within 5 s')))),
    ]);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'text/event-stream');
    opened.abort();
  });
});

describe('hub: WebSocket binding', () => {
  let hub: RunningHub;
  const peers: WsPeer[] = [];
  const connect = async (options: Parameters<typeof WsPeer.connect>[1] = {}) => {
    const peer = await WsPeer.connect(hub.url, { token: TOKEN, ...options });
    peers.push(peer);
    return peer;
  };
  before(async () => {
    hub = await startHub({ port: 0, token: TOKEN, maxSubscriptionsPerConnection: 8, maxFromPositions: 16 });
  });
  after(async () => {
    await Promise.all(peers.map((peer) => peer.close()));
    await hub.close();
  });

  test('hello comes first; versions without 0.1 are refused with the supported list', async () => {
    const first = await WsPeer.open(hub.url, TOKEN);
    peers.push(first);
    first.send(makeEvent('session.started', freshSession(), 0));
    const error = await first.waitFor(isFrame('error'));
    assert.equal(error.value['code'], 'hello-required');

    const old = await WsPeer.open(hub.url, TOKEN);
    peers.push(old);
    old.send({ type: 'hello', versions: ['9.9'], role: 'consumer' });
    const refusal = await old.waitFor(isFrame('error'));
    assert.equal(refusal.value['code'], 'version-unsupported');
    assert.deepEqual(refusal.value['versions'], ['0.1']);

    const ok = await connect();
    const hello = ok.received.find((r) => r.value['type'] === 'hello');
    assert.deepEqual(hello?.value['versions'], ['0.1']);
  });

  test('fan-out: filters select, ceilings down-level, and unchanged events keep their bytes', async () => {
    const session = freshSession('fan');
    const emitter = await connect({ role: 'emitter' });
    const raw = await connect();
    const lowered = await connect();
    const other = await connect();
    raw.send({ type: 'subscribe', id: 'a', filter: { session, type: 'attention.*' } });
    lowered.send({ type: 'subscribe', id: 'b', filter: { session }, capture: 'metadata' });
    other.send({ type: 'subscribe', id: 'c', filter: { session: 'someone-else' } });
    await Promise.all([raw.waitFor(isFrame('subscribed', 'a')), lowered.waitFor(isFrame('subscribed', 'b')), other.waitFor(isFrame('subscribed', 'c'))]);

    const request = makeRequest(session, 1, {
      kind: 'form', prompt: 'Configure the service', fields: [{ id: 'db', type: 'select', label: 'Database', choices: [{ id: '1', label: 'PostgreSQL' }] }],
    }, { capture: 'redacted', severity: 'notice' });
    const text = JSON.stringify(request);
    emitter.send(makeEvent('session.started', session, 0));
    emitter.send(text);
    const got = await raw.waitFor(isEventOf(session));
    assert.equal(got.text, text, 'byte-identical when nothing changes');
    const [, down] = await lowered.waitForCount(isEventOf(session), 2);
    assert.equal(down?.value['capture'], 'metadata');
    const data = down?.value['data'] as { prompt: string; fields: Array<{ label: string; choices: Array<{ label: string }> }> };
    assert.doesNotMatch(JSON.stringify(data), /PostgreSQL|Configure the service|Database/);
    assert.equal(data.fields[0]?.label, 'db');
    assert.equal(raw.events().length, 1, 'session.started did not match attention.*');
    // A marker for the other subscriber's own session, sent after: once it is there, anything of `session` would be too.
    const marker = makeEvent('session.started', freshSession('someone-else'), 0);
    other.send({ type: 'subscribe', id: 'c2', filter: { session: marker['session'] as string } });
    await other.waitFor(isFrame('subscribed', 'c2'));
    emitter.send(marker);
    await other.waitFor((r) => r.value['id'] === marker['id']);
    assert.deepEqual(other.events().map((e) => e['id']), [marker['id']], 'nothing of the session reached a subscriber of another');
  });

  test('resume after a severed connection delivers exactly the missed tail', async () => {
    const session = freshSession('resume');
    const emitter = await connect({ role: 'emitter' });
    const consumer = await connect();
    consumer.send({ type: 'subscribe', id: 's', filter: { session } });
    await consumer.waitFor(isFrame('subscribed', 's'));
    const all = Array.from({ length: 10 }, (_, seq) => makeEvent('progress.status', session, seq));
    for (const event of all.slice(0, 5)) emitter.send(event);
    const seen = await consumer.waitForCount(isEventOf(session), 5);
    const last = seen[seen.length - 1]?.value;
    consumer.ws.terminate();
    for (const event of all.slice(5)) emitter.send(event);

    const again = await connect();
    again.send({ type: 'subscribe', id: 's2', filter: { session }, from: [{ session, epoch: 0, seq: last?.['seq'] }] });
    const tail = await again.waitForCount(isEventOf(session), 5);
    // A marker, live after the replay: once it is there, any more of the replay would be too.
    const marker = makeEvent('progress.status', session, 10);
    emitter.send(marker);
    await again.waitFor((r) => r.value['id'] === marker['id']);
    assert.deepEqual(again.events().map((e) => e['id']), [...all.slice(5), marker].map((e) => e['id']));
    assert.equal(tail.length, 5);
    assert.equal(again.received.some((r) => r.value['type'] === 'replay-exhausted'), false);
  });

  test('from "all" replays every held session; duplicates are not stored twice', async () => {
    const a = freshSession('all-a');
    const b = freshSession('all-b');
    const events = [makeEvent('session.started', a, 0), makeEvent('progress.status', a, 1), makeEvent('session.started', b, 0)];
    assert.equal((await postEvents(hub.url, TOKEN, [...events, events[1]])).status, 202);
    const consumer = await connect();
    consumer.send({ type: 'subscribe', id: 'all', filter: { session: [a, b] }, from: 'all' });
    await consumer.waitForCount((r) => r.value['session'] === a || r.value['session'] === b, 3);
    // A marker, posted once the replay is in: a duplicate replayed would come before it.
    assert.equal((await postEvents(hub.url, TOKEN, [makeEvent('progress.status', b, 1)])).status, 202);
    await consumer.waitFor((r) => r.value['session'] === b && r.value['seq'] === 1);
    assert.deepEqual(consumer.events().map((e) => `${e['session']}:${e['seq']}`).sort(), [`${a}:0`, `${a}:1`, `${b}:0`, `${b}:1`].sort());
  });

  test('bad input is answered in-band and the connection survives', async () => {
    const peer = await connect();
    peer.send('{not json');
    assert.equal((await peer.waitFor(isFrame('error'))).value['code'], 'invalid-frame');
    peer.ws.send(Buffer.from([1, 2, 3]), { binary: true });
    await peer.waitForCount(isFrame('error'), 2);
    peer.send({ type: 'zigzag', note: 'a frame type from the future' });
    peer.send({ type: 'subscribe', id: 'bad-from', filter: {}, from: {} });
    assert.equal((await peer.waitFor(isFrame('error', 'bad-from'))).value['code'], 'invalid-filter');
    peer.send({ type: 'subscribe', id: 'bad-key', filter: { seq: 1 } });
    assert.equal((await peer.waitFor(isFrame('error', 'bad-key'))).value['code'], 'invalid-filter');
    const positions = Array.from({ length: 17 }, (_, i) => ({ session: `p${i}`, epoch: 0, seq: 0 }));
    peer.send({ type: 'subscribe', id: 'too-many-positions', filter: {}, from: positions });
    assert.equal((await peer.waitFor(isFrame('error', 'too-many-positions'))).value['code'], 'limit-exceeded');
    for (let i = 0; i < 20; i++) peer.send({ type: 'subscribe', id: `n${i}`, filter: { session: `none-${i}` } });
    const limited = await peer.waitFor(isFrame('error', 'n8'));
    assert.equal(limited.value['code'], 'limit-exceeded');
    peer.send({ type: 'ping', t: 42 });
    assert.equal((await peer.waitFor(isFrame('pong'))).value['t'], 42);
    assert.equal(peer.closed, false);
  });

  test('roster lists live claims with their declarations verbatim; emitters may not ask', async () => {
    const session = freshSession('roster');
    const control = { accepts: ['control.attention.respond'], ack_window_ms: 5000, futurekey: { x: 1 } };
    const emitter = await connect({ role: 'emitter', agent: 'roster-agent', capabilities: { control, emits: ['attention'] } });
    emitter.send(makeEvent('session.started', session, 0));
    await emitter.handled();
    const consumer = await connect();
    consumer.send({ type: 'roster', id: 'r1' });
    const reply = await consumer.waitFor(isFrame('roster', 'r1'));
    const entry = (reply.value['entries'] as Array<Record<string, unknown>>).find((e) => e['session'] === session);
    assert.deepEqual(entry, { session, agent: 'roster-agent', instance: 'test', control, emits: ['attention'] });
    emitter.send({ type: 'roster', id: 'r2' });
    const denied = await emitter.waitFor(isFrame('error', 'r2'));
    assert.equal(denied.value['code'], 'unauthorized');
    await emitter.close();
    // The hub drops the claim when it sees the close, which may be after ours: ask until it has.
    let asked = 0;
    await waitUntil(async () => {
      const id = `r3-${asked++}`;
      consumer.send({ type: 'roster', id });
      const after = await consumer.waitFor(isFrame('roster', id));
      return !(after.value['entries'] as Array<Record<string, unknown>>).some((e) => e['session'] === session);
    }, 'the closed emitter\'s claim to leave the roster');
  });

  test('a command reaches its single claimant byte-identically and joins the history', async () => {
    const session = freshSession('route');
    const target = await connect({ role: 'emitter', capabilities: { control: { accepts: ['control.attention.respond'] } } });
    target.send(makeEvent('session.started', session, 0));
    await target.handled();
    const sender = await connect({ role: 'both' });
    const command = JSON.stringify(makeCommand('control.attention.respond', session, { subject: 'R1', cause: 'R1', data: { answer: { option: 'allow' } } }));
    sender.send(command);
    const delivered = await target.waitFor((r) => r.value['type'] === 'control.attention.respond');
    assert.equal(delivered.text, command);
    const watcher = await connect();
    watcher.send({ type: 'subscribe', id: 'h', filter: { session }, from: [{ session, epoch: 0, seq: 0 }] });
    const history = await watcher.waitFor((r) => r.value['type'] === 'control.attention.respond');
    assert.equal(history.text, command);
  });

  test('relay-behalf refusals: no-route, ambiguous, unsupported; none enters the session history', async () => {
    const sender = await connect({ role: 'both' });
    const refusal = async (session: string) => {
      const command = makeCommand('control.attention.respond', session, { subject: 'R', data: { answer: { option: 'allow' } } });
      sender.send(command);
      const error = await sender.waitFor((r) => r.value['type'] === 'error' && r.value['cause'] === command['id']);
      return String(error.value['code']);
    };
    const lonely = freshSession('noroute');
    await postEvents(hub.url, TOKEN, [makeEvent('session.started', lonely, 0)]);
    assert.equal(await refusal(lonely), 'no-route');

    const shared = freshSession('ambiguous');
    const control = { control: { accepts: ['control.attention.respond'] } };
    const one = await connect({ role: 'emitter', capabilities: control });
    const two = await connect({ role: 'emitter', capabilities: control });
    one.send(makeEvent('session.started', shared, 0, {}, 'one'));
    two.send(makeEvent('session.started', shared, 0, {}, 'two'));
    await Promise.all([one.handled(), two.handled()]);
    assert.equal(await refusal(shared), 'ambiguous');
    assert.equal(one.events().length + two.events().length, 0, 'never broadcast, never guessed');

    const mute = freshSession('unsupported');
    const plain = await connect({ role: 'emitter' });
    plain.send(makeEvent('session.started', mute, 0));
    await plain.handled();
    assert.equal(await refusal(mute), 'unsupported');

    const watcher = await connect();
    watcher.send({ type: 'subscribe', id: 'w', filter: { session: [lonely, shared, mute] }, from: 'all' });
    await watcher.waitForCount((r) => r.value['type'] === 'session.started', 4);
    // A marker, posted once the replay is in: a refused command replayed would come before it.
    assert.equal((await postEvents(hub.url, TOKEN, [makeEvent('progress.status', lonely, 1)])).status, 202);
    await watcher.waitFor((r) => r.value['session'] === lonely && r.value['seq'] === 1);
    assert.equal(watcher.events().filter((e) => String(e['type']).startsWith('control.')).length, 0);
  });

  test('shutdown sends closing with the delivered positions before closing', async () => {
    const local = await startHub({ port: 0, token: TOKEN });
    const session = freshSession('closing');
    const consumer = await WsPeer.connect(local.url, { token: TOKEN });
    try {
      consumer.send({ type: 'subscribe', id: 'k', filter: { session } });
      await consumer.waitFor(isFrame('subscribed', 'k'));
      await postEvents(local.url, TOKEN, [makeEvent('session.started', session, 0), makeEvent('progress.status', session, 3)]);
      await consumer.waitForCount(isEventOf(session), 2);
      await local.close();
      const closing = await consumer.waitFor(isFrame('closing'));
      assert.deepEqual(closing.value['delivered'], [{ sub: 'k', session, epoch: 0, seq: 3 }]);
    } finally {
      await consumer.close();
      await local.close();
    }
  });
});

describe('hub: buffer limits and watch-only mode', () => {
  test('replay-exhausted with a small buffer, on both bindings, then delivery from the earliest held', async () => {
    const hub = await startHub({ port: 0, token: TOKEN, buffer: 5 });
    const consumer = await WsPeer.connect(hub.url, { token: TOKEN });
    try {
      const session = freshSession('evict');
      const events = Array.from({ length: 12 }, (_, seq) => makeEvent('progress.status', session, seq, { epoch: 1 }));
      assert.equal((await postEvents(hub.url, TOKEN, events)).status, 202);
      consumer.send({ type: 'subscribe', id: 'x', filter: { session }, from: [{ session, epoch: 1, seq: 0 }] });
      const marker = await consumer.waitFor(isFrame('replay-exhausted'));
      assert.deepEqual(marker.value, { type: 'replay-exhausted', sub: 'x', session, earliest: { epoch: 1, seq: 7 } });
      const delivered = await consumer.waitForCount(isEventOf(session), 5);
      assert.deepEqual(delivered.map((r) => r.value['seq']), [7, 8, 9, 10, 11]);
      assert.ok(consumer.received.indexOf(marker) < consumer.received.indexOf(delivered[0]!));

      const sse = await fetch(`${hub.url}/stream?live=0&from=${encodeURIComponent(JSON.stringify([{ session, epoch: 1, seq: 0 }]))}`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      const body = await sse.text();
      assert.match(body, new RegExp(`^: replay-exhausted ${session} 1:7\\n`));
      assert.deepEqual([...body.matchAll(/^id: .*:(\d+)$/gm)].map((m) => Number(m[1])), [7, 8, 9, 10, 11]);
      // A resume from within the held range is not exhausted.
      const fine = await fetch(`${hub.url}/stream?live=0&from=${encodeURIComponent(JSON.stringify([{ session, epoch: 1, seq: 9 }]))}`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      const fineBody = await fine.text();
      assert.doesNotMatch(fineBody, /replay-exhausted/);
      assert.equal([...fineBody.matchAll(/^data: /gm)].length, 2);
    } finally {
      await consumer.close();
      await hub.close();
    }
  });

  test('without a token the hub is watch-only: every command is refused unauthorized', async () => {
    const hub = await startHub({ port: 0 });
    const session = freshSession('watch');
    const target = await WsPeer.connect(hub.url, { role: 'emitter', capabilities: { control: { accepts: ['control.attention.respond'] } } });
    const sender = await WsPeer.connect(hub.url, { role: 'both' });
    try {
      const doc = (await (await fetch(`${hub.url}/events`)).json()) as Record<string, Record<string, unknown>>;
      assert.equal(doc['capabilities']?.['control'], undefined, 'no routing surface advertised');
      target.send(makeEvent('session.started', session, 0));
      await target.handled();
      const command = makeCommand('control.attention.respond', session, { subject: 'R', data: { answer: { option: 'allow' } } });
      sender.send(command);
      const error = await sender.waitFor((r) => r.value['cause'] === command['id']);
      assert.equal(error.value['code'], 'unauthorized');
      assert.match(String(error.value['detail']), /watch-only/);
      assert.equal(target.events().length, 0);
    } finally {
      await Promise.all([target.close(), sender.close()]);
      await hub.close();
    }
  });

  test('session count and buffers stay within their limits under a flood', async () => {
    const hub = await startHub({ port: 0, token: TOKEN, buffer: 10, maxSessions: 20 });
    try {
      for (let batch = 0; batch < 10; batch++) {
        const events = Array.from({ length: 100 }, (_, i) => makeEvent('progress.status', `flood-${(batch * 100 + i) % 50}`, batch * 100 + i));
        assert.equal((await postEvents(hub.url, TOKEN, events)).status, 202);
      }
      const health = (await (await fetch(`${hub.url}/healthz`)).json()) as { sessions: number };
      assert.ok(health.sessions <= 20, `sessions ${health.sessions}`);
      const sse = await fetch(`${hub.url}/stream?live=0&from=all`, { headers: { authorization: `Bearer ${TOKEN}` } });
      const count = [...(await sse.text()).matchAll(/^data: /gm)].length;
      assert.ok(count <= 20 * 10 && count > 0, `replayed ${count}`);
    } finally {
      await hub.close();
    }
  });
});
