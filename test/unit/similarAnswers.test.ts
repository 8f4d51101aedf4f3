// Answer Similar's one notification of what became of its answers
// (src/app/answering/similarAnswers.ts), through a recording notify.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AnswerResult } from '../../src/answer/answerPipeline';
import { Inbox, type AttentionItem } from '../../src/inbox/inbox';
import { SimilarAnswers } from '../../src/app/answering/similarAnswers';
import { describeOutcome } from '../../src/words/outcomeMessages';
import { sendKindNote } from '../../src/words/answerOutcomes';
import { requestEvent } from '../support/pageRequests';

/** Three permission requests of one agent, each in a session of its own. */
function requests(): Array<Readonly<AttentionItem>> {
  const inbox = new Inbox({ hub: 'h1' });
  for (const session of ['s1', 's2', 's3']) {
    inbox.apply(requestEvent({ kind: 'permission', prompt: 'Run npm test?', options: [{ id: 'allow', label: 'Allow' }, { id: 'deny', label: 'Deny' }] }, { session, id: `r-${session}` }));
  }
  const open = inbox.open();
  assert.equal(open.length, 3);
  return open;
}

test('answers that each followed an unacknowledged one: the group says so once, not after every answer', async () => {
  const items = requests();
  const said: string[] = [];
  const similar = new SimilarAnswers({
    hubs: {
      item: () => undefined,
      // Each request had an earlier answer that got no acknowledgement: this one goes as a new command.
      answer: (_surface, item): AnswerResult => ({ kind: 'sending', outcome: Promise.resolve({ kind: 'accepted', commandId: `c-${item.key}` }), unacknowledged: { commandId: `old-${item.key}` } }),
      resend: () => Promise.reject(new Error('no Send Again here')),
    },
    notify: (_severity, message) => {
      said.push(message);
      return Promise.resolve(undefined);
    },
    open: () => {},
  });
  await similar.answerAll(items, { option: 'deny' });
  assert.equal(said.length, 1);
  const agent = items[0]?.agent ?? '';
  const note = sendKindNote({ unacknowledged: {} }, agent, false) ?? '';
  assert.ok(note.length > 0);
  assert.equal(said[0]?.split(note).length, 2, `the sentence once: ${said[0]}`);
  assert.ok(said[0]?.includes(describeOutcome({ kind: 'accepted', commandId: 'x' }, agent).message));
});
