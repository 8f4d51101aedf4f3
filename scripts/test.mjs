// `npm test`: every suite, in the order the README gives. The editor harness
// (scripts/e2e/prepare.mjs) is prepared while the type check, the builds and
// the unit files run: on a machine's first run it installs code-server, and
// nothing before the load files needs it. The type check runs beside the
// builds and the unit files too (it reads only the sources): each is about
// one core's work for half a minute. The load files and everything after them wait for
// all of it, so that they have the machine to themselves (the load files, two
// at a time: none asserts on speed, only within generous limits, and one at a
// time left a core idle for most of their minute) and the harness ready.
// Last, the code-server and Chromium files two at a time, the request-page
// files in one browser they share (each in contexts of its own: a browser's
// start cost a file about 1.2 CPU-seconds; a workbench keeps a browser of its
// own; a suite's pages one after another in one renderer process), and,
// beside them, the integration files one at a time: those mostly wait on
// sockets and timers, and in the same two slots they held a core the
// workbenches wanted. The unit and integration files are each gathered into
// one file, the request-page files into two (esbuild.js gathered()): a
// process per file cost more than most files' tests.
//
//   node scripts/test.mjs
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/**
 * Runs a command in the repository with the output shown as it comes (`lines`: in whole lines; `held`: all of
 * it once the command ends, in one piece, so that it never mixes with a step beside it); resolves with its exit code.
 */
function run(command, args, { lines, held, env } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: root, stdio: lines || held ? ['ignore', 'pipe', 'pipe'] : 'inherit', shell: command === npm && process.platform === 'win32',
      ...(env ? { env: { ...process.env, ...env } } : {}),
    });
    if (held) {
      const out = [];
      const err = [];
      child.stdout.on('data', (chunk) => out.push(chunk));
      child.stderr.on('data', (chunk) => err.push(chunk));
      child.on('close', () => {
        process.stdout.write(Buffer.concat(out));
        process.stderr.write(Buffer.concat(err));
      });
    } else if (lines) {
      // Whole lines only, so that they never break into the other steps' output.
      for (const [from, to] of [[child.stdout, process.stdout], [child.stderr, process.stderr]]) {
        let rest = '';
        from.on('data', (chunk) => {
          const text = rest + chunk.toString();
          const end = text.lastIndexOf('\n') + 1;
          to.write(text.slice(0, end));
          rest = text.slice(end);
        });
        from.on('end', () => rest && to.write(`${rest}\n`));
      }
    }
    child.on('error', (error) => {
      process.stderr.write(`${command} ${args.join(' ')}: ${error.message}\n`);
      resolve(1);
    });
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/**
 * Starts the one browser the request-page files share (test/peers/browser/main.ts);
 * resolves with its endpoint and how to stop it, or with nothing when it cannot start (no
 * Chromium here: each file then starts its own, or skips as it would have).
 */
function sharedBrowser() {
  return new Promise((resolve) => {
    // A process group of its own (where there are groups), so that a kill takes its browser with it.
    const child = spawn(process.execPath, [path.join('out', 'peers', 'browser', 'main.js')], { cwd: root, stdio: ['pipe', 'pipe', 'inherit'], detached: process.platform !== 'win32' });
    const exited = new Promise((done) => child.on('close', done));
    // Asked to close, it has ten seconds; then it is killed, and its browser with it (its process group).
    const stop = async () => {
      child.stdin.end();
      const killer = setTimeout(() => {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          child.kill('SIGKILL');
        }
      }, 10_000);
      await exited;
      clearTimeout(killer);
    };
    let text = '';
    child.stdout.on('data', (chunk) => {
      if (text.includes('\n')) return;
      text += chunk.toString();
      const end = text.indexOf('\n');
      if (end < 0) return;
      const endpoint = text.slice(0, end).trim();
      if (endpoint.startsWith('ws://')) resolve({ endpoint, stop });
      else void stop().then(() => resolve(undefined));
    });
    child.on('error', () => resolve(undefined));
    void exited.then(() => resolve(undefined));
  });
}

async function steps(list, options) {
  for (const [command, args] of list) {
    const code = await run(command, args, options);
    if (code !== 0) return { code, failed: `${command} ${args.join(' ')}` };
  }
  return { code: 0 };
}

/** Runs two lists side by side, each list's steps in order: the first's output as it comes, the second's once it ends. */
async function together(shown, held, env) {
  const results = await Promise.all([steps(shown, { lines: true, env }), steps(held, { held: true })]);
  return results.find((result) => result.code !== 0) ?? { code: 0 };
}

// Piped, the test runner would report in TAP: at a terminal, the same report as the steps run directly.
const reporter = process.stdout.isTTY ? ['--test-reporter=spec'] : [];

const harness = run(process.execPath, [path.join('scripts', 'e2e', 'prepare.mjs')], { lines: true });
const check = steps([[npm, ['run', 'check']]], { lines: true });
const first = await steps([
  [process.execPath, ['esbuild.js', '--production']],
  [process.execPath, ['esbuild.js', '--tests']],
  // One file, the unit files in it (esbuild.js gathered()); its source maps name each failure's file and line.
  [process.execPath, ['--enable-source-maps', '--test', 'out/test/unit/']],
]);
const checked = await check;
const prepared = await harness;
for (const before of [checked, first]) {
  if (before.code === 0) continue;
  process.stderr.write(`npm test: ${before.failed} failed (exit ${before.code})\n`);
  process.exit(before.code);
}
if (prepared !== 0) {
  process.stderr.write(`npm test: the editor harness could not be prepared (scripts/e2e/prepare.mjs exited ${prepared}; its output is above)\n`);
  process.exit(prepared);
}
const load = await steps([[process.execPath, ['--test', '--test-concurrency=2', 'out/test/load/']]]);
const browser = load.code !== 0 ? undefined : await sharedBrowser();
const rest = load.code !== 0 ? load : await together(
  [[process.execPath, ['--enable-source-maps', '--test', ...reporter, '--test-concurrency=2', 'out/test/e2e/', 'out/test/webview/']]],
  [[process.execPath, ['--enable-source-maps', '--test', ...reporter, 'out/test/integration/']]],
  browser ? { AEP_BROWSER_WS: browser.endpoint } : undefined,
);
if (rest.code !== 0) process.stderr.write(`npm test: ${rest.failed} failed (exit ${rest.code})\n`);
await browser?.stop();
// Not process.exit: a pipe takes what was written after the process would have left (a held report is one large write).
process.exitCode = rest.code;
