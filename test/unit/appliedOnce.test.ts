// An emitter's position is applied once (AEP-0001 §7.2): after a window
// reload only what the earlier window applied is held back (issue 39 item 2),
// a full duplicate replay longer than the `(source, id)` window re-announces
// nothing (item 3), and a second event at a taken position is refused and
// reported once (item 8). Real inbox, intake and persistence throughout.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { AepEvent } from '../../src/aep/envelope';
import { silentLogger } from '../../src/base/logger';
import { ControlSender } from '../../src/client/controlSender';
import { EventIntake } from '../../src/client/eventIntake';
import { Inbox, type InboxOptions } from '../../src/inbox/inbox';
import { WorkspacePersistence } from '../../src/app/hubs/persistence';
import { makeEvent, makeRequest } from '../support/events';
import { MemoryMemento } from '../support/memoryMemento';
import { RecordingLogger } from '../support/recordingLogger';
import { resumePosition } from '../support/resumePositions';

const ORIGIN = 'http://127.0.0.1:8787';

/** One window: an inbox restored from the memento, the intake the client feeds, what it announced and reported. */
function openWindow(memento: MemoryMemento, options: InboxOptions = {}, maxSnapshotBytes?: number) {
  const log = new RecordingLogger();
  const persistence = new WorkspacePersistence(memento, ORIGIN, log, maxSnapshotBytes === undefined ? {} : { maxSnapshotBytes });
  const inbox = new Inbox(options);
  persistence.restoreInto(inbox);
  const announced: string[] = [];
  const changes = inbox.onDidChange((change) => {
    if (change.kind === 'added') announced.push(change.item.requestId);
    persistence.inboxChanged();
  });
  const reported: string[] = [];
  const intake = new EventIntake(inbox, persistence, new ControlSender(silentLogger), (message) => reported.push(message));
  const take = (events: readonly AepEvent[]) => {
    for (const event of events) intake.take(event, false);
  };
  const close = () => {
    intake.dispose();
    changes.dispose();
    persistence.dispose(); // flushes, as a reload does
  };
  return { inbox, intake, announced, reported, log, take, close };
}

const resolved = (session: string, seq: number, request: AepEvent) =>
  makeEvent('attention.resolved', session, seq, { subject: request.id, cause: request.id, data: { resolution: 'answered' } });

describe('after a window reload, only what the earlier window applied is held back (issue 39 item 2)', () => {
  // Session s: seq 1 started, 2 a request, 3 its resolution, 4 an open request, 5 progress,
  // 6 a request the earlier window never received, 7 progress. The earlier window saved `0:7`.
  const started = makeEvent('session.started', 's', 1);
  const closedRequest = makeRequest('s', 2, { prompt: 'Closed before the reload' });
  const closing = resolved('s', 3, closedRequest);
  const openRequest = makeRequest('s', 4, { prompt: 'Still open at the reload' });
  const progress = makeEvent('progress.status', 's', 5, { data: { message: 'working' } });
  const unseen = makeRequest('s', 6, { prompt: 'Never received by the earlier window' });
  const last = makeEvent('progress.status', 's', 7, { data: { message: 'still working' } });

  function earlierWindow(memento: MemoryMemento) {
    const earlier = openWindow(memento);
    earlier.take([started, closedRequest, closing, openRequest, progress, last]);
    assert.deepEqual(resumePosition(earlier.inbox, 's', last.source), { session: 's', epoch: 0, seq: 7 }, 'the earlier window stood at 0:7');
    earlier.close();
  }

  test('a replayed request at seq 6 the earlier window never received reaches the inbox, and is announced', () => {
    const memento = new MemoryMemento();
    earlierWindow(memento);
    const reloaded = openWindow(memento);
    assert.deepEqual(reloaded.inbox.open().map((item) => item.requestId), [openRequest.id], 'the open request is restored');
    reloaded.take([started, closedRequest, closing, openRequest, progress, unseen, last]); // a replay of everything
    assert.deepEqual(reloaded.inbox.open().map((item) => item.requestId).sort(), [openRequest.id, unseen.id].sort());
    assert.deepEqual(reloaded.announced, [unseen.id], 'only the request never seen is new');
    reloaded.close();
  });

  test('a request the earlier window saw closed does not reopen, even when the replay is cut before its close', () => {
    const memento = new MemoryMemento();
    earlierWindow(memento);
    const reloaded = openWindow(memento);
    reloaded.take([started, closedRequest]); // the connection drops here
    assert.equal(reloaded.inbox.findRequest('s', closedRequest.id, closedRequest.source), undefined);
    assert.deepEqual(reloaded.announced, []);
    reloaded.close();
  });

  test('what the reloaded window applies is saved with what the earlier one did: a second reload holds back both, and nothing more', () => {
    const memento = new MemoryMemento();
    earlierWindow(memento);
    const second = openWindow(memento);
    second.take([unseen]);
    second.close();
    const third = openWindow(memento);
    const later = makeRequest('s', 8, { prompt: 'Raised after the second reload' });
    third.take([started, closedRequest, closing, openRequest, progress, unseen, last, later]);
    assert.deepEqual(third.announced, [later.id]);
    third.close();
  });
});

describe('open requests the reload snapshot leaves out come back with the replay (issue 39 item 2)', () => {
  test('five open requests, a snapshot that holds some: the replay brings the others, announced once, the restored ones not again', () => {
    const memento = new MemoryMemento();
    const requests = [1, 2, 3, 4, 5].map((seq) => makeRequest('s', seq, { prompt: `Open request ${seq}` }));
    const earlier = openWindow(memento, {}, 1_200);
    earlier.take(requests);
    earlier.close();
    const trimmed = earlier.log.dataOf('warn', 'storage-trimmed').find((data) => data['total'] === 5);
    const saved = Number(trimmed?.['kept']);
    assert.ok(saved >= 1 && saved <= 3, earlier.log.lines.join('\n'));
    const reloaded = openWindow(memento);
    assert.deepEqual(reloaded.inbox.open().map((item) => item.requestId), requests.slice(5 - saved).map((r) => r.id), 'the snapshot holds the newest');
    reloaded.take(requests);
    assert.deepEqual(reloaded.inbox.open().map((item) => item.requestId).sort(), requests.map((r) => r.id).sort());
    assert.deepEqual(reloaded.announced, requests.slice(0, 5 - saved).map((r) => r.id));
    reloaded.close();
  });
});

describe('a full duplicate replay longer than the (source, id) window re-announces nothing (issue 39 item 3)', () => {
  test('capacity 100, a 120-event replay of 60 answered requests over 3 sessions: nothing added, nothing opened', () => {
    const memento = new MemoryMemento();
    // Scaled down: the dedupe window and the closed requests kept are both smaller than the replay.
    const window = openWindow(memento, { dedupeCapacity: 100, maxClosed: 10 });
    const events: AepEvent[] = [];
    for (let i = 0; i < 60; i++) {
      const session = `s${i % 3}`;
      const seq = 2 * Math.floor(i / 3) + 1;
      const request = makeRequest(session, seq, { prompt: `Request ${i}` });
      events.push(request, resolved(session, seq + 1, request));
    }
    window.take(events);
    assert.equal(window.announced.length, 60);
    assert.equal(window.inbox.open().length, 0);
    window.announced.length = 0;
    window.take(events); // the hub replays everything it holds on a reconnect
    assert.deepEqual(window.announced, [], 'no request announced again');
    assert.equal(window.inbox.open().length, 0);
    assert.equal(window.intake.counts.duplicatesDropped, 120);
    window.close();
  });
});

describe('two events at one position (issue 39 item 8, AEP-0001 §7.2)', () => {
  test('the first stands, the second is not applied, and it is reported once with a typed record for the session', () => {
    const window = openWindow(new MemoryMemento());
    const first = makeRequest('s', 4, { prompt: 'First at 0:4' });
    const second = makeRequest('s', 4, { prompt: 'Second at 0:4' });
    const third = makeEvent('progress.status', 's', 4, { data: { message: 'third at 0:4' } });
    window.take([first, second, third, second]);
    assert.deepEqual(window.inbox.open().map((item) => item.requestId), [first.id]);
    assert.deepEqual(window.announced, [first.id]);
    assert.equal(window.reported.length, 1, window.reported.join('\n'));
    assert.match(window.reported[0] ?? '', /two events at one position \(epoch 0, seq 4\)/);
    assert.deepEqual(window.inbox.positionTaken(first.source, 's'), { epoch: 0, seq: 4, kept: first.id, refused: second.id, count: 2 });
    assert.equal(window.intake.counts.positionsTaken, 2);
    assert.equal(window.intake.counts.duplicatesDropped, 1, 'the same second event again is a duplicate');
    window.close();
  });

  test('another emitter at the same position in a session of the same name is not a conflict (AEP-0001 §5.2)', () => {
    const window = openWindow(new MemoryMemento());
    const mine = makeRequest('s', 4, {}, {}, 'first');
    const theirs = makeRequest('s', 4, {}, {}, 'second');
    window.take([mine, theirs]);
    assert.equal(window.inbox.open().length, 2);
    assert.deepEqual(window.reported, []);
    window.close();
  });
});
