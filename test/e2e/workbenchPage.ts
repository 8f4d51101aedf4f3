// Locators and waits on the VS Code workbench page that several end-to-end tests share.
import type { BrowserContext, Frame, Page } from 'playwright-core';
import { PAGE_READ_EVERY_MS, waitForValue } from '../support/waitUntil';

export const statusItem = (page: Page) => page.locator('.statusbar-item[aria-label^="AEP Attention"]').first();

export async function statusLabel(page: Page): Promise<string> {
  // The workbench writes the label with non-breaking spaces.
  return ((await statusItem(page).getAttribute('aria-label').catch(() => '')) ?? '').replace(/\u00a0/g, ' ');
}

export async function waitForStatus(page: Page, pattern: RegExp, timeoutMs = 60_000): Promise<void> {
  await waitForValue(() => statusLabel(page), (label) => pattern.test(label), `the status bar to match ${pattern}`, { timeoutMs, everyMs: PAGE_READ_EVERY_MS, show: (label) => `"${label}"` });
}

/** The frame of a request webview on screen now (webviews nest two iframes deep): the one showing `session`, when given. */
export async function visibleWebviewFrame(page: Page, session?: string): Promise<Frame | undefined> {
  for (const frame of page.frames()) {
    const header = session === undefined ? frame.locator('.request-header') : frame.locator('.request-header', { hasText: session });
    if (await header.first().isVisible().catch(() => false)) return frame;
  }
  return undefined;
}

/** Waits for the frame of a request webview (the one showing `session`, when given). */
export async function webviewFrame(page: Page, timeoutMs = 30_000, session?: string, everyMs = PAGE_READ_EVERY_MS): Promise<Frame> {
  const frame = await waitForValue(() => visibleWebviewFrame(page, session), (found) => found !== undefined,
    `the request webview${session === undefined ? '' : ` of session ${session}`} to appear`, { timeoutMs, everyMs, show: () => 'none on screen' });
  if (!frame) throw new Error('unreachable: waitForValue returned no frame');
  return frame;
}

/**
 * Runs a workbench command by its exact palette title (F1); the palette matches loosely, so
 * the row is picked by its full label. `opensQuickInput`: the command shows a quick pick of
 * its own in the same widget, so the palette never closes.
 */
export async function runCommand(page: Page, title: string, options: { opensQuickInput?: boolean } = {}): Promise<void> {
  const input = page.locator('.quick-input-widget input.input');
  // The palette closes when it loses the focus. A webview that had the focus before the last command may get it
  // back from VS Code only after the palette has opened again (seen once after a form's page and the Notifications
  // view: the palette shown, then hidden before it could be typed in): open it again, up to three times.
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('F1');
    await input.waitFor({ state: 'visible', timeout: 15_000 });
    try {
      await input.fill(`>${title}`, { timeout: 5_000 });
      break;
    } catch (error) {
      if (attempt === 3 || (await input.isVisible())) {
        const focused = await page.evaluate(() => {
          const element = document.activeElement;
          return element ? `${element.tagName.toLowerCase()}.${element.className} ${element.getAttribute('aria-label') ?? ''}`.trim() : 'nothing';
        });
        throw new Error(`the command palette closed before "${title}" could be typed, ${attempt} times (the focus is on ${focused}): ${String(error)}`);
      }
    }
  }
  const exact = new RegExp(`^${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
  const row = page.locator('.quick-input-widget .monaco-list-row').filter({ has: page.locator('.label-name', { hasText: exact }) }).first();
  await row.waitFor({ timeout: 15_000 });
  await row.click();
  if (!options.opensQuickInput) await input.waitFor({ state: 'hidden', timeout: 15_000 });
}

export const quickInput = (page: Page) => page.locator('.quick-input-widget');

/** Waits for the quick input to show with a title matching `pattern`. */
export async function waitForQuickInputTitle(page: Page, pattern: RegExp): Promise<void> {
  await quickInput(page).waitFor({ state: 'visible', timeout: 30_000 });
  await page.waitForFunction(
    (source) => new RegExp(source).test(document.querySelector('.quick-input-widget .quick-input-title')?.textContent ?? ''),
    pattern.source, { timeout: 30_000 },
  );
}

/** Types `text` into the quick input's filter and waits for the focused row to read `label`; returns that row's text. */
export async function filterQuickInputTo(page: Page, text: string, label: RegExp): Promise<string> {
  await page.keyboard.type(text);
  await page.waitForFunction(
    ({ value, source }) => {
      const box = document.querySelector('.quick-input-widget input.input');
      const focused = document.querySelector('.quick-input-widget .monaco-list-row.focused .label-name');
      return box instanceof HTMLInputElement && box.value === value && new RegExp(source).test(focused?.textContent ?? '');
    },
    { value: text, source: label.source }, { timeout: 15_000 },
  );
  return quickInput(page).locator('.monaco-list-row.focused').innerText();
}

// ---- the views of the AEP Attention container ---------------------------------

export interface TreeRow {
  level: number;
  label: string;
  description: string;
}

/** The rows of the sidebar view titled `title` (the only view, when the container shows one), in tree order. */
export async function viewRows(page: Page, title: string): Promise<TreeRow[]> {
  return page.evaluate((wanted) => {
    const panes = [...document.querySelectorAll('.part.sidebar .pane')];
    const named = panes.find((pane) => (pane.querySelector('.pane-header .title')?.textContent ?? '').trim().toLowerCase() === wanted.toLowerCase());
    const pane = named ?? (panes.length === 1 ? panes[0] : undefined);
    if (!pane) return [];
    const text = (element: Element | null) => (element?.textContent ?? '').replace(/\u00a0/g, ' ').replace(/\u2060/g, '').trim();
    return [...pane.querySelectorAll('.monaco-list-row')]
      .map((row) => ({
        index: Number(row.getAttribute('data-index')),
        level: Number(row.getAttribute('aria-level')),
        label: text(row.querySelector('.label-name')),
        description: text(row.querySelector('.label-description')),
      }))
      .sort((a, b) => a.index - b.index)
      .map(({ level, label, description }) => ({ level, label, description }));
  }, title);
}

export const showRows = (rows: TreeRow[]) => rows.map((row) => `${'  '.repeat(Math.max(0, row.level - 1))}${row.label}${row.description ? ` — ${row.description}` : ''}`).join('\n');

/** Polls the view titled `title` until `holds` says yes; fails with the rows it last saw. */
export async function waitForView(page: Page, title: string, what: string, holds: (rows: TreeRow[]) => boolean, timeoutMs = 60_000): Promise<TreeRow[]> {
  return waitForValue(() => viewRows(page, title).catch(() => [] as TreeRow[]), holds, `the ${title} view to show ${what}`,
    { timeoutMs, everyMs: 250, show: (rows) => `rows:\n${showRows(rows)}` });
}

/** Hovers the status item and reads its tooltip (the hover that matches `hasText`); '' when no hover showed. */
export async function statusTooltip(page: Page, hasText: RegExp): Promise<string> {
  await page.mouse.move(5, 5);
  // A hover still on screen (of an earlier call) would be read as this one's: wait for it to go.
  await page.waitForFunction(() => ![...document.querySelectorAll('.monaco-hover, .workbench-hover')].some((hover) => hover.checkVisibility()), undefined, { timeout: 10_000 });
  await statusItem(page).hover();
  const hover = page.locator('.monaco-hover, .workbench-hover').filter({ hasText }).first();
  const shown = await hover.waitFor({ state: 'visible', timeout: 10_000 }).then(() => true, () => false);
  // The tooltip's Markdown writes its spaces as non-breaking ones, and word joiners where agent text could link.
  const text = shown ? (await hover.innerText().catch(() => '')).replace(/\u00a0/g, ' ').replace(/\u2060/g, '') : '';
  await page.mouse.move(5, 5);
  return text;
}

/**
 * The render the request page in `frame` shows (its request's key and the
 * host's generation), which a message posted past the page must name as the
 * page's own do, or the host drops it.
 */
export async function shownRender(frame: Frame): Promise<{ key: string; generation: number }> {
  const app = frame.locator('#app');
  const key = await app.getAttribute('data-key');
  const generation = Number(await app.getAttribute('data-generation'));
  if (!key || !Number.isInteger(generation)) throw new Error('the request page shows no render');
  return { key, generation };
}

/**
 * Posts `message` to the extension host past the request page in `frame`, as the page's own
 * posts go (through its webview host frame's channel), stamped with the render it shows:
 * what a page that skipped its own checks would send. False when the host frame offers no
 * such channel.
 */
export async function postPastPage(frame: Frame, message: Record<string, unknown>): Promise<boolean> {
  const hostFrame = frame.parentFrame();
  if (!hostFrame) throw new Error('the request page sits in no webview host frame');
  const stamped = { ...message, ...(await shownRender(frame)) };
  return hostFrame.evaluate((sent) => {
    const post = (window as unknown as Record<string, unknown>)['__vscode_post_message__'];
    if (typeof post !== 'function') return false;
    (post as (channel: string, data: unknown) => void)('onmessage', { message: sent, transfer: undefined });
    return true;
  }, stamped);
}

/**
 * Records, in every page of `context` from its load, each notification toast the workbench shows,
 * with its text as last drawn. VS Code hides an information toast 10 s after it shows while the
 * window has focus and the pointer is not on it (its toasts' PURGE_TIMEOUT; a headless page always
 * has focus): on a busy machine a later look finds the toast gone, and a count of the toasts on
 * screen would miss a second notification as well. Given to openWorkbench as its `prepare`.
 */
export async function recordToasts(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    if (window.top !== window) return;
    const shown: string[] = [];
    const index = new WeakMap<Element, number>();
    (window as unknown as { aepToastsShown: string[] }).aepToastsShown = shown;
    new MutationObserver(() => {
      const container = document.querySelector('.notifications-toasts');
      if (!container) return;
      for (const toast of container.querySelectorAll('.notification-toast')) {
        const text = (toast.textContent ?? '').replace(/\s+/g, ' ').trim();
        if (text === '') continue;
        const at = index.get(toast);
        if (at === undefined) index.set(toast, shown.push(text) - 1);
        else shown[at] = text;
      }
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
}

/** The texts of the toasts this page showed since it loaded (recordToasts) that contain `text`, in the order they came. */
export async function toastsShown(page: Page, text: string | RegExp): Promise<string[]> {
  const shown = await page.evaluate(() => (window as unknown as { aepToastsShown?: string[] }).aepToastsShown);
  if (shown === undefined) throw new Error('toasts are not recorded in this page: open its workbench with recordToasts');
  return shown.filter((line) => (typeof text === 'string' ? line.includes(text) : text.test(line)));
}

/** Waits until the page has shown a toast containing `text` (on screen now or hidden since); returns every such toast's text. */
export async function waitForToastShown(page: Page, text: string | RegExp, timeoutMs = 30_000): Promise<string[]> {
  return waitForValue(() => toastsShown(page, text), (found) => found.length > 0, `a toast containing ${String(text)}`, { timeoutMs, everyMs: PAGE_READ_EVERY_MS });
}
