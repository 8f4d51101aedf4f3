// Honest capture end to end, in the REAL VS Code workbench (code-server) with
// the extension installed from its VSIX, against the local hub. The agent is a
// bare WebSocket peer that owns one session and accepts answers, so the test
// reads every command exactly as it arrives:
//   - a reply holding a GitHub token brings up the page's list of what the
//     redaction pipeline (AEP-0003 §9.4) would replace, and nothing is sent;
//   - the same text forced past the page without `verbatim` is refused by the
//     extension host ("Not sent: …") and never reaches the agent;
//   - "Send redacted" delivers the redacted text at capture `redacted`;
//   - "Send as typed" delivers the text verbatim at capture `full`.
// Screenshots go to out/e2e/capture-*.png.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { startHub, type RunningHub } from '../hub/hub';
import { freshSession, makeEvent } from '../support/events';
import { WsPeer, type Received } from '../support/wsPeer';
import { e2eAvailable, e2eOutDir, openWorkbench, startCodeServer, type CodeServer, type Workbench } from './codeServer';
import { packageExtension } from './vsce';
import { waitForStatus, webviewFrame } from './workbenchPage';

const TOKEN = 'e2e-token-capture-91d3';
const AGENT = 'e2e-agent';
const PROMPT = 'Which token should the deploy use?';
const GITHUB = 'ghp_AbCdEfGhIjKlMnOpQrStUvWxYz012345';
const TYPED = `use ${GITHUB} please`;

const isRespond = (r: Received) => r.value['type'] === 'control.attention.respond';

test('the capture an answer declares is honest, whatever the page sends', { timeout: 300_000 }, async (t) => {
  const install = e2eAvailable();
  if (!install.ok) assert.fail(install.why);
  const out = e2eOutDir();
  const shot = async (page: Page, name: string) => {
    const file = path.join(out, `capture-${name}.png`);
    await page.screenshot({ path: file });
    t.diagnostic(`screenshot: ${file}`);
  };
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'aep-e2e-capture-'));
  const workspaceDir = path.join(tmp, 'workspace');
  let hub: RunningHub | undefined;
  let server: CodeServer | undefined;
  let workbench: Workbench | undefined;
  let agent: WsPeer | undefined;
  try {
    const vsixPath = await packageExtension(path.join(tmp, 'aep-attention.vsix'));
    hub = await startHub({ port: 0, token: TOKEN });
    server = await startCodeServer({
      vsixPath, workspaceDir,
      userDataDir: path.join(tmp, 'user-data'),
      extensionsDir: path.join(tmp, 'extensions'),
      env: { AEP_HUB: hub.url, AEP_TOKEN: TOKEN },
    });
    workbench = await openWorkbench(server.url, workspaceDir);
    const page = workbench.page;
    await waitForStatus(page, /Connected to http:\/\/127\.0\.0\.1/);

    // The agent: owns the session by emitting in it, and accepts answers.
    agent = await WsPeer.connect(hub.url, { token: TOKEN, role: 'both', agent: AGENT, capabilities: { control: { accepts: ['control.attention.respond'] } } });
    const session = freshSession('capture');
    const source = `aep://test-host/agent/${AGENT}/session/${session}`;
    let seq = 1;
    const request = makeEvent('attention.requested', session, seq++, { capture: 'redacted', severity: 'notice', data: { kind: 'input', prompt: PROMPT, respond_via: ['control'] } }, AGENT);
    agent.send(request);
    const ack = (command: Record<string, unknown>, type: 'control.accepted' | 'control.rejected', data: Record<string, unknown> = {}) =>
      agent?.send(makeEvent(type, session, seq++, { cause: command['id'], capture: 'metadata', data }, AGENT));
    assert.equal(request['source'], source);

    const notification = page.locator('.notifications-toasts .notification-toast', { hasText: PROMPT }).first();
    await notification.waitFor({ state: 'visible', timeout: 60_000 });
    await notification.getByRole('button', { name: 'Open', exact: true }).click();
    const frame: Frame = await webviewFrame(page, 30_000, session);
    const reply = frame.locator('#reply');
    const send = frame.locator('#send');
    const outcome = frame.locator('#outcome');

    // 1. The page runs the pipeline first: it lists the token and sends nothing.
    await reply.click();
    await page.keyboard.type(TYPED);
    await send.click();
    const list = frame.locator('#confirm-replacements');
    await list.waitFor({ state: 'visible', timeout: 15_000 });
    assert.match(await list.innerText(), new RegExp(`Reply: ${GITHUB} → \\[REDACTED:secret\\] \\(GitHub token\\)`));
    await shot(page, '1-what-would-be-replaced');

    // 2. Forced past the page without `verbatim`, the way the page posts (the page
    //    acquired its VS Code API already): the extension host refuses it.
    const hostFrame = frame.parentFrame();
    assert.ok(hostFrame, 'the request page sits in the webview host frame');
    const forced = { type: 'submit', submitId: 'forced-unredacted-1', answer: { text: TYPED } };
    const posted = await hostFrame.evaluate((message) => {
      const post = (window as unknown as Record<string, unknown>)['__vscode_post_message__'];
      if (typeof post !== 'function') return false;
      (post as (channel: string, data: unknown) => void)('onmessage', { message, transfer: undefined });
      return true;
    }, forced);
    assert.ok(posted, 'the webview host frame offers the channel the page posts through');
    await frame.locator('#outcome', { hasText: /^Not sent: the redaction pipeline would replace/ }).waitFor({ timeout: 30_000 });
    t.diagnostic(`host refusal: ${await outcome.innerText()}`);
    await shot(page, '2-refused-by-host');

    // 3. Send redacted: the redacted text, at capture redacted.
    await frame.locator('#confirm-redacted').click();
    const redacted = (await agent.waitFor(isRespond, 30_000)).value;
    assert.equal(redacted['capture'], 'redacted');
    assert.deepEqual(redacted['data'], { answer: { text: 'use [REDACTED:secret] please' } });
    // Refused as invalid by the agent, so the request stays open for the next answer.
    ack(redacted, 'control.rejected', { reason: 'invalid', detail: 'a real token is needed' });
    await frame.locator('#outcome', { hasText: /a real token is needed/ }).waitFor({ timeout: 30_000 });

    // 4. Send as typed: the text verbatim, at capture full.
    await send.click();
    await frame.locator('#confirm-verbatim').click();
    const typed = (await agent.waitForCount(isRespond, 2, 30_000))[1]?.value;
    assert.ok(typed);
    assert.equal(typed['capture'], 'full');
    assert.deepEqual(typed['data'], { answer: { text: TYPED } });
    ack(typed, 'control.accepted');
    await frame.locator('#outcome', { hasText: /accepted/ }).waitFor({ timeout: 30_000 });
    await shot(page, '3-sent-as-typed');

    // The forced answer never reached the agent: two commands in all.
    assert.equal(agent.received.filter(isRespond).length, 2);
  } catch (error) {
    if (workbench) {
      await workbench.page.screenshot({ path: path.join(out, 'capture-failure.png') }).catch(() => undefined);
      t.diagnostic(`page console (last 30):\n${workbench.console().slice(-30).join('\n')}`);
    }
    if (server) t.diagnostic(`code-server output (last 3000 chars):\n${server.logs().slice(-3_000)}`);
    throw error;
  } finally {
    await agent?.close();
    await workbench?.close();
    await server?.stop();
    await hub?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});
