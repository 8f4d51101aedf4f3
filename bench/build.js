// @ts-check
// Builds what `npm run bench` runs:
//   1. the shipped bundles (node esbuild.js --production), which the form and footprint benchmarks measure;
//   2. bench/main.ts, bench/hubProcess.ts and bench/profileClient.ts to out/bench/, the way esbuild.js builds the test peers
//      (bundle, platform node, cjs, packages external).
// Run from anywhere: paths are relative to the repository root.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const esbuild = require('esbuild');

const root = path.resolve(__dirname, '..');

async function main() {
  execFileSync(process.execPath, ['esbuild.js', '--production'], { cwd: root, stdio: 'inherit' });
  fs.rmSync(path.join(root, 'out', 'bench'), { recursive: true, force: true });
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: ['bench/main.ts', 'bench/hubProcess.ts', 'bench/profileClient.ts'],
    outdir: 'out/bench',
    outbase: 'bench',
    ...require('./esbuildOptions.json'),
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
