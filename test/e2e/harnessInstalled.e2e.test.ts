// Where the harness can be installed (Linux x64, apt-get, root: CI), it is:
// there no code-server or Chromium suite may skip. Checked here, with those
// suites, since it holds only after scripts/e2e/prepare.mjs (npm test's first
// step) has run; test/unit/harness.test.ts checks the rule itself.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canInstallHarness, chromiumMissing, codeServerMissing, harnessRecord, requestPageChromiumPath, thisMachine } from '../support/harness';

test('where the harness can be installed (CI), it is: no code-server or Chromium suite skips here', (t) => {
  const machine = thisMachine();
  if (!canInstallHarness(machine)) {
    t.skip(`this machine (${machine.platform}-${machine.arch}${machine.isRoot ? ', root' : ''}${machine.hasAptGet ? ', apt-get' : ''}) cannot install the harness, so its suites may skip`);
    return;
  }
  assert.equal(codeServerMissing(), undefined);
  assert.equal(chromiumMissing(), undefined);
  // And the request pages run in the headless build it installs (unless AEP_CHROMIUM names one browser for all).
  const record = harnessRecord();
  assert.ok(record.ok && record.value.headlessShell, 'the harness record names the headless shell');
  if (!process.env['AEP_CHROMIUM']) assert.equal(requestPageChromiumPath(), record.value.headlessShell);
});
