// @ts-check
// One build for everything: the extension host bundle, the webview bundle and,
// with --tests, the test files.
//   node esbuild.js               development build of both bundles
//   node esbuild.js --production  minified, no source maps (what the VSIX ships)
//   node esbuild.js --watch       rebuild both bundles on change
//   node esbuild.js --production --analyze
//                                 also print what takes the space in each bundle, module by module
//   node esbuild.js --tests       compile test/**/*.test.ts to out/test for `node --test` (the unit,
//                                 integration and request-page files gathered into a few: see
//                                 gathered()), and the peers (test/peers/*: local hub, demo agent,
//                                 demo; and the test/vscode suite) to out/peers for tests and npm scripts
//   node esbuild.js --tests --each-file
//                                 the same, each test file on its own (out/test/<dir>/<name>.test.js):
//                                 to run one alone, or to find one that leaves state to another
const esbuild = require('esbuild');
const fs = require('node:fs');
const path = require('node:path');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const tests = process.argv.includes('--tests');
const analyze = process.argv.includes('--analyze');
const eachFile = process.argv.includes('--each-file');

/** @type {esbuild.BuildOptions} */
const common = {
  bundle: true,
  minify: production,
  sourcemap: production ? false : 'linked',
  sourcesContent: false,
  logLevel: 'warning',
  legalComments: production ? 'none' : 'inline',
};

/**
 * The extension is a WebSocket client only: `ws`'s entry point also loads its
 * server and stream wrappers (about 8 KB of the bundle). Resolving `ws` to its
 * client class, the module the entry point exports as its default, leaves them out.
 * @type {esbuild.Plugin}
 */
const wsClientOnly = {
  name: 'ws-client-only',
  setup(build) {
    const client = path.join(path.dirname(require.resolve('ws')), 'lib', 'websocket.js');
    build.onResolve({ filter: /^ws$/ }, () => ({ path: client }));
    // The client always passes `perMessageDeflate: false` (src/client/hubSocket.ts: a
    // deflated frame can inflate far past what it cost the hub), so ws never builds its
    // deflate extension nor reads or writes an extension header; about 8 KB of zlib
    // plumbing goes. What is left of them is the name ws looks its extensions up by, and a
    // loud failure should anything ever offer compression again. A compressed frame from
    // the hub is still refused by ws's receiver, which checks RSV1 against that lookup.
    build.onResolve({ filter: /^\.\/(permessage-deflate|extension)$/ }, (args) =>
      args.importer.startsWith(path.dirname(client)) ? { path: args.path.slice(2), namespace: 'ws-no-deflate' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'ws-no-deflate' }, (args) => ({
      loader: 'js',
      contents:
        args.path === 'permessage-deflate'
          ? `module.exports = class PerMessageDeflate {
               static get extensionName() { return 'permessage-deflate'; }
               constructor() { throw new Error('permessage-deflate is left out of this bundle'); }
             };`
          : `const none = () => { throw new Error('WebSocket extensions are left out of this bundle'); };
             module.exports = { format: none, parse: none };`,
    }));
  },
};

/** Gives an ES module chunk Node's `require`, for the CommonJS bundled in it (ws, through esbuild's require shim). */
const REQUIRE_BANNER = "import { createRequire as __aepCreateRequire } from 'node:module'; const require = __aepCreateRequire(import.meta.url);";

/**
 * The chunk without REQUIRE_BANNER when nothing after it names `require`: splitting puts the
 * banner on every chunk (about 120 bytes each), and only the one holding esbuild's require
 * shim uses it. A chunk that names `require` anywhere keeps it.
 * @param {esbuild.OutputFile} file @returns {Uint8Array}
 */
function withoutUnusedRequire(file) {
  if (!file.path.endsWith('.mjs') || !file.text.startsWith(REQUIRE_BANNER)) return file.contents;
  // Its line stays, empty: the chunk's source map counts the banner as line 1.
  const rest = file.text.slice(REQUIRE_BANNER.length);
  return /\brequire\b/.test(rest) ? file.contents : Buffer.from(rest);
}

/** @type {esbuild.BuildOptions[]} */
const bundles = [
  {
    // An ES module (VS Code loads one since 1.100, the engine this extension asks for), split:
    // dist/extension.mjs is what activation loads; what only runs when the person acts is
    // imported with import() when first needed, from dist/chunks/, and what both use lives
    // in a shared chunk once (never a second copy of a module and its state).
    ...common,
    entryPoints: ['src/extension.ts'],
    outdir: 'dist',
    entryNames: '[name]',
    chunkNames: 'chunks/[name]-[hash]',
    outExtension: { '.js': '.mjs' },
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // The CommonJS inside (ws) requires Node's modules; an ES module has no require of its own.
    // esbuild puts the banner on every chunk; a build (not --watch) leaves it only where `require` is used (withoutUnusedRequire).
    banner: { js: REQUIRE_BANNER },
    // `ws` optionally requires these native helpers; it works without them.
    external: ['vscode', 'bufferutil', 'utf-8-validate'],
    plugins: [wsClientOnly],
  },
  {
    ...common,
    entryPoints: ['webview/main.ts'],
    outfile: 'dist/webview/webview.js',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
  },
  {
    // The notifications view (src/ui/notifications/osNotifications.ts): no component library, a few KB.
    ...common,
    entryPoints: ['webview/alerts/main.ts'],
    outfile: 'dist/webview/alerts.js',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
  },
];

/**
 * Runnable programs the tests and npm scripts start, never shipped in the VSIX:
 * each test/peers/<name>/main.ts to out/peers/<name>/main.js, and the extension-host
 * suite with its launcher to out/peers/vscode/ (where test/e2e and runElectron.ts look).
 * @returns {{ in: string, out: string }[]}
 */
function peerEntries() {
  const peers = fs
    .readdirSync('test/peers', { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && fs.existsSync(`test/peers/${entry.name}/main.ts`))
    .map((entry) => ({ in: `test/peers/${entry.name}/main.ts`, out: `${entry.name}/main` }));
  return [...peers, { in: 'test/vscode/runElectron.ts', out: 'vscode/runElectron' }];
}

/** @param {string} dir @returns {string[]} */
function findTests(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'fixtures' ? [] : findTests(full);
    return entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

/**
 * The test files of test/<dir> gathered into `count` files (out/test/<dir>/all.test.js, or files-1.test.js
 * and on), each loading its share in name order, every test file inside a suite named for it, so that its
 * own top-level hooks (an afterEach, a suite's pages) stay its own, as they were with a process each. That
 * process cost more than most files' tests: Node and the runner's child, and each file's bundle of the same
 * sources (or playwright-core) loaded again, about 0.35 CPU-seconds a file.
 * @param {string} dir
 * @param {string[]} files
 * @param {number} count
 * @returns {{ entryPoints: { in: string, out: string }[], plugin: esbuild.Plugin }}
 */
function gathered(dir, files, count) {
  const names = files.map((file) => path.relative(path.join('test', dir), file).split(path.sep).join('/')).sort();
  const namespace = `gathered-${dir}`;
  const shares = Array.from({ length: count }, (_, index) => names.filter((_, at) => at % count === index));
  return {
    entryPoints: shares.map((_, index) => ({ in: `${namespace}:${index}`, out: `${dir}/${count === 1 ? 'all' : `files-${index + 1}`}.test` })),
    plugin: {
      name: namespace,
      setup(build) {
        build.onResolve({ filter: new RegExp(`^${namespace}:`) }, (args) => ({ path: args.path, namespace }));
        build.onLoad({ filter: /.*/, namespace }, (args) => ({
          contents: [
            "import { describe } from 'node:test';",
            ...(shares[Number(args.path.slice(namespace.length + 1))] ?? []).map(
              (name) => `describe(${JSON.stringify(name)}, () => { require(${JSON.stringify(`./${name.replace(/\.ts$/, '')}`)}); });`,
            ),
          ].join('\n'),
          resolveDir: path.resolve('test', dir),
          loader: 'ts',
        }));
      },
    },
  };
}

/** What tests and peers are built with: plain Node, unminified, with their sources inline for stack traces. */
const forNode = { ...common, minify: false, sourcemap: /** @type {const} */ ('inline'), platform: /** @type {const} */ ('node'), format: /** @type {const} */ ('cjs'), target: 'node20' };

async function main() {
  if (tests) {
    fs.rmSync('out/test', { recursive: true, force: true });
    fs.rmSync('out/peers', { recursive: true, force: true });
    // The builds are independent: run together, the slowest sets the time.
    const allTests = findTests('test');
    const within = (dir) => allTests.filter((file) => file.startsWith(path.join('test', dir) + path.sep));
    // Gathered (see gathered()): the unit files into one, the integration files into one (they run one at a
    // time anyway), the request pages' into two, to run beside each other. The load and code-server files
    // stay one each, to run two at a time. --each-file: every test file on its own.
    const unitTests = within('unit');
    const unit = eachFile ? undefined : gathered('unit', unitTests, 1);
    const gatheredOthers = eachFile ? [] : [gathered('integration', within('integration'), 1), gathered('webview', within('webview'), 2)];
    // Built by the unit build, or loaded by a gathered file: not an entry point of its own in the build below.
    const notOwnEntry = new Set([...unitTests, ...(eachFile ? [] : [...within('integration'), ...within('webview')])]);
    await Promise.all([
      esbuild.build({
        ...forNode,
        entryPoints: [...allTests.filter((file) => !notOwnEntry.has(file)), ...gatheredOthers.flatMap((one) => one.entryPoints)],
        plugins: gatheredOthers.map((one) => one.plugin),
        outdir: 'out/test',
        outbase: 'test',
        packages: 'external',
      }),
      // The unit files: the small packages they use (zod, fast-check, ws, l10n) bundled in, which costs less
      // than resolving and loading each package from node_modules; the tools stay outside. Run with
      // --enable-source-maps, a failure names its test file and line.
      esbuild.build({
        ...forNode,
        ...(unit ? { entryPoints: unit.entryPoints, plugins: [unit.plugin] } : { entryPoints: unitTests }),
        outdir: 'out/test',
        outbase: 'test',
        external: ['vscode', 'typescript', 'eslint', 'typescript-eslint', '@vscode/l10n-dev', 'web-tree-sitter', 'playwright-core', 'esbuild', 'bufferutil', 'utf-8-validate'],
      }),
      // Peers go beside, not inside, out/test: `node --test out/test/` runs every file it finds there.
      esbuild.build({
        ...forNode,
        entryPoints: peerEntries(),
        outdir: 'out/peers',
        packages: 'external',
      }),
      // The extension-host suite runs inside an extension of its own, with no node_modules
      // beside it: everything it uses (the peers it starts, `ws`) is bundled in, `vscode` aside.
      esbuild.build({
        ...forNode,
        entryPoints: [{ in: 'test/vscode/suite.ts', out: 'vscode/suite' }],
        outdir: 'out/peers',
        external: ['vscode'],
      }),
    ]);
    return;
  }
  if (watch) {
    const contexts = await Promise.all(bundles.map((options) => esbuild.context(options)));
    await Promise.all(contexts.map((context) => context.watch()));
    console.log('[watch] watching src/ and webview/ for changes');
    return;
  }
  const results = await Promise.all(bundles.map((options) => esbuild.build({ ...options, metafile: analyze, write: false })));
  const written = new Set();
  for (const result of results) {
    for (const file of result.outputFiles ?? []) {
      writeIfChanged(file.path, withoutUnusedRequire(file));
      written.add(file.path);
    }
  }
  // Chunks are named by their hash: those of an earlier build would be packaged beside the new ones.
  const chunks = path.resolve('dist/chunks');
  const stale = [path.resolve('dist/extension.js'), path.resolve('dist/extension.js.map')];
  if (fs.existsSync(chunks)) stale.push(...fs.readdirSync(chunks).map((name) => path.join(chunks, name)));
  for (const file of stale) if (!written.has(file)) fs.rmSync(file, { recursive: true, force: true });
  for (const result of results) {
    if (result.metafile) console.log(await esbuild.analyzeMetafile(result.metafile));
  }
}

/**
 * Writes `contents` to `file` unless it already holds exactly that, and then by a rename, so a
 * reader never sees a file half written. The VSIX's prepublish step rebuilds dist/ while the
 * test files that run beside it read the same bundles: an unchanged build leaves them untouched.
 * @param {string} file @param {Uint8Array} contents
 */
function writeIfChanged(file, contents) {
  if (fs.existsSync(file) && Buffer.from(contents).equals(fs.readFileSync(file))) return;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const partial = `${file}.${process.pid}.partial`;
  fs.writeFileSync(partial, contents);
  fs.renameSync(partial, file);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
