// A test waits for the change it asserts, never for a fixed time: to show that nothing
// more arrived it sends a marker and waits for it, to pass a timer it drives a fake
// clock (t.mock.timers), and to poll it uses test/support/waitUntil.ts. This reads every
// file under test/ and finds each fixed wait: a call of a `sleep` helper, or a timer
// that resolves a promise (`setTimeout(resolve, …)`). Each one says why on the line
// above it (a `//` comment), or is one of the uncommented ones counted in UNEXPLAINED
// below, a list that only shrinks: a new uncommented wait fails here, and so does a
// file whose count fell without its entry being lowered.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../support/fixtures';

/** Uncommented fixed waits that predate this rule, by file (relative to the repository root). */
const UNEXPLAINED: Readonly<Record<string, number>> = {};

/** A `sleep(…)` helper's call, or Playwright's own fixed wait (`page.waitForTimeout(…)`). */
const SLEEP_CALL = /(?<![\w.])sleep\(|\.waitForTimeout\(/;
const RESOLVING_TIMER = /setTimeout\(\s*(?:resolve|r)\b|setTimeout\(\s*\(\)\s*=>\s*(?:resolve|r)\(/;
/** The definition of a helper that waits `ms` (`const sleep = (ms: number) => …`): its callers are what is checked. */
const HELPER_DEFINITION = /^\s*(?:export\s+)?(?:const|function)\s+\w+\s*=?\s*(?:async\s*)?\(ms\b/;

interface FixedWait {
  line: number;
  text: string;
  explained: boolean;
}

/** The fixed waits in `source`, each with whether the line above it is a comment. */
function fixedWaits(source: string): FixedWait[] {
  const lines = source.split('\n');
  const found: FixedWait[] = [];
  lines.forEach((text, index) => {
    if (text.trimStart().startsWith('//') || text.trimStart().startsWith('*') || HELPER_DEFINITION.test(text)) return;
    if (!SLEEP_CALL.test(text) && !RESOLVING_TIMER.test(text)) return;
    found.push({ line: index + 1, text: text.trim(), explained: (lines[index - 1] ?? '').trimStart().startsWith('//') });
  });
  return found;
}

function testFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'fixtures' ? [] : testFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

test('fixedWaits finds sleeps and promise-resolving timers, and reads the comment above each', () => {
  const source = [
    'const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));',
    'await sleep(100);',
    '// The proxy drops the link for this long on purpose.',
    'await sleep(40);',
    'await new Promise((resolve) => setTimeout(resolve, 50));',
    'await new Promise((r) => setTimeout(() => r(undefined), 50));',
    'const timer = setTimeout(() => fail("no hello"), timeoutMs);',
    'await waitUntil(() => done, "done");',
    'this.sleep(5);',
    'await page.waitForTimeout(2_000);',
  ].join('\n');
  assert.deepEqual(fixedWaits(source).map(({ line, explained }) => ({ line, explained })), [
    { line: 2, explained: false },
    { line: 4, explained: true },
    { line: 5, explained: false },
    { line: 6, explained: false },
    { line: 10, explained: false },
  ]);
});

test('no test waits a fixed time without saying why, beyond the counted old ones', () => {
  const root = repoRoot();
  const unexplained = new Map<string, FixedWait[]>();
  for (const file of testFiles(path.join(root, 'test'))) {
    // This file's own examples are strings, not waits.
    if (path.basename(file) === 'testWaits.test.ts') continue;
    const waits = fixedWaits(fs.readFileSync(file, 'utf8')).filter((wait) => !wait.explained);
    if (waits.length > 0) unexplained.set(path.relative(root, file).split(path.sep).join('/'), waits);
  }
  const problems: string[] = [];
  for (const [file, waits] of unexplained) {
    const allowed = UNEXPLAINED[file] ?? 0;
    if (waits.length > allowed) {
      problems.push(`${file}: ${waits.length} fixed waits without a comment saying why (allowed ${allowed}); wait for the change asserted instead:\n` +
        waits.map((wait) => `  ${wait.line}: ${wait.text}`).join('\n'));
    }
  }
  for (const [file, allowed] of Object.entries(UNEXPLAINED)) {
    const count = unexplained.get(file)?.length ?? 0;
    if (count < allowed) problems.push(`${file}: ${count} uncommented fixed waits left, fewer than the ${allowed} allowed: lower its entry in UNEXPLAINED`);
  }
  assert.deepEqual(problems, []);
});
