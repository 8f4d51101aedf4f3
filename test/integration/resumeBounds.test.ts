// Bounded, self-healing resume over real loopback sockets: a fleet's worth of
// saved positions after a window reload, a hub that takes fewer positions
// than the client holds, and ended sessions leaving the store.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { HubClient, type HubClientOptions } from '../../src/client/hubClient';
import { type PositionStore } from '../../src/client/positionStore';
import { MemoryPositionStore } from '../support/memoryPositionStore';
import type { ResumePosition } from '../../src/aep/frames';
import { Inbox } from '../../src/inbox/inbox';
import { WorkspacePersistence } from '../../src/app/hubs/persistence';
import { startHub, type RunningHub } from '../peers/hub/hub';
import { fakeHub, type FakeHub } from '../support/fakeHub';
import { freshSession, makeEvent, makeRequest, postEvents } from '../support/events';
import { MemoryMemento } from '../support/memoryMemento';
import { RecordingLogger } from '../support/recordingLogger';
import { TcpProxy } from '../support/tcpProxy';
import { waitUntil } from '../support/waitUntil';
import { failureLogLine } from '../../src/client/connectionFailure';
import { slotEntries } from '../support/slotEntries';

const TOKEN = 'resume-bounds-token';

interface Harness {
  client: HubClient;
  inbox: Inbox;
  log: RecordingLogger;
  problems: string[];
  failed: string[];
}

const clients: HubClient[] = [];
function startClient(hubUrl: string, positions: PositionStore, inbox = new Inbox(), options: Partial<HubClientOptions> = {}): Harness {
  const log = new RecordingLogger();
  const client = new HubClient({ hubUrl, token: TOKEN, senderName: 'test-editor', inbox, positions, log, backoffBaseMs: 50, backoffCapMs: 400, ...options });
  const problems: string[] = [];
  const failed: string[] = [];
  client.onDidReportProblem((problem) => problems.push(problem.message));
  client.onDidChangeState((state) => {
    if (state.kind === 'failed') failed.push(failureLogLine(state.failure));
  });
  client.start();
  clients.push(client);
  return { client, inbox, log, problems, failed };
}

const connected = (h: Harness) =>
  waitUntil(() => h.client.state.kind === 'connected', 'the client to connect', 5_000, () => JSON.stringify(h.client.state) + h.log.lines.slice(-4).join(' | '));
const openRequest = (h: Harness, requestId: string) => h.inbox.open().find((item) => item.requestId === requestId);
const request = (session: string, seq: number, prompt: string) => makeRequest(session, seq, { kind: 'input', prompt });

after(() => {
  for (const client of clients) client.dispose();
});

describe('a fleet of 300 sessions, a window reload, then a dropped connection', () => {
  let hub: RunningHub;
  let proxy: TcpProxy;
  before(async () => {
    // The local hub replays at most 256 positions per subscribe (test/peers/hub/config.ts maxFromPositions).
    hub = await startHub({ port: 0, token: TOKEN });
    proxy = await TcpProxy.start(hub.port);
  });
  after(async () => {
    await proxy.close();
    await hub.close();
  });

  test('the reloaded client reconnects and resumes: requests raised while it was cut off arrive', async (t) => {
    const sessions = Array.from({ length: 300 }, () => freshSession('fleet'));
    const memento = new MemoryMemento();
    const origin = `http://127.0.0.1:${proxy.port}`;

    // Before the reload: the client sees 300 live sessions and persists their positions.
    const firstPersistence = new WorkspacePersistence(memento, origin, new RecordingLogger());
    const first = startClient(proxy.url, firstPersistence);
    await connected(first);
    const posted = await postEvents(hub.url, TOKEN, sessions.map((session) => makeEvent('session.started', session, 0)));
    assert.equal(posted.status, 202, JSON.stringify(posted.body));
    await waitUntil(() => firstPersistence.load().length === 300, 'a position for every session', 10_000, () => `${firstPersistence.load().length} positions`);
    first.client.dispose();
    firstPersistence.dispose();
    assert.equal(slotEntries<ResumePosition>(memento, `aepAttention.positions:${origin}`).length, 300, 'more positions saved than the hub takes in one `from`');

    // The reload: a fresh inbox and client built from what was persisted.
    const persistence = new WorkspacePersistence(memento, origin, new RecordingLogger());
    const inbox = new Inbox();
    persistence.restoreInto(inbox);
    const h = startClient(proxy.url, persistence, inbox);
    await connected(h);
    // The replay brings the fleet again; everything the earlier window applied is dropped, not reapplied.
    await waitUntil(() => h.client.stats.duplicatesDropped >= 300, 'the replay of the fleet', 10_000, () => JSON.stringify(h.client.stats));
    assert.equal(inbox.open().length, 0, 'nothing the earlier window had seen reopens');

    proxy.sever();
    await waitUntil(() => h.client.state.kind === 'backing-off', 'the client to notice the drop');
    const oldest = request(sessions[0]!, 1, 'Asked in the oldest session while you were away');
    const newest = request(sessions[299]!, 1, 'Asked in the newest session while you were away');
    const brandNew = freshSession('fleet-new');
    const fresh = [makeEvent('session.started', brandNew, 0), request(brandNew, 1, 'Asked in a session begun while you were away')];
    assert.equal((await postEvents(hub.url, TOKEN, [oldest, newest, ...fresh])).status, 202);
    proxy.restore();

    await connected(h);
    for (const event of [oldest, newest, fresh[1]!]) {
      const id = event.id;
      await waitUntil(() => openRequest(h, id) !== undefined, `request ${id} raised while disconnected`, 5_000, () => h.log.lines.slice(-4).join(' | '));
    }
    assert.deepEqual(h.failed, [], 'never a final failure');
    assert.deepEqual(h.log.find({ code: 'subscription-refused' }), [], h.problems.join('\n'));
    const subscribing = h.log.dataOf('info', 'subscribing');
    const described = subscribing.map((data) => `${String(data['replay'])} ${String(data['positions'])}`);
    assert.ok(subscribing.length >= 2 && subscribing.every((data) => Number(data['positions']) <= 256), described.join('\n'));
    t.diagnostic(`${persistence.load().length} positions kept; subscriptions (replay, positions): ${described.join(' / ')}`);
    persistence.dispose();
  });
});

describe('a hub that takes fewer positions than the client holds', () => {
  let hub: RunningHub;
  let proxy: TcpProxy;
  before(async () => {
    hub = await startHub({ port: 0, token: TOKEN, maxFromPositions: 8 });
    proxy = await TcpProxy.start(hub.port);
  });
  after(async () => {
    await proxy.close();
    await hub.close();
  });

  test('the resume asks for everything held, never for more positions than the hub takes, and the missed request arrives', async () => {
    const positions = new MemoryPositionStore();
    const h = startClient(proxy.url, positions);
    await connected(h);
    const sessions = Array.from({ length: 20 }, () => freshSession('limited'));
    assert.equal((await postEvents(hub.url, TOKEN, sessions.map((session) => makeEvent('session.started', session, 0)))).status, 202);
    await waitUntil(() => positions.load().length === 20, 'a position per session');

    proxy.sever();
    await waitUntil(() => h.client.state.kind === 'backing-off', 'the drop');
    const missed = request(sessions[3]!, 1, 'Asked while you were away');
    assert.equal((await postEvents(hub.url, TOKEN, [missed])).status, 202);
    proxy.restore();

    await connected(h);
    await waitUntil(() => openRequest(h, missed.id) !== undefined, 'the request raised while disconnected', 5_000, () => h.log.lines.slice(-4).join(' | '));
    assert.deepEqual(h.failed, []);
    assert.deepEqual(h.problems, [], 'no refusal: 20 positions were never sent to a hub that takes 8');
    assert.ok(h.log.dataOf('info', 'subscribing').filter((data) => data['replay'] === 'all').length >= 2, h.log.lines.join('\n'));
  });

  test('an ended session leaves the position store', async () => {
    const positions = new MemoryPositionStore();
    const h = startClient(proxy.url, positions);
    await connected(h);
    const ending = freshSession('ending');
    const staying = freshSession('staying');
    await postEvents(hub.url, TOKEN, [makeEvent('session.started', ending, 0), makeEvent('session.started', staying, 0)]);
    await waitUntil(() => positions.load().some((p) => p.session === ending) && positions.load().some((p) => p.session === staying), 'both positions');
    const later = freshSession('after');
    await postEvents(hub.url, TOKEN, [makeEvent('session.ended', ending, 1), makeEvent('session.started', later, 0)]);
    // The later session's position is recorded after the end was applied (one stream, in order).
    await waitUntil(() => positions.load().some((p) => p.session === later), 'the events after the end');
    const ours = new Set([ending, staying, later]);
    assert.deepEqual(positions.load().map((p) => p.session).filter((session) => ours.has(session)), [staying, later]);
  });
});

describe('a hub without replay-all that takes 8 positions', () => {
  let hub: FakeHub;
  const fromSizes: Array<number | string> = [];
  before(async () => {
    hub = await fakeHub((ws, frame) => {
      if (frame['type'] === 'hello') ws.send(JSON.stringify({ type: 'hello', versions: ['0.1'], role: 'both', identity: { agent: 'fake-hub' }, capabilities: { replay: { buffer: 100 } } }));
      if (frame['type'] !== 'subscribe') return;
      const from = frame['from'];
      fromSizes.push(Array.isArray(from) ? from.length : String(from));
      if (Array.isArray(from) && from.length > 8) ws.send(JSON.stringify({ type: 'error', id: frame['id'], code: 'limit-exceeded', detail: `from names ${from.length} positions; this hub replays at most 8` }));
      else ws.send(JSON.stringify({ type: 'subscribed', id: frame['id'] }));
    });
  });
  after(() => hub.close());

  test('100 saved positions: 64, 32, 16, then the 8 most recent; the rest are reported', async () => {
    const saved = Array.from({ length: 100 }, (_, i) => ({ session: `s${i}`, epoch: 0, seq: 4 }));
    const h = startClient(hub.url, new MemoryPositionStore(saved));
    const notices: unknown[] = [];
    h.client.onDidNoteResume((notice) => notices.push(notice));
    await connected(h);
    assert.deepEqual(fromSizes, [64, 32, 16, 8]);
    assert.equal(hub.connections(), 1, 'stepped down on the same connection');
    // Each reported as a problem, and logged as a warning with its code.
    assert.equal(h.problems.length, h.log.find({ level: 'warn' }).length, h.log.lines.join('\n'));
    assert.deepEqual(h.log.dataOf('warn', 'subscription-refused'), Array(3).fill({ hubCode: 'limit-exceeded' }));
    assert.deepEqual(h.log.dataOf('warn', 'left-out').at(-1), { resumed: 8, saved: 100 }, h.log.lines.join('\n'));
    // Nothing names a session begun while away on such a hub: said plainly, once.
    assert.equal(h.log.count('warn', 'no-replay-all'), 1, h.log.lines.join('\n'));
    // The status tooltip gets each as a code it words; the last one is what it shows.
    assert.deepEqual(notices.map((notice) => (notice as { code: string }).code), [
      'left-out', 'no-replay-all', 'subscription-refused', 'left-out', 'subscription-refused', 'left-out', 'subscription-refused', 'left-out',
    ]);
  });
});

describe('a hub without replay-all, a session waiting on the person, and a hundred busier ones', () => {
  let hub: FakeHub;
  const froms: unknown[] = [];
  before(async () => {
    hub = await fakeHub((ws, frame) => {
      if (frame['type'] === 'hello') ws.send(JSON.stringify({ type: 'hello', versions: ['0.1'], role: 'both', identity: { agent: 'fake-hub' }, capabilities: { replay: { buffer: 100 } } }));
      if (frame['type'] !== 'subscribe') return;
      froms.push(frame['from']);
      ws.send(JSON.stringify({ type: 'subscribed', id: frame['id'] }));
    });
  });
  after(() => hub.close());

  test('the session holding an open request is in the `from`, though 100 sessions advanced after it', async () => {
    const waiting = freshSession('waiting');
    const asked = request(waiting, 1, 'Still waiting for you');
    const inbox = new Inbox();
    assert.equal(inbox.apply(asked).applied, true);
    const busy = Array.from({ length: 100 }, (_, i) => ({ source: `aep://test-host/agent/busy/session/b${i}`, session: `b${i}`, epoch: 0, seq: 40 }));
    const positions = new MemoryPositionStore([{ source: asked.source, session: waiting, epoch: 0, seq: 1 }, ...busy]);
    const h = startClient(hub.url, positions, inbox);
    await connected(h);
    await waitUntil(() => froms.some(Array.isArray), 'the main subscription');
    const from = froms.find(Array.isArray);
    assert.ok(Array.isArray(from), JSON.stringify(from));
    assert.equal(from.length, 64, 'no more than the first try names');
    assert.deepEqual(from.at(-1), { session: waiting, epoch: 0, seq: 1 }, 'named, and first to keep when fewer fit');
  });
});

describe('two emitters in one session string, across a window reload (AEP-0001 §5.2)', () => {
  let hub: RunningHub;
  before(async () => {
    hub = await startHub({ port: 0, token: TOKEN });
  });
  after(() => hub.close());

  /** Persists positions as the extension does, then builds a fresh client from them, as a reload does. */
  async function reloadAfterFirstEmitter(memento: MemoryMemento, origin: string, session: string): Promise<{ h: Harness; persistence: WorkspacePersistence }> {
    const persistence = new WorkspacePersistence(memento, origin, new RecordingLogger());
    const inbox = new Inbox();
    persistence.restoreInto(inbox);
    const h = startClient(hub.url, persistence, inbox);
    await connected(h);
    // The replay of what the earlier window applied arrives first (one stream, in order); its last event is the close.
    await waitUntil(() => h.client.stats.duplicatesDropped + h.client.stats.eventsApplied >= 3, `the replay of ${session}`, 5_000, () => JSON.stringify(h.client.stats));
    return { h, persistence };
  }

  /** The first emitter's session: started, a request, its close. */
  const firstEmitter = (session: string) => {
    const asked = request(session, 1, 'The first emitter asks');
    return [
      makeEvent('session.started', session, 0),
      asked,
      makeEvent('attention.resolved', session, 2, { subject: asked.id, cause: asked.id, data: { resolution: 'answered' } }),
    ];
  };

  test('a second source raises two requests in a session name the reloaded window holds a position for: both reach the inbox', async () => {
    const session = freshSession('main');
    const memento = new MemoryMemento();
    const origin = new URL(hub.url).origin;
    const events = firstEmitter(session);

    const firstPersistence = new WorkspacePersistence(memento, origin, new RecordingLogger());
    const first = startClient(hub.url, firstPersistence);
    await connected(first);
    assert.equal((await postEvents(hub.url, TOKEN, events)).status, 202);
    await waitUntil(() => firstPersistence.load().some((p) => p.session === session && p.seq === 2), 'the first emitter\'s position');
    first.client.dispose();
    firstPersistence.dispose();
    const saved = slotEntries<Record<string, unknown>>(memento, `aepAttention.positions:${origin}`);
    const mine = saved.filter((p) => p['session'] === session);
    assert.deepEqual(mine.map(({ applied: _applied, ...position }) => position), [{ source: events[0]!.source, session, epoch: 0, seq: 2 }], 'saved with its emitter');
    assert.ok(mine[0]?.['applied'] !== undefined, 'and with the positions it applied');

    const { h, persistence } = await reloadAfterFirstEmitter(memento, origin, session);
    const dropped = h.client.stats.duplicatesDropped;
    assert.equal(h.inbox.open().filter((item) => item.session === session).length, 0, 'the request the earlier window saw closed does not reopen');
    const second = [
      makeRequest(session, 0, { kind: 'input', prompt: 'Another emitter asks' }, {}, 'second-agent'),
      makeRequest(session, 1, { kind: 'input', prompt: 'Another emitter asks again' }, {}, 'second-agent'),
    ];
    assert.notEqual(second[0]!.source, events[0]!.source);
    assert.equal((await postEvents(hub.url, TOKEN, second)).status, 202);
    for (const event of second) {
      await waitUntil(() => openRequest(h, event.id) !== undefined, `the second emitter's request ${event.id}`, 5_000, () => JSON.stringify(h.client.stats));
    }
    assert.equal(h.client.stats.duplicatesDropped, dropped, 'none of them counted as seen');
    // Both emitters' positions are kept; the next `from` names the session once, at the earliest.
    await waitUntil(() => persistence.load().filter((p) => p.session === session).length === 2, 'a position per emitter');
    persistence.dispose();
  });

  test('positions saved in today\'s format (bare session strings) still resume after the upgrade, and hold back no emitter', async () => {
    const session = freshSession('default');
    const memento = new MemoryMemento();
    const origin = new URL(hub.url).origin;
    const events = firstEmitter(session);
    assert.equal((await postEvents(hub.url, TOKEN, events)).status, 202);
    void memento.update(`aepAttention.positions:${origin}`, [{ session, epoch: 0, seq: 2 }]);

    const { h, persistence } = await reloadAfterFirstEmitter(memento, origin, session);
    await waitUntil(() => h.inbox.findRequest(session, events[1]!.id, events[1]!.source)?.status === 'resolved', 'the replayed close');
    assert.equal(h.inbox.open().filter((item) => item.session === session).length, 0, 'the closed request stays closed: its close was replayed with it');
    const second = makeRequest(session, 0, { kind: 'input', prompt: 'Another emitter asks' }, {}, 'second-agent');
    assert.equal((await postEvents(hub.url, TOKEN, [second])).status, 202);
    await waitUntil(() => openRequest(h, second.id) !== undefined, 'the second emitter\'s request', 5_000, () => JSON.stringify(h.client.stats));
    persistence.dispose();
  });
});

describe('a replay of everything from a hub that no longer holds what the window missed (AEP-0003 §5 rule 2)', () => {
  let hub: RunningHub;
  before(async () => {
    hub = await startHub({ port: 0, token: TOKEN, buffer: 5 });
  });
  after(() => hub.close());

  test('the session the hub dropped past where the window stood is reported as a gap; a held one is not; the status says the rest cannot be told', async () => {
    const memento = new MemoryMemento();
    const origin = new URL(hub.url).origin;
    const dropped = freshSession('dropped');
    const held = freshSession('held');
    const firstPersistence = new WorkspacePersistence(memento, origin, new RecordingLogger());
    const first = startClient(hub.url, firstPersistence);
    await connected(first);
    const before = [dropped, held].flatMap((session) => [makeEvent('session.started', session, 0), request(session, 1, 'Seen before the reload')]);
    assert.equal((await postEvents(hub.url, TOKEN, before)).status, 202);
    await waitUntil(() => firstPersistence.load().filter((p) => p.seq === 1).length === 2, 'both positions');
    first.client.dispose();
    firstPersistence.dispose();

    // While the window is away: 8 more requests in one session, past the hub's buffer of 5; one in the other.
    const missed = Array.from({ length: 8 }, (_, i) => request(dropped, i + 2, `Asked while away ${i}`));
    assert.equal((await postEvents(hub.url, TOKEN, [...missed, request(held, 2, 'Asked while away')])).status, 202);

    const persistence = new WorkspacePersistence(memento, origin, new RecordingLogger());
    const inbox = new Inbox();
    persistence.restoreInto(inbox);
    const h = startClient(hub.url, persistence, inbox);
    const gaps: Array<{ session: string; earliest: { epoch: number; seq: number } }> = [];
    const notices: string[] = [];
    h.client.onDidReplayGap((gap) => gaps.push(gap));
    h.client.onDidNoteResume((notice) => notices.push(notice.code));
    await connected(h);
    const last = missed.at(-1)!;
    await waitUntil(() => openRequest(h, last.id) !== undefined, 'the newest request the hub still holds', 5_000, () => JSON.stringify(h.client.stats));
    await waitUntil(() => gaps.length > 0, 'the gap in the session the hub dropped', 5_000, () => h.log.lines.slice(-4).join(' | '));
    assert.deepEqual(gaps, [{ session: dropped, earliest: { epoch: 0, seq: 5 } }], 'the held session is no gap');
    assert.equal(missed.filter((event) => openRequest(h, event.id) !== undefined).length, 5, 'the 3 oldest are gone from the hub: that is the gap');
    assert.deepEqual(notices, ['replay-all-unverifiable']);
    assert.deepEqual(h.log.dataOf('warn', 'replay-gap'), [{ session: dropped, replay: 'all' }], h.log.lines.join('\n'));
    persistence.dispose();
  });

  test('tool chatter after the last request, past the hub\'s buffer, is no gap after a reload: the window saved where its tool calls left it', async () => {
    const memento = new MemoryMemento();
    const origin = new URL(hub.url).origin;
    const session = freshSession('chatter');
    const firstPersistence = new WorkspacePersistence(memento, origin, new RecordingLogger());
    const firstInbox = new Inbox();
    firstPersistence.restoreInto(firstInbox);
    const first = startClient(hub.url, firstPersistence, firstInbox, { beforeAsking: true });
    await connected(first);
    // A request, then 10 tool events (twice the hub's buffer of 5) and nothing else: all seen live by this window.
    const tools = Array.from({ length: 10 }, (_, i) =>
      makeEvent(i % 2 === 0 ? 'tool.requested' : 'tool.completed', session, i + 2, { capture: 'metadata', data: { tool: { name: 'Bash', call_id: `c${i >> 1}` } } }),
    );
    const asked = request(session, 1, 'Seen before the reload');
    assert.equal((await postEvents(hub.url, TOKEN, [makeEvent('session.started', session, 0), asked, ...tools])).status, 202);
    // This session's own last event: the hub replays other tests' sessions too, so a count of events applied could pass early.
    const last = tools[tools.length - 1]!;
    await waitUntil(() => firstInbox.positionOf(last.source, session)?.seq === last.seq, 'the window to apply the last tool event', 5_000, () => JSON.stringify(firstInbox.positionOf(last.source, session)));
    // The window reloads: its client stops, then what it holds is saved.
    first.client.dispose();
    firstPersistence.dispose();
    const saved = new WorkspacePersistence(memento, origin, new RecordingLogger()).load().filter((p) => p.session === session);
    assert.deepEqual(saved.map((p) => p.seq), [11], 'saved where the tool calls left it');

    const persistence = new WorkspacePersistence(memento, origin, new RecordingLogger());
    const inbox = new Inbox();
    persistence.restoreInto(inbox);
    const h = startClient(hub.url, persistence, inbox, { beforeAsking: true });
    const gaps: unknown[] = [];
    h.client.onDidReplayGap((gap) => gaps.push(gap));
    await connected(h);
    // A marker after the replay: once it is in, everything the hub replayed before it was taken.
    const marker = request(session, 12, 'After the reload');
    assert.equal((await postEvents(hub.url, TOKEN, [marker])).status, 202);
    await waitUntil(() => openRequest(h, marker.id) !== undefined, 'the marker request', 5_000, () => JSON.stringify(h.client.stats));
    assert.deepEqual(gaps, [], 'no request was missed: no gap');
    assert.deepEqual(h.log.find({ code: 'replay-gap' }), [], h.log.lines.join('\n'));
    assert.equal(inbox.open().filter((item) => item.requestId === asked.id).length, 1, 'the request seen before the reload is there once');
    persistence.dispose();
  });
});
