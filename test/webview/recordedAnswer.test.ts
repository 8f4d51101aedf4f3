// The request page after the agent's record arrives, on the real page in
// headless Chromium with the test playing the host: the host's message is
// built as RequestPageController builds it (pageRequest with the recorded
// answer, src/inbox/recordedAnswer.ts over a real inbox). An accepted answer
// is not what the agent applied (AEP-0004 §1, AEP-0002 §5.3): the page shows
// the record, and a request ended with no answer never reads "answered".
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { AepEvent } from '../../src/aep/envelope';
import { Inbox } from '../../src/inbox/inbox';
import { recordedAnswer, type SentAnswer } from '../../src/inbox/recordedAnswer';
import { pageRequest } from '../../src/app/page/pageContent';
import { chromiumSuite } from '../support/harness';
import { requestEvent, sessionEvent } from '../support/pageRequests';
import { requestPages } from '../support/webviewHarness';

const REQUEST = 'REQ-recorded';
const reach = { state: 'reachable' as const, accepts: ['control.attention.respond'], ackWindowMs: 10_000 };

/** The host's side: the inbox, and what it posts to the page as the agent's events arrive. */
function host() {
  const inbox = new Inbox();
  let seq = 1;
  const apply = (event: AepEvent) => assert.ok(inbox.apply(event).applied);
  apply(requestEvent({ kind: 'permission', prompt: 'Run terraform destroy on prod?', options: [{ id: 'allow', label: 'Allow' }, { id: 'deny', label: 'Deny' }] }, { id: REQUEST, seq: seq++ }));
  const item = () => inbox.findRequest('s1', REQUEST)!;
  return {
    view: () => pageRequest(item(), reach),
    apply: (type: string, fields: Partial<AepEvent>) => apply(sessionEvent(type, { seq: seq++, subject: REQUEST, ...fields })),
    /** The `update` RequestPageController posts for the item as it is now. */
    update: (sent: readonly SentAnswer[]) => {
      const now = item();
      return { type: 'update' as const, status: now.status, ...(now.resolution ? { resolution: now.resolution } : {}), recorded: recordedAnswer(now, sent), reachability: { state: 'reachable' as const }, now: Date.now() };
    },
  };
}

describe('request page: what the agent recorded', chromiumSuite(), () => {
  const { open } = requestPages();

  test('Allow accepted, then the agent records Deny out of band: the page shows Deny as recorded and says it differs', async () => {
    const h = host();
    const page = await open(h.view());
    const p = page.page;
    await p.locator('vscode-button[data-option="allow"]').click();
    const submit = await page.waitForPosted((m) => m['type'] === 'submit');
    await page.post({ type: 'outcome', submitId: String(submit['submitId']), phase: 'accepted', message: 'claude-code accepted the answer.' });
    const sent: SentAnswer[] = [{ commandId: 'CMD-1', answer: { option: 'allow' } }];
    h.apply('control.accepted', { cause: 'CMD-1', data: {} });
    h.apply('attention.answered', { cause: 'CMD-1', data: { answer: { option: 'deny' }, via: 'oob' } });
    h.apply('attention.resolved', { data: { resolution: 'answered' } });
    await page.post(h.update(sent));
    await p.waitForFunction(() => document.getElementById('status')?.dataset['status'] === 'recorded-differs');
    assert.equal(await p.locator('#status').innerText(), 'Resolved, with an answer that differs from the one you sent (shown below).');
    const recorded = await p.locator('.recorded').innerText();
    assert.match(recorded, /What the agent recorded/);
    assert.match(recorded, /Option\s+Deny/);
    assert.match(recorded, /out of band/);
    assert.match(await p.locator('.summary').innerText(), /What you sent\s+Option\s+Allow/);
  });

  test('ours, with words the record withholds (capture metadata): resolved with our answer, the record shown, and said it cannot be checked', async () => {
    const h = host();
    const page = await open(h.view());
    const p = page.page;
    const sent: SentAnswer[] = [{ commandId: 'CMD-1', answer: { option: 'deny', text: 'not during the freeze' } }];
    h.apply('attention.answered', { cause: 'CMD-1', capture: 'metadata', data: { answer: { option: 'deny' }, via: 'control' } });
    h.apply('attention.resolved', { data: { resolution: 'answered' } });
    await page.post(h.update(sent));
    await p.waitForFunction(() => document.getElementById('status')?.dataset['status'] === 'resolved');
    assert.equal(await p.locator('#status').innerText(), 'Resolved (answered).');
    const recorded = await p.locator('.recorded').innerText();
    assert.match(recorded, /Option\s+Deny/);
    assert.match(recorded, /cannot be checked against what you sent/);
    assert.doesNotMatch(recorded, /not what you sent|not sent from here/);
  });

  test('a request the agent ends "cancelled", with no answer from anyone, says how it ended, never "answered"', async () => {
    const h = host();
    const page = await open(h.view());
    const p = page.page;
    h.apply('attention.resolved', { data: { resolution: 'cancelled' } });
    await page.post(h.update([]));
    await p.waitForFunction(() => document.getElementById('status')?.dataset['status'] === 'resolved-unanswered');
    const status = await p.locator('#status').innerText();
    assert.equal(status, 'The agent ended the request without an answer (cancelled). Nothing more can be sent.');
    assert.doesNotMatch(status, /nswered elsewhere/);
    assert.doesNotMatch(await p.locator('#app').innerText(), /\banswered\b/i, 'no "answered" anywhere on the page, the header included');
  });

  test('a record that is not ours reads "answered elsewhere" even though ours was accepted, and shows what was recorded', async () => {
    const h = host();
    const page = await open(h.view());
    const p = page.page;
    await p.locator('vscode-button[data-option="allow"]').click();
    const submit = await page.waitForPosted((m) => m['type'] === 'submit');
    await page.post({ type: 'outcome', submitId: String(submit['submitId']), phase: 'accepted', message: 'claude-code accepted the answer.' });
    h.apply('attention.answered', { cause: 'CMD-other-window', data: { answer: { option: 'deny' }, via: 'control', by: 'human:bob' } });
    await page.post(h.update([{ commandId: 'CMD-1', answer: { option: 'allow' } }]));
    await p.waitForFunction(() => document.getElementById('status')?.dataset['status'] === 'answered-elsewhere');
    assert.match(await p.locator('#status').innerText(), /^Answered elsewhere/);
    assert.match(await p.locator('.recorded').innerText(), /Option\s+Deny[\s\S]*By\s+human:bob/);
  });
});
