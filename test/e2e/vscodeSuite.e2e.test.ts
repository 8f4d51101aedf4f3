// Runs the extension-host suite (test/vscode/suite.ts, the one
// `npm run test:vscode` runs under @vscode/test-electron) inside
// code-server's real extension host, so it runs in CI and is not dead code.
// A small runner extension, packaged here, loads the suite when the
// extension host starts and writes the verdict to a file.
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { startAgent, type RunningAgent } from '../peers/agent/agent';
import { startHub, type RunningHub } from '../peers/hub/hub';
import { e2eAvailable, openWorkbench, repoRoot, startCodeServer, type CodeServer, type Workbench } from './codeServer';
import { packageExtension, runVsce } from './vsce';
import { waitUntil } from '../support/waitUntil';
import { codeServerSuite } from '../support/harness';

/** The runner: an extension whose only job is to run the suite and write the verdict. */
async function buildRunnerVsix(dir: string): Promise<string> {
  const source = path.join(dir, 'runner');
  fs.mkdirSync(source, { recursive: true });
  fs.copyFileSync(path.join(repoRoot(), 'out', 'peers', 'vscode', 'suite.js'), path.join(source, 'suite.js'));
  fs.writeFileSync(path.join(source, 'package.json'), JSON.stringify({
    name: 'aep-suite-runner', displayName: 'AEP suite runner', description: 'Runs the AEP Attention extension-host suite.',
    publisher: 'aepe2e', version: '0.0.1', license: 'MIT', engines: { vscode: '^1.100.0' },
    activationEvents: ['onStartupFinished'], main: './extension.js', extensionDependencies: ['aepattention.aep-attention'],
  }, null, 2));
  fs.writeFileSync(path.join(source, 'extension.js'), `
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
`);
  fs.writeFileSync(path.join(source, 'LICENSE'), 'MIT\n');
  const out = path.join(dir, 'runner.vsix');
  await runVsce(['package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', out], source);
  return out;
}

test('the extension-host suite passes inside code-server', { timeout: 600_000, ...codeServerSuite() }, async (t) => {
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
  try {
    const extensionVsix = path.join(tmp, 'aep-attention.vsix');
    await packageExtension(extensionVsix);
    const runnerVsix = await buildRunnerVsix(tmp);
    hub = await startHub({ port: 0, token });
    for (const scenario of ['form', 'permission', 'input', 'form'] as const) {
      agents.push(await startAgent({ hubUrl: hub.url, token, scenarios: [scenario], everyMs: 600_000, log: () => undefined }));
    }
    second = await startHub({ port: 0 });
    secondAgent = await startAgent({ hubUrl: second.url, scenarios: ['input'], everyMs: 600_000, log: () => undefined });
    const suiteEnv = { AEP_HUB: hub.url, AEP_TOKEN: token, AEP_SUITE_RESULTS: results, AEP_SECOND_HUB: second.url, AEP_SECOND_HUB_STOP: stopSecond };
    const workspaceDir = path.join(tmp, 'workspace');
    const extensionsDir = path.join(tmp, 'extensions');
    // The extension first, so the runner's dependency is there when it installs.
    server = await startCodeServer({ vsixPath: [extensionVsix, runnerVsix], workspaceDir, userDataDir: path.join(tmp, 'user-data'), extensionsDir, env: suiteEnv });
    workbench = await openWorkbench(server.url, workspaceDir);
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
  } catch (error) {
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
  }
});
