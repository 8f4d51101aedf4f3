// The local hub ends what it should end: a session's claim when the session
// ends (the roster stops listing it while the connection lives on), and an
// SSE stream whose consumer cannot keep up once a notice+ event is due
// (AEP-0003 §8.4: debug/info may be shed, notice+ is delivered or the stream
// ends, so the consumer resumes exactly). Real sockets on loopback.
import assert from 'node:assert/strict';
import * as http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { startHub, type RunningHub } from '../peers/hub/hub';
import { freshSession, makeCommand, makeEvent, postEvents } from '../support/events';
import { WsPeer, type Received } from '../support/wsPeer';

const TOKEN = 'hub-endings-token';
const isFrame = (type: string, id?: string) => (r: Received) => r.value['type'] === type && (id === undefined || r.value['id'] === id);

const peers: WsPeer[] = [];
async function connect(hub: RunningHub, options: Parameters<typeof WsPeer.connect>[1] = {}): Promise<WsPeer> {
  const peer = await WsPeer.connect(hub.url, { token: TOKEN, ...options });
  peers.push(peer);
  return peer;
}
after(async () => {
  await Promise.all(peers.map((peer) => peer.close()));
});

let rosters = 0;
async function rosterSessions(peer: WsPeer): Promise<string[]> {
  const id = `r-${++rosters}`;
  peer.send({ type: 'roster', id });
  const reply = await peer.waitFor(isFrame('roster', id));
  return (reply.value['entries'] as Array<Record<string, unknown>>).map((entry) => String(entry['session']));
}

describe('hub: session.ended releases the claim', () => {
  let hub: RunningHub;
  before(async () => {
    hub = await startHub({ port: 0, token: TOKEN });
  });
  after(() => hub.close());

  test('the roster stops listing an ended session and a command to it nacks no-route, while the connection and its other sessions live on', async () => {
    const ending = freshSession('ending');
    const staying = freshSession('staying');
    const emitter = await connect(hub, { role: 'emitter', capabilities: { control: { accepts: ['control.attention.respond'] } } });
    const consumer = await connect(hub, { role: 'both' });
    emitter.send(makeEvent('session.started', ending, 0));
    emitter.send(makeEvent('session.started', staying, 0));
    // The emitter's pong comes after the hub handled both events.
    emitter.send({ type: 'ping', t: 'claimed' });
    await emitter.waitFor((r) => r.value['type'] === 'pong' && r.value['t'] === 'claimed');
    const before = await rosterSessions(consumer);
    assert.ok(before.includes(ending) && before.includes(staying), 'both sessions are claimed before the end');

    emitter.send(makeEvent('session.ended', ending, 1));
    emitter.send({ type: 'ping', t: 'ended' });
    await emitter.waitFor((r) => r.value['type'] === 'pong' && r.value['t'] === 'ended');
    const afterEnd = await rosterSessions(consumer);
    assert.equal(afterEnd.includes(ending), false, 'an ended session is no live route');
    assert.equal(afterEnd.includes(staying), true, "the connection's other session stays claimed");
    assert.equal(emitter.closed, false);

    const command = makeCommand('control.attention.respond', ending, { subject: 'R1', cause: 'R1', data: { answer: { option: 'allow' } } });
    consumer.send(command);
    const refused = await consumer.waitFor((r) => r.value['type'] === 'error' && r.value['cause'] === command['id']);
    assert.equal(refused.value['code'], 'no-route');

    // A new epoch of the session claims it again.
    emitter.send(makeEvent('session.started', ending, 0, { epoch: 1 }));
    emitter.send({ type: 'ping', t: 'again' });
    await emitter.waitFor((r) => r.value['type'] === 'pong' && r.value['t'] === 'again');
    assert.ok((await rosterSessions(consumer)).includes(ending));
  });

  test("one connection's session.ended leaves another connection's claim on the session standing", async () => {
    const session = freshSession('shared');
    const first = await connect(hub, { role: 'emitter' });
    const second = await connect(hub, { role: 'emitter' });
    const consumer = await connect(hub, { role: 'consumer' });
    first.send(makeEvent('session.started', session, 0));
    second.send(makeEvent('progress.status', session, 1));
    for (const peer of [first, second]) {
      peer.send({ type: 'ping', t: 'claimed' });
      await peer.waitFor((r) => r.value['type'] === 'pong' && r.value['t'] === 'claimed');
    }
    assert.equal((await rosterSessions(consumer)).filter((s) => s === session).length, 2);
    first.send(makeEvent('session.ended', session, 2));
    first.send({ type: 'ping', t: 'ended' });
    await first.waitFor((r) => r.value['type'] === 'pong' && r.value['t'] === 'ended');
    assert.equal((await rosterSessions(consumer)).filter((s) => s === session).length, 1);
  });
});

/** A live SSE stream nobody reads from until `drain`: the hub's writes queue up behind it. */
function stalledStream(hub: RunningHub, session: string): Promise<{ drain: () => Promise<string> }> {
  return new Promise((resolve, reject) => {
    const url = new URL(`${hub.url}/stream?${new URLSearchParams({ filter: JSON.stringify({ session }) })}`);
    const request = http.get(url, { headers: { authorization: `Bearer ${TOKEN}` } }, (response) => {
      assert.equal(response.statusCode, 200);
      response.pause();
      const chunks: Buffer[] = [];
      // A paused response reports its end only once read: the hub's log says when it ended it.
      const ended = new Promise<void>((done) => response.once('close', () => done()));
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', () => undefined);
      resolve({
        drain: async () => {
          response.resume();
          await ended;
          return Buffer.concat(chunks).toString('utf8');
        },
      });
    });
    request.on('error', reject);
  });
}

describe('hub: a slow SSE consumer (AEP-0003 §8.4)', () => {
  const SLOW_CONSUMER_BYTES = 256 * 1024;
  const hubLog: string[] = [];
  let hub: RunningHub;
  before(async () => {
    hub = await startHub({ port: 0, token: TOKEN, slowConsumerBytes: SLOW_CONSUMER_BYTES, log: (line) => hubLog.push(line) });
  });
  after(() => hub.close());

  test('info is shed while the consumer lags; a notice is delivered or ends the stream, and a resume from the last id brings each notice once', async (t) => {
    const session = freshSession('slow-sse');
    const startedAt = Date.now();
    const stream = await stalledStream(hub, session);
    // Info until the hub says it sheds: the bound plus what the kernel's socket buffers hold.
    const pad = 'x'.repeat(60 * 1024);
    const shedding = () => hubLog.some((line) => line.includes('shedding debug/info toward a slow SSE consumer'));
    let seq = 0;
    let posted = 0;
    while (!shedding()) {
      assert.ok(posted < 400, 'the hub never began shedding toward a consumer that reads nothing');
      const events = Array.from({ length: 8 }, () => makeEvent('progress.status', session, seq++, { severity: 'info', extensions: { xpad: pad } }));
      assert.equal((await postEvents(hub.url, TOKEN, events)).status, 202);
      posted += events.length;
    }
    // A few more, all shed: the stream stays open for info however far behind.
    for (let i = 0; i < 3; i++) {
      assert.equal((await postEvents(hub.url, TOKEN, [makeEvent('progress.status', session, seq++, { severity: 'info' })])).status, 202);
      posted++;
    }
    const ending = () => hubLog.some((line) => line.includes('ending slow SSE consumer'));
    assert.equal(ending(), false, 'shedding info does not end the stream');

    // Notices are never shed: each is delivered (the queue grows) or the hub ends the
    // stream. The hub handles a POST before it answers 202, so each check sees its effect.
    const notices: string[] = [];
    while (!ending()) {
      assert.ok(notices.length < 100, 'the hub kept queueing notices toward a consumer that reads nothing');
      const notice = makeEvent('attention.requested', session, seq++, { severity: 'notice', capture: 'redacted', data: { kind: 'input', prompt: `still there? ${notices.length} ${pad}` } });
      assert.equal((await postEvents(hub.url, TOKEN, [notice])).status, 202);
      notices.push(String(notice['id']));
    }
    t.diagnostic(`${posted} info events posted before the hub shed; the stream ended at notice ${notices.length} (60 KiB each), ${Date.now() - startedAt} ms in`);

    // Only whole messages count: the end may cut the last one short.
    const whole = await stream.drain();
    const text = whole.slice(0, whole.lastIndexOf('\n\n') + 2);
    const received = text.split('\n').filter((line) => line === 'event: progress.status').length;
    assert.ok(received < posted, `info was shed (${received} of ${posted} arrived)`);
    t.diagnostic(`${received} of ${posted} info events (60 KiB each) reached the stalled consumer`);
    // Resuming from the last id the stream carried replays exactly what it missed: every notice arrives once.
    const ids = [...text.matchAll(/^id: (.+)$/gm)].map((m) => m[1]);
    const lastId = ids.at(-1);
    assert.ok(lastId);
    // The requests only, at metadata (their padded prompts withheld): a replay bigger than
    // the bound would be a slow consumer too, the hub writes a replay in one go.
    const query = new URLSearchParams({ live: '0', capture: 'metadata', filter: JSON.stringify({ session, type: 'attention.requested' }) });
    const resumed = await (await fetch(`${hub.url}/stream?${query}`, { headers: { authorization: `Bearer ${TOKEN}`, 'last-event-id': lastId } })).text();
    const seen = [...`${text}${resumed}`.matchAll(/"id":"([0-9A-Z]{26})"/g)].map((m) => m[1]);
    for (const id of notices) assert.equal(seen.filter((s) => s === id).length, 1, `notice ${id} arrives exactly once, on the stream or on resume`);
  });
});
