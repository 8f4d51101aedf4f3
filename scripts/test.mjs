// `npm test`: every suite, in the order the README gives. The editor harness
// (scripts/e2e/prepare.mjs) is prepared while the type check, the builds and
// the unit files run: on a clean clone it builds code-server's native modules,
// about two minutes on one core, and nothing before the load files needs it.
// The load files and everything after them wait for it, so that they have
// the machine to themselves (the load files) and the harness ready.
//
//   node scripts/test.mjs
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Runs a command in the repository with the output shown as it comes; resolves with its exit code. */
function run(command, args, { lines } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: lines ? ['ignore', 'pipe', 'pipe'] : 'inherit', shell: command === npm && process.platform === 'win32' });
    if (lines) {
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

async function steps(list) {
  for (const [command, args] of list) {
    const code = await run(command, args);
    if (code !== 0) return { code, failed: `${command} ${args.join(' ')}` };
  }
  return { code: 0 };
}

const harness = run(process.execPath, [path.join('scripts', 'e2e', 'prepare.mjs')], { lines: true });
const first = await steps([
  [npm, ['run', 'check']],
  [process.execPath, ['esbuild.js', '--production']],
  [process.execPath, ['esbuild.js', '--tests']],
  [process.execPath, ['--test', '--test-concurrency=2', 'out/test/unit/']],
]);
const prepared = await harness;
if (first.code !== 0) {
  process.stderr.write(`npm test: ${first.failed} failed (exit ${first.code})\n`);
  process.exit(first.code);
}
if (prepared !== 0) {
  process.stderr.write(`npm test: the editor harness could not be prepared (scripts/e2e/prepare.mjs exited ${prepared}; its output is above)\n`);
  process.exit(prepared);
}
const rest = await steps([
  [process.execPath, ['--test', 'out/test/load/']],
  [process.execPath, ['--test', '--test-concurrency=2', 'out/test/e2e/', 'out/test/integration/', 'out/test/webview/']],
]);
if (rest.code !== 0) process.stderr.write(`npm test: ${rest.failed} failed (exit ${rest.code})\n`);
process.exit(rest.code);
