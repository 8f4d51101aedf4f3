import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ResumePosition } from '../../src/aep/frames';
import { REPLAY_ALL_TRIES, ResumeTracker, type ResumeNotice } from '../../src/client/resumeTracker';

function positions(count: number): ResumePosition[] {
  return Array.from({ length: count }, (_, i) => ({ session: `s${i}`, epoch: 0, seq: i + 1 }));
}

function tracker(stableMs = 10_000): { tracker: ResumeTracker; notices: ResumeNotice[]; messages: string[]; problems: string[] } {
  const notices: ResumeNotice[] = [];
  const messages: string[] = [];
  const problems: string[] = [];
  return {
    tracker: new ResumeTracker(stableMs, (notice, message, problem) => {
      notices.push(notice);
      messages.push(message);
      if (problem) problems.push(notice.code);
    }),
    notices,
    messages,
    problems,
  };
}

const UNVERIFIABLE = { code: 'replay-all-unverifiable' } as const;

describe('ResumeTracker', () => {
  test('a replay-all hub is asked for everything; without it, a resume warns once that unseen sessions are missed', () => {
    const { tracker: t, notices, problems } = tracker();
    assert.equal(t.plan(positions(3), true, true), 'all');
    assert.deepEqual(notices, [UNVERIFIABLE], 'the hub never says what it dropped: the status says so');
    assert.deepEqual(problems, [], 'the normal state of a replay-all resume, not a problem');
    const from = t.plan(positions(3), false, true);
    assert.deepEqual(from, positions(3));
    t.plan(positions(3), false, true);
    assert.deepEqual(notices, [UNVERIFIABLE, { code: 'no-replay-all' }], 'said once per client');
  });

  test('a replay of everything with no absence behind it (a first connection) notes nothing', () => {
    const { tracker: t, notices } = tracker();
    assert.equal(t.plan([], true, false), 'all');
    assert.deepEqual(notices, []);
  });

  test('a first connection with nothing saved has no absence to warn about', () => {
    const { tracker: t, notices } = tracker();
    assert.equal(t.plan([], false, false), undefined);
    assert.deepEqual(notices, []);
  });

  test(`${REPLAY_ALL_TRIES} replays of everything cut short in a row: resume from positions, and ask for everything again once a connection lasts`, () => {
    const { tracker: t, notices } = tracker();
    for (let i = 0; i < REPLAY_ALL_TRIES; i++) {
      assert.equal(t.plan(positions(2), true, true), 'all');
      t.connectionLost(true);
    }
    assert.deepEqual(t.plan(positions(2), true, true), positions(2));
    assert.deepEqual(notices, [...Array.from({ length: REPLAY_ALL_TRIES }, () => UNVERIFIABLE), { code: 'replay-all-cut-short', connections: REPLAY_ALL_TRIES }]);
    t.connectionLasted();
    t.connectionLost(false);
    assert.equal(t.plan(positions(2), true, true), 'all');
  });

  test('a replay of everything that lasted and then ended is not counted as cut short', () => {
    const { tracker: t } = tracker(0);
    for (let i = 0; i < REPLAY_ALL_TRIES + 2; i++) {
      assert.equal(t.plan(positions(1), true, true), 'all');
      t.connectionLost(false);
    }
  });

  test('refusals: replay-all, then fewer positions, then none; the refusal is noted before what it costs', () => {
    const { tracker: t, notices, messages } = tracker();
    const saved = positions(100);
    const refusal = (from: ReturnType<ResumeTracker['plan']>) => ({ from, hubCode: 'limit-exceeded', why: 'the hub refused the subscription (limit-exceeded)' });
    assert.equal(t.plan(saved, true, true), 'all');
    let next = t.replanAfterRefusal(refusal('all'), saved, true, true);
    assert.ok(next && Array.isArray(next.from));
    assert.equal(next.from.length, 64);
    assert.deepEqual(notices.shift(), UNVERIFIABLE);
    assert.deepEqual(notices.slice(0, 3), [
      { code: 'subscription-refused', hubCode: 'limit-exceeded' },
      { code: 'left-out', resumed: 64, saved: 100 },
      { code: 'no-replay-all' },
    ]);
    assert.match(messages[1] ?? '', /subscribing again from 64 saved positions/);
    const lengths: number[] = [];
    while (next && Array.isArray(next.from) && next.from.length > 0) {
      lengths.push(next.from.length);
      next = t.replanAfterRefusal(refusal(next.from), saved, true, true);
    }
    assert.deepEqual(lengths, [64, 32, 16, 8, 4, 2, 1]);
    assert.deepEqual(next, { from: undefined }, 'a subscription without from is tried');
    assert.equal(t.replanAfterRefusal(refusal(undefined), saved, true, true), undefined, 'then only a reconnect is left');
    assert.notEqual(t.plan(saved, true, true), 'all', 'replay-all, once refused, is not asked again by this client');
  });
});
