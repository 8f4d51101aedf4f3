// @ts-check
// One build for everything: the extension host bundle, the webview bundle and,
// with --tests, the test files.
//   node esbuild.js               development build of both bundles
//   node esbuild.js --production  minified, no source maps (what the VSIX ships)
//   node esbuild.js --watch       rebuild both bundles on change
//   node esbuild.js --tests       compile test/**/*.test.ts and the test peers (local hub,
//                                 demo agent) to out/test for `node --test` and npm scripts
const esbuild = require('esbuild');
const fs = require('node:fs');
const path = require('node:path');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const tests = process.argv.includes('--tests');

/** @type {esbuild.BuildOptions} */
const common = {
  bundle: true,
  minify: production,
  sourcemap: production ? false : 'linked',
  sourcesContent: false,
  logLevel: 'warning',
  legalComments: production ? 'none' : 'inline',
};

/** @type {esbuild.BuildOptions[]} */
const bundles = [
  {
    ...common,
    entryPoints: ['src/extension.ts'],
    outfile: 'dist/extension.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // `ws` optionally requires these native helpers; it works without them.
    external: ['vscode', 'bufferutil', 'utf-8-validate'],
  },
  {
    ...common,
    entryPoints: ['webview/main.ts'],
    outfile: 'dist/webview/webview.js',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
  },
];

// Runnable test peers: never shipped in the VSIX, built beside the tests.
const PEERS = ['test/hub/main.ts', 'test/agent/main.ts', 'test/demo/main.ts', 'test/vscode/suite.ts', 'test/vscode/runElectron.ts'];

/** @param {string} dir @returns {string[]} */
function findTests(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'fixtures' ? [] : findTests(full);
    return entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

async function main() {
  if (tests) {
    fs.rmSync('out/test', { recursive: true, force: true });
    fs.rmSync('out/peers', { recursive: true, force: true });
    await esbuild.build({
      ...common,
      minify: false,
      sourcemap: 'inline',
      entryPoints: findTests('test'),
      outdir: 'out/test',
      outbase: 'test',
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      packages: 'external',
    });
    // Peers go beside, not inside, out/test: `node --test out/test/` runs every file it finds there.
    await esbuild.build({
      ...common,
      minify: false,
      sourcemap: 'inline',
      entryPoints: PEERS.filter((entry) => fs.existsSync(entry)),
      outdir: 'out/peers',
      outbase: 'test',
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      packages: 'external',
    });
    return;
  }
  if (watch) {
    const contexts = await Promise.all(bundles.map((options) => esbuild.context(options)));
    await Promise.all(contexts.map((context) => context.watch()));
    console.log('[watch] watching src/ and webview/ for changes');
    return;
  }
  await Promise.all(bundles.map((options) => esbuild.build(options)));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
