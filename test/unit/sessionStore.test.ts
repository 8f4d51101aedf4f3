// The local hub's replay buffers (test/peers/hub/sessionStore.ts): one per emitter
// session (AEP-0001 §5.2), bounded, and honest about what they lost (AEP-0003 §5).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { AepEvent } from '../../src/aep/envelope';
import type { Admitted } from '../peers/hub/admission';
import { positionAfter } from '../peers/hub/sessionBuffer';
import { SessionStore, type ReplayPlan } from '../peers/hub/sessionStore';
import { validEvent, type EventFields } from '../support/events';

let ids = 0;
function admitted(fields: EventFields & Pick<AepEvent, 'source'>): Admitted {
  const event = validEvent({ id: `E${++ids}`, type: 'progress.status', time: '2026-07-03T10:00:00Z', agent: 'a', ...fields });
  return { event, raw: JSON.stringify(event) };
}
const sourceOf = (agent: string) => `aep://h/agent/${agent}`;
const sequenced = (agent: string, session: string, seq: number, epoch = 0) =>
  admitted({ source: sourceOf(agent), agent, session, seq, ...(epoch ? { epoch } : {}) });

/** Each plan as `earliest|agent:seq,…`, for compact comparison. */
const describePlans = (plans: ReplayPlan[]) =>
  plans.map((p) => `${p.exhausted ? `${p.exhausted.epoch}:${p.exhausted.seq}` : '-'}|${p.entries.map((e) => `${e.event.agent}:${e.event.seq ?? e.event.type}`).join(',')}`);

describe('buffers are keyed by (source, session)', () => {
  test('a second emitter below the first emitter\'s evicted positions is stored (it is another session)', () => {
    const store = new SessionStore(2, 10);
    for (let seq = 0; seq < 5; seq++) store.admit(sequenced('one', 's', seq));
    assert.equal(store.admit(sequenced('two', 's', 0)).stored, true);
    assert.equal(store.sessionCount, 2);
    assert.deepEqual(store.replayAll().map((entries) => entries.map((e) => `${e.event.agent}:${e.event.seq}`)), [['one:3', 'one:4'], ['two:0']]);
  });

  test('one emitter\'s own evicted position is still not stored again (earliest held never moves back)', () => {
    const store = new SessionStore(2, 10);
    for (let seq = 0; seq < 5; seq++) store.admit(sequenced('one', 's', seq));
    assert.equal(store.admit(sequenced('one', 's', 1)).stored, false);
  });

  test('the same id from two sources is two events (dedupe is (source, id), AEP-0001 §7.4)', () => {
    const store = new SessionStore(10, 10);
    const a = admitted({ id: 'SAME', source: sourceOf('one'), session: 's', seq: 0 });
    const b = admitted({ id: 'SAME', source: sourceOf('two'), session: 's', seq: 0 });
    assert.equal(store.admit(a).stored, true);
    assert.equal(store.admit(b).stored, true);
    assert.equal(store.admit(a).stored, false, 'a redelivery is not stored twice');
  });

  test('a resume position names a bare session: one plan per emitter session of that name', () => {
    const store = new SessionStore(2, 10);
    for (let seq = 0; seq < 5; seq++) store.admit(sequenced('one', 's', seq));
    for (let seq = 0; seq < 2; seq++) store.admit(sequenced('two', 's', seq));
    assert.deepEqual(describePlans(store.replay('s', { epoch: 0, seq: 0 })), ['0:3|one:3,one:4', '-|two:1']);
    assert.deepEqual(store.replay('other', { epoch: 0, seq: 0 }), []);
  });
});

describe('a session forgotten whole (AEP-0003 §5)', () => {
  const forgetting = () => {
    const store = new SessionStore(5, 1);
    for (let seq = 0; seq < 3; seq++) store.admit(sequenced('one', 'gone', seq, 2));
    store.admit(sequenced('one', 'next', 0)); // one session held at a time
    return store;
  };

  test('a position below what it lost is exhausted, earliest just past the newest lost position', () => {
    assert.deepEqual(describePlans(forgetting().replay('gone', { epoch: 2, seq: 0 })), ['2:3|']);
    assert.deepEqual(describePlans(forgetting().replay('gone', { epoch: 1, seq: 99 })), ['2:3|']);
  });

  test('from its newest lost position or later, nothing was missed and nothing is said', () => {
    assert.deepEqual(forgetting().replay('gone', { epoch: 2, seq: 2 }), []);
    assert.deepEqual(forgetting().replay('gone', { epoch: 3, seq: 0 }), []);
  });

  test('replay-all leaves it out and says nothing (§5 rule 1, 2)', () => {
    assert.deepEqual(forgetting().replayAll().map((entries) => entries.map((e) => e.event.session)), [['next']]);
  });

  test('when it comes back, lost positions stay lost and a resume from below them is exhausted at the first held', () => {
    const store = forgetting();
    assert.equal(store.admit(sequenced('one', 'gone', 1, 2)).stored, false);
    assert.equal(store.admit(sequenced('one', 'gone', 7, 2)).stored, true);
    assert.deepEqual(describePlans(store.replay('gone', { epoch: 2, seq: 0 })), ['2:7|one:7']);
    assert.deepEqual(describePlans(store.replay('gone', { epoch: 2, seq: 2 })), ['-|one:7']);
  });

  test('a session that only ever held seq-less events lost no position', () => {
    const store = new SessionStore(5, 1);
    store.admit(admitted({ type: 'control.pause', source: sourceOf('sender'), session: 'cmds' }));
    store.admit(sequenced('one', 'next', 0));
    assert.deepEqual(store.replay('cmds', { epoch: 0, seq: 0 }), []);
  });

  test('forgotten sessions are remembered only as many as there are sessions', () => {
    const store = new SessionStore(5, 2);
    for (let i = 0; i < 10; i++) store.admit(sequenced('one', `s${i}`, 4));
    // s0..s7 were forgotten; only the two most recent of them (s6, s7) are remembered.
    assert.deepEqual(store.replay('s5', { epoch: 0, seq: 0 }), []);
    assert.deepEqual(describePlans(store.replay('s6', { epoch: 0, seq: 0 })), ['0:5|']);
    assert.deepEqual(describePlans(store.replay('s7', { epoch: 0, seq: 0 })), ['0:5|']);
  });

  test('earliest stays a safe integer however large the lost seq', () => {
    assert.deepEqual(positionAfter({ epoch: 1, seq: 4 }), { epoch: 1, seq: 5 });
    assert.deepEqual(positionAfter({ epoch: 1, seq: Number.MAX_SAFE_INTEGER }), { epoch: 2, seq: 0 });
  });
});

describe('seq-less events join the view of the session they address (AEP-0001 §5.2)', () => {
  const command = (fields: EventFields = {}) => admitted({ type: 'control.pause', source: sourceOf('sender'), agent: 'sender', session: 's', ...fields });

  test('the only owner of the name: anchored after its newest position, replayed after it', () => {
    const store = new SessionStore(10, 10);
    store.admit(sequenced('one', 's', 0));
    store.admit(command());
    assert.deepEqual(describePlans(store.replay('s', { epoch: 0, seq: 0 })), ['-|sender:control.pause']);
  });

  test('two owners: the one holding the event it refers to, else a buffer of its own', () => {
    const store = new SessionStore(10, 10);
    const request = sequenced('two', 's', 0);
    store.admit(sequenced('one', 's', 0));
    store.admit(request);
    store.admit(command({ subject: request.event.id }));
    store.admit(command());
    assert.deepEqual(
      store.replayAll().map((entries) => entries.map((e) => `${e.event.agent}:${e.event.seq ?? e.event.type}`)),
      [['one:0'], ['two:0', 'sender:control.pause'], ['sender:control.pause']],
    );
  });

  test('an owner named by the caller (the claimant a command was routed to) wins', () => {
    const store = new SessionStore(10, 10);
    store.admit(sequenced('one', 's', 0));
    store.admit(sequenced('two', 's', 0));
    store.admit(command(), sourceOf('one'));
    assert.deepEqual(describePlans(store.replay('s', { epoch: 0, seq: 0 })), ['-|sender:control.pause', '-|']);
  });
});
