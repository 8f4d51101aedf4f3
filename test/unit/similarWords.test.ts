// Answer Similar's words (src/words/similarWords.ts) for groups decided by
// similarRequests.ts, over a real Inbox: an option is named by the words every
// request gives it; withheld labels are said before anything else, where no
// label can push the warning out; a label reading like our own words says
// whose it is.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { similarGroups, type SimilarGroup } from '../../src/answer/similarRequests';
import { Inbox } from '../../src/inbox/inbox';
import { similarConfirmation, similarGroupLabel, similarOptionItems, similarOptionTitle, similarOptionWords } from '../../src/words/similarWords';
import { forSurface } from '../../src/words/untrustedText';
import { emitterEvents, type RequestData } from '../support/events';

function groupOf(requests: Array<{ agent: string; options: RequestData['options']; capture?: 'metadata' | 'redacted' }>): SimilarGroup {
  const inbox = new Inbox({ hub: 'h1' });
  requests.forEach(({ agent, options, capture }, index) => {
    const emitter = emitterEvents({ agent, session: `s${index}`, requestFields: { capture: capture ?? 'redacted', severity: 'notice' } });
    inbox.apply(emitter.request(`r${index}`, 1, { kind: 'permission', prompt: 'Go on?', options }));
  });
  const [group] = similarGroups(inbox.open(), () => true, similarOptionWords);
  assert.ok(group, 'a group');
  return group;
}

test('an option is named by the words every request gives it, then its id', () => {
  const group = groupOf([
    { agent: 'claude-code', options: [{ id: '1', label: 'Yes' }, { id: '2', label: 'No' }] },
    { agent: 'codex', options: [{ id: '2', label: 'NO' }, { id: '1', label: 'Y\u0435s' }] },
  ]);
  assert.deepEqual(similarOptionItems(group).map((item) => [item.label, item.description]), [['Yes', 'id 1'], ['No', 'id 2']]);
  assert.equal(similarOptionTitle(group, 2), 'Answer 2 requests with');
  const [yes] = group.options;
  assert.ok(yes);
  assert.equal(similarConfirmation(group, yes, group.items).message, 'Send "Yes" to 2 requests, one command each (claude-code, codex)?');
  assert.equal(similarConfirmation(group, yes, group.items).action, 'Send 2 Answers');
  assert.equal(similarGroupLabel(group), '2 requests: Yes / No');
});

test('withheld labels: named by place and id, and the pick, the dialog and the list of groups say so before anything else', () => {
  const long = 'x'.repeat(500);
  const group = groupOf([
    { agent: 'a'.repeat(300), options: [{ id: 'allow', label: long }, { id: 'deny', label: 'Deny' }], capture: 'metadata' },
    { agent: 'b', options: [{ id: 'allow', label: 'Allow' }, { id: 'deny', label: 'No' }], capture: 'metadata' },
  ]);
  assert.equal(group.withheld, true);
  assert.deepEqual(similarOptionItems(group).map((item) => item.label), ['Option 1 (allow)', 'Option 2 (deny)']);
  assert.match(similarOptionTitle(group, 2), /^Labels withheld at capture/);
  assert.match(similarGroupLabel(group), /^2 requests, labels withheld at capture: Option 1 \(allow\)/);
  const [allow] = group.options;
  assert.ok(allow);
  // As the modal shows it: capped to the notification message's length.
  const shown = forSurface('notificationMessage', similarConfirmation(group, allow, group.items).message);
  assert.match(shown, /^Labels withheld at capture: this editor cannot show what each agent calls this option\. Send Option 1 \(allow\) to 2 requests/);
});

test('the longest words a group can have are shown whole in the pick and the dialog, with whose they are, and the count after them', () => {
  // Reads like our "Answer {0} Similar…", as long as a group's words may be, with the longest id a pick shows.
  const long = `Answer ${'x'.repeat(140 - 'Answer  Similar…'.length)} Similar…`;
  assert.equal(similarOptionWords(long), long, 'not cut');
  const id = 'i'.repeat(32);
  const group = groupOf([
    { agent: 'a', options: [{ id, label: long }, { id: '2', label: 'No' }] },
    { agent: 'b', options: [{ id, label: long }, { id: '2', label: 'No' }] },
  ]);
  const [first] = group.options;
  assert.ok(first);
  const [item] = similarOptionItems(group);
  assert.equal(forSurface('quickPickLabel', item?.label ?? ''), `${long} (from the agent: id ${id})`);
  const shown = forSurface('notificationMessage', similarConfirmation(group, first, group.items).message);
  assert.equal(shown, `Send "${long} (from the agent: id ${id})" to 2 requests, one command each (a, b)?`);
});

test('an agent\'s option reading like our own words says whose it is in the pick', () => {
  const group = groupOf([
    { agent: 'a', options: [{ id: 'allow_always', label: 'Send 2 Answers' }, { id: 'deny', label: 'Deny' }] },
    { agent: 'b', options: [{ id: 'allow_always', label: 'send 2 answers' }, { id: 'deny', label: 'Deny' }] },
  ]);
  assert.deepEqual(similarOptionItems(group).map((item) => item.label), ['Send 2 Answers (from the agent: id allow_always)', 'Deny']);
});
