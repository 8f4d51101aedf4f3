import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SessionCatchUp } from '../../src/aep/client/sessionCatchUp';
import { RecordingLogger } from '../support/recordingLogger';

const entries = (...sessions: string[]) => sessions.map((session) => ({ session }));
const resumed = (...sessions: string[]) => sessions.map((session) => ({ session, epoch: 0, seq: 3 }));

test('after a resume, the sessions the roster names and the resume did not are replayed once, then closed', () => {
  const catchUp = new SessionCatchUp(new RecordingLogger());
  catchUp.subscribed(resumed('s1'), true, true);
  const frames = catchUp.onRoster(entries('s1', 's2', 's3', 's2'), { filter: { type: ['attention.*'], agent: 'a' }, capture: 'redacted' });
  assert.deepEqual(frames[0], { type: 'subscribe', id: 'catch-up-1', filter: { type: ['attention.*'], agent: 'a', session: ['s2', 's3'] }, from: 'all', capture: 'redacted' });
  assert.equal(frames[1]?.type, 'ping');
  assert.deepEqual(catchUp.onRoster(entries('s4'), { filter: {} }), [], 'once per connection');
  assert.equal(catchUp.onPong(12345), undefined, 'a keepalive pong closes nothing');
  assert.deepEqual(catchUp.onPong((frames[1] as { t: number }).t), { type: 'unsubscribe', id: 'catch-up-1' });
  assert.ok(catchUp.owns('catch-up-1') && !catchUp.owns('attention-1'));
});

test('the user\'s own session filter still applies to the catch-up', () => {
  const catchUp = new SessionCatchUp(new RecordingLogger());
  catchUp.subscribed(resumed('s1'), true, true);
  const [subscribe] = catchUp.onRoster(entries('s1', 'mine-2', 'theirs'), { filter: { session: ['s1', 'mine-2'] } });
  assert.deepEqual((subscribe as { filter: unknown }).filter, { session: ['mine-2'] });
});

test('nothing to catch up after a replay of everything, or without the hub features it needs', () => {
  const all = new SessionCatchUp(new RecordingLogger());
  all.subscribed('all', true, true);
  assert.deepEqual(all.onRoster(entries('s9'), { filter: {} }), []);
  const log = new RecordingLogger();
  const noReplayAll = new SessionCatchUp(log);
  noReplayAll.subscribed(resumed('s1'), false, true);
  assert.deepEqual(noReplayAll.onRoster(entries('s9'), { filter: {} }), []);
  assert.ok(log.lines.some((line) => /shows only what it sends from now on/.test(line)), 'the limitation is logged');
  const covered = new SessionCatchUp(new RecordingLogger());
  covered.subscribed(resumed('s1', 's2'), true, true);
  assert.deepEqual(covered.onRoster(entries('s1', 's2'), { filter: {} }), [], 'every live session was resumed');
});

test('everything is asked for again until one replay of everything has been answered by its ping', () => {
  const catchUp = new SessionCatchUp(new RecordingLogger());
  assert.equal(catchUp.wantsReplayAll, true);
  catchUp.subscribed('all', true, true);
  const first = catchUp.replayAllSent() as { t: number };
  // The connection drops before the pong: the next one asks for everything again.
  assert.equal(catchUp.wantsReplayAll, true);
  catchUp.subscribed('all', true, true);
  const second = catchUp.replayAllSent() as { t: number };
  assert.equal(catchUp.onPong(first.t), undefined, 'a pong from the lost connection counts for nothing');
  assert.equal(catchUp.wantsReplayAll, true);
  assert.equal(catchUp.onPong(second.t), undefined);
  assert.equal(catchUp.wantsReplayAll, false);
});
