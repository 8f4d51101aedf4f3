// Runs the extension-host suite (test/vscode/suite.ts, the one
// `npm run test:vscode` runs under @vscode/test-electron) inside
// code-server's real extension host, so it runs in CI and is not dead code.
// A small runner extension, packaged here, loads the suite when the
// extension host starts and writes the verdict to a file.
//
// Beside it, the smoke test of the end-to-end harness: a throwaway probe
// extension, packaged here too, installed into the same workbench and seen
// by headless Chromium to show its notification, with a value it read from
// the environment that code-server was started with, and the folder open
// with no trust prompt or welcome page in the way. It had a code-server and
// a workbench of its own (36 CPU-seconds alone). Where the harness can be
// installed, a missing one fails this file rather than skipping it
// (codeServerSuite), so CI cannot go green without the real editor.
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { startAgent, type RunningAgent } from '../peers/agent/agent';
import { startHub, type RunningHub } from '../peers/hub/hub';
import { e2eAvailable, e2eOutDir, openWorkbench, repoRoot, startCodeServer, type CodeServer, type Workbench } from './codeServer';
import { packageExtension, packageScratchExtension } from './vsce';
import { PAGE_READ_EVERY_MS, waitForValue, waitUntil } from '../support/waitUntil';
import { codeServerSuite } from '../support/harness';

/** The runner: an extension whose only job is to run the suite and write the verdict. */
function buildRunnerVsix(dir: string): Promise<string> {
  return packageScratchExtension(dir, 'runner', {
    name: 'aep-suite-runner', displayName: 'AEP suite runner', description: 'Runs the AEP Attention extension-host suite.',
    publisher: 'aepe2e', engines: { vscode: '^1.100.0' }, extensionDependencies: ['aepattention.aep-attention'],
  }, {
    'suite.js': fs.readFileSync(path.join(repoRoot(), 'out', 'peers', 'vscode', 'suite.js')),
    'LICENSE': 'MIT\n',
    'extension.js': `
const fs = require('fs');
exports.activate = async () => {
  const lines = [];
  try {
    await require('./suite.js').run((line) => lines.push(line));
    fs.writeFileSync(process.env.AEP_SUITE_RESULTS, JSON.stringify({ ok: true, lines }));
  } catch (error) {
    fs.writeFileSync(process.env.AEP_SUITE_RESULTS, JSON.stringify({ ok: false, error: String(error && error.stack || error), lines }));
  }
};
`,
  });
}

/** The probe: an extension whose only job is to show one notification, with a value it read from the environment. */
function buildProbeVsix(dir: string): Promise<string> {
  return packageScratchExtension(dir, 'aep-e2e-probe', {
    name: 'aep-e2e-probe', displayName: 'AEP e2e probe', description: 'Shows one notification, to prove the end-to-end harness works.',
    publisher: 'aepe2e', engines: { vscode: '^1.90.0' }, files: ['extension.js'],
  }, {
    'extension.js': [
      "const vscode = require('vscode');",
      'exports.activate = function () {',
      "  void vscode.window.showInformationMessage('AEP probe ' + process.env.AEP_PROBE);",
      '};',
      'exports.deactivate = function () {};',
      '',
    ].join('\n'),
  });
}

/** When (ms since the epoch) the workbench first showed each, 0 if it has not. */
interface SeenAtStartup { probe: number; dialog: number; welcome: number }

/**
 * Runs in the workbench's page before its scripts: records when the probe's notification first comes among the
 * toasts, and whether a modal dialog or the welcome page came before it. Every change to the page is seen, so a
 * toast that later ones push out at once, or a dialog the suite closes, is not missed. It stops at the probe's.
 */
function recordStartup(): void {
  if (window.top !== window) return;
  const seen: SeenAtStartup = { probe: 0, dialog: 0, welcome: 0 };
  (window as unknown as { __aepSeen: SeenAtStartup }).__aepSeen = seen;
  const observer = new MutationObserver(() => {
    if (seen.dialog === 0 && document.querySelector('.monaco-dialog-box')) seen.dialog = Date.now();
    if (seen.welcome === 0 && document.querySelector('.gettingStartedContainer')) seen.welcome = Date.now();
    if ([...document.querySelectorAll('.notifications-toasts .notification-toast')].some((toast) => toast.textContent?.includes('AEP probe ok'))) {
      seen.probe = Date.now();
      observer.disconnect();
    }
  });
  observer.observe(document, { childList: true, subtree: true, characterData: true });
}

test('the extension-host suite passes inside code-server, and a probe extension beside it shows its notification', { timeout: 600_000, ...codeServerSuite() }, async (t) => {
  const install = e2eAvailable();
  if (!install.ok) assert.fail(install.why);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'aep-e2e-suite-'));
  const results = path.join(tmp, 'results.json');
  const token = randomBytes(12).toString('hex');
  let hub: RunningHub | undefined;
  /** A second hub, tokenless, with an agent of its own: the suite adds it to aepAttention.hubs, and asks for it to stop. */
  let second: RunningHub | undefined;
  let secondAgent: RunningAgent | undefined;
  const stopSecond = path.join(tmp, 'stop-second-hub');
  /** Four agents, so four requests wait at once (one agent raises one per `everyMs`). */
  const agents: RunningAgent[] = [];
  let server: CodeServer | undefined;
  let workbench: Workbench | undefined;
  const started = Date.now();
  try {
    const extensionVsix = path.join(tmp, 'aep-attention.vsix');
    await packageExtension(extensionVsix);
    const runnerVsix = await buildRunnerVsix(tmp);
    const probeVsix = await buildProbeVsix(tmp);
    hub = await startHub({ port: 0, token });
    for (const scenario of ['form', 'permission', 'input', 'form'] as const) {
      agents.push(await startAgent({ hubUrl: hub.url, token, scenarios: [scenario], everyMs: 600_000, log: () => undefined }));
    }
    second = await startHub({ port: 0 });
    secondAgent = await startAgent({ hubUrl: second.url, scenarios: ['input'], everyMs: 600_000, log: () => undefined });
    const suiteEnv = { AEP_PROBE: 'ok', AEP_HUB: hub.url, AEP_TOKEN: token, AEP_SUITE_RESULTS: results, AEP_SECOND_HUB: second.url, AEP_SECOND_HUB_STOP: stopSecond };
    const workspaceDir = path.join(tmp, 'workspace');
    const extensionsDir = path.join(tmp, 'extensions');
    // The extension first, so the runner's dependency is there when it installs.
    server = await startCodeServer({ vsixPath: [extensionVsix, runnerVsix, probeVsix], workspaceDir, userDataDir: path.join(tmp, 'user-data'), extensionsDir, env: suiteEnv });
    t.diagnostic(`code-server ${server.url} up after ${Date.now() - started} ms`);
    workbench = await openWorkbench(server.url, workspaceDir, undefined, undefined, async (context) => {
      await context.addInitScript(recordStartup);
    });
    t.diagnostic(`page load after ${workbench.loadedAt - started} ms; workbench visible ${workbench.workbenchAt - workbench.loadedAt} ms after load`);
    const opened = workbench;
    const running = server;
    const page = workbench.page;
    /** A subtest's failure, with the page console, code-server's output and a screenshot in the diagnostics. */
    const diagnosed = async (name: string, steps: () => Promise<void>) => {
      try {
        await steps();
      } catch (error) {
        t.diagnostic(`page console (last 40):\n${opened.console().slice(-40).join('\n')}`);
        t.diagnostic(`code-server output (last 3000 chars):\n${running.logs().slice(-3_000)}`);
        await page.screenshot({ path: path.join(e2eOutDir(), `${name}-failure.png`) }).catch(() => undefined);
        throw error;
      }
    };

    // First, and without touching the workbench: the suite drives it meanwhile.
    await t.test('a probe extension shows its notification in the real VS Code workbench', () => diagnosed('probe', async () => {
      const seen = await waitForValue(() => page.evaluate(() => (window as unknown as { __aepSeen: SeenAtStartup }).__aepSeen), (now) => now.probe > 0,
        'the probe\'s "AEP probe ok" among the toasts', { timeoutMs: 90_000, everyMs: PAGE_READ_EVERY_MS, show: (now) => JSON.stringify(now) });
      t.diagnostic(`page load -> notification "AEP probe ok": ${seen.probe - opened.loadedAt} ms`);
      const screenshot = path.join(e2eOutDir(), 'probe.png');
      await page.screenshot({ path: screenshot });
      t.diagnostic(`screenshot: ${screenshot}`);
      // The workbench really opened the folder, with no trust prompt or welcome page in the way.
      assert.equal(seen.dialog, 0, 'a modal dialog opened before the probe\'s notification');
      assert.equal(seen.welcome, 0, 'the welcome page opened before the probe\'s notification');
    }));
    await t.test('the extension-host suite passes', () => diagnosed('suite', async () => {
      await waitUntil(async () => {
        if (second && fs.existsSync(stopSecond)) {
          await second.close('the suite asked the second hub to stop');
          second = undefined;
        }
        return fs.existsSync(results);
      }, 'the suite to write its results', 240_000, undefined, 500);
      const verdict = JSON.parse(fs.readFileSync(results, 'utf8')) as { ok: boolean; error?: string; lines: string[] };
      for (const line of verdict.lines) t.diagnostic(line);
      assert.ok(verdict.ok, verdict.error);
      assert.ok(verdict.lines.some((line) => /^\d+ passed, 0 failed$/.test(line)));
    }));
  } catch (error) {
    if (workbench) {
      await workbench.page.screenshot({ path: path.join(e2eOutDir(), 'suite-failure.png') }).catch(() => undefined);
      t.diagnostic(`page console (last 40):\n${workbench.console().slice(-40).join('\n')}`);
    }
    if (server) t.diagnostic(`code-server output (last 3000 chars):\n${server.logs().slice(-3_000)}`);
    throw error;
  } finally {
    await workbench?.close();
    await server?.stop();
    for (const agent of agents) await agent.close();
    await secondAgent?.close();
    await second?.close();
    await hub?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
    t.diagnostic(`total ${Date.now() - started} ms`);
  }
});
