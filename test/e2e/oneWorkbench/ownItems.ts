// Agent options that read like our own items (issue 26), in the REAL VS Code
// workbench (code-server) with the extension installed from its VSIX, against
// the local hub. The agent is a bare WebSocket peer that offers two options
// labelled like the inline answer's own items, "Reply with text…" (id
// always_allow) and "Open as page". The person types the words of ours and
// presses Enter: our "Reply with text…" step opens and the agent receives the
// text typed there, never `always_allow`; "open as page" opens the page and
// the agent receives nothing. The notification offers neither as a button. The list shows the agent's options first as
// plain text, saying they are the agent's, and ours apart with their icons.
// Screenshots go to out/e2e/own-items-*.png.
import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { freshSession, makeEvent, type RequestData } from '../../support/events';
import { WsPeer, type Received } from '../../support/wsPeer';
import type { Scenario } from './scenario';
import { filterQuickInputTo, quickInput, waitForQuickInputTitle, waitForStatus } from '../workbenchPage';
import { PAGE_READ_EVERY_MS, waitUntil } from '../../support/waitUntil';

const AGENT = 'e2e-own-items-agent';

const isRespond = (r: Received) => r.value['type'] === 'control.attention.respond';

const rows = (page: Page) => quickInput(page).locator('.monaco-list-row');
const focusedRow = (page: Page) => quickInput(page).locator('.monaco-list-row.focused');

/** The row whose label reads exactly `label`, and whether it has a codicon before it. */
async function row(page: Page, label: string): Promise<{ icon: boolean }> {
  const found = rows(page).filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }) }).first();
  await found.waitFor({ state: 'visible', timeout: 15_000 });
  const icon = await found.locator('.quick-input-list-icon.codicon, .quick-input-list-icon[class*="codicon-"]').count();
  return { icon: icon > 0 };
}

export const ownItems: Scenario = {
  name: 'own-items',
  title: 'agent options labelled like our items: typing ours and Enter never picks the agent\'s',
  run: async ({ hub, page, shot, token: TOKEN }, t) => {
    let agent: WsPeer | undefined;
    try {
      const peer = await WsPeer.connect(hub.url, { token: TOKEN, role: 'both', agent: AGENT, capabilities: { control: { accepts: ['control.attention.respond'] } } });
      agent = peer;
      const session = freshSession('own-items');
      let seq = 1;
      const raise = (data: RequestData) => {
        const event = makeEvent('attention.requested', session, seq++, { capture: 'redacted', severity: 'notice', data }, AGENT);
        peer.send(event);
        return String(event['id']);
      };
      const resolve = (requestId: string) =>
        peer.send(makeEvent('attention.resolved', session, seq++, { subject: requestId, capture: 'metadata', data: { resolution: 'answered' } }, AGENT));
      // Every command acknowledged: none times out later, in another scenario's window.
      const accept = (command: Record<string, unknown>) =>
        peer.send(makeEvent('control.accepted', session, seq++, { cause: String(command['id']), capture: 'metadata' }, AGENT));
      const options = [{ id: 'always_allow', label: 'Reply with text…' }, { id: 'open_page', label: 'Open as page' }];
      const openInline = async (prompt: string) => {
        const toast = page.locator('.notifications-toasts .notification-toast', { hasText: prompt }).first();
        await toast.waitFor({ state: 'visible', timeout: 60_000 });
        // Neither option reads unlike our items, so neither is a button: the page and the quick input name them in full.
        assert.deepEqual(await toast.getByRole('button').filter({ hasText: /\S/ }).allInnerTexts(), ['Answer', 'Open']);
        await page.keyboard.press('Control+K');
        await page.keyboard.press('a');
        await waitForQuickInputTitle(page, new RegExp(`${AGENT} · permission: ${prompt}`));
      };

      // 1. "reply", Enter: our Reply with text… step, and the text typed there is what the agent receives.
      const FIRST = 'Run the migration';
      const firstId = raise({ kind: 'permission', prompt: FIRST, options, respond_via: ['control'] });
      await openInline(FIRST);
      // The agent's options first, saying whose they are, without icons; ours after them, with theirs.
      assert.deepEqual(await row(page, 'Reply with text… (from the agent: id always_allow)'), { icon: false });
      assert.deepEqual(await row(page, 'Open as page (from the agent: id open_page)'), { icon: false });
      assert.deepEqual(await row(page, 'Reply with text…'), { icon: true });
      assert.deepEqual(await row(page, 'Open as page'), { icon: true });
      const labels = await rows(page).locator('.label-name').allInnerTexts();
      t.diagnostic(`rows: ${JSON.stringify(labels)}`);
      assert.ok(labels.indexOf('Reply with text…') > labels.indexOf('Open as page (from the agent: id open_page)'), 'ours come after the agent\'s');
      await shot('1-list');
      const focused = await filterQuickInputTo(page, 'reply', /^Reply with text…$/);
      t.diagnostic(`"reply" focuses: ${JSON.stringify(focused)}`);
      await shot('2-typed-reply');
      await page.keyboard.press('Enter');
      // Our own step: the input box for a text reply.
      await page.waitForFunction(
        () => /Your reply, sent as text/.test(document.querySelector('.quick-input-widget .quick-input-message')?.textContent ?? ''),
        undefined, { timeout: 15_000 },
      );
      assert.equal(peer.received.filter(isRespond).length, 0, 'Enter on "reply" sent nothing');
      await page.keyboard.type('only this once');
      await page.keyboard.press('Enter');
      const reply = (await peer.waitFor(isRespond, 30_000)).value;
      assert.equal(reply['subject'], firstId);
      assert.deepEqual(reply['data'], { answer: { text: 'only this once' } });
      accept(reply);
      resolve(firstId);
      await waitForStatus(page, /0 requests wait for you\./);

      // 2. The agent's look-alike picked on purpose: a confirmation first, whose first item goes back; sent only on "Send the agent's option".
      const placeholderMatches = (pattern: RegExp) => page.waitForFunction(
        (source) => new RegExp(source).test(document.querySelector('.quick-input-widget input.input')?.getAttribute('placeholder') ?? ''),
        pattern.source, { timeout: 15_000 },
      );
      const MIMIC = 'Rotate the deploy key';
      const mimicId = raise({ kind: 'permission', prompt: MIMIC, options, respond_via: ['control'] });
      await openInline(MIMIC);
      await filterQuickInputTo(page, 'id always', /^Reply with text… \(from the agent: id always_allow\)$/);
      await page.keyboard.press('Enter');
      await placeholderMatches(/^"Reply with text…" is an option the agent offers, not an item of this editor\. Send it\?$/);
      await shot('3-confirm-mimic');
      assert.match(await focusedRow(page).innerText(), /Back to the choices/);
      await page.keyboard.press('Enter');
      await placeholderMatches(/^Choose an answer \(Enter\), or reply with text$/);
      assert.equal(peer.received.filter(isRespond).length, 1, 'Back sent nothing');
      await filterQuickInputTo(page, 'id always', /^Reply with text… \(from the agent: id always_allow\)$/);
      await page.keyboard.press('Enter');
      await placeholderMatches(/is an option the agent offers/);
      await page.keyboard.press('ArrowDown');
      await page.waitForFunction(
        () => /Send the agent's option/.test(document.querySelector('.quick-input-widget .monaco-list-row.focused')?.textContent ?? ''),
        undefined, { timeout: 15_000 },
      );
      await page.keyboard.press('Enter');
      const chosen = (await peer.waitFor((r) => isRespond(r) && r.value['subject'] === mimicId, 30_000)).value;
      assert.deepEqual(chosen['data'], { answer: { option: 'always_allow' } });
      accept(chosen);
      resolve(mimicId);
      await waitForStatus(page, /0 requests wait for you\./);

      // 3. "open as page", Enter: the request's page, and nothing sent.
      const SECOND = 'Drop the staging table';
      const secondId = raise({ kind: 'permission', prompt: SECOND, options, respond_via: ['control'] });
      await openInline(SECOND);
      await filterQuickInputTo(page, 'open as page', /^Open as page$/);
      await shot('4-typed-open-as-page');
      await page.keyboard.press('Enter');
      await quickInput(page).waitFor({ state: 'hidden', timeout: 15_000 });
      await waitUntil(async () => {
        for (const frame of page.frames()) {
          if (await frame.evaluate((text) => (document.querySelector('#prompt')?.textContent ?? '').includes(text), SECOND).catch(() => false)) return true;
        }
        return false;
      }, 'the request page to open', 30_000, undefined, PAGE_READ_EVERY_MS);
      await shot('5-page');
      assert.equal(peer.received.filter(isRespond).length, 2, 'only the text reply of step 1 and the confirmed option of step 2 were ever sent');
      resolve(secondId);
    } finally {
      await agent?.close();
    }
  },
};
