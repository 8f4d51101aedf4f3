// Structural rules of the design card that a compiler would not catch.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../support/fixtures';

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

const importsOf = (file: string) =>
  [...fs.readFileSync(file, 'utf8').matchAll(/(?:from\s+|require\(\s*|import\(\s*)['"]([^'"]+)['"]/g)].map((m) => m[1] ?? '');

test('nothing under src/aep imports vscode, so the core runs in plain Node', () => {
  const files = sourceFiles(path.join(repoRoot(), 'src', 'aep'));
  assert.ok(files.length >= 10, `found ${files.length} files`);
  for (const file of files) {
    assert.ok(!importsOf(file).includes('vscode'), `${path.relative(repoRoot(), file)} imports vscode`);
  }
});

test('nothing under src/aep imports src/host: the core stays below the editor (it may use src/shared, the page\'s message shapes)', () => {
  for (const file of sourceFiles(path.join(repoRoot(), 'src', 'aep'))) {
    for (const specifier of importsOf(file).filter((s) => s.startsWith('.'))) {
      const target = path.relative(repoRoot(), path.resolve(path.dirname(file), specifier));
      assert.ok(!target.startsWith(path.join('src', 'host')), `${path.relative(repoRoot(), file)} imports ${specifier}`);
    }
  }
});

test('webview code reaches the host only through src/shared (messages, time words), never src/host', () => {
  for (const file of sourceFiles(path.join(repoRoot(), 'webview'))) {
    for (const specifier of importsOf(file)) {
      assert.notEqual(specifier, 'vscode', `${file} imports vscode`);
      assert.ok(!specifier.startsWith('node:'), `${file} imports ${specifier}`);
      if (specifier.startsWith('../src/')) {
        assert.ok(specifier.startsWith('../src/shared/') || specifier.startsWith('../src/aep/'), `${file} imports ${specifier}`);
      }
    }
  }
});

test('only webview/toolkit.ts imports the deprecated UI toolkit', () => {
  const users = [...sourceFiles(path.join(repoRoot(), 'webview')), ...sourceFiles(path.join(repoRoot(), 'src'))].filter((file) =>
    importsOf(file).some((s) => s.startsWith('@vscode/webview-ui-toolkit')),
  );
  assert.deepEqual(users.map((file) => path.relative(repoRoot(), file)), [path.join('webview', 'toolkit.ts')]);
});

// esbuild.js builds each test/peers/<name>/main.ts to out/peers/<name>/main.js, with no list to keep.
test('runnable programs live in test/peers/<name>/main.ts, one folder each, and nowhere else under test/', () => {
  const root = repoRoot();
  const peersDir = path.join(root, 'test', 'peers');
  const peers = fs.readdirSync(peersDir, { withFileTypes: true });
  assert.ok(peers.length >= 3, `found ${peers.length} entries in test/peers`);
  for (const entry of peers) {
    assert.ok(entry.isDirectory(), `test/peers/${entry.name} is not a folder`);
    assert.ok(fs.existsSync(path.join(peersDir, entry.name, 'main.ts')), `test/peers/${entry.name} has no main.ts`);
  }
  const stray = sourceFiles(path.join(root, 'test')).filter(
    (file) => path.basename(file) === 'main.ts' && path.dirname(path.dirname(file)) !== peersDir,
  );
  assert.deepEqual(stray.map((file) => path.relative(root, file)), []);
});

test('every out/peers/<name>/main.js that package.json runs is built from test/peers/<name>/main.ts', () => {
  const root = repoRoot();
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const run = Object.values(pkg.scripts).flatMap((script) => [...script.matchAll(/out\/peers\/([^/\s]+)\/main\.js/g)].map((m) => m[1] ?? ''));
  assert.ok(run.length >= 3, `package.json runs ${run.length} peers`);
  for (const name of run) assert.ok(fs.existsSync(path.join(root, 'test', 'peers', name, 'main.ts')), `no test/peers/${name}/main.ts`);
});

test('shipped code (src/, webview/) never imports anything under test/', () => {
  const root = repoRoot();
  const testDir = path.join(root, 'test') + path.sep;
  for (const file of [...sourceFiles(path.join(root, 'src')), ...sourceFiles(path.join(root, 'webview'))]) {
    for (const specifier of importsOf(file).filter((s) => s.startsWith('.'))) {
      assert.ok(!path.resolve(path.dirname(file), specifier).startsWith(testDir), `${path.relative(root, file)} imports ${specifier}`);
    }
  }
});
