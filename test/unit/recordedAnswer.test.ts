// What became of a request, as the agent recorded it (src/inbox/recordedAnswer.ts
// and the status every surface shows, src/shared/shownStatus.ts): the events
// go through the real inbox, so the cause (and the ack it may name) is read as
// the page and the History read it.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Answer } from '../../src/aep/attention';
import type { AepEvent } from '../../src/aep/envelope';
import { Inbox, type AttentionItem } from '../../src/inbox/inbox';
import { recordedAnswer, sameDecision, type SentAnswer } from '../../src/inbox/recordedAnswer';
import { shownStatus, statusKey, type OurAnswer } from '../../src/shared/shownStatus';
import { requestEvent, sessionEvent } from '../support/pageRequests';

const REQUEST = 'REQ-1';
const OURS = 'CMD-ours';

/** A permission request with Allow and Deny, and the events that follow it, through one inbox. */
function world() {
  const inbox = new Inbox();
  let seq = 1;
  const apply = (event: AepEvent) => assert.ok(inbox.apply(event).applied, `${event.type} was applied`);
  apply(requestEvent({ kind: 'permission', prompt: 'Run terraform destroy?', options: [{ id: 'allow', label: 'Allow' }, { id: 'deny', label: 'Deny' }] }, { id: REQUEST, seq: seq++ }));
  const item = (): Readonly<AttentionItem> => {
    const found = inbox.findRequest('s1', REQUEST);
    assert.ok(found);
    return found;
  };
  return {
    item,
    accepted(commandId: string, id = `ACK-${commandId}`) {
      apply(sessionEvent('control.accepted', { id, seq: seq++, cause: commandId, data: {} }));
      return id;
    },
    answered(answer: Answer, data: { via?: string; by?: string; cause?: string } = {}) {
      const { cause, ...rest } = data;
      apply(sessionEvent('attention.answered', { seq: seq++, subject: REQUEST, ...(cause !== undefined ? { cause } : {}), data: { answer, ...rest } }));
      return item();
    },
    resolved(resolution: string, cause?: string) {
      apply(sessionEvent('attention.resolved', { seq: seq++, subject: REQUEST, ...(cause !== undefined ? { cause } : {}), data: { resolution } }));
      return item();
    },
    /** A command another consumer sent into the session (seq-less, its own source, AEP-0001 §5.2). */
    foreignCommand(id: string, agent: string) {
      apply(sessionEvent('control.attention.respond', { id, agent, source: `aep://elsewhere/agent/${agent}`, subject: REQUEST, cause: REQUEST, data: { answer: { option: 'deny' } } }));
    },
  };
}

const sentAllow: SentAnswer[] = [{ commandId: OURS, answer: { option: 'allow' } }];
const shown = (item: Readonly<AttentionItem>, sent: readonly SentAnswer[], ours: OurAnswer) =>
  shownStatus(item.status, { resolution: item.resolution, ours, recorded: recordedAnswer(item, sent).verdict });

describe('what the agent recorded, against what was sent from here', () => {
  test('allow, accepted, then the agent records deny out of band: the recorded answer, said to differ, never "resolved" with ours', () => {
    const w = world();
    w.accepted(OURS);
    w.answered({ option: 'deny' }, { via: 'oob', cause: OURS });
    const item = w.resolved('answered');
    assert.deepEqual(recordedAnswer(item, sentAllow), { verdict: 'differs', answer: { option: 'deny' }, via: 'oob' });
    const status = shown(item, sentAllow, 'accepted');
    assert.deepEqual(status, { kind: 'resolved', by: 'here', resolution: 'answered', differs: true });
    assert.equal(statusKey(status), 'recorded-differs');
  });

  test('the same answer by another channel differs too: ours went by control', () => {
    const w = world();
    const item = w.answered({ option: 'allow' }, { via: 'oob', cause: OURS });
    assert.equal(recordedAnswer(item, sentAllow).verdict, 'differs');
  });

  test('a matching record, cause-linked to our command or to its ack (AEP-0004 §6), is ours as sent', () => {
    const direct = world();
    direct.accepted(OURS);
    direct.answered({ option: 'allow' }, { via: 'control', cause: OURS });
    const item = direct.resolved('answered');
    assert.deepEqual(recordedAnswer(item, sentAllow), { verdict: 'as-sent' });
    assert.deepEqual(shown(item, sentAllow, 'accepted'), { kind: 'resolved', by: 'here', resolution: 'answered' });

    const viaAck = world();
    const ack = viaAck.accepted(OURS);
    const answered = viaAck.answered({ option: 'allow' }, { via: 'control', cause: ack });
    assert.deepEqual(answered.answeredCauses, [ack, OURS]);
    assert.equal(recordedAnswer(answered, sentAllow).verdict, 'as-sent');
  });

  test('a record whose cause is not one of our commands is answered elsewhere, even after ours was accepted', () => {
    const w = world();
    w.accepted(OURS);
    w.answered({ option: 'allow' }, { via: 'control', by: 'human:bob', cause: 'CMD-other-window' });
    const item = w.resolved('answered');
    assert.deepEqual(recordedAnswer(item, sentAllow), { verdict: 'elsewhere', answer: { option: 'allow' }, via: 'control', by: 'human:bob' });
    const status = shown(item, sentAllow, 'accepted');
    assert.equal(status.kind === 'resolved' && status.by, 'elsewhere');
    assert.equal(statusKey(status), 'answered-elsewhere');
    // No cause at all names no command of ours either.
    const uncaused = world().answered({ option: 'allow' }, { via: 'control' });
    assert.equal(recordedAnswer(uncaused, sentAllow).verdict, 'elsewhere');
  });

  test('resolved "cancelled" with no answer from anyone ends unanswered, whatever was sent, and says who when the cause names another emitter', () => {
    for (const ours of ['none', 'accepted'] as const) {
      const w = world();
      const item = w.resolved('cancelled');
      const sent = ours === 'accepted' ? sentAllow : [];
      assert.deepEqual(recordedAnswer(item, sent), { verdict: 'none' });
      const status = shown(item, sent, ours);
      assert.deepEqual(status, { kind: 'unanswered', ending: 'other', resolution: 'cancelled' });
      assert.equal(statusKey(status), 'resolved-unanswered');
    }
    const dismissed = world().resolved('dismissed');
    assert.deepEqual(shown(dismissed, [], 'none'), { kind: 'unanswered', ending: 'dismissed', resolution: 'dismissed' });
    // `answered` with no record seen: someone answered it, and it was not us.
    assert.equal(statusKey(shown(world().resolved('answered'), [], 'none')), 'answered-elsewhere');

    const w = world();
    w.foreignCommand('CMD-cancel', 'ops-console');
    const item = w.resolved('cancelled', 'CMD-cancel');
    assert.deepEqual(recordedAnswer(item, []), { verdict: 'none', endedBy: 'ops-console' });
  });
});

describe('the same decision', () => {
  const fields = [
    { id: 'name', label: 'Name', required: true, type: 'string' as const },
    { id: 'db', label: 'Database', required: false, type: 'select' as const, multi: false, other: true, choices: [{ id: 'pg', label: 'Postgres' }, { id: 'my', label: 'MySQL' }] },
  ];

  test('option and closed choices decide; free text is left out (down-levelled, redacted or masked on the way)', () => {
    assert.ok(sameDecision({ option: 'deny', text: 'not now' }, { option: 'deny', text: '[REDACTED:secret]' }, []));
    assert.ok(!sameDecision({ option: 'allow' }, { option: 'deny' }, []));
    // Text the agent mapped to an option (AEP-0008) is the option it applied: not what was sent.
    assert.ok(!sameDecision({ text: 'yes' }, { option: 'allow' }, []));
    assert.ok(sameDecision({ values: { name: 'billing', db: 'pg' } }, { values: { db: 'pg' } }, fields));
    assert.ok(!sameDecision({ values: { name: 'billing', db: 'pg' } }, { values: { name: 'billing', db: 'my' } }, fields));
    assert.ok(sameDecision({ values: { db: 'Aurora' } }, { values: { db: 'Aurora, redacted' } }, fields), 'other text is free text');
  });
});
