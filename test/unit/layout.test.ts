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

test('webview code reaches the host only through the shared message module', () => {
  for (const file of sourceFiles(path.join(repoRoot(), 'webview'))) {
    for (const specifier of importsOf(file)) {
      assert.notEqual(specifier, 'vscode', `${file} imports vscode`);
      assert.ok(!specifier.startsWith('node:'), `${file} imports ${specifier}`);
      if (specifier.startsWith('../src/')) {
        assert.ok(specifier === '../src/shared/webviewMessages' || specifier.startsWith('../src/aep/'), `${file} imports ${specifier}`);
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
