import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ReplayAllGaps } from '../../src/client/replayAllGaps';
import { ACCEPTED_TYPE } from '../../src/aep/control';
import { makeEvent, makeRequest } from '../support/events';

const A = makeEvent('session.started', 'main', 0, {}, 'first').source;
const B = makeEvent('session.started', 'main', 0, {}, 'second').source;

describe('ReplayAllGaps: what a replay of everything shows of what the hub dropped (AEP-0003 §5)', () => {
  test('the first event of a watched session after where the client stood, not next to it, is a gap; once per session', () => {
    const gaps = new ReplayAllGaps();
    gaps.watch([{ source: A, session: 'main', epoch: 0, seq: 4 }, { source: B, session: 'main', epoch: 0, seq: 9 }]);
    assert.deepEqual(gaps.check(makeRequest('main', 8, {}, {}, 'first')), { session: 'main', earliest: { epoch: 0, seq: 8 } });
    assert.equal(gaps.check(makeRequest('main', 12, {}, {}, 'first')), undefined, 'said once');
    assert.equal(gaps.check(makeRequest('main', 7, {}, {}, 'second')), undefined, 'the other emitter\'s session was held from below where it stood');
  });

  test('held from where the client stood, or starting right after it: no gap', () => {
    const gaps = new ReplayAllGaps();
    gaps.watch([{ source: A, session: 'held', epoch: 2, seq: 4 }, { source: A, session: 'next', epoch: 2, seq: 4 }]);
    assert.equal(gaps.check(makeRequest('held', 4, {}, { epoch: 2 }, 'first')), undefined);
    assert.equal(gaps.check(makeRequest('next', 5, {}, { epoch: 2 }, 'first')), undefined);
  });

  test('a later epoch first is a gap: where the client stood is no longer held', () => {
    const gaps = new ReplayAllGaps();
    gaps.watch([{ source: A, session: 'main', epoch: 0, seq: 4 }]);
    assert.deepEqual(gaps.check(makeRequest('main', 0, {}, { epoch: 1 }, 'first')), { session: 'main', earliest: { epoch: 1, seq: 0 } });
  });

  test('acks, seq-less events, unwatched sessions, positions without a source, and a stopped watch show nothing', () => {
    const gaps = new ReplayAllGaps();
    gaps.watch([{ source: A, session: 'main', epoch: 0, seq: 4 }, { session: 'legacy', epoch: 0, seq: 1 }]);
    assert.equal(gaps.check(makeEvent(ACCEPTED_TYPE, 'main', 20, { subject: 'C1' }, 'first')), undefined, 'an ack may come live ahead of the replay');
    assert.equal(gaps.check(makeRequest('legacy', 9, {}, {}, 'first')), undefined);
    assert.equal(gaps.check(makeRequest('other', 9, {}, {}, 'first')), undefined);
    gaps.stop();
    assert.equal(gaps.check(makeRequest('main', 9, {}, {}, 'first')), undefined);
  });
});
