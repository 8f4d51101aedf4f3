// AEP Attention in the real VS Code workbench (code-server), installed from
// its VSIX, against the local hub and the demo agent: the status bar's
// states, one notification per request, the inbox badge, the hub going away
// and coming back, and a window reload. Screenshots of each step go to
// out/e2e/.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { startAgent, type RunningAgent } from '../peers/agent/agent';
import { startHub, type RunningHub } from '../peers/hub/hub';
import { freshSession, makeEvent, makeRequest, postEvents } from '../support/events';
import { PAGE_READ_EVERY_MS, waitForValue } from '../support/waitUntil';
import { e2eAvailable, e2eOutDir, openWorkbench, startCodeServer, type CodeServer, type Workbench } from './codeServer';
import { packageExtension } from './vsce';
import { recordToasts, statusLabel, toastsShown, waitForStatus, waitForToastShown, webviewFrame } from './workbenchPage';
import { codeServerSuite } from '../support/harness';

const TOKEN = 'e2e-token-5f1d0c';

const inboxBadge = (page: Page) => page.locator('.activitybar .action-item:has(.action-label[aria-label^="AEP Attention"]) .badge-content');

test('AEP Attention end to end in code-server', { timeout: 600_000, ...codeServerSuite() }, async (t) => {
  const install = e2eAvailable();
  if (!install.ok) assert.fail(install.why);
  const out = e2eOutDir();
  const shot = async (page: Page, name: string) => {
    const file = path.join(out, `${name}.png`);
    await page.screenshot({ path: file });
    t.diagnostic(`screenshot: ${file}`);
  };

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'aep-e2e-'));
  const workspaceDir = path.join(tmp, 'workspace');
  let hub: RunningHub | undefined;
  let agent: RunningAgent | undefined;
  let server: CodeServer | undefined;
  let workbench: Workbench | undefined;
  const agentLog: string[] = [];
  let markers = 0;
  /**
   * Shows that nothing more was notified: a marker request, posted now from its own session, is
   * notified after anything the window decided before it, so once its toast shows, an earlier
   * toast would show already. Its session then ends, and the window holds what it held before.
   */
  const afterMarker = async (page: Page, waiting: RegExp) => {
    assert.ok(hub, 'a hub to post the marker to');
    const session = freshSession('marker');
    const prompt = `Marker ${++markers}: is this shown?`;
    assert.equal((await postEvents(hub.url, TOKEN, [makeRequest(session, 0, { prompt }, { severity: 'notice' }, 'marker-agent')])).status, 202);
    await waitForToastShown(page, prompt);
    assert.equal((await postEvents(hub.url, TOKEN, [makeEvent('session.ended', session, 1, {}, 'marker-agent')])).status, 202);
    await waitForStatus(page, waiting);
  };
  try {
    const vsixPath = await packageExtension(path.join(tmp, 'aep-attention.vsix'));
    t.diagnostic(`VSIX ${fs.statSync(vsixPath).size} bytes`);
    hub = await startHub({ port: 0, token: TOKEN });
    const port = hub.port;
    // One form request, then quiet: the first request comes at once, the next a long while later.
    agent = await startAgent({ hubUrl: hub.url, token: TOKEN, scenarios: ['form'], everyMs: 600_000, log: (line) => agentLog.push(line) });

    // The hub and token reach the extension host through the environment (no UI to type into).
    server = await startCodeServer({
      vsixPath, workspaceDir,
      userDataDir: path.join(tmp, 'user-data'),
      extensionsDir: path.join(tmp, 'extensions'),
      env: { AEP_HUB: hub.url, AEP_TOKEN: TOKEN },
    });
    workbench = await openWorkbench(server.url, workspaceDir, undefined, undefined, recordToasts);
    const page = workbench.page;

    // 1. Status: connecting, then connected.
    await waitForStatus(page, /Connected to http:\/\/127\.0\.0\.1/);
    await shot(page, '1-connected');

    // 2. The form request: exactly one notification, in the inbox with a badge.
    // Counted as shown, not as on screen: VS Code hides an information toast after 10 s (recordToasts).
    await waitForToastShown(page, 'demo-agent:', 60_000);
    t.diagnostic(`page load -> request notification: ${Date.now() - workbench.loadedAt} ms`);
    await waitForStatus(page, /1 request waits for you/);
    await afterMarker(page, /1 request waits for you/);
    assert.equal((await toastsShown(page, 'demo-agent:')).length, 1, 'one notification for one request');
    // The badge sits over the icon; the click is meant for the icon under it.
    await page.locator('.activitybar .action-label[aria-label^="AEP Attention"]').click({ force: true });
    await page.locator('.sidebar .monaco-list-row', { hasText: 'demo-agent' }).first().waitFor({ timeout: 30_000 });
    await page.locator('.sidebar .monaco-list-row', { hasText: 'Configure the new service deployment' }).first().waitFor({ timeout: 30_000 });
    // The badge follows the inbox a moment after the status bar does (the marker's request came and went).
    await waitForValue(async () => (await inboxBadge(page).innerText().catch(() => '')).trim(), (badge) => badge === '1', 'the badge to show 1', { timeoutMs: 15_000, everyMs: PAGE_READ_EVERY_MS });
    await shot(page, '2-request-notified');

    // 3. The hub goes away: the status bar says so; it comes back: the client recovers by itself.
    // The hub goes first, so the agent is cut off rather than closing its requests politely.
    await hub.close();
    hub = undefined;
    assert.equal((await agent.done).reason, 'connection-lost');
    agent = undefined;
    await waitForStatus(page, /Lost the hub|Cannot connect/, 60_000);
    await shot(page, '3-hub-down');
    hub = await startHub({ port, token: TOKEN });
    const restartedAt = Date.now();
    await waitForStatus(page, /Connected to/, 60_000);
    t.diagnostic(`hub restart -> status connected: ${Date.now() - restartedAt} ms`);
    await afterMarker(page, /1 request waits for you/);
    assert.equal((await toastsShown(page, 'demo-agent:')).length, 1, 'no second notification after the reconnect');
    assert.match(await statusLabel(page), /1 request waits for you/);
    await shot(page, '4-recovered');

    // 4. A window reload keeps the pending request, and does not notify again.
    await page.reload();
    await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 90_000 });
    await waitForStatus(page, /1 request waits for you/);
    await afterMarker(page, /1 request waits for you/);
    assert.equal((await toastsShown(page, 'demo-agent:')).length, 0, 'no notification for a request already notified since the reload');
    await shot(page, '5-after-reload');

    // 5. A new agent asks again; the old, orphaned request is dismissed locally (nothing sent),
    //    and the new form is answered in its webview, beside the editor.
    agent = await startAgent({ hubUrl: hub.url, token: TOKEN, scenarios: ['form'], everyMs: 600_000, log: (line) => agentLog.push(line) });
    await waitForStatus(page, /2 requests wait for you/);
    const staleRow = page.locator('.sidebar .monaco-list-row', { hasText: 'Configure the new service deployment' }).first();
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
    // Answer Next Request would use for a form this small (test/e2e/oneWorkbench/inline.ts).
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
    await shot(page, '6-form-filled');
    await form.locator('#send').click();
    await form.locator('#outcome', { hasText: 'demo-agent accepted the answer.' }).waitFor({ timeout: 30_000 });
    await form.locator('#status', { hasText: 'Resolved (answered).' }).waitFor({ timeout: 30_000 });
    await waitForStatus(page, /0 requests wait for you/);
    // What the agent applied, from its own record (not its log's sentence).
    const answered = agent.requests().filter((request) => request.state === 'answered');
    assert.deepEqual(answered.map((request) => [request.answer, request.by]), [[{ values: { name: 'billing-api', staged: false, regions: ['1'], db: '1' } }, 'vscode-aep-attention']], agentLog.join('\n'));
    await shot(page, '7-form-answered');
  } catch (error) {
    if (workbench) {
      await workbench.page.screenshot({ path: path.join(out, 'failure.png') }).catch(() => undefined);
      t.diagnostic(`page console (last 30):\n${workbench.console().slice(-30).join('\n')}`);
    }
    if (server) t.diagnostic(`code-server output (last 4000 chars):\n${server.logs().slice(-4_000)}`);
    t.diagnostic(`agent log:\n${agentLog.join('\n')}`);
    throw error;
  } finally {
    await workbench?.close();
    await server?.stop();
    await agent?.close();
    await hub?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});
