import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { AepEvent } from '../../src/aep/envelope';
import type { InboxChange } from '../../src/inbox/inbox';
import { AttentionStore, type AttentionStoreOptions } from '../../src/app/hubs/attentionStore';
import { hubId } from '../../src/app/hubs/hubList';
import { MemoryMemento } from '../support/memoryMemento';
import { validEvent, type EventFields, type RequestData } from '../support/events';
import { RecordingLogger } from '../support/recordingLogger';
import { slotEntries } from '../support/slotEntries';
import { waitUntil } from '../support/waitUntil';

const HUB_A = 'http://127.0.0.1:8787';
const HUB_B = 'http://127.0.0.1:9797';
const SRC = 'aep://host-a/agent/claude-code/session/s1';

const ev = (fields: EventFields & Pick<AepEvent, 'type'>): AepEvent =>
  validEvent({ time: '2026-07-03T10:00:00Z', source: SRC, agent: 'claude-code', session: 's1', ...fields });

const request = (id: string, seq: number, data: Partial<RequestData> = {}) =>
  ev({ id, type: 'attention.requested', seq, capture: 'redacted', data: { kind: 'permission', prompt: 'Run it?', ...data } });
const answered = (id: string, subject: string, seq: number) =>
  ev({ id, type: 'attention.answered', subject, cause: subject, seq, data: { answer: { option: 'allow' }, via: 'control' } });
const resolved = (id: string, subject: string, seq: number) =>
  ev({ id, type: 'attention.resolved', subject, cause: subject, seq, data: { resolution: 'answered' } });

function makeStore(memento = new MemoryMemento(), options: AttentionStoreOptions = {}) {
  const logger = new RecordingLogger();
  const store = new AttentionStore(memento, logger, options);
  // Described as they fire: an item is updated in place.
  const changes: string[] = [];
  store.onDidChangeInbox((change) => changes.push(describeChange(change)));
  return { store, logger, changes, memento };
}

function describeChange(change: InboxChange | undefined): string {
  return change === undefined ? 'replaced' : `${change.kind}:${change.item.requestId}:${change.item.status}`;
}
const visibleIds = (store: AttentionStore) => store.visibleItems().map((item) => item.requestId);

describe('AttentionStore', () => {
  test('dismissing: visibleCount agrees with visibleItems, the dismissal fires removed, and later changes to it stay quiet', (t) => {
    const { store, changes } = makeStore();
    t.after(() => store.dispose());
    store.switchTo(HUB_A);
    store.inbox.apply(request('R1', 0));
    store.inbox.apply(request('R2', 1));
    store.inbox.apply(request('R3', 2));
    assert.equal(store.visibleCount, 3);

    const r2 = store.inbox.findRequest('s1', 'R2', SRC);
    assert.ok(r2);
    store.dismiss(r2);
    assert.deepEqual(visibleIds(store), ['R1', 'R3']);
    assert.equal(store.visibleCount, store.visibleItems().length);
    assert.equal(store.inbox.openCount, 3, 'dismissed here only: still open in the inbox');
    assert.ok(store.dismissedKeys.has(r2.key));

    // The agent answers the dismissed request, then resolves it: only its close reaches the listeners.
    store.inbox.apply(answered('A2', 'R2', 3));
    store.inbox.apply(resolved('S2', 'R2', 4));
    store.inbox.apply(answered('A1', 'R1', 5));
    assert.equal(store.visibleCount, 2);
    assert.equal(store.visibleCount, store.visibleItems().length);
    assert.deepEqual(changes, [
      'replaced', 'added:R1:pending', 'added:R2:pending', 'added:R3:pending',
      'removed:R2:pending', 'removed:R2:resolved', 'updated:R1:answered',
    ]);
  });

  test('switching the hub origin replaces the inbox, fires undefined, and keeps dismissals per origin', (t) => {
    const { store, changes } = makeStore();
    t.after(() => store.dispose());
    store.switchTo(HUB_A);
    assert.equal(store.base, HUB_A);
    const first = store.inbox;
    first.apply(request('R1', 0));
    const r1 = first.findRequest('s1', 'R1', SRC);
    assert.ok(r1);
    store.dismiss(r1);
    changes.length = 0;

    store.switchTo(HUB_B);
    assert.equal(store.base, HUB_B);
    assert.notEqual(store.inbox, first);
    assert.deepEqual(changes, ['replaced']);
    assert.equal(store.inbox.openCount, 0);
    assert.equal(store.dismissedKeys.size, 0, "hub A's dismissals are not hub B's");

    // The old inbox is no longer listened to: only the new one's changes come through.
    first.apply(request('R9', 1));
    store.inbox.apply(request('R1', 0));
    assert.deepEqual(changes, ['replaced', 'added:R1:pending']);
    assert.deepEqual(visibleIds(store), ['R1'], 'the same request id on another hub is not dismissed');

    store.switchTo(undefined);
    assert.equal(store.base, undefined);
    assert.equal(store.persistence, undefined, 'an unusable hub address persists nothing');
    assert.equal(store.visibleCount, 0);
  });

  test('the store notes passed deadlines on its own timer, once each, and the request stays open', { timeout: 10_000 }, async (t) => {
    let now = Date.parse('2026-07-03T10:00:00Z');
    const { store } = makeStore(new MemoryMemento(), { deadlineCheckMs: 5, inbox: { now: () => now } });
    t.after(() => store.dispose());
    // The store's timer does not hold the process open (unref): this does, while the test waits on it.
    const keepAlive = setInterval(() => undefined, 1_000);
    t.after(() => clearInterval(keepAlive));
    store.switchTo(HUB_A);
    // Counts the timer's checks, so the test can wait for more of them rather than for a time.
    let checks = 0;
    const noteDeadlinesPassed = store.inbox.noteDeadlinesPassed.bind(store.inbox);
    store.inbox.noteDeadlinesPassed = () => {
      checks++;
      noteDeadlinesPassed();
    };
    store.inbox.apply(request('R1', 0, { expires_at: '2026-07-03T10:01:00Z' }));
    store.inbox.apply(request('R2', 1));
    const noted: string[] = [];
    const deadlineNoted = new Promise<void>((resolve) => {
      store.onDidChangeInbox((change) => {
        if (change?.kind !== 'updated') return;
        noted.push(change.item.requestId);
        resolve();
      });
    });
    now += 61_000;
    // Nothing but the store's timer calls noteDeadlinesPassed: this resolves only if it runs.
    await deadlineNoted;
    // A few more checks, so a second report of the same request would show.
    const seen = checks;
    await waitUntil(() => checks >= seen + 3, 'three more deadline checks');
    assert.deepEqual(noted, ['R1']);
    assert.equal(store.inbox.findRequest('s1', 'R1', SRC)?.status, 'pending');
    assert.deepEqual(visibleIds(store), ['R1', 'R2']);
  });

  test('a reload restores the open requests and the dismissals of the same origin', (t) => {
    const memento = new MemoryMemento();
    const before = makeStore(memento);
    before.store.switchTo(HUB_A);
    before.store.inbox.apply(request('R1', 0));
    before.store.inbox.apply(request('R2', 1));
    before.store.inbox.apply(request('R3', 2));
    before.store.inbox.apply(resolved('S3', 'R3', 3));
    const r1 = before.store.inbox.findRequest('s1', 'R1', SRC);
    assert.ok(r1);
    before.store.dismiss(r1);
    before.store.dispose(); // saves, as the window closing does

    const after = makeStore(memento);
    t.after(() => after.store.dispose());
    after.store.switchTo(HUB_A);
    assert.deepEqual(after.changes, ['replaced'], 'a restored inbox is announced as replaced, not request by request');
    assert.deepEqual(after.store.inbox.open().map((item) => item.requestId), ['R1', 'R2']);
    assert.deepEqual(visibleIds(after.store), ['R2']);
    assert.equal(after.store.visibleCount, 1);
    assert.ok(after.store.dismissedKeys.has(r1.key));
    assert.deepEqual(after.logger.find({ level: 'info', code: 'requests-restored' }).map(({ component, data }) => [component, data]), [['inbox', { events: 2 }]], after.logger.lines.join('\n'));

    const other = makeStore(memento);
    t.after(() => other.store.dispose());
    other.store.switchTo(HUB_B);
    assert.equal(other.store.inbox.openCount, 0, "another origin's saved requests stay with it");
  });

  test("what a version before paths told hubs apart saved under the hub's origin is found for the same hub, and not for a path on it", (t) => {
    // The keys and values exactly as that version wrote them: `aepAttention.<name>:<origin>`.
    const memento = new MemoryMemento();
    const command = {
      id: 'C1', type: 'control.attention.respond', subject: 'R1', text: '{"id":"C1"}', target: { session: 's1', source: SRC }, ackWindowMs: 30_000,
    };
    void memento.update(`aepAttention.open:${HUB_A}`, [request('R1', 0)]);
    void memento.update(`aepAttention.positions:${HUB_A}`, [{ session: 's1', epoch: 1, seq: 0 }]);
    void memento.update(`aepAttention.commands:${HUB_A}`, [command]);

    const same = makeStore(memento);
    t.after(() => same.store.dispose());
    same.store.switchTo(hubId(`${HUB_A}/`));
    assert.equal(same.store.base, HUB_A);
    assert.deepEqual(same.store.inbox.open().map((item) => item.requestId), ['R1']);
    assert.deepEqual(same.store.persistence?.load().map((position) => position.session), ['s1']);
    assert.deepEqual(same.store.persistence?.commands.list().map((kept) => kept.id), ['C1']);

    // The folder now names a path on that origin: another hub, which inherits none of it (its answers are not resent there).
    const moved = makeStore(memento);
    t.after(() => moved.store.dispose());
    moved.store.switchTo(hubId(`${HUB_A}/teamA`));
    assert.equal(moved.store.base, `${HUB_A}/teamA`);
    assert.equal(moved.store.inbox.openCount, 0);
    assert.deepEqual(moved.store.persistence?.load(), []);
    assert.deepEqual(moved.store.persistence?.commands.list(), []);
  });

  test('release saves and forgets the origin but keeps the inbox until the next switch', (t) => {
    const memento = new MemoryMemento();
    const { store } = makeStore(memento);
    t.after(() => store.dispose());
    store.switchTo(HUB_A);
    store.inbox.apply(request('R1', 0));
    const inbox = store.inbox;
    store.release();
    assert.equal(store.base, undefined);
    assert.equal(store.persistence, undefined);
    assert.equal(store.inbox, inbox);
    assert.equal(slotEntries(memento, `aepAttention.open:${HUB_A}`).length, 1, 'saved on release');
  });
});
