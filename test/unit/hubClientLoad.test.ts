// The hub client is loaded with the first connection, not at activation (issue 40). When
// its code does not load, nothing is swallowed: the load is logged with part-load-failed,
// the person is told once for the window, each hub's state says why it cannot connect, and
// the next connect loads again. Plain Node: the load is the test's, and the retry's client
// is the real one, pointed at a loopback port where nothing listens.
import assert from 'node:assert/strict';
import * as net from 'node:net';
import { describe, test } from 'node:test';
import { Emitter } from '../../src/base/emitter';
import type { LazyPart } from '../../src/base/onFirstNeed';
import { HubClient } from '../../src/client/hubClient';
import { hubList } from '../../src/app/hubs/hubList';
import { Hubs } from '../../src/app/hubs/hubs';
import type { Settings } from '../../src/app/hubs/settings';
import { MemoryMemento } from '../support/memoryMemento';
import { RecordingLogger } from '../support/recordingLogger';
import { waitUntil } from '../support/waitUntil';

/** A loopback address nothing listens at: a port the system handed out, closed again. */
async function deadAddress(): Promise<string> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  assert.ok(address !== null && typeof address === 'object');
  return `http://127.0.0.1:${address.port}`;
}

function settingsFor(hubUrls: readonly string[]): Settings {
  const { hubs, problems } = hubList({
    named: [],
    list: hubUrls.map((url) => ({ url })),
    defaults: { filter: undefined, captureCeiling: undefined },
  });
  const user = { notifications: 'all' as const, senderName: 'load-test', allowInsecureRemote: false };
  return { hubs, hubListProblems: problems, ...user, user, notificationMinSeverity: 'info', closeFormWhenResolved: false, history: { maxEntries: 10, maxAgeDays: 1 }, osNotifications: 'whenUnfocused', sound: false, beforeAsking: true };
}

/** A window's hubs whose client loads fail until `loads.succeed` is set; `told` is what the person was told. */
function openHubs(hubUrls: readonly string[]) {
  const loads = { calls: 0, succeed: false };
  const told: LazyPart[] = [];
  const log = new RecordingLogger();
  const settings = { value: settingsFor(hubUrls), onDidChange: new Emitter<Settings>().event };
  const tokens = { get: () => Promise.resolve(undefined), onDidChange: () => ({ dispose: () => undefined }) };
  const hubs = new Hubs(settings, tokens, new MemoryMemento(), log, {
    client: { backoffBaseMs: 60_000, backoffCapMs: 60_000 },
    loadClient: () => {
      loads.calls++;
      return loads.succeed ? Promise.resolve(() => HubClient) : Promise.reject(new Error('chunk missing'));
    },
    partNotLoaded: (part) => told.push(part),
  });
  return { hubs, loads, told, log, loadFailures: () => log.entries.filter((entry) => entry.code === 'part-load-failed') };
}

describe("the hub client's code, loaded with the first connection", () => {
  test('a load that fails is logged with its code, told once, and each hub says it cannot connect and why; the next connect loads again', async (t) => {
    const [first, second] = [await deadAddress(), await deadAddress()];
    const { hubs, loads, told, loadFailures } = openHubs([first, second]);
    t.after(() => hubs.dispose());
    hubs.start();
    await waitUntil(() => hubs.list().every((hub) => hub.state.kind === 'failed'), 'every hub failed');
    for (const hub of hubs.list()) assert.deepEqual(hub.state, { kind: 'failed', failure: { code: 'client-not-loaded' } });
    assert.equal(loads.calls, 1, 'one load for every hub of the window');
    assert.deepEqual(loadFailures().map((entry) => [entry.level, entry.data]), [['error', { part: 'hub-client' }]]);
    assert.match(loadFailures()[0]?.message ?? '', /chunk missing/);
    assert.deepEqual(told, ['hub-client'], 'told once, not once per hub');

    // Retry (the failure's button, or Reconnect) connects again, which loads again; still failing, it is not told again.
    const [hub, other] = hubs.list();
    assert.ok(hub && other);
    hub.retryNow();
    await waitUntil(() => loadFailures().length === 2, 'the second load failed');
    assert.deepEqual(hub.state, { kind: 'failed', failure: { code: 'client-not-loaded' } });
    assert.deepEqual(told, ['hub-client']);

    loads.succeed = true;
    hub.retryNow();
    await waitUntil(() => hub.state.kind === 'backing-off', 'the hub connects with the client loaded, and finds nothing listening');
    assert.equal(loads.calls, 3);
    assert.equal(other.state.kind, 'failed', 'a hub not connected again stays as it was');
    other.retryNow();
    await waitUntil(() => other.state.kind === 'backing-off', 'the other hub connects too');
    assert.equal(loads.calls, 3, 'the client loaded is the one every hub uses');
    assert.deepEqual(told, ['hub-client']);
  });
});
