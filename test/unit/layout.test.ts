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
  [...fs.readFileSync(file, 'utf8').matchAll(/(?:from\s+|require\(\s*|import\(\s*|import\s+)['"]([^'"]+)['"]/g)].map((m) => m[1] ?? '');

// The folders are the architecture. Each folder under src/ names the folders it
// may import; a folder not in this table fails the test, so a new one states
// its place. Everything below ui/ runs in plain Node (no vscode import at all).
const LAYERS: Record<string, readonly string[]> = {
  base: [],
  aep: ['base'],
  inbox: ['base', 'aep'],
  client: ['base', 'aep', 'inbox'],
  shared: ['base', 'aep'],
  history: ['base', 'aep', 'inbox', 'client'],
  answer: ['base', 'aep', 'inbox', 'client', 'shared'],
  // The sentences the UI says (l10n), in plain Node: what the person reads, worded once.
  words: ['base', 'aep', 'inbox', 'client', 'shared', 'history', 'answer'],
  // The application: the hubs and their connections, the answering flows and the pages' controllers.
  app: ['base', 'aep', 'inbox', 'client', 'shared', 'history', 'answer', 'words'],
  // What the person meets in VS Code, by surface; the only folder that imports vscode.
  ui: ['base', 'aep', 'inbox', 'client', 'shared', 'history', 'answer', 'words', 'app'],
};
// The page bundle: no editor, no Node, only what the page and the host share.
const WEBVIEW_MAY_IMPORT = ['base', 'aep', 'shared', 'answer'];

/** The folder a source file belongs to: its top folder under src/, and for ui/ and app/ its subfolder. */
function unitOf(relative: string): string | undefined {
  const parts = relative.split(path.sep);
  if (parts[0] === 'webview') return 'webview';
  if (parts[0] !== 'src' || parts.length < 3) return undefined;
  return (parts[1] === 'ui' || parts[1] === 'app') && parts.length > 3 ? `${parts[1]}/${parts[2]}` : parts[1];
}
const layerOf = (unit: string) => unit.split('/')[0] ?? unit;

interface Edge { from: string; to: string; file: string; specifier: string }

function edges(): Edge[] {
  const root = repoRoot();
  const files = [...sourceFiles(path.join(root, 'src')), ...sourceFiles(path.join(root, 'webview'))];
  return files.flatMap((file) => {
    const from = unitOf(path.relative(root, file));
    if (from === undefined) return [];
    return importsOf(file)
      .filter((s) => s.startsWith('.'))
      .flatMap((specifier) => {
        const to = unitOf(path.relative(root, path.resolve(path.dirname(file), specifier)));
        return to === undefined || to === from ? [] : [{ from, to, file: path.relative(root, file), specifier }];
      });
  });
}

test('every folder under src/ has a place in the layer table', () => {
  const folders = fs.readdirSync(path.join(repoRoot(), 'src'), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
  assert.ok(folders.length >= 6, `found ${folders.length} folders`);
  assert.deepEqual(folders.filter((name) => !(name in LAYERS)), []);
});

test('imports between folders go only where the layer table allows', () => {
  const all = edges();
  assert.ok(all.length >= 50, `found ${all.length} imports between folders`);
  const wrong = all.filter(({ from, to }) => {
    const source = layerOf(from);
    const target = layerOf(to);
    if (source === target) return false;
    if (source === 'webview') return !WEBVIEW_MAY_IMPORT.includes(target);
    return !(LAYERS[source] ?? []).includes(target);
  });
  assert.deepEqual(wrong.map((e) => `${e.file} imports ${e.specifier}`), []);
});

test('no cycle between folders, ui/ subfolders included', () => {
  const graph = new Map<string, Set<string>>();
  for (const { from, to } of edges()) graph.set(from, (graph.get(from) ?? new Set()).add(to));
  assert.ok([...graph.keys()].filter((unit) => unit.startsWith('ui/')).length >= 5, 'ui/ subfolders were not seen');
  const state = new Map<string, 'open' | 'done'>();
  const cycles: string[] = [];
  const visit = (unit: string, trail: string[]): void => {
    if (state.get(unit) === 'done') return;
    if (state.get(unit) === 'open') {
      cycles.push([...trail.slice(trail.indexOf(unit)), unit].join(' -> '));
      return;
    }
    state.set(unit, 'open');
    for (const next of graph.get(unit) ?? []) visit(next, [...trail, unit]);
    state.set(unit, 'done');
  };
  for (const unit of graph.keys()) visit(unit, []);
  assert.deepEqual(cycles, []);
});

test('only src/ui/ and src/extension.ts import vscode, so everything else runs in plain Node', () => {
  const root = repoRoot();
  const core = sourceFiles(path.join(root, 'src')).filter((file) => {
    const relative = path.relative(root, file);
    return !relative.startsWith(path.join('src', 'ui') + path.sep) && relative !== path.join('src', 'extension.ts');
  });
  assert.ok(core.length >= 40, `found ${core.length} files outside ui/`);
  for (const file of core) assert.ok(!importsOf(file).includes('vscode'), `${path.relative(root, file)} imports vscode`);
});

/** What a file imports at run time: `import type` and imports of types only are left out. */
function runtimeImports(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  return [...text.matchAll(/^(?:import|export)\s+(type\s+)?(?:([^'";]*?)\s+from\s+)?['"]([^'"]+)['"]/gm)]
    .filter((m) => {
      if (m[1] !== undefined) return false;
      const named = /^\{([^}]*)\}$/.exec((m[2] ?? '').trim());
      if (!named) return true; // a namespace, a default or a bare import
      return (named[1] ?? '').split(',').some((part) => part.trim() !== '' && !part.trim().startsWith('type '));
    })
    .map((m) => m[3] ?? '');
}

/** The files `start` needs at run time, followed through relative imports; none may import vscode. */
function plainNodeClosure(start: readonly string[]): Set<string> {
  const root = repoRoot();
  const seen = new Set<string>();
  const queue = [...start];
  while (queue.length > 0) {
    const file = queue.pop() ?? '';
    if (seen.has(file)) continue;
    seen.add(file);
    for (const specifier of runtimeImports(file)) {
      assert.notEqual(specifier, 'vscode', `${path.relative(root, file)} imports vscode at run time`);
      if (specifier.startsWith('.')) queue.push(path.resolve(path.dirname(file), specifier) + '.ts');
    }
  }
  return seen;
}

test('Hubs and HubConnection run in plain Node: nothing they need at run time imports vscode', () => {
  const seen = plainNodeClosure(['hubs.ts', 'hubConnection.ts'].map((name) => path.join(repoRoot(), 'src', 'app', 'hubs', name)));
  assert.ok(seen.size >= 15, `followed ${seen.size} files`);
});

test('the always-secret values run in plain Node: what reads them in the background is tested over a slow storage', () => {
  const seen = plainNodeClosure([path.join(repoRoot(), 'src', 'app', 'hubs', 'alwaysSecretValues.ts')]);
  assert.ok(seen.size >= 3, `followed ${seen.size} files`);
});

test('the inline step loop runs in plain Node: what it shows goes through its QuickInputs, never vscode', () => {
  const seen = plainNodeClosure([path.join(repoRoot(), 'src', 'app', 'answering', 'inlineFlow.ts')]);
  assert.ok(seen.size >= 10, `followed ${seen.size} files`);
});

test('webview code never imports vscode or Node', () => {
  for (const file of sourceFiles(path.join(repoRoot(), 'webview'))) {
    for (const specifier of importsOf(file)) {
      assert.notEqual(specifier, 'vscode', `${file} imports vscode`);
      assert.ok(!specifier.startsWith('node:'), `${file} imports ${specifier}`);
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
