// Where the browser and editor suites run, and where they may skip
// (test/support/harness.ts, scripts/e2e/prepare.mjs): a machine that can
// install the harness itself (Linux x64, apt-get, root: CI) skips nothing;
// anywhere else a suite without its pieces skips with the reason. That this
// machine has what it needs is checked with the suites that need it
// (test/e2e/harnessInstalled.e2e.test.ts), after prepare.mjs has run.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { canInstallHarness, chromiumMissing, chromiumPath, codeServerMissing, requestPageChromiumPath, skipUnless, type Machine } from '../support/harness';
import { repoRoot } from '../support/fixtures';

const ci: Machine = { platform: 'linux', arch: 'x64', isRoot: true, hasAptGet: true };
const mac: Machine = { platform: 'darwin', arch: 'arm64', isRoot: false, hasAptGet: false };
const linuxUser: Machine = { platform: 'linux', arch: 'x64', isRoot: false, hasAptGet: true };

test('only a machine that can install the harness itself must have it', () => {
  assert.equal(canInstallHarness(ci), true);
  for (const machine of [mac, linuxUser, { ...ci, arch: 'arm64' }, { ...ci, hasAptGet: false }, { platform: 'win32' as const, arch: 'x64', isRoot: false, hasAptGet: false }]) {
    assert.equal(canInstallHarness(machine), false, JSON.stringify(machine));
  }
});

test('a suite with its pieces runs; without them it skips with the reason, except where the harness can be installed', () => {
  assert.equal(skipUnless(undefined, mac), false);
  assert.equal(skipUnless(undefined, ci), false);
  assert.equal(skipUnless('no Chromium here', mac), 'no Chromium here');
  assert.equal(skipUnless('no Chromium here', linuxUser), 'no Chromium here');
  // CI: the suite runs and fails loudly rather than passing as skipped.
  assert.equal(skipUnless('no Chromium here', ci), false);
});

test('prepare.mjs off Linux x64 records why the code-server suites skip, and the Chromium it found', () => {
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'aep-harness-'));
  try {
    const fakeChromium = path.join(cache, 'chrome');
    fs.writeFileSync(fakeChromium, '');
    const output = execFileSync(process.execPath, [path.join(repoRoot(), 'scripts', 'e2e', 'prepare.mjs')], {
      env: { ...process.env, AEP_E2E_CACHE: cache, AEP_E2E_PLATFORM: 'darwin-arm64', AEP_CHROMIUM: fakeChromium },
      encoding: 'utf8',
    });
    assert.match(output, /code-server suites will skip here: the code-server harness runs on Linux x64 only \(this is darwin-arm64\)/);
    const record = JSON.parse(fs.readFileSync(path.join(cache, 'e2e.json'), 'utf8')) as Record<string, unknown>;
    assert.deepEqual(record, { unavailable: 'the code-server harness runs on Linux x64 only (this is darwin-arm64)', chromium: fakeChromium });
    // What a suite reads from that record: the reason to skip, on a machine that cannot install the harness.
    const saved = process.env['AEP_E2E_CACHE'];
    process.env['AEP_E2E_CACHE'] = cache;
    try {
      assert.equal(skipUnless(codeServerMissing(), mac), 'e2e harness not installed here: the code-server harness runs on Linux x64 only (this is darwin-arm64)');
      assert.equal(skipUnless(chromiumMissing(), mac), false, 'the Chromium it found runs the request-page suites');
    } finally {
      if (saved === undefined) delete process.env['AEP_E2E_CACHE'];
      else process.env['AEP_E2E_CACHE'] = saved;
    }
  } finally {
    fs.rmSync(cache, { recursive: true, force: true });
  }
});

test('the request pages run in the headless build the record names, if it is there; AEP_CHROMIUM names one browser for all', () => {
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'aep-harness-'));
  const saved = { cache: process.env['AEP_E2E_CACHE'], chromium: process.env['AEP_CHROMIUM'] };
  try {
    const whole = path.join(cache, 'chromium');
    const shell = path.join(cache, 'chromium-headless-shell');
    fs.writeFileSync(whole, '');
    fs.writeFileSync(shell, '');
    fs.writeFileSync(path.join(cache, 'e2e.json'), JSON.stringify({ chromium: whole, headlessShell: shell }));
    process.env['AEP_E2E_CACHE'] = cache;
    delete process.env['AEP_CHROMIUM'];
    assert.equal(requestPageChromiumPath(), shell);
    assert.equal(chromiumPath(), whole, 'the workbenches and the benchmarks keep the whole browser');
    process.env['AEP_CHROMIUM'] = path.join(cache, 'chrome');
    assert.equal(requestPageChromiumPath(), path.join(cache, 'chrome'));
    delete process.env['AEP_CHROMIUM'];
    fs.rmSync(shell);
    assert.equal(requestPageChromiumPath(), whole, 'a shell named but gone: the whole browser');
  } finally {
    for (const [name, value] of [['AEP_E2E_CACHE', saved.cache], ['AEP_CHROMIUM', saved.chromium]] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    fs.rmSync(cache, { recursive: true, force: true });
  }
});
