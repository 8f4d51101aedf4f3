// A fake hub that misbehaves on purpose. The client must report each problem
// in words, keep running, and never show "connected" on a dead socket.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { HubClient, type HubClientOptions } from '../../src/client/hubClient';
import { MemoryPositionStore } from '../support/memoryPositionStore';
import { Inbox } from '../../src/inbox/inbox';
import { FAKE_HUB_HELLO, fakeHub, politeHub } from '../support/fakeHub';
import { RecordingLogger } from '../support/recordingLogger';
import { waitUntil } from '../support/waitUntil';
import { describeFailure, describeLost } from '../../src/words/failureMessages';

const clients: HubClient[] = [];
const servers: Array<{ close: () => Promise<void> }> = [];
after(async () => {
  for (const client of clients) client.dispose();
  await Promise.all(servers.map((server) => server.close()));
});

function client(url: string, options: Partial<HubClientOptions> = {}) {
  const log = new RecordingLogger();
  const problems: string[] = [];
  const c = new HubClient({
    hubUrl: url, token: 'any', senderName: 'test-editor', inbox: new Inbox(), positions: new MemoryPositionStore(), log,
    backoffBaseMs: 50, backoffCapMs: 200, ...options,
  });
  c.onDidReportProblem((p) => problems.push(p.message));
  c.start();
  clients.push(c);
  return { c, log, problems };
}

describe('client against a hostile hub', () => {
  test('a roster frame whose id is not the one last asked for is ignored and logged', async () => {
    const real = [{ session: 'real', agent: 'a', control: { accepts: ['control.attention.respond'] } }];
    const forged = [{ session: 'forged', agent: 'b', control: { accepts: ['control.attention.respond'] } }];
    const hub = await fakeHub((ws, frame) => {
      if (frame['type'] === 'hello') ws.send(JSON.stringify({ ...FAKE_HUB_HELLO, capabilities: { roster: {} } }));
      if (frame['type'] === 'subscribe') ws.send(JSON.stringify({ type: 'subscribed', id: frame['id'] }));
      if (frame['type'] === 'roster') {
        // The answer, then a snapshot nobody asked for: the second must not replace the first.
        ws.send(JSON.stringify({ type: 'roster', id: frame['id'], entries: real }));
        ws.send(JSON.stringify({ type: 'roster', id: 'not-asked', entries: forged }));
      }
    });
    servers.push(hub);
    const { c, log } = client(hub.url);
    await waitUntil(() => log.has('info', 'roster-ignored'), 'the stray roster to be logged', 15_000, () => log.lines.join('\n'));
    assert.equal(c.reachability('real').state, 'reachable');
    assert.equal(c.reachability('forged').state, 'unreachable');
    assert.deepEqual(log.dataOf('info', 'roster-ignored'), [{ id: 'not-asked', asked: 'roster-1' }], log.lines.join('\n'));
  });

  test('garbage after hello is reported, and the connection stays up', async () => {
    const hub = await fakeHub((ws, frame) => {
      politeHub(ws, frame);
      if (frame['type'] !== 'subscribe') return;
      ws.send('not json at all');
      ws.send('[1,2,3]');
      ws.send(JSON.stringify({ type: 'subscribed' }));
      ws.send(Buffer.from([0xde, 0xad]), { binary: true });
      ws.send(JSON.stringify({ aep: '0.1', type: 'attention.requested', id: 'x' }));
      ws.send(JSON.stringify({ type: 'from-the-future' }));
    });
    servers.push(hub);
    const { c, problems } = client(hub.url);
    await waitUntil(() => problems.length >= 5, 'five problems', 15_000, () => JSON.stringify(problems));
    assert.match(problems.join('\n'), /not JSON/);
    assert.match(problems.join('\n'), /a frame must be a JSON object/);
    assert.match(problems.join('\n'), /malformed `subscribed` frame/);
    assert.match(problems.join('\n'), /binary frame/);
    assert.match(problems.join('\n'), /malformed event: `time` is missing; `source` is missing/);
    assert.equal(c.state.kind, 'connected');
  });

  test('frames before hello are reported and ignored', async () => {
    const hub = await fakeHub((ws, frame) => {
      if (frame['type'] === 'hello') {
        ws.send(JSON.stringify({ type: 'subscribed', id: 'x' }));
        ws.send(JSON.stringify({ type: 'ping', t: 1 }));
      }
      politeHub(ws, frame);
    });
    servers.push(hub);
    const { c, problems } = client(hub.url);
    await waitUntil(() => c.state.kind === 'connected', 'connected');
    assert.deepEqual(problems, [
      'the hub sent a subscribed frame before its hello; it was ignored',
      'the hub sent a ping frame before its hello; it was ignored',
    ]);
  });

  test('an enormous frame closes the socket with a clear reason, then the client reconnects', async () => {
    let sent = false;
    const hub = await fakeHub((ws, frame) => {
      politeHub(ws, frame);
      if (frame['type'] === 'subscribe' && !sent) {
        sent = true;
        ws.send(JSON.stringify({ type: 'x', pad: 'y'.repeat(200_000) }));
      }
    });
    servers.push(hub);
    const { c, log } = client(hub.url, { maxFrameBytes: 64 * 1024 });
    await waitUntil(() => log.dataOf('warn', 'connection-lost').some((data) => data['reason'] === 'frame-too-large' && data['limitBytes'] === 64 * 1024), 'the size refusal', 15_000, () => log.lines.join('\n'));
    await waitUntil(() => c.state.kind === 'connected' && hub.connections() === 2, 'the reconnect');
  });

  test('a hub that answers with another version fails once, clearly', async (t) => {
    const hub = await fakeHub((ws, frame) => {
      if (frame['type'] === 'hello') ws.send(JSON.stringify({ ...FAKE_HUB_HELLO, versions: ['9.9'] }));
    });
    servers.push(hub);
    // A fake clock: a retry scheduled after the failure would run, and say "connecting", inside the tick.
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const { c } = client(hub.url);
    await waitUntil(() => c.state.kind === 'failed', 'the failure');
    const state = c.state;
    assert.deepEqual(state.kind === 'failed' && state.failure, { code: 'version-unsupported', ours: '0.1', hubVersions: ['9.9'] });
    assert.equal(state.kind === 'failed' && describeFailure(state.failure), 'the hub speaks AEP 9.9, but this extension speaks 0.1.');
    // Ten times the longest backoff (200 ms here): a retry would have run by then.
    t.mock.timers.tick(2_000);
    assert.equal(c.state.kind, 'failed', 'no retry loop on a final failure');
    assert.equal(hub.connections(), 1);
  });

  test('version-unsupported from the hub is final and says what the hub speaks', async () => {
    const hub = await fakeHub((ws, frame) => {
      if (frame['type'] === 'hello') ws.send(JSON.stringify({ type: 'error', code: 'version-unsupported', versions: ['0.2'] }));
    });
    servers.push(hub);
    const { c } = client(hub.url);
    await waitUntil(() => c.state.kind === 'failed', 'the failure');
    const state = c.state;
    assert.deepEqual(state.kind === 'failed' && state.failure, { code: 'version-unsupported', ours: '0.1', hubVersions: ['0.2'] });
    assert.equal(state.kind === 'failed' && describeFailure(state.failure), 'the hub speaks AEP 0.2, but this extension speaks 0.1.');
  });

  test('a hub that never answers pings is dropped, and "connected" does not outlive it', async () => {
    const hub = await fakeHub(politeHub);
    servers.push(hub);
    const { c, log } = client(hub.url, { pingMs: 50, idleMs: 200 });
    await waitUntil(() => c.state.kind === 'connected', 'connected');
    await waitUntil(() => c.state.kind === 'backing-off', 'the drop', 15_000);
    assert.ok(log.dataOf('warn', 'connection-lost').some((data) => data['reason'] === 'silent'), log.lines.join('\n'));
  });

  test('a subscribe refusal is surfaced with its code and detail, and retried with backoff rather than final', async () => {
    const hub = await fakeHub((ws, frame) => {
      if (frame['type'] === 'hello') ws.send(JSON.stringify(FAKE_HUB_HELLO));
      if (frame['type'] === 'subscribe') ws.send(JSON.stringify({ type: 'error', id: frame['id'], code: 'limit-exceeded', detail: 'too many subscribers' }));
    });
    servers.push(hub);
    const { c } = client(hub.url);
    const states: string[] = [];
    c.onDidChangeState((state) => states.push(state.kind));
    await waitUntil(() => c.state.kind === 'backing-off', 'the refusal');
    const state = c.state;
    assert.deepEqual(state.kind === 'backing-off' && state.lost, { code: 'subscription-refused', hubCode: 'limit-exceeded', detail: 'too many subscribers' });
    assert.equal(state.kind === 'backing-off' && describeLost(state.lost), 'the hub refused the subscription (limit-exceeded): too many subscribers');
    await waitUntil(() => hub.connections() >= 2, 'a retry');
    assert.ok(!states.includes('failed'), states.join(', '));
  });
});
