// One answer per request at a time (issue 26), in the REAL VS Code workbench
// (code-server) with the extension installed from its VSIX, against the local
// hub. The agent is a bare WebSocket peer that is slow to acknowledge: it acks
// only when the test says so. The person answers Allow in the quick input,
// then runs Answer Next again: the request does not come back, the refusal
// says why, and the agent has received exactly one command; the refusal's
// Send Again repeats that command under its own id. Once the agent
// refuses that answer (control.rejected), a different answer may go.
// Screenshots go to out/e2e/doubled-answer-*.png.
import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { freshSession, makeEvent } from '../../support/events';
import { WsPeer, type Received } from '../../support/wsPeer';
import type { Scenario } from './scenario';
import { filterQuickInputTo, quickInput, waitForQuickInputTitle, waitForStatus } from '../workbenchPage';

const AGENT = 'e2e-slow-ack-agent';

const isRespond = (r: Received) => r.value['type'] === 'control.attention.respond';

async function answerNext(page: Page): Promise<void> {
  await page.keyboard.press('Control+K');
  await page.keyboard.press('a');
}

/** Filters the quick input to the row reading `label` and presses Enter. */
async function pickRow(page: Page, text: string, label: RegExp): Promise<void> {
  await filterQuickInputTo(page, text, label);
  await page.keyboard.press('Enter');
}

export const doubledAnswer: Scenario = {
  name: 'doubled-answer',
  title: 'an answer awaiting its ack: Answer Next does not bring the request back, and the agent gets one command',
  run: async ({ hub, page, shot, token: TOKEN }, t) => {
    let agent: WsPeer | undefined;
    try {
      // A long ack window: the answer stays in flight until this test acks it.
      const peer = await WsPeer.connect(hub.url, {
        token: TOKEN, role: 'both', agent: AGENT, capabilities: { control: { accepts: ['control.attention.respond'], ack_window_ms: 120_000 } },
      });
      agent = peer;
      const session = freshSession('doubled');
      let seq = 1;
      const PROMPT = 'Push to the release branch';
      const request = makeEvent('attention.requested', session, seq++, {
        capture: 'redacted', severity: 'notice',
        data: { kind: 'permission', prompt: PROMPT, options: [{ id: 'allow', label: 'Allow' }, { id: 'deny', label: 'Deny' }], respond_via: ['control'] },
      }, AGENT);
      peer.send(request);
      const requestId = String(request['id']);
      await page.locator('.notifications-toasts .notification-toast', { hasText: PROMPT }).first().waitFor({ state: 'visible', timeout: 60_000 });

      // 1. Allow, from the quick input. No ack comes.
      await answerNext(page);
      await waitForQuickInputTitle(page, new RegExp(`${AGENT} · permission: ${PROMPT}`));
      await pickRow(page, 'allow', /^Allow$/);
      const first = (await peer.waitFor(isRespond, 30_000)).value;
      assert.equal(first['subject'], requestId);
      assert.deepEqual(first['data'], { answer: { option: 'allow' } });
      await quickInput(page).waitFor({ state: 'hidden', timeout: 15_000 });

      // 2. Answer Next again: the refusal in words, no quick input, nothing sent.
      await answerNext(page);
      const refusal = page.locator('.notifications-toasts .notification-toast', { hasText: 'your earlier answer is still waiting for' }).first();
      await refusal.waitFor({ state: 'visible', timeout: 30_000 });
      await shot('1-refused');
      t.diagnostic(`refusal: ${JSON.stringify(await refusal.innerText())}`);
      assert.equal(await quickInput(page).isVisible(), false, 'the request did not come back in the quick input');
      assert.equal(peer.received.filter(isRespond).length, 1, 'one command reached the agent');

      // 3. The refusal offers what its words name: Send Again is the same command, under the same id (AEP-0004 §2).
      assert.deepEqual(await refusal.getByRole('button').filter({ hasText: /\S/ }).allInnerTexts(), ['Send Again', 'Open']);
      await refusal.getByRole('button', { name: 'Send Again' }).click();
      await peer.waitFor(() => peer.received.filter(isRespond).length === 2, 30_000);
      const again = peer.received.filter(isRespond)[1]!.value;
      assert.equal(again['id'], first['id'], 'Send Again repeats the same command id');
      assert.deepEqual(again['data'], first['data']);

      // 4. The agent refuses the first answer: now a different one may go, and it is a new command.
      peer.send(makeEvent('control.rejected', session, seq++, { cause: String(first['id']), capture: 'metadata', data: { reason: 'policy', detail: 'not on Fridays' } }, AGENT));
      await page.locator('.notifications-toasts .notification-toast', { hasText: 'not on Fridays' }).first().waitFor({ state: 'visible', timeout: 30_000 });
      await answerNext(page);
      await waitForQuickInputTitle(page, new RegExp(`${AGENT} · permission: ${PROMPT}`));
      await pickRow(page, 'deny', /^Deny$/);
      await peer.waitFor(() => peer.received.filter(isRespond).length === 3, 30_000);
      const second = peer.received.filter(isRespond)[2]!.value;
      assert.equal(second['subject'], requestId);
      assert.deepEqual(second['data'], { answer: { option: 'deny' } });
      assert.notEqual(second['id'], first['id'], 'a different answer is a new command');
      peer.send(makeEvent('control.accepted', session, seq++, { cause: String(second['id']), capture: 'metadata' }, AGENT));
      peer.send(makeEvent('attention.resolved', session, seq++, { subject: requestId, capture: 'metadata', data: { resolution: 'answered' } }, AGENT));
      await waitForStatus(page, /0 requests wait for you\./);
      assert.equal(peer.received.filter(isRespond).length, 3, 'no command beyond the first, its repeat and the different answer');
    } finally {
      await agent?.close();
    }
  },
};
