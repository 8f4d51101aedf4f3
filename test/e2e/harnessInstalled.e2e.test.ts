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
  // Where the whole browser is Debian's, the request pages run in its headless build (unless AEP_CHROMIUM names one
  // browser for all); where apt lacks that package, in the whole browser, as setup.sh said.
  const record = harnessRecord();
  assert.ok(record.ok, record.ok ? '' : record.why);
  const shell = record.value.headlessShell;
  t.diagnostic(`the request pages' browser: ${requestPageChromiumPath()}`);
  if (shell !== undefined && !process.env['AEP_CHROMIUM']) assert.equal(requestPageChromiumPath(), shell);
});
