// The inbox's memory budget: timelines keep envelopes only, and past
// `maxBytes` the least useful state goes first while open requests stay.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { AepEvent } from '../../src/aep/envelope';
import { approximateBytes } from '../../src/base/byteSize';
import { Inbox, ITEM_BYTES, type ApplyOutcome } from '../../src/inbox/inbox';
import { envelopeOf, TIMELINE_ENTRY_BYTES } from '../../src/inbox/sessionTimeline';
import { emitterEvents } from '../support/events';
import { resumePosition } from '../support/resumePositions';

const KB = 1024;

const claude = emitterEvents({ agent: 'claude-code', host: 'host-a', time: '2026-07-03T10:00:00Z' });
const { event: ev, source: SRC } = claude;

/** A request whose prompt is `promptChars` long: about 2 × promptChars bytes. */
const request = (id: string, seq: number, promptChars: number, session = 's1') =>
  claude.request(id, seq, { prompt: 'p'.repeat(promptChars) }, { session });
const resolved = (id: string, subject: string, seq: number, session = 's1') => claude.resolved(id, subject, seq, 'dismissed', { session });
const progress = (id: string, seq: number, session: string, padChars = 0) =>
  claude.status(id, seq, { session, ...(padChars > 0 ? { extensions: { note: 'n'.repeat(padChars) } } : {}) });

const problemOf = (outcome: ApplyOutcome) => (outcome.applied ? outcome.problem : undefined);

describe('Inbox timelines hold envelopes, not payloads', () => {
  test('data is left out of the timeline; the item keeps the whole request; cause still resolves', () => {
    const inbox = new Inbox();
    const big = request('R1', 0, 6_000);
    const answer = ev({ id: 'A1', type: 'attention.answered', subject: 'R1', cause: 'R1', seq: 1, extensions: { acmeregion: 'eu-1' }, data: { answer: { text: 't'.repeat(5_000) } } });
    inbox.apply(big);
    inbox.apply(answer);
    const timeline = inbox.timeline(SRC, 's1');
    assert.deepEqual(timeline.map((e) => [e.id, e.type, e.seq, 'data' in e]), [
      ['R1', 'attention.requested', 0, false],
      ['A1', 'attention.answered', 1, false],
    ]);
    assert.equal(timeline[1]?.['acmeregion'], 'eu-1', 'extension attributes stay (AEP-0001 §5.4)');
    assert.equal(timeline[1]?.subject, 'R1');
    assert.equal(inbox.resolveCause(answer)?.id, 'R1');
    const item = inbox.findRequest('s1', 'R1', SRC);
    assert.equal(item?.requestEvent, big, 'the item holds the request as it came');
    assert.equal(item?.request?.prompt.length, 6_000);
    assert.equal(item?.answer?.text?.length, 5_000);
    // What the inbox counts: both events in full on the item, and the timeline without the payloads.
    const stats = inbox.stats();
    assert.equal(stats.openBytes, ITEM_BYTES + approximateBytes(big) + approximateBytes(answer));
    assert.equal(stats.bytes - stats.openBytes, 2 * TIMELINE_ENTRY_BYTES + approximateBytes(envelopeOf(big)) + approximateBytes(envelopeOf(answer)));
    assert.ok(stats.bytes - stats.openBytes < 2 * KB, `timeline bytes ${stats.bytes - stats.openBytes}`);
  });
});

describe('Inbox memory budget', () => {
  test('an answer and each routing count toward their request', () => {
    const inbox = new Inbox();
    inbox.apply(request('R1', 0, 100));
    const base = inbox.stats().openBytes;
    const routed = ev({ id: 'T1', type: 'attention.routed', subject: 'R1', source: 'aep://relay/agent/telegram-sink', agent: 'telegram-sink', data: { to: 'phone' } });
    inbox.apply(routed);
    assert.deepEqual(inbox.findRequest('s1', 'R1', SRC)?.routedBy, ['telegram-sink']);
    assert.equal(inbox.stats().openBytes, base + approximateBytes('telegram-sink'));
    const answer = ev({ id: 'A1', type: 'attention.answered', subject: 'R1', cause: 'R1', seq: 1, data: { answer: { text: 'yes' } } });
    inbox.apply(answer);
    assert.equal(inbox.stats().openBytes, base + approximateBytes('telegram-sink') + approximateBytes(answer));
    inbox.apply(resolved('S1', 'R1', 2));
    assert.equal(inbox.stats().openBytes, 0, 'closed: no longer open bytes');
  });

  test('a later answer replaces the one counted for its request', () => {
    const inbox = new Inbox();
    inbox.apply(request('R1', 0, 100));
    const base = inbox.stats().openBytes;
    inbox.apply(ev({ id: 'A1', type: 'attention.answered', subject: 'R1', cause: 'R1', seq: 1, data: { answer: { text: 'y'.repeat(2_000) } } }));
    const second = ev({ id: 'A2', type: 'attention.answered', subject: 'R1', cause: 'R1', seq: 2, data: { answer: { text: 'no' } } });
    inbox.apply(second);
    assert.equal(inbox.findRequest('s1', 'R1', SRC)?.answeredEvent, second);
    assert.equal(inbox.stats().openBytes, base + approximateBytes(second));
  });

  test('past the budget a new request is refused as a problem, open requests are kept, and room frees as they close', () => {
    const inbox = new Inbox({ maxBytes: 64 * KB });
    const outcomes = Array.from({ length: 8 }, (_, i) => inbox.apply(request(`R${i}`, i, 4 * KB)));
    const accepted = outcomes.filter((outcome) => problemOf(outcome) === undefined).length;
    // Each request holds about 8 KB of prompt (two bytes a character) plus overhead: six fit in 64 KB.
    assert.equal(accepted, 6);
    assert.equal(inbox.open().length, 6);
    assert.match(
      problemOf(outcomes[6]!) ?? '',
      /^claude-code's request R6 in session s1 was not added: the inbox holds 5\d KiB of open requests, and its memory budget is 64 KiB\. Answer some, or narrow the filter$/,
    );
    assert.ok(inbox.stats().openBytes <= 64 * KB);
    inbox.apply(resolved('S0', 'R0', 20));
    // Room for R9, once the closed R0 is forgotten to make it (that is said, see below).
    assert.doesNotMatch(problemOf(inbox.apply(request('R9', 21, 4 * KB))) ?? '', /not added/);
    assert.deepEqual(inbox.open().map((item) => item.requestId), ['R1', 'R2', 'R3', 'R4', 'R5', 'R9']);
  });

  test('closed requests go first, longest closed first, with one notice; open ones stay', () => {
    const inbox = new Inbox({ maxBytes: 64 * KB, now: () => 0 });
    inbox.apply(request('OPEN', 0, 4 * KB));
    for (let i = 1; i <= 4; i++) {
      inbox.apply(request(`C${i}`, 2 * i, 4 * KB));
      inbox.apply(resolved(`S${i}`, `C${i}`, 2 * i + 1));
    }
    assert.equal(inbox.stats().items, 5);
    const notices: string[] = [];
    for (let i = 0; i < 3; i++) {
      const problem = problemOf(inbox.apply(request(`N${i}`, 100 + i, 4 * KB)));
      if (problem !== undefined) notices.push(problem);
    }
    assert.deepEqual(inbox.open().map((item) => item.requestId), ['OPEN', 'N0', 'N1', 'N2']);
    const kept = ['C1', 'C2', 'C3', 'C4'].map((id) => inbox.findRequest('s1', id, SRC) !== undefined);
    const forgotten = kept.indexOf(true);
    assert.ok(forgotten >= 1, `some closed requests were forgotten: ${kept.join(', ')}`);
    assert.deepEqual(kept.slice(forgotten), kept.slice(forgotten).map(() => true), `the longest closed went first: ${kept.join(', ')}`);
    assert.equal(notices.length, 1, notices.join('\n'));
    assert.match(notices[0] ?? '', new RegExp(`^the inbox passed its memory budget of 64 KiB \\(open requests hold \\d+ KiB, kept in full\\), so it forgot ${forgotten} closed requests$`));
    assert.ok(inbox.stats().bytes <= 64 * KB, `bytes ${inbox.stats().bytes}`);
  });

  test('then lifecycle events waiting for their request, then history of quiet sessions; resume positions stay', () => {
    let now = 0;
    const inbox = new Inbox({ maxBytes: 64 * KB, now: () => now });
    // Session "busy" keeps an open request; "quiet" only has history; parked events wait for R-late.
    inbox.apply(request('KEEP', 0, 2 * KB, 'busy'));
    for (let i = 1; i <= 5; i++) inbox.apply(progress(`B${i}`, i, 'busy', KB));
    for (let i = 0; i < 10; i++) inbox.apply(progress(`Q${i}`, i, 'quiet', KB));
    inbox.apply(resolved('EARLY', 'R-late', 50, 'elsewhere'));
    assert.equal(inbox.stats().parked, 1);
    const before = inbox.stats();
    assert.ok(before.bytes < 64 * KB, `bytes ${before.bytes}`);

    now = 1;
    // A burst of history in a third session pushes past the budget.
    const notices: string[] = [];
    for (let i = 0; i < 12; i++) {
      const problem = problemOf(inbox.apply(progress(`L${i}`, i, 'loud', 2 * KB)));
      if (problem !== undefined) notices.push(problem);
    }
    assert.equal(inbox.stats().parked, 0, 'parked events went before any history');
    assert.equal(inbox.timeline(SRC, 'quiet').length, 0, 'the quiet session lost its history');
    assert.equal(inbox.timeline(SRC, 'busy').length, 6, 'the session with an open request kept its history');
    assert.equal(inbox.open().length, 1);
    assert.deepEqual(resumePosition(inbox, 'quiet', SRC), { session: 'quiet', epoch: 0, seq: 9 }, 'the resume position outlives the history');
    assert.ok(inbox.stats().bytes <= 64 * KB);
    assert.equal(notices.length, 1, notices.join('\n'));
    assert.match(notices[0]!, /forgot 1 lifecycle events still waiting for their request, the recent history of \d+ sessions \(used to follow cause links\)$/);
  });

  test('notices are folded together for a minute', () => {
    let now = 0;
    const inbox = new Inbox({ maxBytes: 32 * KB, now: () => now });
    const noticesAt: number[] = [];
    for (let i = 0; i < 200; i++) {
      now = i * 1_000;
      if (problemOf(inbox.apply(progress(`E${i}`, i, `s${i}`, 2 * KB))) !== undefined) noticesAt.push(now);
    }
    assert.ok(noticesAt.length >= 3, `${noticesAt.length} notices`);
    for (let i = 1; i < noticesAt.length; i++) assert.ok(noticesAt[i]! - noticesAt[i - 1]! >= 60_000, noticesAt.join(', '));
  });

  test('the totals follow every store and release: a long mixed run adds up, and stays within the budget', () => {
    const inbox = new Inbox({ maxBytes: 256 * KB, maxClosed: 50, maxParked: 20, timelineLimit: 20, maxSessions: 30 });
    const pad = (n: number, width: number) => String(n).padStart(width, '0');
    const sessions = Array.from({ length: 37 }, (_, i) => `s${pad(i, 2)}`);
    const requests: AepEvent[] = [];
    // Fixed-width ids, so every parked event is the same size: a resolution of a request that never
    // comes (Q…), or of one refused for the budget (R…).
    const parkedSize = approximateBytes(resolved('X0000', 'Q0000', 1, 's00'));
    const expected = () => {
      let bytes = inbox.stats().parked * parkedSize;
      for (const request of requests) {
        const item = inbox.findRequest(request.session ?? '', request.id, SRC);
        if (item) bytes += ITEM_BYTES + approximateBytes(item.requestEvent);
      }
      for (const session of sessions) {
        for (const event of inbox.timeline(SRC, session)) bytes += TIMELINE_ENTRY_BYTES + approximateBytes(event);
      }
      return bytes;
    };
    for (let i = 0; i < 3_000; i++) {
      const session = sessions[i % sessions.length]!;
      const id = pad(i, 4);
      const made = request(`R${id}`, 3 * i, 200 + (i % 7) * 300, session);
      requests.push(made);
      inbox.apply(made);
      if (i % 5 === 0) inbox.apply(resolved(`X${id}`, `Q${id}`, 3 * i + 1, session));
      if (i % 3 !== 0) inbox.apply(resolved(`S${id}`, `R${id}`, 3 * i + 2, session));
      const stats = inbox.stats();
      assert.ok(stats.bytes <= 256 * KB, `after ${i}: ${stats.bytes}`);
      if (i % 250 === 0) assert.equal(stats.bytes, expected(), `after ${i}`);
    }
    assert.equal(inbox.stats().bytes, expected());
    // One position each: a second event at a taken position is not applied (AEP-0001 §7.2).
    for (const [n, item] of inbox.open().entries()) inbox.apply(resolved(`Z${item.requestId}`, item.requestId, 1_000_000 + n, item.session));
    assert.equal(inbox.stats().openBytes, 0);
    assert.equal(inbox.stats().bytes, expected());
  });

  test('a request larger than the whole budget is refused, and nothing else is lost for it', () => {
    const inbox = new Inbox({ maxBytes: 8 * KB });
    inbox.apply(request('SMALL', 0, 100));
    const huge = request('HUGE', 1, 6_000);
    assert.ok(approximateBytes(huge) > 8 * KB, 'on its own over the budget');
    assert.match(problemOf(inbox.apply(huge)) ?? '', /^claude-code's request HUGE in session s1 was not added: the inbox holds 1 KiB of open requests/);
    assert.deepEqual(inbox.open().map((item) => item.requestId), ['SMALL']);
    assert.deepEqual(inbox.timeline(SRC, 's1').map((e) => e.id), ['SMALL', 'HUGE'], 'its envelope is history like any event');
  });
});
