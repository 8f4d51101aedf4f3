// AEP Attention end to end, against the local hub and the demo agent: one
// notification per request, the inbox and its badge, the hub going away and
// coming back, and a window reload. It restarts the workbench's hub and
// reloads the window, so it goes last (oneWorkbench.e2e.test.ts). It had a
// code-server and a workbench of its own (extension.e2e.test.ts before).
import * as assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import type { Page } from 'playwright-core';
import { startAgent, type RunningAgent } from '../../peers/agent/agent';
import type { RunningHub } from '../../peers/hub/hub';
import { freshSession, makeEvent, makeRequest, postEvents } from '../../support/events';
import { PAGE_READ_EVERY_MS, waitForValue } from '../../support/waitUntil';
import type { ConnectedWorkbench } from '../connectedWorkbench';
import { runCommand, statusLabel, toastsShown, waitForStatus, waitForToastShown, webviewFrame } from '../workbenchPage';
import type { Scenario } from './scenario';

const inboxBadge = (page: Page) => page.locator('.activitybar .action-item:has(.action-label[aria-label^="AEP Attention"]) .badge-content');
/** A row of the Inbox view, not of the History below it, which holds earlier scenarios' answers to the same form. */
const inboxRow = (page: Page, text: string) =>
  page.locator('.part.sidebar .pane').filter({ has: page.locator('.pane-header .title', { hasText: /^Inbox$/ }) })
    .locator('.monaco-list-row', { hasText: text }).first();

async function run(e2e: ConnectedWorkbench, t: TestContext): Promise<void> {
  const { page, shot, token } = e2e;
  let hub: RunningHub = e2e.hub;
  let agent: RunningAgent | undefined;
  const agentLog: string[] = [];
  let markers = 0;
  /**
   * Shows that nothing more was notified: a marker request, posted now from its own session, is
   * notified after anything the window decided before it, so once its toast shows, an earlier
   * toast would show already. Its session then ends, and the window holds what it held before.
   */
  const afterMarker = async (waiting: RegExp) => {
    const session = freshSession('marker');
    const prompt = `Marker ${++markers}: is this shown?`;
    assert.equal((await postEvents(hub.url, token, [makeRequest(session, 0, { prompt }, { severity: 'notice' }, 'marker-agent')])).status, 202);
    await waitForToastShown(page, prompt);
    assert.equal((await postEvents(hub.url, token, [makeEvent('session.ended', session, 1, {}, 'marker-agent')])).status, 202);
    await waitForStatus(page, waiting);
  };
  /** The demo agent's toasts this page showed since it loaded (recordToasts): earlier scenarios' included, so counted from here. */
  const demoToasts = async () => (await toastsShown(page, 'demo-agent:')).length;
  try {
    // 1. The form request: exactly one notification, in the inbox with a badge.
    const before = await demoToasts();
    // One form request, then quiet: the first request comes at once, the next a long while later.
    agent = await startAgent({ hubUrl: hub.url, token, scenarios: ['form'], everyMs: 600_000, log: (line) => agentLog.push(line) });
    await waitForValue(demoToasts, (shown) => shown > before, 'the request\'s toast', { timeoutMs: 60_000, everyMs: PAGE_READ_EVERY_MS });
    await waitForStatus(page, /1 request waits for you/);
    await afterMarker(/1 request waits for you/);
    assert.equal(await demoToasts() - before, 1, 'one notification for one request');
    await runCommand(page, 'AEP Attention: Show Inbox');
    await inboxRow(page, 'demo-agent').waitFor({ timeout: 30_000 });
    await inboxRow(page, 'Configure the new service deployment').waitFor({ timeout: 30_000 });
    // The badge follows the inbox a moment after the status bar does (the marker's request came and went).
    await waitForValue(async () => (await inboxBadge(page).innerText().catch(() => '')).trim(), (badge) => badge === '1', 'the badge to show 1', { timeoutMs: 15_000, everyMs: PAGE_READ_EVERY_MS });
    await shot('1-request-notified');

    // 2. The hub goes away: the status bar says so; it comes back: the client recovers by itself.
    // The hub goes first, so the agent is cut off rather than closing its requests politely.
    const cut = agent;
    hub = await e2e.restartHub(async () => {
      assert.equal((await cut.done).reason, 'connection-lost');
      await waitForStatus(page, /Lost the hub|Cannot connect/, 60_000);
      await shot('2-hub-down');
    });
    agent = undefined;
    const restartedAt = Date.now();
    await waitForStatus(page, /Connected to/, 60_000);
    t.diagnostic(`hub restart -> status connected: ${Date.now() - restartedAt} ms`);
    await afterMarker(/1 request waits for you/);
    assert.equal(await demoToasts() - before, 1, 'no second notification after the reconnect');
    assert.match(await statusLabel(page), /1 request waits for you/);
    await shot('3-recovered');

    // 3. A window reload keeps the pending request, and does not notify again.
    await page.reload();
    await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 90_000 });
    await waitForStatus(page, /1 request waits for you/);
    await afterMarker(/1 request waits for you/);
    assert.equal(await demoToasts(), 0, 'no notification for a request already notified since the reload');
    await shot('4-after-reload');

    // 4. A new agent asks again; the old, orphaned request is dismissed locally (nothing sent),
    //    and the new form is answered in its webview, beside the editor.
    agent = await startAgent({ hubUrl: hub.url, token, scenarios: ['form'], everyMs: 600_000, log: (line) => agentLog.push(line) });
    await waitForStatus(page, /2 requests wait for you/);
    await runCommand(page, 'AEP Attention: Show Inbox');
    const staleRow = inboxRow(page, 'Configure the new service deployment');
    // The inline action only shows while the row is hovered; a busy machine can miss the first hover.
    for (let attempt = 1; ; attempt++) {
      await staleRow.hover();
      const dismiss = staleRow.locator('.action-label[aria-label^="Dismiss Locally"]');
      await dismiss.waitFor({ state: 'visible', timeout: 5_000 }).catch(() => undefined);
      await dismiss.click({ timeout: 5_000 }).catch(() => undefined);
      try {
        await waitForStatus(page, /1 request waits for you/, 5_000);
        break;
      } catch (error) {
        if (attempt === 3) throw error;
      }
    }
    // Open Request, then its pick of what waits (one request): the page, not the quick input
    // Answer Next Request would use for a form this small (inline.ts).
    await page.keyboard.press('F1');
    await page.keyboard.type('AEP Attention: Open Request');
    await page.keyboard.press('Enter');
    await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Configure the new service deployment' }).first().waitFor({ timeout: 15_000 });
    await page.keyboard.press('Enter');
    const form = await webviewFrame(page);
    await form.locator('#field-0').click();
    await page.keyboard.type('billing-api');
    await form.locator('[data-field="regions"] vscode-checkbox').first().click();
    await form.locator('[data-field="db"] vscode-radio').first().click();
    await shot('5-form-filled');
    await form.locator('#send').click();
    await form.locator('#outcome', { hasText: 'demo-agent accepted the answer.' }).waitFor({ timeout: 30_000 });
    await form.locator('#status', { hasText: 'Resolved (answered).' }).waitFor({ timeout: 30_000 });
    await waitForStatus(page, /0 requests wait for you/);
    // What the agent applied, from its own record (not its log's sentence).
    const answered = agent.requests().filter((request) => request.state === 'answered');
    assert.deepEqual(answered.map((request) => [request.answer, request.by]), [[{ values: { name: 'billing-api', staged: false, regions: ['1'], db: '1' } }, 'vscode-aep-attention']], agentLog.join('\n'));
    await shot('6-form-answered');
  } catch (error) {
    t.diagnostic(`agent log:\n${agentLog.join('\n')}`);
    throw error;
  } finally {
    await agent?.close();
  }
}

export const endToEnd: Scenario = {
  name: 'extension',
  title: 'AEP Attention end to end: one notification per request, the inbox, the hub going away and coming back, a window reload, a form answered',
  run,
};
