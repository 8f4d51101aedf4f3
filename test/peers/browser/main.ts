// One headless Chromium for the request-page files that `npm test` runs side
// by side (scripts/test.mjs): each file connects to it (test/support/browser.ts
// `launchBrowser`, AEP_BROWSER_WS) instead of starting a browser of its own,
// which cost about 1.2 CPU-seconds a file on the two-core machine. A code-server
// workbench, heavier, keeps a browser of its own (`startBrowser`). Every file still works in
// browser contexts of its own: nothing but the browser's processes is shared,
// and what is the whole browser's, the clipboard: a file that copies and then
// pastes must not count on its copy beside another file that copies. A suite's
// pages share one context and one renderer process (REQUEST_PAGE_ARGS, webviewHarness.ts
// `pagesContext`); processes are never shared between contexts, so never between files.
// Prints one line, the endpoint to connect to; stops when its standard input
// closes (the runner that started it is gone) or on SIGTERM.
import { chromium } from 'playwright-core';
import * as fs from 'node:fs';
import { REQUEST_PAGE_ARGS } from '../../support/browser';
import { requestPageChromiumPath } from '../../support/harness';

async function main(): Promise<void> {
  const executablePath = requestPageChromiumPath();
  if (!fs.existsSync(executablePath)) throw new Error(`${executablePath} is missing`);
  const server = await chromium.launchServer({ executablePath, headless: true, args: REQUEST_PAGE_ARGS });
  console.log(server.wsEndpoint());
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void server.close().then(() => process.exit(0));
  };
  process.stdin.on('end', stop);
  process.stdin.on('close', stop);
  process.stdin.resume();
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: unknown) => {
  console.error(`no shared browser (each test file starts its own, or skips): ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
