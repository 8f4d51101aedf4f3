// What became of a request, as the agent recorded it (src/inbox/recordedAnswer.ts
// and the status every surface shows, src/shared/shownStatus.ts): the events
// go through the real inbox, so the cause (and the ack it may name) is read as
// the page and the History read it.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Answer } from '../../src/aep/attention';
import type { AepEvent } from '../../src/aep/envelope';
import { Inbox, type AttentionItem } from '../../src/inbox/inbox';
import type { CaptureLevel } from '../../src/aep/levels';
import { compareAnswers, recordedAnswer, type SentAnswer } from '../../src/inbox/recordedAnswer';
import { shownStatus, statusKey, type OurAnswer } from '../../src/shared/shownStatus';
import { requestEvent, sessionEvent } from '../support/pageRequests';
import type { RequestData } from '../support/events';

const REQUEST = 'REQ-1';
const OURS = 'CMD-ours';

const PERMISSION: RequestData = { kind: 'permission', prompt: 'Run terraform destroy?', options: [{ id: 'allow', label: 'Allow' }, { id: 'deny', label: 'Deny' }] };

/** A request (a permission with Allow and Deny unless told), and the events that follow it, through one inbox. */
function world(request: RequestData = PERMISSION) {
  const inbox = new Inbox();
  let seq = 1;
  const apply = (event: AepEvent) => assert.ok(inbox.apply(event).applied, `${event.type} was applied`);
  apply(requestEvent(request, { id: REQUEST, seq: seq++ }));
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
    /** The agent's record, at capture `redacted` unless told (free text is absent at `metadata`, AEP-0001 §8.2). */
    answered(answer: Answer, data: { via?: string; by?: string; cause?: string; capture?: CaptureLevel } = {}) {
      const { cause, capture = 'redacted', ...rest } = data;
      apply(sessionEvent('attention.answered', { seq: seq++, subject: REQUEST, capture, ...(cause !== undefined ? { cause } : {}), data: { answer, ...rest } }));
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

describe('a reply in words is compared too (issue 38 review, d)', () => {
  const INPUT: RequestData = { kind: 'input', prompt: 'Which database should the migration use?' };
  const FORM: RequestData = {
    kind: 'form', prompt: 'Configure the deploy',
    fields: [{ id: 'name', type: 'string', label: 'Service name' }, { id: 'staged', type: 'boolean', label: 'Staged' }],
  };
  const sent = (answer: Answer, masked = false): SentAnswer[] => [{ commandId: OURS, answer, ...(masked ? { masked } : {}) }];
  const verdictOf = (request: RequestData, ours: Answer, recorded: Answer, capture?: CaptureLevel, masked = false) => {
    const item = world(request).answered(recorded, { via: 'control', cause: OURS, ...(capture ? { capture } : {}) });
    return recordedAnswer(item, sent(ours, masked));
  };

  test('words the agent recorded with other words differ, and the page is given the recorded ones', () => {
    assert.deepEqual(verdictOf(INPUT, { text: 'use the staging replica' }, { text: 'use the production primary' }),
      { verdict: 'differs', answer: { text: 'use the production primary' }, via: 'control' });
    // An option with a reason: the same option with another reason is not what was sent.
    assert.equal(verdictOf(PERMISSION, { option: 'deny', text: 'not during the freeze' }, { option: 'deny', text: 'approved by ops' }).verdict, 'differs');
    // A string value of a form is words too.
    assert.equal(verdictOf(FORM, { values: { name: 'billing-api', staged: true } }, { values: { name: 'payroll-api', staged: true } }).verdict, 'differs');
    // Words the agent recorded where none were sent.
    assert.equal(verdictOf(PERMISSION, { option: 'deny' }, { option: 'deny', text: 'approved by ops' }).verdict, 'differs');
    // A record at `redacted` that drops our words is not ours as sent (a hop that strips them says `metadata`).
    assert.equal(verdictOf(PERMISSION, { option: 'deny', text: 'not during the freeze' }, { option: 'deny' }).verdict, 'differs');
  });

  test('the same words recorded are ours as sent', () => {
    assert.deepEqual(verdictOf(INPUT, { text: 'use the staging replica' }, { text: 'use the staging replica' }), { verdict: 'as-sent' });
    assert.deepEqual(verdictOf(FORM, { values: { name: 'billing-api', staged: true } }, { values: { name: 'billing-api', staged: true } }), { verdict: 'as-sent' });
  });

  test('words that cannot be compared are never "as sent": unconfirmed, with the record to show, unless something comparable differs', () => {
    const unconfirmed = (request: RequestData, ours: Answer, recorded: Answer, capture?: CaptureLevel, masked = false) =>
      assert.deepEqual(verdictOf(request, ours, recorded, capture, masked), { verdict: 'unconfirmed', answer: recorded, via: 'control' }, JSON.stringify({ ours, recorded, capture, masked }));
    // Withheld: at capture `metadata` free text is absent (a hop down-levelled the record).
    unconfirmed(INPUT, { text: 'use the staging replica' }, {}, 'metadata');
    unconfirmed(PERMISSION, { option: 'deny', text: 'not during the freeze' }, { option: 'deny' }, 'metadata');
    unconfirmed(FORM, { values: { name: 'billing-api', staged: true } }, { values: { staged: true } }, 'metadata');
    // Redacted on the way: a mark in the record (the agent's pipeline may remove more than ours), or ours through the pipeline.
    unconfirmed(INPUT, { text: 'log in as alice with hunter2hunter2' }, { text: 'log in as alice with [REDACTED:secret]' });
    unconfirmed(INPUT, { text: 'the dump is in /home/alice/dumps' }, { text: 'the dump is in ~/dumps' });
    // Masked where it was kept (the History's copy): even text that reads the same is not compared.
    unconfirmed(INPUT, { text: '[REDACTED:secret]' }, { text: '[REDACTED:secret]' }, undefined, true);
    // What can be compared still decides: another option, or another structural value, differs whatever the text.
    assert.equal(verdictOf(PERMISSION, { option: 'deny', text: 'not now' }, { option: 'allow' }, 'metadata').verdict, 'differs');
    assert.equal(verdictOf(FORM, { values: { name: 'billing-api', staged: true } }, { values: { staged: false } }, 'metadata').verdict, 'differs');
    assert.equal(verdictOf(INPUT, { text: 'use the staging replica' }, { text: 'use the production primary' }, undefined, true).verdict, 'unconfirmed');
  });

  test('a mark does not make other words ours: what is around the marks must be what was sent, in order', () => {
    const ours: Answer = { option: 'deny', text: 'No. Do not touch prod.' };
    const recorded: Answer = { option: 'deny', text: 'Yes go ahead and drop the prod table [REDACTED:pii]' };
    assert.deepEqual(verdictOf(PERMISSION, ours, recorded), { verdict: 'differs', answer: recorded, via: 'control' });
    const sentText = 'log in as alice with hunter2hunter2, then run the job';
    const verdict = (text: string) => verdictOf(INPUT, { text: sentText }, { text }).verdict;
    // Ours with spans replaced, by our kind of mark or another pipeline's.
    assert.equal(verdict('log in as alice with [REDACTED:secret], then run the job'), 'unconfirmed');
    assert.equal(verdict('log in as [REDACTED:pii] with [REDACTED:secret], then run the job'), 'unconfirmed');
    assert.equal(verdict('[REDACTED:credential]'), 'unconfirmed');
    // Words that were never sent, words out of order, or ours cut short around a mark differ.
    assert.equal(verdict('log in as bob with [REDACTED:secret], then run the job'), 'differs');
    assert.equal(verdict('then run the job [REDACTED:secret] log in as alice'), 'differs');
    assert.equal(verdict('[REDACTED:secret], then drop the job'), 'differs');
    // Our own pipeline's other changes (the home) may come with the agent's marks.
    assert.equal(verdictOf(INPUT, { text: 'the dump is in /home/alice/dumps, key hunter2hunter2' }, { text: 'the dump is in ~/dumps, key [REDACTED:secret]' }).verdict, 'unconfirmed');
  });

  test('an unconfirmed record is ours: the status says answered from here, not elsewhere', () => {
    const item = world(INPUT).answered({}, { via: 'control', cause: OURS, capture: 'metadata' });
    const status = shown(item, sent({ text: 'use the staging replica' }), 'none');
    assert.deepEqual(status, { kind: 'answered', by: 'here' });
  });
});

describe('the same decision', () => {
  const fields = [
    { id: 'name', label: 'Name', required: true, type: 'string' as const },
    { id: 'db', label: 'Database', required: false, type: 'select' as const, multi: false, other: true, choices: [{ id: 'pg', label: 'Postgres' }, { id: 'my', label: 'MySQL' }] },
  ];
  const compare = (ours: Answer, recorded: Answer, on: typeof fields | [] = [], withheld = false) => compareAnswers({ commandId: OURS, answer: ours }, recorded, on, { withheld });

  test('option and closed choices decide first; then every free-text part, unknown where it cannot be compared', () => {
    assert.equal(compare({ option: 'deny', text: 'not now' }, { option: 'deny', text: '[REDACTED:secret]' }), 'unknown');
    assert.equal(compare({ option: 'deny', text: 'not now' }, { option: 'deny', text: 'not now' }), 'same');
    assert.equal(compare({ option: 'allow' }, { option: 'deny' }), 'differs');
    // Text the agent mapped to an option (AEP-0008) is the option it applied: not what was sent.
    assert.equal(compare({ text: 'yes' }, { option: 'allow' }), 'differs');
    assert.equal(compare({ values: { name: 'billing', db: 'pg' } }, { values: { db: 'pg' } }, fields, true), 'unknown');
    assert.equal(compare({ values: { name: 'billing', db: 'pg' } }, { values: { db: 'pg' } }, fields), 'differs');
    assert.equal(compare({ values: { name: 'billing', db: 'pg' } }, { values: { name: 'billing', db: 'my' } }, fields), 'differs');
    assert.equal(compare({ values: { db: 'Aurora' } }, { values: { db: 'Aurora' } }, fields), 'same', 'other text is free text');
    assert.equal(compare({ values: { db: 'Aurora' } }, { values: { db: 'Aurora Serverless' } }, fields), 'differs', 'other text is compared');
  });
});
