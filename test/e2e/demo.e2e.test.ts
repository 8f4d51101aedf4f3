// `npm run demo` end to end: runs the demo command itself (out/peers/demo/main.js,
// what `npm run demo` runs after building), opens the one URL it prints in headless
// Chromium, answers the demo agent's form in the real workbench, then stops the
// demo with SIGINT (Ctrl+C) and checks that it exits 0 leaving nothing behind: no
// process that carries the run's token or its folder, the hub's and the editor's
// ports closed. Also checks the token never reaches its output or its files.
// Screenshots: out/e2e/demo-form-filled.png (the README's docs/form-in-vscode.png,
// copied by hand) and out/e2e/demo-form.png, answered.
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { e2eAvailable, e2eOutDir, openWorkbench, repoRoot, type Workbench } from './codeServer';
import { waitForStatus, webviewFrame } from './workbenchPage';
import { codeServerSuite } from '../support/harness';
import { waitForValue } from '../support/waitUntil';

const DEMO = path.join(repoRoot(), 'out', 'peers', 'demo', 'main.js');
const FORM_PROMPT = 'Configure the new service deployment';

interface RunningDemo {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  exitedYet(): boolean;
}

function startDemo(args: string[]): RunningDemo {
  const env = { ...process.env };
  delete env['NODE_TEST_CONTEXT'];
  const child = spawn(process.execPath, [DEMO, ...args], { cwd: repoRoot(), env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let done = false;
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => {
      done = true;
      resolve({ code, signal });
    }),
  );
  return { child, stdout: () => stdout, stderr: () => stderr, exited, exitedYet: () => done };
}

async function waitForOutput(demo: RunningDemo, pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray> {
  const match = await waitForValue(() => {
    const found = pattern.exec(demo.stdout());
    if (!found && demo.exitedYet()) throw new Error(`the demo exited before printing ${pattern}:\n${demo.stdout()}\n${demo.stderr()}`);
    return found;
  }, (found) => found !== null, `the demo to print ${pattern}`, { timeoutMs, everyMs: 100, show: () => `\n${demo.stdout()}\n${demo.stderr()}` });
  if (!match) throw new Error('unreachable: waitForValue returned no match');
  return match;
}

interface ProcessInfo {
  pid: number;
  pgid: number;
  cmdline: string;
}

/** Every process whose command line or environment contains one of `needles` (Linux /proc). */
function processesWith(needles: string[]): ProcessInfo[] {
  const found: ProcessInfo[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
      const environ = fs.readFileSync(`/proc/${pid}/environ`, 'utf8');
      if (!needles.some((needle) => cmdline.includes(needle) || environ.includes(needle))) continue;
      // /proc/PID/stat: "pid (comm) state ppid pgrp ..."; comm may contain spaces, so read after the last ')'.
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const pgid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
      found.push({ pid, pgid, cmdline });
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

function environmentOf(pid: number): Map<string, string> {
  const env = new Map<string, string>();
  for (const pair of fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0')) {
    const at = pair.indexOf('=');
    if (at > 0) env.set(pair.slice(0, at), pair.slice(at + 1));
  }
  return env;
}

function portRefuses(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

/** Every file under `dir` (not following links), for the token scan. */
function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(full);
    return entry.isFile() ? [full] : [];
  });
}

/** Closes the notification toasts on screen (a new one may come any moment; this is for a screenshot). */
async function clearToasts(page: Page): Promise<void> {
  const close = page.locator('.notifications-toasts .notification-toast .codicon-notifications-clear');
  for (let tries = 0; tries < 10 && (await close.count()) > 0; tries++) {
    await close.first().click({ force: true, timeout: 2_000 }).catch(() => undefined);
  }
}

test('npm run demo: one URL, a form answered in it, Ctrl+C leaves nothing running', { timeout: 600_000, ...codeServerSuite() }, async (t) => {
  const install = e2eAvailable();
  if (!install.ok) assert.fail(install.why);
  assert.ok(fs.existsSync(DEMO), `${DEMO} is missing: build it with "node esbuild.js --tests"`);
  const out = e2eOutDir();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'aep-demo-e2e-'));
  const dir = path.join(tmp, 'demo');
  let demo: RunningDemo | undefined;
  let workbench: Workbench | undefined;
  let token: string | undefined;
  try {
    // The demo's defaults (all scenarios, a request every 8 s), on ports nothing else uses.
    const spawnedAt = Date.now();
    demo = startDemo(['--port', '0', '--editor-port', '0', '--dir', dir]);
    const [, openUrl = ''] = await waitForOutput(demo, /^Open (http:\/\/127\.0\.0\.1:\d+\/aep-demo\/[\w-]{24,}\?folder=\S+)$/m, 300_000);
    const urlAt = Date.now();
    t.diagnostic(`demo start -> URL printed: ${urlAt - spawnedAt} ms`);
    const [, hubUrl = ''] = await waitForOutput(demo, /^Hub: (http:\/\/127\.0\.0\.1:\d+)/m, 1_000);
    const url = new URL(openUrl);
    const folder = url.searchParams.get('folder') ?? '';
    assert.equal(folder, path.join(dir, 'workspace'));
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(folder, '.vscode', 'settings.json'), 'utf8')), { 'aepAttention.hubUrl': hubUrl });
    assert.equal(demo.stdout().match(/^Open /gm)?.length, 1, 'one URL to open');

    // The token reached code-server (and only through its environment).
    const editors = processesWith([path.join(dir, 'editor', 'user-data')]);
    assert.ok(editors.length > 0, 'code-server runs with the demo folder');
    // code-server listens on a socket of this user's only; the port in front of it turns away whoever lacks the printed key.
    const editor = editors.find((candidate) => candidate.cmdline.includes('--socket'));
    const editorCmdline = editor?.cmdline ?? '';
    assert.match(editorCmdline, /--socket \S+ --socket-mode 600/);
    assert.doesNotMatch(editorCmdline, /--bind-addr/);
    const stranger = await fetch(`${url.origin}/?folder=${encodeURIComponent(folder)}`, { redirect: 'manual' });
    assert.equal(stranger.status, 403, 'the editor port refuses a request without the key');
    const wrongKey = await fetch(`${url.origin}/aep-demo/${'x'.repeat(32)}`, { redirect: 'manual' });
    assert.equal(wrongKey.status, 403, 'the editor port refuses a wrong key');
    // code-server's own process, which stays: another of those found may be a short-lived child, gone by now (seen once).
    const editorEnv = environmentOf(editor?.pid ?? 0);
    assert.equal(editorEnv.get('AEP_HUB'), hubUrl);
    token = editorEnv.get('AEP_TOKEN');
    assert.ok(token && token.length >= 24, 'a generated token in the editor environment');

    workbench = await openWorkbench(`${url.origin}${url.pathname}`, folder);
    const page = workbench.page;
    // Workspace Trust is on in the demo's editor: it asks whether to trust the demo folder, and the person says yes.
    const trustDialog = page.locator('.monaco-dialog-box', { hasText: 'trust the authors' });
    await trustDialog.waitFor({ state: 'visible', timeout: 60_000 });
    await trustDialog.locator('.monaco-button', { hasText: 'Yes, I trust the authors' }).click();
    await trustDialog.waitFor({ state: 'hidden', timeout: 15_000 });
    await waitForStatus(page, /Connected to http:\/\/127\.0\.0\.1:\d+\. \d+ requests? waits? for you/);
    await page.locator('.notifications-toasts .notification-toast', { hasText: 'demo-agent' }).first().waitFor({ state: 'visible', timeout: 60_000 });

    // The form, from the inbox: other scenarios' requests come and go around it.
    await page.locator('.activitybar .action-label[aria-label^="AEP Attention"]').click({ force: true });
    const row = page.locator('.sidebar .monaco-list-row', { hasText: FORM_PROMPT }).first();
    // The list moves as the agent's other requests come and go: a click can land on the row that took the form's
    // place (seen once: the permission's page opened). So the form's own page is waited for, and the row clicked again.
    let form: Frame | undefined;
    for (let attempt = 1; !form; attempt++) {
      await row.waitFor({ timeout: 30_000 });
      await row.click();
      form = await webviewFrame(page, 10_000, 'demo-form-').catch((error: unknown) => {
        if (attempt >= 3) throw error;
        return undefined;
      });
    }
    await form.locator('#field-0').click();
    await page.keyboard.type('billing-api');
    await form.locator('[data-field="regions"] vscode-checkbox').first().click();
    await form.locator('[data-field="db"] vscode-radio').first().click();
    // The filled form before it is sent, the README's picture.
    await clearToasts(page);
    await page.screenshot({ path: path.join(out, 'demo-form-filled.png') });
    t.diagnostic(`screenshot: ${path.join(out, 'demo-form-filled.png')}`);
    await form.locator('#send').click();
    await form.locator('#outcome', { hasText: 'demo-agent accepted the answer.' }).waitFor({ timeout: 30_000 });
    await form.locator('#status', { hasText: 'Resolved (answered).' }).waitFor({ timeout: 30_000 });
    const answeredAt = Date.now();
    t.diagnostic(`URL printed -> form answered: ${answeredAt - urlAt} ms`);
    // The answered form in full view: the toasts of later requests would cover its outcome line.
    await clearToasts(page);
    await page.screenshot({ path: path.join(out, 'demo-form.png') });
    t.diagnostic(`screenshot: ${path.join(out, 'demo-form.png')}`);
    // The agent's side, as the demo prints it.
    await waitForOutput(demo, /^demo-agent: accepted .* \(form s_form\) values=\{"name":"billing-api","staged":false,"regions":\["1"\],"db":"1"\}/m, 10_000);

    // What the demo started, before stopping it: code-server and the extension host at least.
    const before = processesWith([token, dir]);
    assert.ok(before.length >= 2, `code-server and its extension host carry the token: ${JSON.stringify(before)}`);
    // The demo itself shares this test's process group; code-server has a group of its own.
    const demoGroup = before.find((info) => info.pid === demo?.child.pid)?.pgid;
    const groups = new Set(before.filter((info) => info.pgid !== demoGroup).map((info) => info.pgid));
    assert.ok(groups.size > 0, `code-server runs in a process group of its own: ${JSON.stringify(before)}`);
    await workbench.close();
    workbench = undefined;

    // Ctrl+C.
    const stopAt = Date.now();
    demo.child.kill('SIGINT');
    let timer: NodeJS.Timeout | undefined;
    // A deadline, not a wait: the race ends as soon as the demo exits.
    const exit = await Promise.race([demo.exited, new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), 60_000)))]);
    clearTimeout(timer);
    assert.ok(exit, 'the demo exits within 60 s of SIGINT');
    t.diagnostic(`SIGINT -> demo exited: ${Date.now() - stopAt} ms`);
    assert.deepEqual(exit, { code: 0, signal: null }, `${demo.stdout()}\n${demo.stderr()}`);
    assert.match(demo.stdout(), /^Stopped\. Nothing the demo started is running any more\./m);

    const left = processesWith([token, dir]);
    assert.deepEqual(left, [], 'no process of the demo is left');
    for (const pgid of groups) {
      assert.throws(() => process.kill(-pgid, 0), { code: 'ESRCH' }, `process group ${pgid} is gone`);
    }
    assert.ok(await portRefuses(Number(new URL(hubUrl).port)), 'the hub port is closed');
    assert.ok(await portRefuses(Number(url.port)), 'the editor port is closed');

    // The token was never printed (without --no-editor) and never written into the demo's folder.
    assert.ok(!demo.stdout().includes(token) && !demo.stderr().includes(token), 'the token is not printed');
    const holders = filesUnder(dir).filter((file) => fs.readFileSync(file).includes(token ?? ''));
    assert.deepEqual(holders, [], 'no file of the demo holds the token');
  } catch (error) {
    if (workbench) {
      await workbench.page.screenshot({ path: path.join(out, 'demo-failure.png') }).catch(() => undefined);
      t.diagnostic(`page console (last 30):\n${workbench.console().slice(-30).join('\n')}`);
    }
    if (demo) t.diagnostic(`demo stdout:\n${demo.stdout()}\ndemo stderr:\n${demo.stderr()}`);
    throw error;
  } finally {
    await workbench?.close();
    if (demo && !demo.exitedYet()) {
      demo.child.kill('SIGKILL');
      await demo.exited;
    }
    // Whatever the demo left (only on failure): the processes that carry this run's token or folder.
    for (const info of processesWith(token ? [token, dir] : [dir])) {
      try {
        process.kill(info.pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});
