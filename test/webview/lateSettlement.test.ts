// An answer that got no acknowledgement, then settled after all (a late ack,
// a late refusal by the hub, AEP-0004 §4.2): on the real page in headless
// Chromium, the host's late outcome replaces "no acknowledgement" and its
// Send again, which has nothing left to send.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Answer } from '../../src/aep/attention';
import { Inbox } from '../../src/inbox/inbox';
import { pageRequest } from '../../src/app/page/pageContent';
import { outcomeMessage, sendingMessage } from '../../src/words/answerOutcomes';
import { chromiumSuite } from '../support/harness';
import { goldenForm } from '../support/pageRequests';
import { requestPages, type WebviewPage } from '../support/webviewHarness';

function goldenRequest() {
  const inbox = new Inbox();
  inbox.apply(goldenForm());
  const [item] = inbox.open();
  assert.ok(item?.request);
  return { item, fieldIds: item.request.fields.map((field) => field.id), view: pageRequest(item, { state: 'reachable', accepts: ['control.attention.respond'], ackWindowMs: 10_000 }) };
}

function retryOffered(page: WebviewPage): Promise<boolean> {
  return page.page.evaluate(() => {
    const retry = document.getElementById('retry') as (HTMLElement & { disabled: boolean }) | null;
    return retry !== null && !retry.hidden && !retry.disabled;
  });
}

describe('request page: an answer that settles after its ack window', chromiumSuite(), () => {
  const { open } = requestPages();
  const { item, fieldIds, view } = goldenRequest();

  /** The person answers; the host says it is sending, then that no acknowledgement came (Send again offered). */
  async function timedOutOn(page: WebviewPage): Promise<string> {
    await page.page.keyboard.type('billing-api');
    await page.page.keyboard.press('Enter');
    const submit = await page.waitForPosted((m) => m['type'] === 'submit');
    const submitId = String(submit['submitId']);
    assert.ok((submit['answer'] as Answer | undefined) !== undefined);
    await page.post(sendingMessage(submitId, item.agent, true));
    await page.post(outcomeMessage(submitId, { kind: 'timeout', commandId: 'C1', afterMs: 10_000 }, item.agent, fieldIds));
    await page.page.locator('#retry').waitFor({ state: 'visible' });
    return submitId;
  }

  test('a late no-route: the page says not delivered, with the reason, and no longer offers Send again', async () => {
    const page = await open(view);
    await timedOutOn(page);
    // As RequestPageController does on onDidSettleLater: the outcome under the command id.
    await page.post(outcomeMessage('C1', { kind: 'refused-by-hub', commandId: 'C1', code: 'no-route', detail: 'no claimant' }, item.agent, fieldIds));
    await page.page.waitForFunction(() => /did not deliver/.test(document.getElementById('outcome')?.textContent ?? ''));
    assert.equal(await retryOffered(page), false, 'nothing is left to send again');
    assert.match(await page.page.locator('#outcome').innerText(), /no-route\): no claimant/);
  });

  test('a refusal made here before sending leaves the earlier answer\'s Send again as it was', async () => {
    const page = await open(view);
    await timedOutOn(page);
    await page.post({ type: 'outcome', submitId: 'submit-2', phase: 'cancelled', message: 'Not sent: the request cannot be read.' });
    await page.page.waitForFunction(() => /Not sent/.test(document.getElementById('outcome')?.textContent ?? ''));
    assert.equal(await retryOffered(page), true);
  });
});
