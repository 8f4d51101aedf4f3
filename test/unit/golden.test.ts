// The consumer obligations of the AEP golden corpus (AEP-0001 §7/§10): every
// line applies, a duplicate replay changes nothing, the attention arcs derive,
// foreign seq-less events keep arrival order, and cause edges resolve.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { validateFormValues } from '../../src/aep/formValidation';
import type { AepEvent } from '../../src/aep/envelope';
import { Inbox, type InboxChange } from '../../src/inbox/inbox';
import { goldenEvents } from '../support/fixtures';
import { resumePositions } from '../support/resumePositions';

const HOST_A_CC = 'aep://host-a/agent/claude-code/session/s_8f2c';
const FORM_SOURCE = 'aep://host-a/agent/claude-code/session/s_form';

function applyAll(inbox: Inbox, events: readonly AepEvent[]) {
  return events.map((event) => inbox.apply(event));
}

function snapshot(inbox: Inbox, events: readonly AepEvent[]) {
  const sessions = [...new Set(events.filter((e) => e.session && e.seq !== undefined).map((e) => `${e.source}|${e.session}`))];
  return {
    open: inbox.open().map((item) => ({ ...item })),
    positions: resumePositions(inbox, events),
    timelines: sessions.map((key) => {
      const [source = '', session = ''] = key.split('|');
      return inbox.timeline(source, session).map((e) => e.id);
    }),
    stats: inbox.stats(),
  };
}

describe('golden corpus, consumer obligations', () => {
  const events = goldenEvents();

  test('every line applies, and every session event is kept in a session view', () => {
    const inbox = new Inbox();
    const outcomes = applyAll(inbox, events);
    assert.equal(outcomes.length, 64);
    outcomes.forEach((outcome, index) => {
      assert.equal(outcome.applied, true, `line ${index + 1} was not applied`);
      assert.equal('problem' in outcome ? outcome.problem : undefined, undefined, `line ${index + 1} raised a problem`);
    });
    // Session-less (agent-scoped) lines are applied and deduplicated but not kept: nothing in the extension reads them.
    const sessionEvents = events.filter((event) => event.session !== undefined);
    assert.equal(sessionEvents.length, 60);
    const kept = new Set<string>();
    for (const event of sessionEvents) {
      const views = [...new Set(events.filter((e) => e.session === event.session).map((e) => e.source))].map((source) =>
        inbox.timeline(source, event.session ?? ''),
      );
      // Views keep envelopes without `data` (payloads live on the items), so compare by (source, id).
      if (views.some((view) => view.some((e) => e.source === event.source && e.id === event.id))) kept.add(`${event.source}|${event.id}`);
    }
    assert.equal(kept.size, 60, 'every (source, id) of a session event is present in its session view');
    // The unknown vendor type and the extension attribute survive untouched.
    const vendor = inbox.timeline(HOST_A_CC, 's_8f2c').find((e) => e.type === 'x.claude-code.session.config_change');
    assert.ok(vendor);
    const started = inbox.timeline(HOST_A_CC, 's_8f2c').find((e) => e.type === 'session.started');
    assert.equal(started?.['acmeregion'], 'eu-1');
  });

  test('the same id from two sources is two events (dedupe key is (source, id))', () => {
    const inbox = new Inbox();
    applyAll(inbox, events);
    const a = inbox.timeline('aep://host-c/agent/alpha-agent/session/s_dup_a', 's_dup_a');
    const b = inbox.timeline('aep://host-d/agent/beta-agent/session/s_dup_b', 's_dup_b');
    assert.deepEqual([a.length, b.length], [1, 1]);
    assert.equal(a[0]?.id, b[0]?.id);
    const sharedA = inbox.timeline('aep://host-c/agent/alpha-agent/session/s_shared', 's_shared');
    const sharedB = inbox.timeline('aep://host-d/agent/beta-agent/session/s_shared', 's_shared');
    assert.deepEqual([sharedA.length, sharedB.length], [1, 1], 'one session string, two emitter-scoped sessions');
  });

  test('a full duplicate replay changes nothing', () => {
    const inbox = new Inbox();
    applyAll(inbox, events);
    const before = snapshot(inbox, events);
    const changes: InboxChange[] = [];
    inbox.onDidChange((change) => changes.push(change));
    const outcomes = applyAll(inbox, events);
    assert.ok(outcomes.every((outcome) => !outcome.applied && outcome.reason === 'duplicate'));
    assert.deepEqual(snapshot(inbox, events), before);
    assert.equal(changes.length, 0);
  });

  test('the answered, timed-out and form arcs derive', () => {
    const inbox = new Inbox();
    applyAll(inbox, events);
    const permission = inbox.findRequest('s_8f2c', '01JX9YB4RQ000000000000GOLD', HOST_A_CC);
    assert.equal(permission?.status, 'resolved');
    assert.equal(permission?.resolution, 'answered');
    assert.deepEqual(permission?.answer, { option: 'allow' });
    assert.deepEqual(permission?.routedBy, ['telegram-sink']);

    const forcePush = inbox.findRequest('s_8f2c', '01JX9YBQARQ20000000000GOLD', HOST_A_CC);
    assert.equal(forcePush?.status, 'timed-out');

    const form = inbox.findRequest('s_form', '01JX9YBEFRQ0000000000GOLD3', FORM_SOURCE);
    assert.equal(form?.status, 'resolved');
    assert.equal(form?.resolution, 'answered');
    assert.equal(form?.request?.renderKind, 'form');
    assert.equal(form?.request?.fields.length, 4);
    // The `other` free text is kept, and the whole answer passes the emitter's rules.
    assert.equal(form?.answer?.values?.['db'], 'MariaDB');
    const check = validateFormValues(form?.request?.fields ?? [], form?.answer?.values ?? {});
    assert.equal(check.ok, true);
    assert.equal(inbox.open().length, 0, 'nothing is left pending at the end of the corpus');
  });

  test('foreign seq-less events keep arrival order among the owner stream', () => {
    const inbox = new Inbox();
    applyAll(inbox, events);
    const order = inbox.timeline(HOST_A_CC, 's_8f2c').map((e) => e.id);
    const at = (id: string) => {
      const index = order.indexOf(id);
      assert.notEqual(index, -1, `${id} is in the owner's view`);
      return index;
    };
    // requested(4) < routed < respond < accepted(5) < answered(6) < resolved(7)
    const chain = [
      '01JX9YB4RQ000000000000GOLD',
      '01JX9YB5RT000000000000GOLD',
      '01JX9YB6CMD00000000000GOLD',
      '01JX9YB7ACK00000000000GOLD',
      '01JX9YB8ANS00000000000GOLD',
      '01JX9YB9RSV00000000000GOLD',
    ].map(at);
    assert.deepEqual(chain, [...chain].sort((a, b) => a - b));
    assert.equal(chain[5]! - chain[0]!, 5, 'the chain is contiguous');
    // The cancel command arrived between seq 17 and seq 18.
    assert.equal(at('01JX9YBSCCL00000000000GOLD'), at('01JX9YBRATO00000000000GOLD') + 1);
    assert.equal(at('01JX9YBTACK20000000000GOLD'), at('01JX9YBSCCL00000000000GOLD') + 1);
  });

  test('cause edges resolve, across the control boundary too', () => {
    const inbox = new Inbox();
    applyAll(inbox, events);
    const byId = new Map(events.map((e) => [e.id, e]));
    const cancelled = events.find((e) => e.type === 'run.cancelled');
    assert.equal(inbox.resolveCause(cancelled!)?.type, 'control.cancel');
    let resolved = 0;
    for (const event of events) {
      const target = event.cause === undefined ? undefined : byId.get(event.cause);
      if (!target || target.session !== event.session) continue;
      assert.equal(inbox.resolveCause(event)?.id, event.cause, `cause of ${event.id}`);
      resolved++;
    }
    assert.ok(resolved >= 15, `resolved ${resolved} cause edges`);
  });

  test('backfill in any order derives the same state; answered before requested is applied later', () => {
    const reference = new Inbox();
    applyAll(reference, events);
    const reversed = new Inbox();
    applyAll(reversed, [...events].reverse());
    const form = reversed.findRequest('s_form', '01JX9YBEFRQ0000000000GOLD3', FORM_SOURCE);
    assert.equal(form?.status, 'resolved');
    assert.equal(form?.answer?.values?.['db'], 'MariaDB');
    for (const [source, session] of [
      [HOST_A_CC, 's_8f2c'],
      ['aep://host-a/agent/claude-code/session/s_opt', 's_opt'],
      ['aep://host-a/agent/claude-code/session/s_epoch', 's_epoch'],
    ] as const) {
      const sequenced = (list: AepEvent[]) => list.filter((e) => e.seq !== undefined).map((e) => e.id);
      assert.deepEqual(sequenced(reversed.timeline(source, session)), sequenced(reference.timeline(source, session)), session);
    }
    assert.deepEqual(resumePositions(reversed, events), resumePositions(reference, events));
  });

  test('resume positions: the high water per session, the epoch bump respected', () => {
    const inbox = new Inbox();
    applyAll(inbox, events);
    const positions = new Map(resumePositions(inbox, events).map((p) => [p.session, p]));
    assert.deepEqual(positions.get('s_8f2c'), { session: 's_8f2c', epoch: 0, seq: 20 });
    assert.deepEqual(positions.get('s_epoch'), { session: 's_epoch', epoch: 1, seq: 0 });
    assert.deepEqual(positions.get('s_form'), { session: 's_form', epoch: 0, seq: 2 });
    assert.equal(positions.has('s_dup_a'), true);
  });
});
