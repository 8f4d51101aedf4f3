// Host-side words and choices for a request past its deadline and for a
// session whose agent takes no answers: past `expires_at` a request is still
// open (AEP-0002 §7), and a claimant's `control.accepts` is authoritative
// (AEP-0004 §4.2).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Inbox } from '../../src/inbox/inbox';
import { nextToAnswer } from '../../src/app/answering/nextRequest';
import { pageReachability } from '../../src/app/page/pageContent';
import type { RequestData } from '../support/events';
import { requestEvent, sessionEvent } from '../support/pageRequests';

const T0 = Date.parse('2026-07-03T10:00:00Z');

describe('pageReachability', () => {
  test('not-accepting carries why: no commands at all, or not this one', () => {
    assert.deepEqual(pageReachability({ state: 'not-accepting', accepts: [] }), { state: 'not-accepting', detail: 'it accepts no commands' });
    assert.deepEqual(pageReachability({ state: 'not-accepting', agent: 'a', accepts: ['control.run.cancel'] }), {
      state: 'not-accepting', detail: 'its control.accepts does not list control.attention.respond',
    });
  });
});

describe('nextToAnswer', () => {
  test('the oldest request still in time first, then those past their deadline, oldest first', () => {
    let now = T0;
    const inbox = new Inbox({ now: () => now });
    const at = (offset: number) => new Date(T0 + offset).toISOString();
    const raise = (id: string, data: Partial<RequestData>) => {
      inbox.apply(requestEvent({ kind: 'input', prompt: id, ...data }, { id }));
      now += 1_000;
    };
    raise('late-old', { expires_at: at(-60_000) });
    raise('late-new', { expires_at: at(-30_000) });
    raise('oob', { respond_via: ['oob'] });
    raise('no-deadline', {});
    raise('in-time', { expires_at: at(600_000) });
    const pick = () => nextToAnswer(inbox.open(), now)?.requestId;
    assert.equal(pick(), 'no-deadline');
    inbox.apply(sessionEvent('attention.timeout', { id: 'T1', subject: 'no-deadline', seq: 10, data: { after_ms: 1 } }));
    assert.equal(pick(), 'in-time');
    now = T0 + 700_000;
    assert.equal(pick(), 'late-old', 'once every deadline passed, the oldest again');
    assert.deepEqual(inbox.open().map((item) => item.requestId), ['late-old', 'late-new', 'oob', 'in-time'], 'past their deadlines, all but the timed-out one are still open');
  });

  test('a request whose agent takes no answers from editors is skipped', () => {
    const inbox = new Inbox();
    inbox.apply(requestEvent({ kind: 'input', prompt: 'deaf' }, { id: 'deaf' }));
    inbox.apply(requestEvent({ kind: 'input', prompt: 'hears' }, { id: 'hears', seq: 2 }));
    assert.equal(nextToAnswer(inbox.open(), Date.now())?.requestId, 'deaf');
    assert.equal(nextToAnswer(inbox.open(), Date.now(), (item) => item.requestId === 'deaf')?.requestId, 'hears');
    assert.equal(nextToAnswer(inbox.open(), Date.now(), () => true), undefined);
  });

  test('nothing pending that can be answered here: nothing', () => {
    const inbox = new Inbox();
    inbox.apply(requestEvent({ kind: 'input', prompt: 'p', respond_via: ['oob'] }));
    assert.equal(nextToAnswer(inbox.open(), Date.now()), undefined);
  });
});
