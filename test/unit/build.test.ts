// `npm test` builds the production bundles first; this checks what it wrote.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../support/fixtures';

const bundle = (name: string) => fs.readFileSync(path.join(repoRoot(), 'dist', name), 'utf8');

test('the extension host bundle is CommonJS with vscode left external', () => {
  const code = bundle('extension.js');
  assert.match(code, /require\("vscode"\)/);
  assert.match(code, /module\.exports/);
  const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot(), 'package.json'), 'utf8')) as { main: string };
  assert.equal(path.normalize(manifest.main), path.normalize('./dist/extension.js'));
});

test('the webview bundle is a browser script with no module loader', () => {
  const code = bundle('webview/webview.js');
  assert.ok(code.length > 1000);
  assert.doesNotMatch(code, /\brequire\(/);
});
