import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { AepEvent } from '../../src/aep/envelope';
import { Inbox } from '../../src/inbox/inbox';
import { emitterEvents, type EventFields } from '../support/events';

// Session eviction under floods: the quiet-session order (src/inbox/inbox.ts
// `quietSessions`) and the open count the host reads for its badge and status bar.

/** Agent a's session on host-a, a permission request unless a test says otherwise. */
const sessionOf = (session: string) =>
  emitterEvents({ agent: 'a', host: 'host-a', session, time: '2026-07-03T10:00:00Z', request: { kind: 'permission', prompt: 'Run it?' } });
const ev = (session: string, fields: EventFields & Pick<AepEvent, 'type'>): AepEvent => sessionOf(session).event(fields);
const request = (session: string, id: string, seq: number) => sessionOf(session).request(id, seq);
const resolved = (session: string, id: string, subject: string, seq: number) =>
  sessionOf(session).resolved(id, subject, seq, 'dismissed', { cause: undefined });
const status = (session: string, id: string, seq: number) => sessionOf(session).status(id, seq);

/** Whether the inbox still tracks the session (its resume position is remembered). */
const tracked = (inbox: Inbox, session: string) => inbox.positionOf(sessionOf(session).source, session) !== undefined;

describe('Inbox session eviction', () => {
  test('a flood of one-request sessions, each then resolved, leaves at most maxSessions tracked', () => {
    const inbox = new Inbox();
    const maxSessions = 5_000; // the default
    const flood = 3 * maxSessions;
    // The count of sessions tracked after every event, read cheaply: each request opens a new
    // session and each eviction fires onDidForgetSession. stats() walks every session, so after
    // each event it would make the flood quadratic; it confirms the count every 100 sessions,
    // and at the steps where the bound is reached and first held by an eviction.
    let forgotten = 0;
    inbox.onDidForgetSession(() => forgotten++);
    let most = 0;
    const check = (i: number) => {
      const sessions = i + 1 - forgotten;
      most = Math.max(most, sessions);
      if (i % 100 === 0 || i === maxSessions - 1 || i === maxSessions) {
        assert.equal(inbox.stats().sessions, sessions, `after session s${i}, the inbox tracks as many sessions as were opened and not forgotten`);
      }
    };
    for (let i = 0; i < flood; i++) {
      inbox.apply(request(`s${i}`, `r${i}`, 0));
      check(i);
      inbox.apply(resolved(`s${i}`, `d${i}`, `r${i}`, 1));
      check(i);
    }
    assert.equal(most, maxSessions, 'the bound was reached, and never passed');
    assert.equal(forgotten, flood - maxSessions);
    assert.equal(inbox.stats().sessions, maxSessions);
    assert.equal(inbox.stats().open, 0);
    assert.equal(inbox.openCount, 0);
    // The most recent sessions are the ones kept.
    assert.ok(tracked(inbox, `s${flood - 1}`) && tracked(inbox, `s${flood - maxSessions}`));
    assert.ok(!tracked(inbox, `s${flood - maxSessions - 1}`) && !tracked(inbox, 's0'));
  });

  test('the least recently active quiet session goes first; activity and a last request closing count as active', () => {
    const inbox = new Inbox({ maxSessions: 3 });
    inbox.apply(status('a', 'a0', 0));
    inbox.apply(request('b', 'rb', 0));
    inbox.apply(status('c', 'c0', 0));
    inbox.apply(status('a', 'a1', 1)); // a is now more recent than c
    inbox.apply(status('d', 'd0', 0)); // four sessions: c (quiet, least recent) goes; b holds a request
    assert.deepEqual(['a', 'b', 'c', 'd'].map((s) => tracked(inbox, s)), [true, true, false, true]);
    inbox.apply(resolved('b', 'db', 'rb', 1)); // b's last request closes: quiet, and the most recent
    inbox.apply(status('e', 'e0', 0));
    assert.deepEqual(['a', 'b', 'd', 'e'].map((s) => tracked(inbox, s)), [false, true, true, true]);
    inbox.apply(status('f', 'f0', 0));
    assert.deepEqual(['b', 'd', 'e', 'f'].map((s) => tracked(inbox, s)), [true, false, true, true]);
  });

  test('sessions holding open requests are kept past maxSessions and forgotten once their requests close', () => {
    const inbox = new Inbox({ maxSessions: 100 });
    const holding = 2_000; // twenty times the bound
    for (let i = 0; i < holding; i++) inbox.apply(request(`s${i}`, `r${i}`, 0));
    assert.equal(inbox.stats().sessions, holding);
    assert.equal(inbox.openCount, holding);
    assert.equal(inbox.open().length, holding);
    // A quiet newcomer is the only session that can go.
    inbox.apply(status('quiet', 'q0', 0));
    assert.equal(inbox.stats().sessions, holding);
    assert.ok(!tracked(inbox, 'quiet'));
    for (let i = 0; i < holding; i++) inbox.apply(resolved(`s${i}`, `d${i}`, `r${i}`, 1));
    assert.equal(inbox.stats().sessions, 100);
    assert.equal(inbox.openCount, 0);
    assert.ok(tracked(inbox, `s${holding - 1}`) && tracked(inbox, `s${holding - 100}`) && !tracked(inbox, `s${holding - 101}`));
  });

  test('openCount follows the open list through requests, answers, resolutions and session ends', () => {
    const inbox = new Inbox({ maxSessions: 2 });
    for (let i = 0; i < 6; i++) inbox.apply(request(`s${i % 3}`, `r${i}`, Math.floor(i / 3)));
    assert.equal(inbox.openCount, inbox.open().length);
    inbox.apply(resolved('s0', 'd0', 'r0', 2));
    assert.equal(inbox.openCount, 5);
    inbox.apply(ev('s1', { id: 'end1', type: 'session.ended', seq: 2 }));
    assert.equal(inbox.openCount, 3);
    assert.equal(inbox.openCount, inbox.open().length);
    assert.deepEqual(inbox.open().map((item) => item.requestId), ['r2', 'r3', 'r5']);
  });
});
