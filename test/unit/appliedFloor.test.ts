// Under the floor (the runs a bound let go of) only what can only be a repeat
// is held back (issue 39 item 2): a session delivered through the type filter
// has a gap at every event the filter leaves out, so each request is a run of
// its own and the runs fold into the floor after a few dozen; a request never
// applied there must still arrive, after a reload and after a client rebuild
// in the same window. Real inbox, intake and persistence throughout.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { AepEvent } from '../../src/aep/envelope';
import { silentLogger } from '../../src/base/logger';
import { ControlSender } from '../../src/client/controlSender';
import { EventIntake } from '../../src/client/eventIntake';
import { Inbox } from '../../src/inbox/inbox';
import { WorkspacePersistence } from '../../src/app/hubs/persistence';
import { makeEvent, makeRequest } from '../support/events';
import { MemoryMemento } from '../support/memoryMemento';
import { RecordingLogger } from '../support/recordingLogger';

const ORIGIN = 'http://127.0.0.1:8787';

/** One window: an inbox restored from the memento; `rebuild` makes a new intake over the same inbox, as a settings change does. */
function openWindow(memento: MemoryMemento, maxSnapshotBytes?: number) {
  const persistence = new WorkspacePersistence(memento, ORIGIN, new RecordingLogger(), maxSnapshotBytes === undefined ? {} : { maxSnapshotBytes });
  const inbox = new Inbox();
  persistence.restoreInto(inbox);
  const announced: string[] = [];
  const changes = inbox.onDidChange((change) => {
    if (change.kind === 'added') announced.push(change.item.requestId);
    persistence.inboxChanged();
  });
  let intake = new EventIntake(inbox, persistence, new ControlSender(silentLogger), () => undefined);
  return {
    inbox,
    announced,
    take: (events: readonly AepEvent[]) => {
      for (const event of events) intake.take(event, false);
    },
    rebuild: () => {
      intake.dispose();
      intake = new EventIntake(inbox, persistence, new ControlSender(silentLogger), () => undefined);
    },
    close: () => {
      intake.dispose();
      changes.dispose();
      persistence.dispose();
    },
  };
}

const resolved = (seq: number, request: AepEvent) =>
  makeEvent('attention.resolved', 's', seq, { subject: request.id, cause: request.id, data: { resolution: 'answered' } });

// Requests at seq 2, 4, …, 100 (the odd positions are events the filter leaves out): 50 runs, past the 32 saved.
const requests = Array.from({ length: 50 }, (_, i) => makeRequest('s', 2 * (i + 1), { prompt: `Request ${2 * (i + 1)}` }));
// The first 49 closed, at 101 to 149: one run. The last stays open.
const closings = requests.slice(0, 49).map((request, i) => resolved(101 + i, request));
const openOne = requests[49] as AepEvent;
const unseen = makeRequest('s', 9, { prompt: 'Never delivered before' });

const openIds = (inbox: Inbox) => inbox.open().map((item) => item.requestId).sort();

describe('a request never applied, under the floor of a gapped session, arrives (issue 39 item 2)', () => {
  test('after a reload: the unseen request at seq 9 is announced; closed ones do not reopen, the open one is not announced again', () => {
    const memento = new MemoryMemento();
    const earlier = openWindow(memento);
    earlier.take([...requests, ...closings]);
    assert.deepEqual(openIds(earlier.inbox), [openOne.id]);
    earlier.close();

    const reloaded = openWindow(memento);
    // A replay cut before the closings: the requests the earlier window saw closed must not reopen.
    reloaded.take([...requests.slice(0, 4), unseen, ...requests.slice(4)]);
    assert.deepEqual(reloaded.announced, [unseen.id]);
    assert.deepEqual(openIds(reloaded.inbox), [openOne.id, unseen.id].sort());
    reloaded.close();
  });

  test('after a client rebuild in the same window: the unseen request is announced, known ones are not', () => {
    const window = openWindow(new MemoryMemento());
    window.take([...requests, ...closings]);
    window.announced.length = 0;
    window.rebuild();
    window.take([...requests, unseen, ...closings]); // the new client's replay of everything
    assert.deepEqual(window.announced, [unseen.id]);
    assert.deepEqual(openIds(window.inbox), [openOne.id, unseen.id].sort());
    window.close();
  });

  test('a request applied from under the floor is closed by its emitter terminal there, though that position was applied before', () => {
    const memento = new MemoryMemento();
    const earlier = openWindow(memento);
    // The earlier window got the unseen request's resolution at seq 11 (a filter on subject, say), never the request.
    const closingUnseen = resolved(11, unseen);
    earlier.take([...requests.slice(0, 4), closingUnseen, ...requests.slice(4), ...closings]);
    earlier.close();

    const reloaded = openWindow(memento);
    reloaded.take([...requests.slice(0, 4), unseen, closingUnseen, ...requests.slice(4), ...closings]);
    assert.deepEqual(reloaded.announced, [unseen.id], 'it was never shown: it is new here');
    assert.deepEqual(openIds(reloaded.inbox), [openOne.id], 'and its resolution closes it');
    reloaded.close();
  });
});

describe('open requests the snapshot leaves out come back from under the floor (issue 39 item 2)', () => {
  test('100 open requests at every other seq, a snapshot that holds a few: the replay brings back the rest, each announced once', () => {
    const memento = new MemoryMemento();
    const many = Array.from({ length: 100 }, (_, i) => makeRequest('s', 2 * (i + 1), { prompt: `Open ${2 * (i + 1)}` }));
    const earlier = openWindow(memento, 4_000);
    earlier.take(many);
    earlier.close();

    const reloaded = openWindow(memento);
    const restored = openIds(reloaded.inbox);
    assert.ok(restored.length > 0 && restored.length < 40, `the snapshot holds a few (${restored.length})`);
    reloaded.take(many);
    assert.deepEqual(openIds(reloaded.inbox), many.map((request) => request.id).sort());
    assert.equal(reloaded.announced.length, 100 - restored.length);
    assert.ok(restored.every((id) => !reloaded.announced.includes(id)), 'the restored ones are not announced again');
    reloaded.close();
  });
});
