// `npm run test:vscode`: the extension-host suite in a desktop VS Code
// downloaded by @vscode/test-electron, against the local hub and demo agent.
// (CI cannot download VS Code; there the same suite runs inside code-server's
// extension host instead, in test/e2e/vscodeSuite.e2e.test.ts.)
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runTests } from '@vscode/test-electron';
import { startAgent } from '../peers/agent/agent';
import { startHub } from '../peers/hub/hub';

async function main(): Promise<void> {
  const root = path.resolve(__dirname, '..', '..', '..');
  const token = randomBytes(16).toString('hex');
  const hub = await startHub({ port: 0, token });
  const agent = await startAgent({ hubUrl: hub.url, token, scenarios: ['form'], everyMs: 600_000, log: () => undefined });
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'aep-vscode-suite-'));
  try {
    await runTests({
      extensionDevelopmentPath: root,
      extensionTestsPath: path.join(root, 'out', 'peers', 'vscode', 'suite.js'),
      launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust'],
      extensionTestsEnv: { AEP_HUB: hub.url, AEP_TOKEN: token },
    });
  } finally {
    await agent.close();
    await hub.close();
    fs.rmSync(workspace, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
