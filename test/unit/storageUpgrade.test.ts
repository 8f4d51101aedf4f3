// A user who upgrades keeps their inbox, their unacknowledged answers and
// their answer history. storedBeforeSlots.json is the whole workspaceState
// the version before storage slots wrote (commit a72537c, by running its
// WorkspacePersistence, CommandStore and AnswerHistory over real events and
// commands): bare lists for the answers, open requests, dismissals and
// positions, the arrival times under a key of their own, the history at
// version 2. This version must read every one of them back, field by field,
// and still hold them after it has written its own form.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { StoredCommand } from '../../src/client/commandStore';
import type { KeptPosition } from '../../src/client/positionStore';
import { AnswerHistory, HISTORY_STORAGE_KEY } from '../../src/history/answerHistory';
import type { HistoryEntry } from '../../src/history/historyEntry';
import { Inbox } from '../../src/inbox/inbox';
import { WorkspacePersistence } from '../../src/app/hubs/persistence';
import { MemoryMemento } from '../support/memoryMemento';
import { RecordingLogger } from '../support/recordingLogger';
import { slotEntries } from '../support/slotEntries';
import before from '../support/storedBeforeSlots.json';

const HUB = 'http://127.0.0.1:8787';
const key = (name: string) => `aepAttention.${name}:${HUB}`;
const SAVED = before as Record<string, unknown>;
const savedCommands = SAVED[key('commands')] as Array<Record<string, unknown>>;
const savedOpen = SAVED[key('open')] as Array<{ id: string; type: string; source: string; subject?: string }>;
const savedReceived = SAVED[key('received')] as Record<string, number>;
const savedPositions = SAVED[key('positions')] as KeptPosition[];
const savedDismissed = SAVED[key('hidden')] as string[];
const savedHistory = SAVED[HISTORY_STORAGE_KEY] as { version: number; entries: HistoryEntry[] };

function upgradedMemento(): MemoryMemento {
  const memento = new MemoryMemento();
  for (const [name, value] of Object.entries(SAVED)) void memento.update(name, structuredClone(value));
  return memento;
}

/** A window opening on `memento`: its persistence, a restored inbox and the history. */
function openWindow(memento: MemoryMemento, clock: number) {
  const log = new RecordingLogger();
  const inbox = new Inbox({ hub: HUB, now: () => clock });
  const persistence = new WorkspacePersistence(memento, HUB, log);
  const restored = persistence.restoreInto(inbox);
  const history = new AnswerHistory(memento, log, { now: () => clock });
  return { log, inbox, persistence, restored, history };
}

/** Every request, unacknowledged answer, dismissal, position and history entry the old version stored is there, with its fields. */
function assertAllKept(w: ReturnType<typeof openWindow>, timedOutSince?: string): void {
  const requests = savedOpen.filter((event) => event.type === 'attention.requested');
  assert.equal(w.restored, savedOpen.length, 'every saved event is applied again');
  assert.deepEqual(w.inbox.open().map((item) => item.requestId), requests.map((event) => event.id));
  for (const event of requests) {
    const item = w.inbox.open().find((open) => open.requestId === event.id && open.source === event.source);
    assert.ok(item, `request ${event.id} is open again`);
    assert.deepEqual(item.requestEvent, event, `request ${event.id}: its event, every field`);
    assert.equal(item.receivedAt, savedReceived[`${event.source}\u0000${event.id}`], `request ${event.id}: when it first arrived`);
  }
  const answered = savedOpen.find((event) => event.type === 'attention.answered');
  assert.ok(answered, 'the fixture holds an answer seen from elsewhere');
  const item = w.inbox.open().find((open) => open.requestId === answered.subject);
  assert.deepEqual(item?.answeredEvent, answered, 'the answer seen for an open request, every field');
  assert.equal(item?.answeredVia, 'slack');

  assert.deepEqual([...w.persistence.dismissedKeys], savedDismissed, 'the dismissals');
  assert.deepEqual(w.persistence.load(), savedPositions, 'the resume positions');

  const commands = w.persistence.commands.list();
  assert.equal(commands.length, savedCommands.length);
  for (const saved of savedCommands) {
    const command = commands.find((c) => c.id === saved['id']);
    assert.ok(command, `unsettled answer ${String(saved['id'])} is kept`);
    const expected: StoredCommand = {
      id: saved['id'] as string,
      type: saved['type'] as string,
      subject: saved['subject'] as string,
      // A withheld answer's text was never stored: it is read as withheld, with none.
      text: (saved['text'] as string | undefined) ?? '',
      target: saved['target'] as StoredCommand['target'],
      ackWindowMs: saved['ackWindowMs'] as number,
      ...(saved['timedOut'] === true || saved['id'] === timedOutSince ? { timedOut: true } : {}),
      ...(saved['unsent'] === true ? { unsent: true } : {}),
      ...(saved['withheld'] === true ? { withheld: true } : {}),
    };
    assert.deepEqual(command, expected, `unsettled answer ${expected.id} for ${expected.subject}: every field`);
  }
  assert.deepEqual(
    savedCommands.map((c) => [c['timedOut'] === true, c['unsent'] === true, c['withheld'] === true]),
    [[false, false, false], [false, true, false], [true, false, false], [false, false, true]],
    'the fixture holds one answer awaiting its ack, one queued offline, one timed out and one withheld',
  );

  // An ack timeout, stored as `timed-out` before the History's version 4, reads as `ack-timed-out`; nothing else changes.
  const ackTimeouts = savedHistory.entries.flatMap((entry) => entry.sends.flatMap((send) => send.outcomes)).filter((outcome) => (outcome.kind as string) === 'timed-out');
  assert.equal(ackTimeouts.length, 1, 'the fixture holds one ack timeout, under its old name');
  const asReadNow = savedHistory.entries.map((entry) => ({
    ...entry,
    sends: entry.sends.map((send) => ({ ...send, outcomes: send.outcomes.map((outcome) => ((outcome.kind as string) === 'timed-out' ? { ...outcome, kind: 'ack-timed-out' } : outcome)) })),
  }));
  assert.deepEqual(w.history.entries(), asReadNow, 'the answer history, every entry and field, in order');
  assert.deepEqual(w.log.entries.filter((entry) => entry.level !== 'debug' && entry.level !== 'trace'), [], 'and nothing to complain about');
}

describe('upgrading from the storage before slots', () => {
  test('the fixture is what that version stored: every kind of entry there is', () => {
    assert.deepEqual(Object.keys(SAVED).sort(), [key('commands'), key('hidden'), key('open'), key('positions'), key('received'), HISTORY_STORAGE_KEY].sort());
    assert.ok(Array.isArray(savedCommands) && Array.isArray(savedOpen) && Array.isArray(savedPositions) && Array.isArray(savedDismissed), 'bare lists, unversioned');
    assert.equal(savedHistory.version, 2);
    assert.deepEqual(
      savedHistory.entries.map((entry) => [entry.requestId, entry.sends.length, entry.ended ?? null]),
      [['R-answered', 1, null], ['R-form', 1, null], ['R-approval', 1, null], ['R-input', 1, null], ['R-ended', 0, 'timed-out']],
    );
  });

  test('every request, unacknowledged answer and history entry is read back with its fields', (t) => {
    const w = openWindow(upgradedMemento(), Date.parse('2026-07-03T12:00:00Z'));
    t.after(() => (w.history.dispose(), w.persistence.dispose()));
    assertAllKept(w);
  });

  test('after this version has written its own form, a reload still has all of it, and the old arrival-time key is gone', (t) => {
    const memento = upgradedMemento();
    const first = openWindow(memento, Date.parse('2026-07-03T12:00:00Z'));
    first.history.entries();
    first.persistence.flush();
    // A command write (any change) rewrites the unsettled answers in the versioned form.
    const withheld = first.persistence.commands.list().find((c) => c.withheld);
    assert.ok(withheld);
    first.persistence.commands.markTimedOut(withheld.id);
    first.history.dispose();
    first.persistence.dispose();
    assert.equal(memento.get<unknown>(key('received'), undefined), undefined, 'arrival times now live in each saved request');
    assert.equal(slotEntries(memento, key('open')).length, savedOpen.filter((event) => event.type === 'attention.requested').length);
    assert.equal(slotEntries(memento, key('commands')).length, savedCommands.length);
    assert.equal(slotEntries(memento, key('hidden')).length, savedDismissed.length);
    assert.equal(slotEntries(memento, key('positions')).length, savedPositions.length);
    assert.equal(slotEntries(memento, HISTORY_STORAGE_KEY, 4).length, savedHistory.entries.length);

    const again = openWindow(memento, Date.parse('2026-07-03T13:00:00Z'));
    t.after(() => (again.history.dispose(), again.persistence.dispose()));
    // The one change made: the withheld answer timed out.
    assertAllKept(again, withheld.id);
  });
});
