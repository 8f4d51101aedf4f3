// The strings bundle translators work from (l10n/bundle.l10n.json) is what
// `npm run l10n:export` makes of the source as it is now, VS Code is told
// where it is (package.json `l10n`), and the packaged extension carries it.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { describe, test } from 'node:test';
// Before the exporter, which starts tree-sitter on load: once started, the module's exports
// are no longer its Parser class (see withQueriesCompiledOnce).
import TreeSitter from 'web-tree-sitter';
import { getL10nJson, type l10nJsonFormat } from '@vscode/l10n-dev';
import { repoRoot } from '../support/fixtures';

/** Every script the exporter reads for `l10n:export` (src and webview, as its folder glob finds them). */
function scripts(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return scripts(full);
    return /\.(ts|tsx|js|jsx)$/.test(entry.name) ? [full] : [];
  });
}

function committedBundle(): l10nJsonFormat {
  return JSON.parse(fs.readFileSync(path.join(repoRoot(), 'l10n', 'bundle.l10n.json'), 'utf8')) as l10nJsonFormat;
}

/**
 * Runs `export` with each tree-sitter query the exporter asks for compiled once. The exporter
 * (0.0.35) compiles the same few queries afresh for every file that imports `vscode` or
 * `@vscode/l10n`, which is nearly all of its four seconds here; a compiled query is reusable
 * (it keeps no state from one tree to the next), so the export is the same, in a tenth of the time.
 * Should a later tree-sitter not expose `Language.prototype.query`, the export runs as it is.
 */
async function withQueriesCompiledOnce<T>(exportNow: () => Promise<T>): Promise<T> {
  if (typeof TreeSitter.init !== 'function') return exportNow();
  await TreeSitter.init();
  const language = (TreeSitter as { Language?: typeof TreeSitter.Language }).Language?.prototype;
  if (language === undefined || typeof language.query !== 'function') return exportNow();
  const compile = language.query;
  const compiled = new Map<TreeSitter.Language, Map<string, TreeSitter.Query>>();
  language.query = function (this: TreeSitter.Language, source: string) {
    const mine = compiled.get(this) ?? new Map<string, TreeSitter.Query>();
    compiled.set(this, mine);
    let query = mine.get(source);
    if (query === undefined) mine.set(source, (query = compile.call(this, source)));
    return query;
  };
  try {
    return await exportNow();
  } finally {
    language.query = compile;
    for (const queries of compiled.values()) for (const query of queries.values()) query.delete();
  }
}

describe('the l10n bundle', () => {
  test('the committed bundle is the export of the source as it is now (else: npm run l10n:export)', async () => {
    const files = ['src', 'webview'].flatMap((dir) => scripts(path.join(repoRoot(), dir)));
    assert.ok(files.length > 50, `found ${files.length} files`);
    const exported = await withQueriesCompiledOnce(() =>
      getL10nJson(files.map((file) => ({ extension: path.extname(file), contents: fs.readFileSync(file, 'utf8') }))),
    );
    const committed = committedBundle();
    const missing = Object.keys(exported).filter((key) => !Object.hasOwn(committed, key));
    const gone = Object.keys(committed).filter((key) => !Object.hasOwn(exported, key));
    assert.deepEqual({ missing, gone }, { missing: [], gone: [] }, 'run `npm run l10n:export` and commit l10n/bundle.l10n.json');
    assert.deepEqual(committed, exported);
  });

  test('one way to word a message: l10n.t of @vscode/l10n, never vscode.l10n.t or a t of our own, which the export cannot see', () => {
    const files = ['src', 'webview'].flatMap((dir) => scripts(path.join(repoRoot(), dir)));
    for (const file of files) {
      const source = fs.readFileSync(file, 'utf8');
      const name = path.relative(repoRoot(), file);
      assert.doesNotMatch(source, /\bvscode\.l10n\.t\(/, `${name} calls vscode.l10n.t`);
      assert.doesNotMatch(source, /^import \{[^}]*\bt\b[^}]*\} from '[^']*l10n';$/m, `${name} imports a t of its own`);
      assert.doesNotMatch(source, /^export function t\(/m, `${name} defines a t of its own`);
      // A sentence embedding an element is an l10n.t call too, filled with slots, so the export finds it; or the
      // words the page shares with the host (src/shared), given nothing but slots, whose own l10n.t the export reads.
      assert.doesNotMatch(source, /(?<!function )\bsentenceNodes\((?!l10n\.t\(')(?!\w+\(slot\(\d\)(?:, slot\(\d\))*\),)/, `${name} hands sentenceNodes something other than an l10n.t call`);
      for (const call of source.matchAll(/\bsentenceNodes\((\w+)\(slot\(/g)) {
        const words = call[1] ?? '';
        assert.match(source, new RegExp(`^import \\{[^}]*\\b${words}\\b[^}]*\\} from '\\.\\./src/shared/[\\w]+';$`, 'm'), `${name}: ${words} is not words from src/shared`);
      }
      assert.doesNotMatch(source, /\btNodes\(/, `${name} translates a sentence with elements out of the export's sight`);
      if (/\bl10n\.t\(/.test(source)) assert.match(source, /^import \* as l10n from '@vscode\/l10n';$/m, `${name} calls l10n.t on another import`);
    }
  });

  test('package.json points VS Code at it, and the export script writes it there', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot(), 'package.json'), 'utf8')) as { l10n?: string; scripts?: Record<string, string> };
    assert.equal(manifest.l10n, './l10n');
    assert.match(manifest.scripts?.['l10n:export'] ?? '', /^npx @vscode\/l10n-dev export --outDir \.\/l10n \.\/src \.\/webview$/);
  });

  test('the packaged extension carries the bundle (vsce ls, as vsce package would take it)', async () => {
    const vsce = path.join(repoRoot(), 'node_modules', '@vscode', 'vsce', 'vsce');
    const { stdout } = await promisify(execFile)(process.execPath, [vsce, 'ls', '--no-dependencies'], { cwd: repoRoot() });
    const listed = stdout.split('\n').map((line) => line.trim());
    assert.ok(listed.includes('package.json'), stdout);
    assert.ok(listed.includes('l10n/bundle.l10n.json'), `not packaged:\n${stdout}`);
  });
});
