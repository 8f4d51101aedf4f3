// The newcomer's path, end to end, in the REAL VS Code workbench (code-server)
// with the extension installed from its VSIX and NO hub configured (no
// AEP_HUB, no hubUrl): "Connect to Hub" → the address → "This workspace" →
// the token in a password box, and the status item, hidden before, says
// connected: four steps, counted in a diagnostic. Then, in the same window,
// a second hub: "Connect to Hub" → "Change address…" → its address → the
// scope → its token, and the status item names the second hub and counts its
// agent's request. Last, a third hub whose token step is skipped: its 401 brings
// a notification asking for the token, whose "Enter Token…" takes it in place.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { startAgent, type RunningAgent } from '../peers/agent/agent';
import { startHub, type RunningHub } from '../peers/hub/hub';
import { codeServerSuite } from '../support/harness';
import { e2eAvailable, e2eOutDir, openWorkbench, startCodeServer, type CodeServer, type Workbench } from './codeServer';
import { packageExtension } from './vsce';
import { escape, pickThisWorkspace, quickBox, typeIntoBox, typeToken, waitForPaletteCommand } from './connectSteps';
import { filterQuickInputTo, runCommand, statusItem, statusLabel, waitForQuickInputTitle, waitForStatus } from './workbenchPage';

const TOKEN_A = 'e2e-token-connect-a-5d21';
const TOKEN_B = 'e2e-token-connect-b-77e4';
const TOKEN_C = 'e2e-token-connect-c-3b90';

test('e2e: from no hub to connected through Connect to Hub, then to another hub by Change address…, then a 401 answered with Enter Token…', { ...codeServerSuite(), timeout: 300_000 }, async (t) => {
  const install = e2eAvailable();
  if (!install.ok) assert.fail(install.why);
  assert.equal(process.env['AEP_HUB'], undefined, 'the run must not name a hub in the environment: this is the newcomer\'s path');
  const out = e2eOutDir();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'aep-e2e-connect-'));
  const workspaceDir = path.join(tmp, 'workspace');
  let hubA: RunningHub | undefined;
  let hubB: RunningHub | undefined;
  let hubC: RunningHub | undefined;
  let agentB: RunningAgent | undefined;
  let server: CodeServer | undefined;
  let workbench: Workbench | undefined;
  const agentLog: string[] = [];
  try {
    const vsixPath = await packageExtension(path.join(tmp, 'aep-attention.vsix'));
    hubA = await startHub({ port: 0, token: TOKEN_A });
    server = await startCodeServer({ vsixPath, workspaceDir, userDataDir: path.join(tmp, 'user-data'), extensionsDir: path.join(tmp, 'extensions') });
    workbench = await openWorkbench(server.url, workspaceDir);
    const page = workbench.page;

    // Before: the extension is active (its command is in the palette) but no hub means no status item.
    await waitForPaletteCommand(page, 'AEP Attention: Connect to Hub');
    assert.equal(await statusItem(page).count(), 0, `no hub configured: no status item (it read "${await statusLabel(page)}")`);

    // 1. the command; 2. the address; 3. the scope; 4. the token.
    let steps = 0;
    const startedAt = Date.now();
    await runCommand(page, 'AEP Attention: Connect to Hub', { opensQuickInput: true });
    steps++;
    await waitForQuickInputTitle(page, /^Connect to an AEP hub/);
    await typeIntoBox(page, hubA.url);
    await page.keyboard.press('Enter');
    steps++;
    await pickThisWorkspace(page);
    steps++;
    await typeToken(page, hubA.url, TOKEN_A);
    steps++;
    await waitForStatus(page, new RegExp(`^AEP Attention: Connected to ${escape(hubA.url)}`), 60_000);
    t.diagnostic(`no hub -> connected to the first hub: ${steps} steps, ${Date.now() - startedAt} ms from the command`);
    assert.equal(steps, 4, 'four steps from a fresh install to connected');
    const saved = JSON.parse(fs.readFileSync(path.join(workspaceDir, '.vscode', 'settings.json'), 'utf8')) as Record<string, unknown>;
    assert.equal(saved['aepAttention.hubUrl'], hubA.url, 'the address is saved in the workspace settings');
    await page.screenshot({ path: path.join(out, 'connect-1-first-hub.png') });

    // A second hub, with an agent whose request shows once the window is connected to it.
    hubB = await startHub({ port: 0, token: TOKEN_B });
    agentB = await startAgent({ hubUrl: hubB.url, token: TOKEN_B, scenarios: ['permission'], everyMs: 600_000, log: (line) => agentLog.push(line) });
    assert.notEqual(hubB.url, hubA.url);
    const changedAt = Date.now();
    steps = 0;
    await runCommand(page, 'AEP Attention: Connect to Hub', { opensQuickInput: true });
    steps++;
    await waitForQuickInputTitle(page, /^Connect to an AEP hub/);
    await filterQuickInputTo(page, 'Change address', /^Change address…$/);
    await page.keyboard.press('Enter');
    steps++;
    await waitForQuickInputTitle(page, /^Connect to an AEP hub/);
    assert.equal(await quickBox(page).inputValue(), hubA.url, 'the address box starts from the current address');
    await typeIntoBox(page, hubB.url);
    await page.keyboard.press('Enter');
    steps++;
    await pickThisWorkspace(page);
    steps++;
    await typeToken(page, hubB.url, TOKEN_B);
    steps++;
    await waitForStatus(page, new RegExp(`^AEP Attention: Connected to ${escape(hubB.url)}\\. 1 request waits for you`), 60_000);
    t.diagnostic(`first hub -> second hub by Change address…: ${steps} steps, ${Date.now() - changedAt} ms from the command`);
    const savedB = JSON.parse(fs.readFileSync(path.join(workspaceDir, '.vscode', 'settings.json'), 'utf8')) as Record<string, unknown>;
    assert.equal(savedB['aepAttention.hubUrl'], hubB.url, 'the new address replaces the old one in the workspace settings');
    await page.screenshot({ path: path.join(out, 'connect-2-second-hub.png') });

    // A third hub whose token step the person skips: the hub answers 401, and the notification asks for the token right there.
    hubC = await startHub({ port: 0, token: TOKEN_C });
    await runCommand(page, 'AEP Attention: Connect to Hub', { opensQuickInput: true });
    await waitForQuickInputTitle(page, /^Connect to an AEP hub/);
    await filterQuickInputTo(page, 'Change address', /^Change address…$/);
    await page.keyboard.press('Enter');
    await waitForQuickInputTitle(page, /^Connect to an AEP hub/);
    await typeIntoBox(page, hubC.url);
    await page.keyboard.press('Enter');
    await pickThisWorkspace(page);
    await waitForQuickInputTitle(page, new RegExp(`^AEP hub token for ${escape(hubC.url)}`));
    await page.keyboard.press('Escape');
    const refused = page.locator('.notifications-toasts .notification-toast', { hasText: 'the hub requires a token (HTTP 401). Enter it?' }).first();
    await refused.waitFor({ state: 'visible', timeout: 60_000 });
    assert.doesNotMatch(await refused.innerText(), /Set Hub Token/, 'the notification asks for the token instead of naming a command');
    await page.screenshot({ path: path.join(out, 'connect-3-token-asked.png') });
    await refused.locator('.monaco-button', { hasText: 'Enter Token…' }).click();
    await typeToken(page, hubC.url, TOKEN_C);
    await waitForStatus(page, new RegExp(`^AEP Attention: Connected to ${escape(hubC.url)}`), 60_000);
  } catch (error) {
    if (workbench) {
      await workbench.page.screenshot({ path: path.join(out, 'connect-failure.png') }).catch(() => undefined);
      t.diagnostic(`page console (last 30):\n${workbench.console().slice(-30).join('\n')}`);
    }
    if (server) t.diagnostic(`code-server output (last 3000 chars):\n${server.logs().slice(-3_000)}`);
    t.diagnostic(`agent log:\n${agentLog.join('\n')}`);
    throw error;
  } finally {
    await workbench?.close();
    await server?.stop();
    await agentB?.close();
    await hubC?.close();
    await hubB?.close();
    await hubA?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});
