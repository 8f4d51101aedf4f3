import * as fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { chromiumPath, requestPageChromiumPath, SETUP_HINT } from './harness';


/** Chromium flags for this closed network (background networking would hammer it). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--disable-default-apps',
  '--disable-extensions',
  // Any host name but loopback fails at once instead of waiting on the closed network.
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1',
];

/**
 * For the request pages' browsers: the pages of one site (and of one browser
 * context: contexts never share) in one renderer process. A renderer's start
 * costs about 1.5 CPU-seconds in its first two seconds, whatever the page
 * (a `data:` page of one paragraph cost as much): a page that joins a
 * running one costs about 0.35 (webviewHarness.ts `pagesContext`).
 */
export const REQUEST_PAGE_ARGS = [...CHROMIUM_ARGS, '--process-per-site'];

/**
 * Headless Chromium (Debian's, or the one the harness record names), of this
 * process's own. Fails loudly when the browser is missing: a suite that may
 * skip without it says so first (test/support/harness.ts `chromiumSuite`).
 */
export async function startBrowser(args: readonly string[] = CHROMIUM_ARGS, executablePath = chromiumPath()): Promise<Browser> {
  if (!fs.existsSync(executablePath)) throw new Error(`${executablePath} is missing; ${SETUP_HINT}`);
  return chromium.launch({ executablePath, headless: true, args: [...args] });
}

/**
 * A browser for a file's request pages: under `npm test`, the one the runner
 * started (test/peers/browser/main.ts, its endpoint in AEP_BROWSER_WS),
 * connected to, and closing it then closes only what this file made; else one
 * of its own (`startBrowser`).
 */
export async function launchBrowser(): Promise<Browser> {
  const shared = process.env['AEP_BROWSER_WS'];
  if (shared) return chromium.connect(shared, { timeout: 30_000 });
  return startBrowser(REQUEST_PAGE_ARGS, requestPageChromiumPath());
}
