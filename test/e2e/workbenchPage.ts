import type { Frame, Page } from 'playwright-core';

/** Locators and waits on the VS Code workbench page that several end-to-end tests share. */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const statusItem = (page: Page) => page.locator('.statusbar-item[aria-label^="AEP Attention"]').first();

export async function statusLabel(page: Page): Promise<string> {
  // The workbench writes the label with non-breaking spaces.
  return ((await statusItem(page).getAttribute('aria-label').catch(() => '')) ?? '').replace(/\u00a0/g, ' ');
}

export async function waitForStatus(page: Page, pattern: RegExp, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const label = await statusLabel(page);
    if (pattern.test(label)) return;
    if (Date.now() > deadline) throw new Error(`status bar never matched ${pattern}; last: "${label}"`);
    await sleep(200);
  }
}

/** The frame of the request webview (webviews nest two iframes deep). */
export async function webviewFrame(page: Page, timeoutMs = 30_000): Promise<Frame> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const frame of page.frames()) {
      if (await frame.locator('.request-header').count().catch(() => 0)) return frame;
    }
    if (Date.now() > deadline) throw new Error('the request webview never appeared');
    await sleep(250);
  }
}
