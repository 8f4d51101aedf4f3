import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AepEvent } from '../../src/aep/envelope';
import { Inbox } from '../../src/inbox/inbox';
import { WorkspacePersistence } from '../../src/app/hubs/persistence';
import { validEvent, type EventFields } from '../support/events';
import { FailingMemento, MemoryMemento } from '../support/memoryMemento';
import { RecordingLogger } from '../support/recordingLogger';
import { slotEntries } from '../support/slotEntries';

const ORIGIN = 'http://127.0.0.1:8787';
const key = (name: string) => `aepAttention.${name}:${ORIGIN}`;

function requestEvent(id: string, seq: number, fields: EventFields = {}, prompt = 'Which branch?'): AepEvent {
  return validEvent({
    id, type: 'attention.requested', time: '2026-07-03T10:00:00Z', source: 'aep://h/agent/a/session/s1',
    agent: 'a', session: 's1', seq, data: { kind: 'input', prompt }, ...fields,
  });
}

/** Collects unhandled promise rejections while `run` runs and in the turn after. */
async function unhandledRejections(run: () => void): Promise<unknown[]> {
  const seen: unknown[] = [];
  const listener = (reason: unknown) => seen.push(reason);
  process.on('unhandledRejection', listener);
  try {
    run();
    // Node reports a rejection nobody handled once the turn's microtasks have run; every
    // rejection here is made during run() (FailingMemento), so one turn of the loop is enough.
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off('unhandledRejection', listener);
  }
  return seen;
}

test('a reload restores the open requests with the time they first arrived, not the time of the reload', () => {
  const memento = new MemoryMemento();
  let clock = 1_000_000;
  const first = new Inbox({ now: () => clock });
  const before = new WorkspacePersistence(memento, ORIGIN, new RecordingLogger());
  before.restoreInto(first);
  first.apply(requestEvent('R1', 1));
  clock += 60_000;
  first.apply(requestEvent('R2', 2));
  before.flush();
  before.dispose();

  clock += 3_600_000; // an hour later, the window reloads
  const second = new Inbox({ now: () => clock });
  const after = new WorkspacePersistence(memento, ORIGIN, new RecordingLogger());
  assert.equal(after.restoreInto(second), 2);
  assert.deepEqual(second.open().map((item) => [item.requestId, item.receivedAt]), [['R1', 1_000_000], ['R2', 1_060_000]]);
  after.dispose();
});

test('a saved state without arrival times (an older version) restores with the current time', () => {
  const memento = new MemoryMemento();
  void memento.update(key('open'), [requestEvent('R1', 1)]);
  const inbox = new Inbox({ now: () => 42 });
  const persistence = new WorkspacePersistence(memento, ORIGIN, new RecordingLogger());
  assert.equal(persistence.restoreInto(inbox), 1, memento.keys().join(', '));
  assert.equal(inbox.open()[0]?.receivedAt, 42);
  persistence.dispose();
});

test("a reload keeps the reason AEP Attention gave for a request it cannot show, and an agent's own reason stays dropped", () => {
  const memento = new MemoryMemento();
  const first = new Inbox();
  const before = new WorkspacePersistence(memento, ORIGIN, new RecordingLogger());
  before.restoreInto(first);
  const options = Array.from({ length: 51 }, (_, index) => ({ id: `o${index}`, label: `Option ${index}` }));
  first.apply(requestEvent('R1', 1, { data: { kind: 'permission', prompt: 'Which one?', options } }));
  first.apply(requestEvent('R2', 2, { data: { kind: 'input', prompt: 'Why?', aepattentionunshowable: 'Run the command below to go on' } }));
  before.flush();
  before.dispose();

  const second = new Inbox();
  const after = new WorkspacePersistence(memento, ORIGIN, new RecordingLogger());
  assert.equal(after.restoreInto(second), 2);
  assert.match(second.findRequest('s1', 'R1')?.problem?.message ?? '', /cannot be rendered: .*51 options/);
  assert.equal(second.findRequest('s1', 'R2')?.problem, undefined);
  assert.equal(second.findRequest('s1', 'R2')?.request?.prompt, 'Why?');
  after.dispose();
});

test('dismissals saved under the storage key "hidden" by earlier versions are read back and kept there', () => {
  const memento = new MemoryMemento();
  void memento.update(key('hidden'), ['saved-key', 42]);
  const persistence = new WorkspacePersistence(memento, ORIGIN, new RecordingLogger());
  // Keys saved before they named their hub are read as this hub's (InboxOptions.hub).
  const scoped = (k: string) => `${ORIGIN}\u0000${k}`;
  assert.deepEqual([...persistence.dismissedKeys], [scoped('saved-key')], 'a non-string entry is dropped');
  persistence.dismiss(scoped('new-key'));
  persistence.flush();
  assert.deepEqual(slotEntries(memento, key('hidden')), [scoped('saved-key'), scoped('new-key')]);
  persistence.dispose();
});

test('a key whose write throws and one whose write rejects do not stop the others, and both are logged', async () => {
  // `open` throws as a deeply nested value would in Memento.update; `hidden` is refused by the storage.
  const memento = new FailingMemento((k) => k === key('open'), (k) => k === key('hidden'));
  const log = new RecordingLogger();
  const inbox = new Inbox();
  const persistence = new WorkspacePersistence(memento, ORIGIN, log);
  persistence.restoreInto(inbox);
  inbox.apply(requestEvent('R1', 1));
  persistence.record({ session: 's1', epoch: 0, seq: 1 });
  persistence.dismiss('some-key');
  const unhandled = await unhandledRejections(() => persistence.flush());
  assert.deepEqual(unhandled, [], 'every rejection is caught');
  assert.deepEqual([...memento.keys()], [key('positions')]);
  assert.deepEqual(slotEntries(memento, key('positions')), [{ session: 's1', epoch: 0, seq: 1 }]);
  assert.deepEqual(log.find({ level: 'error' }).map(({ code, data }) => `${code ?? ''} ${String(data['slot'])}`).sort(), [
    `storage-write-failed ${key('hidden')}`,
    `storage-write-failed ${key('open')}`,
  ]);
  persistence.dispose();
});

test('the saved snapshot keeps the newest open requests that fit its byte budget, and says so', () => {
  const memento = new MemoryMemento();
  const log = new RecordingLogger();
  const inbox = new Inbox();
  const persistence = new WorkspacePersistence(memento, ORIGIN, log, { maxSnapshotBytes: 20 * 1024 });
  persistence.restoreInto(inbox);
  // Ten requests of a bit over 4 KB of JSON each: four fit in 20 KB.
  for (let i = 0; i < 10; i++) inbox.apply(requestEvent(`R${i}`, i, {}, 'x'.repeat(4 * 1024)));
  persistence.flush();
  assert.ok(memento.storedChars < 20 * 1024 + 1_024, `stored ${memento.storedChars} characters`);
  assert.deepEqual(log.codes(), ['warn storage-trimmed']);
  assert.deepEqual(log.entries[0]?.data, { slot: key('open'), kept: 4, dropped: 6, total: 10 });
  const restored = new Inbox();
  const after = new WorkspacePersistence(memento, ORIGIN, new RecordingLogger());
  assert.equal(after.restoreInto(restored), 4);
  assert.deepEqual(restored.open().map((item) => item.requestId), ['R6', 'R7', 'R8', 'R9'], 'oldest first, as they arrived');
  persistence.dispose();
  after.dispose();
});

test('a request that cannot be serialized is left out with a log line; the rest are saved', () => {
  const memento = new MemoryMemento();
  const log = new RecordingLogger();
  const inbox = new Inbox();
  const persistence = new WorkspacePersistence(memento, ORIGIN, log);
  persistence.restoreInto(inbox);
  inbox.apply(requestEvent('R1', 1));
  // Not something JSON can carry (the network cannot send it either): stands for any value `JSON.stringify` refuses.
  inbox.apply(requestEvent('BAD', 2, { extensions: { xbig: 10n } }));
  inbox.apply(requestEvent('R3', 3));
  assert.equal(inbox.open().length, 3);
  persistence.flush();
  assert.deepEqual(slotEntries<{ events: Array<{ id: string }> }>(memento, key('open')).map((saved) => saved.events[0]?.id), ['R1', 'R3']);
  assert.deepEqual(log.codes(), ['warn storage-entry-unserializable']);
  assert.deepEqual(log.entries[0]?.data, { slot: key('open'), index: 1 }, 'the second request, BAD');
  persistence.dispose();
});
