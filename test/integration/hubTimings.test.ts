// The client's own timings against a hub that behaves oddly: a subscription
// never confirmed, and ack windows a target should not be trusted with.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { HubClient, type ClientState, type HubClientOptions } from '../../src/client/hubClient';
import { MemoryPositionStore } from '../support/memoryPositionStore';
import { Inbox } from '../../src/inbox/inbox';
import { FAKE_HUB_HELLO, fakeHub, politeHub, type FakeHub } from '../support/fakeHub';
import { RecordingLogger } from '../support/recordingLogger';
import { waitUntil } from '../support/waitUntil';
import { describeLost } from '../../src/words/failureMessages';

const clients: HubClient[] = [];
const hubs: FakeHub[] = [];
after(async () => {
  for (const client of clients) client.dispose();
  await Promise.all(hubs.map((hub) => hub.close()));
});

/** The longest a test client backs off before it tries again. */
const BACKOFF_CAP_MS = 200;

function client(url: string, options: Partial<HubClientOptions> = {}) {
  const log = new RecordingLogger();
  const states: ClientState[] = [];
  const c = new HubClient({
    hubUrl: url, token: 'any', senderName: 'test-editor', inbox: new Inbox(), positions: new MemoryPositionStore(), log,
    backoffBaseMs: 50, backoffCapMs: BACKOFF_CAP_MS, ...options,
  });
  c.onDidChangeState((state) => states.push(state));
  c.start();
  clients.push(c);
  return { c, log, states };
}

async function hub(script: Parameters<typeof fakeHub>[0]): Promise<FakeHub> {
  const started = await fakeHub(script);
  hubs.push(started);
  return started;
}

describe('a subscription the hub never confirms', () => {
  test('fails the attempt with words the user can act on, then backs off and tries again', async () => {
    const mute = await hub((ws, frame) => {
      if (frame['type'] === 'hello') ws.send(JSON.stringify(FAKE_HUB_HELLO));
    });
    const { c, log, states } = client(mute.url, { subscribeTimeoutMs: 300 });
    await waitUntil(() => mute.connections() >= 2, 'a second attempt', 5_000, () => log.lines.join('\n'));
    const backingOff = states.find((state) => state.kind === 'backing-off');
    assert.ok(backingOff?.kind === 'backing-off');
    assert.deepEqual(backingOff.lost, { code: 'subscription-unconfirmed', afterMs: 300 });
    assert.equal(
      describeLost(backingOff.lost),
      'the hub accepted the connection but never confirmed the subscription within 300 ms; check that the hub is an AEP 0.1 hub and look at its log',
    );
    assert.ok(log.dataOf('warn', 'connection-lost').some((data) => data['reason'] === 'subscription-unconfirmed'), log.lines.join('\n'));
    assert.equal(states.some((state) => state.kind === 'connected'), false, 'never shown as connected');
    c.dispose();
  });

  test('without its own setting it waits as long as for hello', async () => {
    const mute = await hub((ws, frame) => {
      if (frame['type'] === 'hello') ws.send(JSON.stringify(FAKE_HUB_HELLO));
    });
    const { c, states } = client(mute.url, { helloTimeoutMs: 1_500 });
    await waitUntil(() => states.some((state) => state.kind === 'backing-off'), 'the attempt to fail', 5_000);
    const failed = states.find((state) => state.kind === 'backing-off');
    assert.match(failed?.kind === 'backing-off' ? describeLost(failed.lost) : '', /never confirmed the subscription within 1\.5 s;/);
    c.dispose();
  });

  test('a confirmed subscription is not cut by the timer', async (t) => {
    const polite = await hub(politeHub);
    // A fake clock: a subscribe timer left running would fire, and cut the connection, inside the tick.
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const { c, states } = client(polite.url, { subscribeTimeoutMs: 200 });
    await waitUntil(() => c.state.kind === 'connected', 'connected');
    t.mock.timers.tick(400);
    assert.equal(c.state.kind, 'connected');
    assert.equal(polite.connections(), 1);
    assert.deepEqual(states.map((state) => state.kind), ['connecting', 'connected']);
    c.dispose();
  });
});

describe('ack windows from the roster', () => {
  test('are held between 1 s and an hour, and each clamped value is logged once', async () => {
    const entries = [
      { session: 'hasty', agent: 'a', control: { accepts: ['control.attention.respond'], ack_window_ms: 5 } },
      { session: 'forever', agent: 'b', control: { accepts: ['control.attention.respond'], ack_window_ms: 1_000_000_000 } },
      { session: 'sane', agent: 'c', control: { accepts: ['control.attention.respond'], ack_window_ms: 4_000 } },
      // Fifteen minutes is a target's own promise (AEP-0004 §3): honoured as declared, not clamped, not logged.
      { session: 'patient', agent: 'd', control: { accepts: ['control.attention.respond'], ack_window_ms: 900_000 } },
    ];
    let rosters = 0;
    const rostered = await hub((ws, frame) => {
      if (frame['type'] === 'hello') ws.send(JSON.stringify({ ...FAKE_HUB_HELLO, capabilities: { roster: {} } }));
      if (frame['type'] === 'subscribe') {
        ws.send(JSON.stringify({ type: 'subscribed', id: frame['id'] }));
        // A session start makes the client ask for the roster again.
        setTimeout(() => ws.send(JSON.stringify({
          aep: '0.1', id: 'E1', type: 'session.started', time: '2026-07-03T10:00:00Z', source: 'aep://h/agent/a', agent: 'a', session: 'hasty', seq: 0,
        })), 50);
      }
      if (frame['type'] === 'roster') {
        rosters++;
        // The second roster carries a marker session: once the client knows it, that roster is applied whole.
        const marker = { session: 'marker', agent: 'm', control: { accepts: ['control.attention.respond'], ack_window_ms: 4_000 } };
        ws.send(JSON.stringify({ type: 'roster', id: frame['id'], entries: rosters >= 2 ? [...entries, marker] : entries }));
      }
    });
    const { c, log } = client(rostered.url);
    await waitUntil(() => c.reachability('marker').state === 'reachable', 'the second roster', 5_000);
    assert.deepEqual(
      ['hasty', 'forever', 'sane', 'patient'].map((session) => c.reachability(session)),
      [
        { state: 'reachable', agent: 'a', accepts: ['control.attention.respond'], ackWindowMs: 1_000 },
        { state: 'reachable', agent: 'b', accepts: ['control.attention.respond'], ackWindowMs: 3_600_000 },
        { state: 'reachable', agent: 'c', accepts: ['control.attention.respond'], ackWindowMs: 4_000 },
        { state: 'reachable', agent: 'd', accepts: ['control.attention.respond'], ackWindowMs: 900_000 },
      ],
    );
    assert.deepEqual(log.dataOf('warn', 'ack-window-clamped'), [
      { session: 'hasty', declared: 5, waits: 1_000 },
      { session: 'forever', declared: 1_000_000_000, waits: 3_600_000 },
    ], 'each clamped value once');
    c.dispose();
  });
});

describe('a hub that drops the client during every replay of everything', () => {
  test('after three such drops in a row the client resumes from its positions, and asks for everything again once a connection lasts', async (t) => {
    const froms: unknown[] = [];
    let latest: { terminate(): void } | undefined;
    const replayAllHello = { ...FAKE_HUB_HELLO, capabilities: { replay: { all: true } } };
    // A fake clock, moved only once what the test waits for has happened: past the hub's drop, past the
    // client's backoff (at most BACKOFF_CAP_MS), and past stableMs below.
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const dropDelayMs = 20;
    const backingOff = () => states.filter((state) => state.kind === 'backing-off').length;
    const until = (holds: () => boolean, what: string) => waitUntil(holds, what, 10_000, () => log.lines.join('\n'));
    /** The client lost its connection (the `lost`th time) and backs off: the clock runs its backoff out, and it connects again. */
    const retryAfter = async (lost: number) => {
      await until(() => backingOff() >= lost, `backing off after connection ${lost}`);
      t.mock.timers.tick(BACKOFF_CAP_MS);
    };
    const dropper = await hub((ws, frame) => {
      if (frame['type'] === 'hello') ws.send(JSON.stringify(replayAllHello));
      if (frame['type'] !== 'subscribe') return;
      froms.push(frame['from']);
      latest = ws;
      ws.send(JSON.stringify({ type: 'subscribed', id: frame['id'] }));
      // A slow-consumer drop (AEP-0003 §8.4) early in a replay of everything.
      if (frame['from'] === 'all') setTimeout(() => ws.terminate(), dropDelayMs);
    });
    const positions = new MemoryPositionStore([{ session: 's1', epoch: 0, seq: 7 }]);
    const { c, log, states } = client(dropper.url, { positions, stableMs: 400 });
    const notices: unknown[] = [];
    c.onDidNoteResume((notice) => notices.push(notice));
    for (let drop = 1; drop <= 3; drop++) {
      await until(() => froms.length >= drop, `subscription ${drop}`);
      t.mock.timers.tick(dropDelayMs);
      await retryAfter(drop);
    }
    await until(() => froms.length >= 4, 'four subscriptions');
    assert.deepEqual(froms.slice(0, 4), ['all', 'all', 'all', [{ session: 's1', epoch: 0, seq: 7 }]]);
    assert.deepEqual(log.dataOf('warn', 'replay-all-cut-short').slice(0, 1), [{ connections: 3 }], log.lines.join('\n'));
    // Each replay of everything says the hub cannot tell what it dropped; then the cut-short note replaces it.
    assert.deepEqual(notices.slice(0, 4), [
      { code: 'replay-all-unverifiable' }, { code: 'replay-all-unverifiable' }, { code: 'replay-all-unverifiable' },
      { code: 'replay-all-cut-short', connections: 3 },
    ], 'said as a code the status tooltip words');
    // The positions connection lasts past stableMs; the next reconnect asks for everything again.
    await until(() => c.state.kind === 'connected', 'connected from positions');
    const seen = states.length;
    t.mock.timers.tick(600);
    assert.equal(states.length, seen, 'nothing asked for while the positions connection lasted');
    assert.equal(froms.length, 4);
    latest?.terminate();
    await retryAfter(4);
    await until(() => froms.length >= 5, 'a fifth subscription');
    assert.equal(froms[4], 'all', 'after a connection that lasted, everything is asked for again');
    c.dispose();
  });
});
