// The storage slot (src/base/storageSlot.ts) on its own, then what it
// changed for the stores on it: a bad entry is dropped alone and logged, a
// newer version's value is never written over.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import * as z from 'zod/mini';
import { CommandStore, type StoredCommand } from '../../src/client/commandStore';
import { AnswerHistory, HISTORY_STORAGE_KEY } from '../../src/history/answerHistory';
import { Inbox } from '../../src/inbox/inbox';
import type { AepEvent } from '../../src/aep/envelope';
import { StorageSlot, type SlotSpec } from '../../src/base/storageSlot';
import { buildRespondCommand } from '../../src/aep/control';
import { WorkspacePersistence } from '../../src/app/hubs/persistence';
import { validEvent, type EventFields } from '../support/events';
import { MemoryMemento } from '../support/memoryMemento';
import { RecordingLogger } from '../support/recordingLogger';
import { slotEntries } from '../support/slotEntries';

interface Note {
  name: string;
  size: number;
  old?: boolean;
}

const noteSchema = z.object({ name: z.string(), size: z.number(), old: z.optional(z.boolean()) });

function noteSlot(memento: MemoryMemento, log: RecordingLogger, spec: Partial<SlotSpec<Note>> = {}) {
  return new StorageSlot<Note>(memento, { key: 'notes', label: 'the notes', noun: ['note', 'notes'], version: 3, schema: noteSchema, ...spec }, log);
}

const note = (name: string, extra: Partial<Note> = {}): Note => ({ name, size: 1, ...extra });
const names = (notes: readonly Note[]) => notes.map((n) => n.name);

describe('StorageSlot', () => {
  test('over the cap, entries go from the chosen end, those dropSooner picks first, until the rest fits', () => {
    const log = new RecordingLogger();
    const list = [note('a'), note('b', { old: true }), note('c'), note('d', { old: true }), note('e')];
    assert.deepEqual(names(noteSlot(new MemoryMemento(), log, { cap: { maxEntries: 3, dropFrom: 'first' } }).fit(list).kept), ['c', 'd', 'e']);
    assert.deepEqual(names(noteSlot(new MemoryMemento(), log, { cap: { maxEntries: 3, dropFrom: 'last' } }).fit(list).kept), ['a', 'b', 'c']);
    const sooner = noteSlot(new MemoryMemento(), log, { cap: { maxEntries: 2, dropFrom: 'first', dropSooner: (n) => n.old === true } }).fit(list);
    assert.deepEqual(names(sooner.dropped), ['b', 'd', 'a'], 'the old ones first, then from the start');
    assert.deepEqual(names(sooner.kept), ['c', 'e']);
    // By characters: the wrapper and commas count, as the storage writes them.
    const memento = new MemoryMemento();
    const chars = noteSlot(memento, log, { cap: { maxChars: 80, dropFrom: 'first' } });
    const written = chars.write(list);
    assert.ok(memento.storedChars <= 80, `${memento.storedChars} characters stored`);
    assert.ok(JSON.stringify({ version: 3, entries: [...written.kept, written.dropped.at(-1)] }).length > 80, 'not one more would have fit');
    const trimmed = log.entries.at(-1);
    assert.deepEqual([trimmed?.level, trimmed?.code], ['warn', 'storage-trimmed']);
    assert.deepEqual(trimmed?.data, { slot: 'notes', kept: written.kept.length, dropped: written.dropped.length, total: 5 });
  });

  test('an entry that cannot be serialized is left out alone, with a log line; the others are written', () => {
    const memento = new MemoryMemento();
    const log = new RecordingLogger();
    const slot = noteSlot(memento, log, { describe: (n) => `note ${n.name}` });
    slot.write([note('a'), { name: 'bad', size: 10n as unknown as number }, note('c')]);
    assert.deepEqual(names(slotEntries<Note>(memento, 'notes', 3)), ['a', 'c']);
    assert.deepEqual(log.codes(), ['warn storage-entry-unserializable']);
    assert.deepEqual(log.entries[0]?.data, { slot: 'notes', index: 1 }, 'which entry');
  });

  test('older entries go through each migration in turn; one that fails a migration or the schema is dropped alone, logged by index, not by content', () => {
    const memento = new MemoryMemento();
    void memento.update('notes', { version: 1, entries: [{ title: 'a', bytes: 1 }, { title: 'SECRET-TEXT', bytes: 'x' }, 'broken', { title: 'd', bytes: 4 }] });
    const log = new RecordingLogger();
    const slot = noteSlot(memento, log, {
      migrations: {
        // 1 → 2: `title` became `name`; 2 → 3: `bytes` became `size`.
        1: (raw) => {
          if (typeof raw !== 'object' || raw === null) throw new TypeError('not an object');
          const { title, ...rest } = raw as Record<string, unknown>;
          return { ...rest, name: title };
        },
        2: (raw) => {
          const { bytes, ...rest } = raw as Record<string, unknown>;
          return { ...rest, size: bytes };
        },
      },
    });
    const read = slot.read();
    assert.deepEqual(read.entries, [note('a'), note('d', { size: 4 })]);
    assert.equal(read.form, 'older');
    assert.equal(read.skipped, 2);
    assert.deepEqual(log.codes(), ['warn storage-entries-skipped']);
    assert.deepEqual(log.entries[0]?.data, { slot: 'notes', skipped: 2, kept: 2, entries: '1 2' });
    assert.ok(!log.lines.some((line) => line.includes('SECRET-TEXT')), 'logged by index, not by content');
  });

  test("a newer version's value is read as empty, logged, and never written over or cleared", () => {
    const memento = new MemoryMemento();
    const future = { version: 4, entries: [{ name: 'kept', size: 1, colour: 'red' }], more: true };
    void memento.update('notes', future);
    const log = new RecordingLogger();
    const slot = noteSlot(memento, log, { source: () => [note('new')] });
    assert.deepEqual(slot.read(), { entries: [], form: 'newer', skipped: 0 });
    assert.equal(slot.readOnly, true);
    slot.write([note('new')]);
    slot.flush();
    slot.clear();
    assert.deepEqual(memento.get('notes', undefined), future, 'untouched');
    assert.deepEqual(log.codes(), ['warn storage-newer-version', 'info storage-newer-kept'], 'each said once');
    assert.deepEqual(log.entries[0]?.data, { slot: 'notes', version: 4 });
  });

  test('schedule writes after the delay, not before; flush at once; after dispose every schedule writes at once', (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const memento = new MemoryMemento();
    let list = [note('a')];
    const slot = noteSlot(memento, new RecordingLogger(), { debounceMs: 40, source: () => list });
    slot.schedule();
    assert.equal(memento.get('notes', undefined), undefined, 'not yet');
    t.mock.timers.tick(39);
    assert.equal(memento.get('notes', undefined), undefined, 'not before the delay');
    t.mock.timers.tick(1);
    assert.deepEqual(names(slotEntries<Note>(memento, 'notes', 3)), ['a']);
    list = [note('b')];
    slot.schedule();
    slot.flush();
    assert.deepEqual(names(slotEntries<Note>(memento, 'notes', 3)), ['b'], 'flush writes at once');
    assert.equal(slot.pending, false);
    list = [note('c')];
    slot.schedule();
    slot.dispose();
    assert.deepEqual(names(slotEntries<Note>(memento, 'notes', 3)), ['c'], 'dispose writes what is pending');
    list = [note('d')];
    slot.schedule();
    assert.deepEqual(names(slotEntries<Note>(memento, 'notes', 3)), ['d'], 'and later changes at once');
  });
});

const HUB = 'http://127.0.0.1:8787';
const key = (name: string) => `aepAttention.${name}:${HUB}`;
const SRC = 'aep://h/agent/a/session/s1';

function requestEvent(id: string, seq: number, fields: EventFields = {}): AepEvent {
  return validEvent({ id, type: 'attention.requested', time: '2026-07-03T10:00:00Z', source: SRC, agent: 'a', session: 's1', seq, data: { kind: 'input', prompt: 'a prompt nobody logs' }, ...fields });
}

const command = (id: string): StoredCommand => ({ id, type: 'control.attention.respond', subject: `R-${id}`, text: '{}', target: { session: 's1', source: SRC }, ackWindowMs: 5_000 });

describe('the stores on storage slots', () => {
  test("a newer version's answers, open requests, dismissals, positions and history are left as they are, and logged", (t) => {
    const memento = new MemoryMemento();
    const future = (name: string) => ({ version: 99, entries: [{ from: name }] });
    for (const name of ['commands', 'open', 'hidden', 'positions']) void memento.update(key(name), future(name));
    void memento.update(HISTORY_STORAGE_KEY, future('history'));
    const log = new RecordingLogger();
    const inbox = new Inbox({ hub: HUB });
    const persistence = new WorkspacePersistence(memento, HUB, log);
    t.after(() => persistence.dispose());
    assert.equal(persistence.restoreInto(inbox), 0);
    const history = new AnswerHistory(memento, log);
    t.after(() => history.dispose());
    assert.deepEqual(history.entries(), []);

    // Everything that would write each of them.
    assert.deepEqual(persistence.commands.put(command('c1')), { ok: true });
    inbox.apply(requestEvent('R1', 1));
    const item = inbox.open()[0];
    assert.ok(item?.request);
    persistence.dismiss(item.key);
    persistence.record({ session: 's1', epoch: 0, seq: 1, source: SRC });
    persistence.flush();
    const built = buildRespondCommand(item.request, { text: 'x' }, { agent: 'me', source: 'aep://me/agent/me' });
    assert.ok(built.ok);
    history.recordSent({ id: HUB, label: 'hub' }, item, built.command);
    history.dispose();
    history.clear();

    for (const name of ['commands', 'open', 'hidden', 'positions']) assert.deepEqual(memento.get(key(name), undefined), future(name), `${name} untouched`);
    assert.deepEqual(memento.get(HISTORY_STORAGE_KEY, undefined), future('history'), 'history untouched');
    const newer = log.find({ level: 'warn', code: 'storage-newer-version' });
    assert.deepEqual(newer.map((entry) => entry.data['version']), [99, 99, 99, 99, 99], log.lines.join('\n'));
    assert.equal(new Set(newer.map((entry) => entry.data['slot'])).size, 5, 'one for each store');
  });

  test('a bad saved request, position or dismissal is dropped alone with a log line; the rest are restored', (t) => {
    const memento = new MemoryMemento();
    // The unversioned lists of the version before slots, each with one bad entry among good ones.
    void memento.update(key('open'), [requestEvent('R1', 1), { ...requestEvent('R2', 2), type: 42 }, requestEvent('R3', 3)]);
    void memento.update(key('positions'), [{ session: 's1', epoch: 0, seq: 3, source: SRC }, { session: 's2', epoch: 'zero', seq: 1 }]);
    void memento.update(key('hidden'), [`${HUB}\u0000k1`, 42]);
    const log = new RecordingLogger();
    const inbox = new Inbox({ hub: HUB });
    const persistence = new WorkspacePersistence(memento, HUB, log);
    t.after(() => persistence.dispose());
    assert.equal(persistence.restoreInto(inbox), 2);
    assert.deepEqual(inbox.open().map((item) => item.requestId), ['R1', 'R3']);
    assert.deepEqual(persistence.load(), [{ session: 's1', epoch: 0, seq: 3, source: SRC }]);
    assert.deepEqual([...persistence.dismissedKeys], [`${HUB}\u0000k1`]);
    assert.deepEqual(log.find({ code: 'storage-entries-skipped' }).map(({ level, data }) => [level, data['slot'], data['skipped'], data['kept'], data['entries']]), [
      ['warn', key('positions'), 1, 1, '1'],
      ['warn', key('hidden'), 1, 1, '1'],
      ['warn', key('open'), 1, 2, '1'],
    ]);
    assert.equal(log.entries.length, 3, log.lines.join('\n'));
    assert.ok(!log.lines.some((line) => line.includes('nobody logs')));
  });

  test('a saved request whose arrival time is not a time is still restored, dated now', (t) => {
    const memento = new MemoryMemento();
    void memento.update(key('open'), { version: 1, entries: [{ events: [requestEvent('R1', 1)], receivedAt: 'yesterday' }] });
    const inbox = new Inbox({ hub: HUB, now: () => 42 });
    const persistence = new WorkspacePersistence(memento, HUB, new RecordingLogger());
    t.after(() => persistence.dispose());
    assert.equal(persistence.restoreInto(inbox), 1);
    assert.equal(inbox.open()[0]?.receivedAt, 42);
  });

  test('when the open requests cannot be read to save them, the saved ones are kept, not replaced by none', (t) => {
    const memento = new MemoryMemento();
    const log = new RecordingLogger();
    const inbox = new Inbox({ hub: HUB });
    const persistence = new WorkspacePersistence(memento, HUB, log);
    t.after(() => persistence.dispose());
    persistence.restoreInto(inbox);
    inbox.apply(requestEvent('R1', 1));
    persistence.flush();
    const saved = memento.get<unknown>(key('open'), undefined);
    assert.ok(JSON.stringify(saved).includes('"R1"'), 'R1 is saved');
    inbox.open = () => {
      throw new RangeError('the inbox is broken');
    };
    persistence.flush();
    assert.deepEqual(memento.get<unknown>(key('open'), undefined), saved);
    assert.ok(log.dataOf('error', 'storage-gather-failed').some((data) => data['slot'] === key('open')), log.lines.join('\n'));
  });

  test('a history entry that cannot be stored is dropped alone: the older ones stay', (t) => {
    const memento = new MemoryMemento();
    const log = new RecordingLogger();
    let clock = Date.parse('2026-07-03T10:00:00Z');
    const inbox = new Inbox({ hub: HUB, now: () => clock });
    const history = new AnswerHistory(memento, log, { now: () => clock });
    t.after(() => history.dispose());
    const answer = (id: string, fields: EventFields = {}) => {
      inbox.apply(requestEvent(id, clock, fields));
      const item = inbox.findRequest('s1', id, SRC);
      assert.ok(item?.request);
      const built = buildRespondCommand(item.request, { text: 'x' }, { agent: 'me', source: 'aep://me/agent/me' }, clock);
      assert.ok(built.ok);
      history.recordSent({ id: HUB, label: 'hub' }, item, built.command);
      clock += 1_000;
    };
    answer('OLD');
    answer('BAD', { extensions: { xbig: 10n } });
    answer('NEW');
    assert.deepEqual(history.entries().map((entry) => entry.requestId), ['NEW', 'OLD']);
    history.dispose();
    assert.deepEqual(slotEntries<{ requestId: string }>(memento, HISTORY_STORAGE_KEY, 4).map((entry) => entry.requestId), ['NEW', 'OLD']);
    assert.deepEqual(log.find({ code: 'storage-entry-unserializable' }).map(({ level, data }) => [level, data['slot']]), [['warn', HISTORY_STORAGE_KEY]], log.lines.join('\n'));
    assert.ok(log.find({ code: 'storage-entry-unserializable' })[0]?.message.includes('BAD'), 'it names the request');
  });

  test('an unsettled answer saved by a newer version is not overwritten by a new one', () => {
    const memento = new MemoryMemento();
    const future = { version: 2, entries: [{ id: 'c0', shape: 'new' }] };
    void memento.update(key('commands'), future);
    const store = new CommandStore(memento, key('commands'), new RecordingLogger());
    assert.deepEqual(store.list(), []);
    store.put(command('c1'));
    assert.deepEqual(memento.get(key('commands'), undefined), future);
  });
});
