// The claims every window of one profile shares (src/inbox/noticeClaims.ts):
// one system notification per request, a budget per minute, and the focused
// window's marker, on real files in a temporary directory.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test, type TestContext } from 'node:test';
import type { Severity } from '../../src/aep/levels';
import { CLAIM_MAX_AGE_MS, FOCUS_MARKER_TTL_MS, FOCUS_REFRESH_MS, MINUTE_MS, NoticeClaims, type ClaimedRequest } from '../../src/inbox/noticeClaims';
import type { ToastPolicy } from '../../src/inbox/toastPolicy';
import { repoRoot } from '../support/fixtures';

function tempDir(t: TestContext): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'notice-claims-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  // Not created yet: the first claim makes it, as in a fresh global storage.
  return path.join(dir, 'claims');
}

const request = (requestId: string, hub = 'https://hub.example'): ClaimedRequest => ({ hub, source: 'agent', session: 's1', requestId });
/** A focused window's hub with what it shows a toast for: every request, by default. */
const toasts = (hub: string, policy: ToastPolicy = { notifications: 'all', minSeverity: 'info' }) => ({ hub, policy });
/** A request of `hub` as the focus marker is asked about it. */
const asked = (hub: string, kind = 'permission', severity: Severity = 'notice') => ({ hub, request: { kind, severity } });

test('of two windows, the first to claim a request gives its notification; the other stays quiet', async (t) => {
  const dir = tempDir(t);
  const a = new NoticeClaims(dir, 'window-a');
  const b = new NoticeClaims(dir, 'window-b');
  assert.equal(await a.claimRequest(request('r1')), true);
  assert.equal(await b.claimRequest(request('r1')), false);
  assert.equal(await a.claimRequest(request('r1')), false, 'the same window is not told twice either');
  assert.equal(await b.claimRequest(request('r2')), true, 'another request is another claim');
  assert.equal(await b.claimRequest(request('r1', 'https://other.example')), true, 'the same id on another hub is another request');
});

test('a request another window claimed is known as claimed: a window without its view need not show it for that request', async (t) => {
  const dir = tempDir(t);
  const a = new NoticeClaims(dir, 'window-a');
  const b = new NoticeClaims(dir, 'window-b');
  assert.equal(await b.claimedAlready(request('r1')), false, 'nothing claimed yet (and no directory yet)');
  assert.equal(await a.claimRequest(request('r1')), true);
  assert.equal(await b.claimedAlready(request('r1')), true);
  assert.equal(await b.claimedAlready(request('r1', 'https://hub.example/')), true, 'the hub in another spelling is the same hub');
  assert.equal(await b.claimedAlready(request('r2')), false, 'another request is not given by it');
  assert.equal(await b.claimedAlready(request('r1', 'https://other.example')), false, 'nor the same id on another hub');
  assert.equal(await b.claimRequest(request('r1')), false, 'asking does not claim: the claim is still the first window\'s');
  assert.equal(await new NoticeClaims(undefined, 'window-c').claimedAlready(request('r1')), false, 'no shared directory: each window decides alone');
});

test('two windows naming one hub in two spellings share its claims and its focus marker', async (t) => {
  const dir = tempDir(t);
  const spellings = ['http://127.0.0.1:8787', 'http://127.0.0.1:8787/', 'HTTP://127.0.0.1:8787', 'ws://127.0.0.1:8787/socket', 'http://127.0.0.1:8787/events/'];
  const [first, ...others] = spellings.map((hub, i) => ({ hub, claims: new NoticeClaims(dir, `window-${i}`) }));
  assert.ok(first);
  assert.equal(await first.claims.claimRequest(request('r1', first.hub)), true);
  for (const { hub, claims } of others) assert.equal(await claims.claimRequest(request('r1', hub)), false, hub);
  await first.claims.setFocused([toasts(first.hub)]);
  for (const { hub, claims } of others) assert.equal(await claims.focusedElsewhere(asked(hub)), true, hub);

  // Hosts differ in case only as typed: the URL parser lowers them.
  const a = new NoticeClaims(dir, 'window-a');
  assert.equal(await a.claimRequest(request('r2', 'https://Hub.Example/teamA')), true);
  assert.equal(await new NoticeClaims(dir, 'window-b').claimRequest(request('r2', 'https://hub.example/teamA/')), false);
  // A path is part of which hub it is, and its case with it; another port is another hub.
  for (const hub of ['https://hub.example/teamB', 'https://hub.example/teama', 'http://127.0.0.1:8788']) {
    assert.equal(await new NoticeClaims(dir, 'window-c').claimRequest(request('r2', hub)), true, hub);
  }
});

test('many claimers racing for one request: exactly one wins', async (t) => {
  const dir = tempDir(t);
  const windows = Array.from({ length: 12 }, (_, i) => new NoticeClaims(dir, `window-${i}`));
  const won = await Promise.all(windows.map((claims) => claims.claimRequest(request('r1'))));
  assert.equal(won.filter(Boolean).length, 1, JSON.stringify(won));
});

/** Runs a window in its own process (test/peers/noticeClaimer): it claims once told to go. */
function claimer(dir: string, window: string, count: number, order: 'forward' | 'reverse'): { ready: Promise<void>; go(): void; won: Promise<string[]> } {
  const child = spawn(process.execPath, [path.join(repoRoot(), 'out', 'peers', 'noticeClaimer', 'main.js'), dir, window, String(count), order], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  let onReady = () => {};
  const ready = new Promise<void>((resolve) => (onReady = resolve));
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    if (out.startsWith('ready\n')) onReady();
  });
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const won = new Promise<string[]>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out.slice('ready\n'.length)) as string[]) : reject(new Error(`claimer ${window} exited ${code}: ${err}`))));
  });
  return { ready, go: () => child.stdin.end('go\n'), won };
}

test('two windows in two processes claiming the same requests at once: each request is won by exactly one', async (t) => {
  const dir = tempDir(t);
  const count = 200;
  // One from the first request up, the other from the last down: they meet and contend somewhere between.
  const a = claimer(dir, 'window-a', count, 'forward');
  const b = claimer(dir, 'window-b', count, 'reverse');
  await Promise.all([a.ready, b.ready]);
  a.go();
  b.go();
  const [wonA, wonB] = await Promise.all([a.won, b.won]);
  t.diagnostic(`window a won ${wonA.length}, window b ${wonB.length}`);
  assert.equal(wonA.length + wonB.length, count, 'every request claimed once, none twice');
  assert.deepEqual(new Set([...wonA, ...wonB]).size, count);
  assert.equal(wonA.filter((id) => wonB.includes(id)).length, 0);
});

test('at most perMinute notifications a minute across every window; the next minute opens a new budget', async (t) => {
  const dir = tempDir(t);
  const a = new NoticeClaims(dir, 'window-a', { perMinute: 3 });
  const b = new NoticeClaims(dir, 'window-b', { perMinute: 3 });
  const minute = 1_000 * MINUTE_MS;
  const taken = [await a.claimSlot(minute + 1), await b.claimSlot(minute + 2), await a.claimSlot(minute + 3), await b.claimSlot(minute + 4), await a.claimSlot(minute + MINUTE_MS - 1)];
  assert.deepEqual(taken, [true, true, true, false, false]);
  assert.equal(await b.claimSlot(minute + MINUTE_MS), true, 'a new minute');
  const racing = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? a : b).claimSlot(minute + 2 * MINUTE_MS)));
  assert.equal(racing.filter(Boolean).length, 3, JSON.stringify(racing));
});

test('the focused window keeps the others quiet for the hubs it shows toasts for, while it runs', async (t) => {
  const dir = tempDir(t);
  const a = new NoticeClaims(dir, 'window-a');
  const b = new NoticeClaims(dir, 'window-b');
  assert.equal(await b.focusedElsewhere(asked('https://hub.example')), false, 'nobody focused yet');
  await a.setFocused([toasts('https://hub.example')]);
  assert.equal(await b.focusedElsewhere(asked('https://hub.example')), true);
  assert.equal(await b.focusedElsewhere(asked('https://other.example')), false, 'a hub the focused window does not show');
  assert.equal(await a.focusedElsewhere(asked('https://hub.example')), false, 'its own focus is not elsewhere');

  // The person moves to window b: b's focus may land before a's blur.
  await b.setFocused([toasts('https://hub.example')]);
  await a.clearFocused();
  assert.equal(await a.focusedElsewhere(asked('https://hub.example')), true, "a's late blur leaves b's marker");
  await b.clearFocused();
  assert.equal(await a.focusedElsewhere(asked('https://hub.example')), false, 'the person left VS Code');
});

test('a focused window silences the others only for what it shows as a toast: toasts off, forms only, a severity floor', async (t) => {
  const dir = tempDir(t);
  const focused = new NoticeClaims(dir, 'window-a');
  const behind = new NoticeClaims(dir, 'window-b');
  const hub = 'http://127.0.0.1:8787';
  await focused.setFocused([toasts(hub, { notifications: 'off', minSeverity: 'info' })]);
  assert.equal(await behind.focusedElsewhere(asked(hub)), false, 'its toasts are off: the person sees nothing there');
  assert.equal(await behind.focusedElsewhere(asked(hub, 'form', 'critical')), false);

  await focused.setFocused([toasts(hub, { notifications: 'forms', minSeverity: 'info' })]);
  assert.equal(await behind.focusedElsewhere(asked(hub, 'permission')), false, 'forms only: a permission is not shown');
  assert.equal(await behind.focusedElsewhere(asked(hub, 'form')), true);

  await focused.setFocused([toasts(hub, { notifications: 'all', minSeverity: 'warning' })]);
  assert.equal(await behind.focusedElsewhere(asked(hub, 'permission', 'notice')), false, 'below its floor');
  assert.equal(await behind.focusedElsewhere(asked(hub, 'permission', 'error')), true);
  assert.equal(await behind.focusedElsewhere({ hub }), false, 'a request that could not be read counts as a notice');

  // Per hub: toasts off for one hub of the focused window leaves its other hub's quiet.
  await focused.setFocused([toasts(hub, { notifications: 'off', minSeverity: 'info' }), toasts('https://hub.example')]);
  assert.equal(await behind.focusedElsewhere(asked(hub)), false);
  assert.equal(await behind.focusedElsewhere(asked('https://hub.example')), true);
});

test('a focused window whose process is gone keeps nobody quiet', async (t) => {
  const dir = tempDir(t);
  // A pid no process has: the window's host crashed without clearing its marker.
  const gone = spawnSync(process.execPath, ['-e', '0']).pid;
  const crashed = new NoticeClaims(dir, 'window-a', { pid: gone });
  await crashed.setFocused([toasts('https://hub.example')]);
  assert.equal(await new NoticeClaims(dir, 'window-b').focusedElsewhere(asked('https://hub.example')), false);
  await new NoticeClaims(dir, 'window-c', { pid: process.pid }).setFocused([toasts('https://hub.example')]);
  assert.equal(await new NoticeClaims(dir, 'window-b').focusedElsewhere(asked('https://hub.example')), true, 'a live one does');
});

test('a focus marker not written again within its time to live keeps nobody quiet: its window\'s page is gone, its host runs on', async (t) => {
  const dir = tempDir(t);
  const focused = new NoticeClaims(dir, 'window-a');
  const behind = new NoticeClaims(dir, 'window-b');
  const at = Date.now();
  await focused.setFocused([toasts('https://hub.example')], at);
  assert.equal(await behind.focusedElsewhere(asked('https://hub.example'), at + FOCUS_MARKER_TTL_MS), true, 'fresh to the last millisecond');
  assert.equal(await behind.focusedElsewhere(asked('https://hub.example'), at + FOCUS_MARKER_TTL_MS + 1), false, 'then nobody\'s');
  await focused.setFocused([toasts('https://hub.example')], at + FOCUS_MARKER_TTL_MS);
  assert.equal(await behind.focusedElsewhere(asked('https://hub.example'), at + FOCUS_MARKER_TTL_MS + 1), true, 'written again, it counts again');
  assert.ok(FOCUS_REFRESH_MS * 2 < FOCUS_MARKER_TTL_MS, 'a live window refreshes it at least twice within its time to live');
});

test('claims past their age are swept and slots of old minutes too; a fresh claim stays', async (t) => {
  const dir = tempDir(t);
  const a = new NoticeClaims(dir, 'window-a');
  const now = Date.now();
  assert.equal(await a.claimRequest(request('old')), true);
  assert.equal(await a.claimSlot(now - 20 * MINUTE_MS), true);
  const old = now - CLAIM_MAX_AGE_MS - 1_000;
  for (const name of fs.readdirSync(dir)) fs.utimesSync(path.join(dir, name), old / 1000, old / 1000);
  assert.equal(await a.claimRequest(request('fresh')), true);
  await a.setFocused([toasts('https://hub.example')]);
  assert.equal(await a.sweep(now), 2);
  const left = fs.readdirSync(dir).sort();
  assert.equal(left.length, 2, left.join(', '));
  assert.equal(left[0], 'focused.json', 'the focus marker is not a claim');
  assert.match(left[1] ?? '', /^r-/, 'the fresh claim stays');
  assert.equal(await a.claimRequest(request('fresh')), false, 'and still holds');
  assert.equal(await new NoticeClaims(dir, 'window-b').claimRequest(request('old')), true, 'a swept claim can be made again');
  assert.equal(await a.sweep(now), 0, 'nothing young is swept');
});

test('a directory that cannot be used silences nobody: every window notifies, and says why once', async (t) => {
  const dir = tempDir(t);
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  fs.writeFileSync(dir, 'a file where the directory should be');
  const problems: string[] = [];
  const a = new NoticeClaims(dir, 'window-a', { onProblem: (message) => problems.push(message) });
  assert.equal(await a.claimRequest(request('r1')), true);
  assert.equal(await a.claimRequest(request('r1')), true);
  assert.equal(await a.claimSlot(Date.now()), true);
  assert.equal(problems.length, 1, problems.join('\n'));
  const alone = new NoticeClaims(undefined, 'window-a');
  assert.equal(await alone.claimRequest(request('r1')), true);
  assert.equal(await alone.focusedElsewhere(asked('https://hub.example')), false);
});
