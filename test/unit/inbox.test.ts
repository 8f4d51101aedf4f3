import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { deadlinePassed, Inbox, type InboxChange } from '../../src/inbox/inbox';
import { emitterEvents } from '../support/events';
import { resumePosition } from '../support/resumePositions';

// claude-code's session s1 on host-a, asking permission at capture `redacted` unless a test says otherwise.
const { event: ev, request, answered, resolved, source: SRC } = emitterEvents({
  agent: 'claude-code',
  host: 'host-a',
  time: '2026-07-03T10:00:00Z',
  request: { kind: 'permission', prompt: 'Run it?' },
  requestFields: { capture: 'redacted' },
});

function recording(inbox: Inbox) {
  const changes: string[] = [];
  inbox.onDidChange((change: InboxChange) => changes.push(`${change.kind}:${change.item.requestId}:${change.item.status}`));
  return changes;
}

describe('Inbox lifecycle', () => {
  test('incremental changes: added, updated when answered, removed when resolved', () => {
    const inbox = new Inbox();
    const changes = recording(inbox);
    inbox.apply(request('R1', 0));
    assert.equal(inbox.open().length, 1);
    inbox.apply(answered('A1', 'R1', 1));
    assert.equal(inbox.open()[0]?.status, 'answered', 'answered but unresolved stays visible as such');
    inbox.apply(resolved('S1', 'R1', 2));
    assert.deepEqual(changes, ['added:R1:pending', 'updated:R1:answered', 'removed:R1:resolved']);
    assert.equal(inbox.open().length, 0);
  });

  test('resolved before requested: parked, then applied when the request arrives', () => {
    const inbox = new Inbox();
    const changes = recording(inbox);
    inbox.apply(resolved('S1', 'R1', 2));
    inbox.apply(answered('A1', 'R1', 1));
    assert.equal(inbox.stats().parked, 2);
    inbox.apply(request('R1', 0));
    assert.equal(inbox.stats().parked, 0);
    const item = inbox.findRequest('s1', 'R1', SRC);
    assert.equal(item?.status, 'resolved');
    assert.deepEqual(item?.answer, { option: 'allow' });
    assert.deepEqual(changes, ['added:R1:pending', 'updated:R1:answered', 'removed:R1:resolved']);
  });

  // AEP-0002 §7: the emitter's terminal ends a request, not this computer's clock.
  test('past expires_at with no timeout, the request stays open and answerable, reported once as updated', () => {
    let now = Date.parse('2026-07-03T10:00:00Z');
    const inbox = new Inbox({ now: () => now });
    const changes = recording(inbox);
    inbox.apply(request('R1', 0, { expires_at: '2026-07-03T10:01:00Z', options: [{ id: 'allow', label: 'Allow' }] }));
    inbox.noteDeadlinesPassed();
    assert.equal(deadlinePassed(inbox.open()[0]!, now), false);
    now += 61_000;
    inbox.noteDeadlinesPassed();
    inbox.noteDeadlinesPassed();
    const item = inbox.findRequest('s1', 'R1', SRC);
    assert.equal(item?.status, 'pending');
    assert.equal(item?.request?.answerableHere, true);
    assert.equal(deadlinePassed(item!, now), true);
    assert.deepEqual(inbox.open().map((open) => open.requestId), ['R1']);
    assert.equal(inbox.stats().open, 1);
    // The agent took the answer after the deadline: it is the agent's call.
    inbox.apply(answered('A1', 'R1', 1));
    inbox.apply(resolved('S1', 'R1', 2));
    assert.deepEqual(changes, ['added:R1:pending', 'updated:R1:pending', 'updated:R1:answered', 'removed:R1:resolved']);
  });

  test('past expires_at, the agent\'s attention.timeout closes the request', () => {
    const now = Date.parse('2026-07-03T10:05:00Z');
    const inbox = new Inbox({ now: () => now });
    const changes = recording(inbox);
    inbox.apply(request('R1', 0, { expires_at: '2026-07-03T10:01:00Z' }));
    inbox.noteDeadlinesPassed();
    assert.equal(inbox.open().length, 1);
    inbox.apply(ev({ id: 'T1', type: 'attention.timeout', subject: 'R1', seq: 1, data: { after_ms: 60000 } }));
    assert.equal(inbox.open().length, 0);
    assert.equal(inbox.stats().open, 0);
    assert.equal(inbox.findRequest('s1', 'R1', SRC)?.status, 'timed-out');
    assert.deepEqual(changes, ['added:R1:pending', 'updated:R1:pending', 'removed:R1:timed-out']);
  });

  test('a request already past expires_at on arrival is open until its emitter ends it', () => {
    const inbox = new Inbox({ now: () => Date.parse('2026-07-03T12:00:00Z') });
    const changes = recording(inbox);
    inbox.apply(request('R1', 0, { expires_at: '2026-07-03T10:01:00Z' }));
    assert.deepEqual(changes, ['added:R1:pending']);
    assert.equal(inbox.findRequest('s1', 'R1', SRC)?.status, 'pending');
    inbox.apply(ev({ id: 'E1', type: 'session.ended', seq: 1, data: { reason: 'normal' } }));
    assert.equal(inbox.findRequest('s1', 'R1', SRC)?.status, 'session-ended');
  });

  test('session.ended closes what is open; a backfilled older request is not reopened', () => {
    const inbox = new Inbox();
    const changes = recording(inbox);
    inbox.apply(request('R2', 5));
    inbox.apply(ev({ id: 'E1', type: 'session.ended', seq: 9, data: { reason: 'normal' } }));
    inbox.apply(request('R1', 3));
    assert.deepEqual(changes, ['added:R2:pending', 'removed:R2:session-ended']);
    assert.equal(inbox.findRequest('s1', 'R1', SRC)?.status, 'session-ended');
    assert.equal(inbox.open().length, 0);
  });

  test('a malformed request is listed with its problem, and its lifecycle still applies', () => {
    const inbox = new Inbox();
    const outcome = inbox.apply(request('R1', 0, { kind: 'form', fields: [{ id: 'db', type: 'select', label: 'Database' }] }));
    assert.ok(outcome.applied && outcome.problem?.includes('select field `db` has no choices'));
    const [item] = inbox.open();
    assert.equal(item?.request, undefined);
    assert.equal(item?.problem?.message, 'agent claude-code sent a form that cannot be rendered: select field `db` has no choices');
    inbox.apply(resolved('S1', 'R1', 1));
    assert.equal(inbox.open().length, 0);
  });

  test('the same request id from two emitters is two requests', () => {
    const inbox = new Inbox();
    inbox.apply(request('R1', 0));
    inbox.apply(request('R1', 0, {}, { source: 'aep://host-b/agent/codex/session/s1', agent: 'codex' }));
    assert.equal(inbox.open().length, 2);
    inbox.apply(resolved('S1', 'R1', 1));
    assert.deepEqual(inbox.open().map((i) => i.agent), ['codex']);
  });

  test('a resolved without a resolution closes its request and says so, arriving after the request or before it', () => {
    const malformed = (id: string, subject: string, seq: number) => ev({ id, type: 'attention.resolved', subject, cause: subject, seq, data: { latency_ms: 5 } });
    const inbox = new Inbox();
    const changes = recording(inbox);
    inbox.apply(request('R1', 0));
    const outcome = inbox.apply(malformed('S1', 'R1', 1));
    assert.ok(outcome.applied);
    assert.match(outcome.problem ?? '', /attention\.resolved from claude-code is malformed: .*resolution.*; claude-code's request R1 in session s1 is closed as resolved, with no outcome stated/);
    assert.deepEqual(changes, ['added:R1:pending', 'removed:R1:resolved']);
    assert.equal(inbox.findRequest('s1', 'R1', SRC)?.resolution, undefined, 'no outcome is made up');

    const parked = new Inbox();
    assert.equal(parked.apply(malformed('S2', 'R2', 3)).applied, true);
    const late = parked.apply(request('R2', 2));
    assert.match(late.applied ? (late.problem ?? '') : '', /request R2 in session s1 is closed as resolved/);
    assert.equal(parked.open().length, 0);
  });

  test('lifecycle events without a subject are reported, not dropped silently', () => {
    const inbox = new Inbox();
    const outcome = inbox.apply(ev({ id: 'S1', type: 'attention.resolved', seq: 1, data: { resolution: 'answered' } }));
    assert.ok(outcome.applied && /names no subject/.test(outcome.problem ?? ''));
  });

  test('a listener that throws does not stop the reducer or other listeners', () => {
    const errors: unknown[] = [];
    const inbox = new Inbox({ onListenerError: (error) => errors.push(error) });
    inbox.onDidChange(() => { throw new Error('boom'); });
    const seen: string[] = [];
    inbox.onDidChange((c) => seen.push(c.kind));
    inbox.apply(request('R1', 0));
    assert.deepEqual(seen, ['added']);
    assert.equal(errors.length, 1);
  });
});

describe('Inbox positions and bounds', () => {
  test('positionAdvanced only when the high water moves; backfill does not move it', () => {
    const inbox = new Inbox();
    const advanced = [5, 7, 6, 7].map((seq, i) => {
      const outcome = inbox.apply(ev({ id: `P${i}`, type: 'progress.status', seq }));
      return outcome.applied && outcome.positionAdvanced;
    });
    assert.deepEqual(advanced, [true, true, false, false]);
    assert.deepEqual(resumePosition(inbox, 's1', SRC), { session: 's1', epoch: 0, seq: 7 });
  });

  test('two emitters sharing a session string resume from the lower position', () => {
    const inbox = new Inbox();
    inbox.apply(ev({ id: 'X1', type: 'progress.status', seq: 40 }));
    inbox.apply(ev({ id: 'X2', type: 'progress.status', seq: 3, source: 'aep://host-b/agent/codex/session/s1', agent: 'codex' }));
    assert.deepEqual(resumePosition(inbox, 's1', SRC, 'aep://host-b/agent/codex/session/s1'), { session: 's1', epoch: 0, seq: 3 });
  });

  test('dedupe memory, timelines, closed items and sessions stay within their bounds', () => {
    const inbox = new Inbox({ dedupeCapacity: 100, timelineLimit: 10, maxSessions: 20, maxClosed: 30 });
    for (let i = 0; i < 5_000; i++) {
      const session = `s${i % 40}`;
      inbox.apply(ev({ id: `E${i}`, session, type: 'attention.requested', seq: 2 * i, data: { kind: 'input', prompt: 'q' } }));
      inbox.apply(ev({ id: `F${i}`, session, type: 'attention.resolved', subject: `E${i}`, seq: 2 * i + 1, data: { resolution: 'dismissed' } }));
    }
    const stats = inbox.stats();
    assert.ok(stats.dedupeKeys <= 100, `dedupe ${stats.dedupeKeys}`);
    assert.ok(stats.sessions <= 20, `sessions ${stats.sessions}`);
    assert.ok(stats.items <= 30, `items ${stats.items}`);
    assert.ok(stats.timelineEvents <= 20 * 10, `timeline ${stats.timelineEvents}`);
    assert.equal(stats.open, 0);
  });

  test('sessions with open requests are never evicted', () => {
    const inbox = new Inbox({ maxSessions: 5 });
    inbox.apply(request('KEEP', 0));
    for (let i = 0; i < 50; i++) inbox.apply(ev({ id: `N${i}`, session: `other${i}`, type: 'progress.status', seq: 0 }));
    assert.equal(inbox.open().length, 1);
    assert.equal(inbox.timeline(SRC, 's1').length, 1);
  });
});

describe('Inbox open-request bound', () => {
  test('past maxOpen a new request is reported, not added, and room frees up as requests close', () => {
    const inbox = new Inbox({ maxOpen: 3 });
    for (let i = 0; i < 3; i++) assert.equal(inbox.apply(request(`R${i}`, i)).applied, true);
    const refused = inbox.apply(request('R3', 3));
    assert.ok(refused.applied && /3 requests are already open; claude-code's request R3/.test(refused.problem ?? ''));
    assert.equal(inbox.open().length, 3);
    inbox.apply(resolved('S0', 'R0', 10));
    inbox.apply(request('R4', 11));
    assert.deepEqual(inbox.open().map((i) => i.requestId), ['R1', 'R2', 'R4']);
    assert.equal(inbox.stats().open, 3);
  });
});
