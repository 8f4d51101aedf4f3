// What the catch-up costs: every reconnect to a hub that offers replay-all
// asks for everything it holds (resumePlan.ts), and the inbox dedupes what it
// already had. With N sessions held, this checks that the events that cross the
// wire on a reconnect are what the hub holds under the filter, once, and that
// the one request raised meanwhile, in a session never seen, arrives and
// nothing else changes. `npm run bench` (bench/catchUp.ts) times the same load.
// Set AEP_CATCHUP_SESSIONS to change N (AEP_CATCHUP_ANSWERED: answered requests per session), below 1 000: the local hub holds
// 1 000 sessions at most (test/peers/hub/config.ts maxSessions), one of them the new one.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { HubClient } from '../../src/client/hubClient';
import { MemoryPositionStore } from '../support/memoryPositionStore';
import { Inbox } from '../../src/inbox/inbox';
import { startHub, type RunningHub } from '../peers/hub/hub';
import { heldSessions, outageRequest, postAll } from '../support/heldSessions';
import { RecordingLogger } from '../support/recordingLogger';
import { TcpProxy } from '../support/tcpProxy';
import { waitUntil } from '../support/waitUntil';

const TOKEN = 'catch-up-cost-token';
const SESSIONS = Number(process.env['AEP_CATCHUP_SESSIONS'] ?? 300);
/** Per session (test/support/heldSessions.ts): ANSWERED requests answered and resolved, one open, and tool events the filter keeps off the wire. */
const ANSWERED = Number(process.env['AEP_CATCHUP_ANSWERED'] ?? 3);

describe(`catch-up cost with ${SESSIONS} sessions held`, () => {
  let hub: RunningHub;
  let proxy: TcpProxy;
  let client: HubClient | undefined;
  before(async () => {
    hub = await startHub({ port: 0, token: TOKEN });
    proxy = await TcpProxy.start(hub.port);
  });
  after(async () => {
    client?.dispose();
    await proxy.close();
    await hub.close();
  });

  test('a reconnect replays what the hub holds; the request raised while away arrives once and nothing else is added', async (t) => {
    assert.ok(SESSIONS >= 1 && SESSIONS < 1_000, `AEP_CATCHUP_SESSIONS must be 1 to 999, not ${SESSIONS}`);
    const held = heldSessions(SESSIONS, ANSWERED);
    await postAll(hub.url, TOKEN, held.events);

    const inbox = new Inbox();
    const log = new RecordingLogger();
    client = new HubClient({ hubUrl: proxy.url, token: TOKEN, senderName: 'test-editor', inbox, positions: new MemoryPositionStore(), log, backoffBaseMs: 50, backoffCapMs: 400 });
    client.start();
    const c = client;
    await waitUntil(() => inbox.open().length === SESSIONS, 'every held request', 30_000, () => `${inbox.open().length} of ${SESSIONS}; ${JSON.stringify(c.stats)}; ${log.lines.slice(-4).join(' | ')}`);

    proxy.sever();
    await waitUntil(() => c.state.kind === 'backing-off', 'the drop');
    const missed = outageRequest();
    await postAll(hub.url, TOKEN, missed.events);

    const seen = () => c.stats.eventsApplied + c.stats.duplicatesDropped;
    const before = seen();
    const appliedBefore = c.stats.eventsApplied;
    const expected = held.subscribed + missed.events.length;
    const load = await readLoad();
    const restoredAt = performance.now();
    proxy.restore();
    await waitUntil(() => inbox.open().some((item) => item.requestId === missed.requestId), 'the request raised while away', 30_000);
    const missedAfterMs = performance.now() - restoredAt;
    await waitUntil(() => seen() - before >= expected, 'the whole replay', 30_000, () => `${seen() - before} of ${expected}`);
    const replayMs = performance.now() - restoredAt;

    assert.equal(seen() - before, expected, 'the replay is what the hub holds under the filter, once');
    assert.equal(c.stats.eventsApplied - appliedBefore, missed.events.length, "only the new session's events are applied; the rest are duplicates");
    assert.equal(inbox.open().length, SESSIONS + 1, 'every request exactly once');
    assert.equal(inbox.open().filter((item) => item.requestId === missed.requestId).length, 1);
    t.diagnostic(
      `${SESSIONS} sessions held (${held.events.length + missed.events.length} events, ${expected} under the subscription filter): the reconnect replayed ${seen() - before} events ` +
        `(${c.stats.duplicatesDropped} dropped as duplicates in all), the missed request was open ${Math.round(missedAfterMs)} ms after the restore, ` +
        `the whole replay done at ${Math.round(replayMs)} ms; loadavg before: ${load}`,
    );
  });
});

async function readLoad(): Promise<string> {
  try {
    const { readFile } = await import('node:fs/promises');
    return (await readFile('/proc/loadavg', 'utf8')).trim();
  } catch {
    return 'unknown';
  }
}
