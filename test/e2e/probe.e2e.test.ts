// Smoke test of the end-to-end harness: a throwaway extension, packaged into a VSIX
// here, installed into the REAL VS Code workbench (code-server) and seen by headless
// Chromium to show its notification, with a value it read from the environment that
// code-server was started with. No editor, no pass: when the harness is not installed
// this test FAILS (it never skips), so CI cannot go green without the real editor.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { e2eAvailable, e2eOutDir, openWorkbench, startCodeServer, type CodeServer, type Workbench } from './codeServer';
import { runVsce } from './vsce';
import { codeServerSuite } from '../support/harness';

/** Writes a minimal extension to `dir` and packages it with the repository's vsce. */
async function buildProbeVsix(dir: string): Promise<string> {
  const source = path.join(dir, 'probe');
  fs.mkdirSync(source, { recursive: true });
  fs.writeFileSync(
    path.join(source, 'package.json'),
    JSON.stringify(
      {
        name: 'aep-e2e-probe',
        displayName: 'AEP e2e probe',
        description: 'Shows one notification, to prove the end-to-end harness works.',
        publisher: 'aepe2e',
        version: '0.0.1',
        license: 'MIT',
        engines: { vscode: '^1.90.0' },
        activationEvents: ['onStartupFinished'],
        main: './extension.js',
        files: ['extension.js'],
      },
      null,
      2,
    ),
  );
  fs.writeFileSync(
    path.join(source, 'extension.js'),
    [
      "const vscode = require('vscode');",
      'exports.activate = function () {',
      "  void vscode.window.showInformationMessage('AEP probe ' + process.env.AEP_PROBE);",
      '};',
      'exports.deactivate = function () {};',
      '',
    ].join('\n'),
  );
  const vsix = path.join(dir, 'aep-e2e-probe.vsix');
  // vsce would only warn (no TTY to ask on) about the missing repository and
  // LICENSE; the flags say so explicitly, and --no-dependencies keeps it from running npm.
  await runVsce(['package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', vsix], source);
  assert.ok(fs.existsSync(vsix), `vsce did not write ${vsix}`);
  return vsix;
}

test('a probe extension shows its notification in the real VS Code workbench', { timeout: 300_000, ...codeServerSuite() }, async (t) => {
  const install = e2eAvailable();
  if (!install.ok) assert.fail(install.why);

  const started = Date.now();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'aep-e2e-probe-'));
  const workspaceDir = path.join(tmp, 'workspace');
  let server: CodeServer | undefined;
  let workbench: Workbench | undefined;
  try {
    const vsixPath = await buildProbeVsix(tmp);
    server = await startCodeServer({
      vsixPath,
      workspaceDir,
      userDataDir: path.join(tmp, 'user-data'),
      extensionsDir: path.join(tmp, 'extensions'),
      env: { AEP_PROBE: 'ok' },
      settings: { 'files.autoSave': 'off' },
    });
    t.diagnostic(`code-server ${server.url} up after ${Date.now() - started} ms`);

    workbench = await openWorkbench(server.url, workspaceDir);
    t.diagnostic(`page load after ${workbench.loadedAt - started} ms; workbench visible ${workbench.workbenchAt - workbench.loadedAt} ms after load`);

    const toast = workbench.page.locator('.notifications-toasts .notification-toast', { hasText: 'AEP probe ok' });
    await toast.waitFor({ state: 'visible', timeout: 90_000 });
    const shownAt = Date.now();
    t.diagnostic(`page load -> notification "AEP probe ok": ${shownAt - workbench.loadedAt} ms`);

    const screenshot = path.join(e2eOutDir(), 'probe.png');
    await workbench.page.screenshot({ path: screenshot });
    t.diagnostic(`screenshot: ${screenshot}`);

    // The workbench really opened the folder, with no trust prompt or welcome page in the way.
    assert.equal(await workbench.page.locator('.monaco-dialog-box').count(), 0, 'a modal dialog is open');
    assert.equal(await workbench.page.locator('.editor-instance .gettingStartedContainer').count(), 0, 'the welcome page is open');
  } catch (error) {
    if (workbench) {
      await workbench.page.screenshot({ path: path.join(e2eOutDir(), 'probe-failure.png') }).catch(() => undefined);
      t.diagnostic(`page console (last 40):\n${workbench.console().slice(-40).join('\n')}`);
    }
    if (server) t.diagnostic(`code-server output (last 6000 chars):\n${server.logs().slice(-6_000)}`);
    throw error;
  } finally {
    await workbench?.close();
    await server?.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
    t.diagnostic(`total ${Date.now() - started} ms`);
  }
});
