// What this machine has for the suites that drive a browser or the real
// editor, and whether a suite may skip for lack of it. scripts/e2e/prepare.mjs
// (npm test's first step) writes the record read here: where the code-server
// harness and a Chromium are, or why the harness is not here.
//
// The rule: a machine that can install the harness (Linux x64 with apt-get,
// as root: CI) must have it, so nothing skips there and a broken install
// fails. Anywhere else (macOS, Windows, Linux without root) a suite whose
// pieces are missing skips, with the reason on its one line.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as z from 'zod/mini';
import { repoRoot } from './fixtures';

const recordSchema = z.object({
  node24: z.optional(z.string()),
  codeServerEntry: z.optional(z.string()),
  chromium: z.optional(z.string()),
  headlessShell: z.optional(z.string()),
  unavailable: z.optional(z.string()),
});
export type HarnessRecord = z.infer<typeof recordSchema>;

/** Where setup.sh installs (AEP_E2E_CACHE overrides, as it does for the scripts). */
export function cacheDir(): string {
  return process.env['AEP_E2E_CACHE'] ?? path.join(repoRoot(), '.cache', 'e2e');
}

export const SETUP_HINT = 'run "node scripts/e2e/prepare.mjs" (npm test does; on Linux x64 it installs code-server and, as root, Debian\'s Chromium)';

/** The record prepare.mjs / setup.sh wrote, or why there is none. */
export function harnessRecord(): { ok: true; value: HarnessRecord } | { ok: false; why: string } {
  const file = path.join(cacheDir(), 'e2e.json');
  if (!fs.existsSync(file)) return { ok: false, why: `${file} is missing; ${SETUP_HINT}` };
  try {
    const parsed = recordSchema.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
    return parsed.success ? { ok: true, value: parsed.data } : { ok: false, why: `${file} is not a harness record; ${SETUP_HINT}` };
  } catch (error) {
    return { ok: false, why: `${file} is unreadable (${String(error)}); ${SETUP_HINT}` };
  }
}

/** The Chromium to drive: $AEP_CHROMIUM, the one the record names, or Debian's. */
export function chromiumPath(): string {
  const fromEnv = process.env['AEP_CHROMIUM'];
  if (fromEnv) return fromEnv;
  const record = harnessRecord();
  return (record.ok ? record.value.chromium : undefined) ?? '/usr/bin/chromium';
}

/**
 * The Chromium the request-page suites drive: the headless build the record names, where
 * setup.sh found the whole browser to be Debian's and installed its chromium-headless-shell
 * (the same version, Blink and V8, without the whole browser's layers; those files took
 * 152-167 CPU-s in it against 254-294 in the whole browser), else `chromiumPath()`.
 * $AEP_CHROMIUM, when set, is used everywhere. The workbenches keep the whole browser (the
 * system notifications need its permission prompt, which the headless build refuses), and
 * so do the benchmarks.
 */
export function requestPageChromiumPath(): string {
  if (process.env['AEP_CHROMIUM']) return chromiumPath();
  const record = harnessRecord();
  const shell = record.ok ? record.value.headlessShell : undefined;
  return shell !== undefined && fs.existsSync(shell) ? shell : chromiumPath();
}

export interface Machine {
  platform: NodeJS.Platform;
  arch: string;
  isRoot: boolean;
  hasAptGet: boolean;
}

/**
 * This machine, or the one AEP_E2E_PLATFORM=<platform>-<arch> names (as for
 * scripts/e2e/prepare.mjs): `AEP_E2E_PLATFORM=darwin-arm64 npm test` shows
 * here what a macOS contributor sees.
 */
export function thisMachine(): Machine {
  const standIn = process.env['AEP_E2E_PLATFORM'];
  if (standIn) {
    const [platform, arch] = standIn.split('-');
    if (platform !== process.platform || arch !== process.arch) return { platform: (platform ?? '') as NodeJS.Platform, arch: arch ?? '', isRoot: false, hasAptGet: false };
  }
  return { platform: process.platform, arch: process.arch, isRoot: process.getuid?.() === 0, hasAptGet: process.platform === 'linux' && hasAptGet() };
}

let aptGet: boolean | undefined;
/** Looked up once per process: every suite file asks. */
function hasAptGet(): boolean {
  if (aptGet === undefined) {
    try {
      execFileSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' });
      aptGet = true;
    } catch {
      aptGet = false;
    }
  }
  return aptGet;
}

/** Whether this machine can install the whole harness itself (CI can): then nothing may skip. */
export function canInstallHarness(machine: Machine): boolean {
  return machine.platform === 'linux' && machine.arch === 'x64' && machine.hasAptGet && machine.isRoot;
}

/**
 * The `skip` option for a suite that needs `pieces`: false to run it (it
 * then fails loudly if a piece is missing), or the one-line reason to skip.
 */
export function skipUnless(missing: string | undefined, machine: Machine): false | string {
  if (missing === undefined) return false;
  if (canInstallHarness(machine)) return false;
  return missing;
}

/** Why the Chromium suites cannot run here, if they cannot. */
export function chromiumMissing(): string | undefined {
  const file = chromiumPath();
  return fs.existsSync(file) ? undefined : `no Chromium here (looked for ${file}): set AEP_CHROMIUM to a Chrome or Chromium, or run "npx playwright install chromium", then ${SETUP_HINT}`;
}

/** Why the code-server suites cannot run here, if they cannot. */
export function codeServerMissing(): string | undefined {
  const record = harnessRecord();
  if (!record.ok) return `e2e harness not installed: ${record.why}`;
  if (record.value.unavailable !== undefined) return `e2e harness not installed here: ${record.value.unavailable}`;
  const { node24, codeServerEntry } = record.value;
  if (node24 === undefined || codeServerEntry === undefined) return `the harness record lacks node24/codeServerEntry; ${SETUP_HINT}`;
  const missing = [node24, codeServerEntry, chromiumPath()].filter((file) => !fs.existsSync(file));
  return missing.length > 0 ? `e2e harness incomplete, missing: ${missing.join(', ')}; ${SETUP_HINT}` : undefined;
}

/** `{ skip }` for a suite that drives a Chromium (test/webview). */
export const chromiumSuite = (): { skip: false | string } => ({ skip: skipUnless(chromiumMissing(), thisMachine()) });

/** `{ skip }` for a suite that drives the real editor (test/e2e). */
export const codeServerSuite = (): { skip: false | string } => ({ skip: skipUnless(codeServerMissing(), thisMachine()) });
