// The one status model every surface shows (src/shared/shownStatus.ts): the
// inbox row, the page's status line and the quick input agree because they
// read this, not their own flags.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isClosed, shownStatus, statusKey } from '../../src/shared/shownStatus';

test('open: the deadline is a fact about this clock, never a closed request (AEP-0002 §7)', () => {
  assert.deepEqual(shownStatus('pending', {}), { kind: 'open', deadline: 'none' });
  assert.deepEqual(shownStatus('pending', { hasDeadline: true, deadlinePassed: false }), { kind: 'open', deadline: 'ahead' });
  const passed = shownStatus('pending', { hasDeadline: true, deadlinePassed: true });
  assert.deepEqual(passed, { kind: 'open', deadline: 'passed' });
  assert.equal(isClosed(passed), false);
  assert.equal(statusKey(passed), 'pending');
  // No expires_at: a stale "passed" cannot make up a deadline.
  assert.deepEqual(shownStatus('pending', { deadlinePassed: true }), { kind: 'open', deadline: 'none' });
});

test('answered and resolved say whose answer it was: ours accepted, someone else\'s, or ours still in flight', () => {
  assert.deepEqual(shownStatus('answered', { ours: 'accepted' }), { kind: 'answered', by: 'here' });
  assert.deepEqual(shownStatus('answered', {}), { kind: 'answered', by: 'elsewhere' });
  assert.deepEqual(shownStatus('resolved', { ours: 'in-flight', resolution: 'approved' }), { kind: 'resolved', by: 'unknown', resolution: 'approved' });
  assert.equal(statusKey(shownStatus('resolved', { ours: 'none' })), 'answered-elsewhere');
  assert.equal(statusKey(shownStatus('answered', { ours: 'none' })), 'answered-elsewhere');
  assert.equal(statusKey(shownStatus('resolved', { ours: 'accepted' })), 'resolved');
  // In flight: the outcome decides, so it is not called "elsewhere" yet.
  assert.equal(statusKey(shownStatus('answered', { ours: 'in-flight' })), 'answered');
});

test('the agent\'s own ends close the request whatever was sent', () => {
  for (const ours of ['none', 'in-flight', 'accepted'] as const) {
    assert.deepEqual(shownStatus('timed-out', { ours }), { kind: 'timed-out' });
    assert.deepEqual(shownStatus('session-ended', { ours }), { kind: 'session-ended' });
    assert.equal(isClosed(shownStatus('timed-out', { ours })), true);
  }
});
