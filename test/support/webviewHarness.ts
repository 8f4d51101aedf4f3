import * as fs from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import assert from 'node:assert/strict';
import { after, afterEach, before } from 'node:test';
import type { HostToWebview, PageInit, PageRequest } from '../../src/shared/webviewMessages';
import { webviewHtml } from '../../src/app/page/webviewHtml';
import { launchBrowser } from './browser';
import { repoRoot } from './fixtures';
import { waitForValue } from './waitUntil';
import { applyPageTheme, pageTheme, type VsCodeTheme } from './vscodeThemes';

export interface OpenOptions {
  /**
   * Render under one of VS Code's default themes (its `--vscode-*` variables,
   * body class and default webview styles, put on the page as VS Code does).
   * Without it the page gets none of these and falls back on its defaults.
   */
  theme?: VsCodeTheme;
  viewport?: { width: number; height: number };
  /** What `getState` returns: the state a page saved before a window reload. */
  state?: unknown;
  /** A first render in the page's HTML, as the extension loads a new page (PageHost.load); it takes generation 1. */
  firstRender?: PageInit;
  /**
   * The time, in ms since the epoch, on both clocks: the host's `now` in the
   * `init` (requestPages), and the page's `Date.now()`, held there (Playwright's
   * clock) until the test moves it with `page.clock.setFixedTime`. Without it,
   * both are the real clock, and a deadline a few seconds ahead may have
   * passed by the time a loaded machine has opened the page. A test that sets
   * or moves a page's clock opens it with `now`: the clock is the whole
   * browser context's, and without `now` a suite's pages share one (such a
   * page's `clock` throws, saying so).
   */
  now?: number;
}

/**
 * Serves the real request page (the same HTML, CSP, bundle and stylesheet the
 * extension uses) on loopback, with a fake `acquireVsCodeApi` that records
 * what the page posts, so a test can play the extension host.
 */
export class WebviewHarness {
  /** First renders to serve in the page's HTML, by the number in `/?held=`. */
  private readonly held = new Map<string, unknown>();
  private heldCount = 0;

  private constructor(private readonly server: Server, readonly origin: string, held: (map: Map<string, unknown>) => void) {
    held(this.held);
  }

  static async start(): Promise<WebviewHarness> {
    const root = repoRoot();
    const files: Record<string, { file: string; type: string }> = {
      '/webview.js': { file: path.join(root, 'dist', 'webview', 'webview.js'), type: 'text/javascript' },
      '/form.css': { file: path.join(root, 'media', 'webview', 'form.css'), type: 'text/css' },
    };
    let origin = '';
    let held = new Map<string, unknown>();
    const server = createServer((req, res) => {
      const page = /^\/(?:\?held=(\d+))?$/.exec(req.url ?? '');
      if (page) {
        const init = page[1] === undefined ? undefined : held.get(page[1]);
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(webviewHtml({
          cspSource: origin, scriptUri: `${origin}/webview.js`, styleUri: `${origin}/form.css`, nonce: 'testnonce123', lang: 'en', title: 'test', loading: 'Loading…',
          ...(init === undefined ? {} : { init }),
        }));
        return;
      }
      if (req.url === '/keeper') {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<!doctype html><title>keeps the renderer</title>');
        return;
      }
      if (req.url === '/favicon.ico') {
        res.writeHead(204).end();
        return;
      }
      const entry = files[req.url ?? ''];
      if (!entry) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': entry.type });
      fs.createReadStream(entry.file).pipe(res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return new WebviewHarness(server, origin, (map) => (held = map));
  }

  /**
   * A browser context for many pages, one after another, in one renderer process: a page of
   * this origin stays open in it (its renderer ends with its last page), and the request
   * pages' browsers run one process per site (browser.ts REQUEST_PAGE_ARGS). Pages still
   * have their own documents, scripts, state and listeners. What they share: the process (its
   * V8 heap, so a script compiled for one page may serve the next), the HTTP and memory
   * caches, and the context's cookies, storage, permissions and clock, none of which the page
   * uses. A page whose clock a test sets or moves opens with `now`, in a context of its own.
   */
  async pagesContext(browser: Browser): Promise<BrowserContext> {
    const context = await browser.newContext();
    const keeper = await context.newPage();
    await keeper.goto(`${this.origin}/keeper`);
    return context;
  }

  /**
   * Opens the page, in a context of its own when given the browser (as VS Code gives each
   * webview a process of its own: what the benchmarks time) or in `pagesContext`'s; resolves
   * once the page said `ready`. CSP violations are collected.
   */
  async open(where: Browser | BrowserContext, options: OpenOptions = {}): Promise<WebviewPage> {
    const ownContext = 'newContext' in where;
    if (!ownContext && options.now !== undefined) throw new Error('a page with `now` needs a context of its own: the clock is the whole context\'s');
    const page = ownContext ? await where.newPage(options.viewport ? { viewport: options.viewport } : {}) : await where.newPage();
    try {
      if (!ownContext) {
        if (options.viewport) await page.setViewportSize(options.viewport);
        // Its clock is the whole context's: a test that set or moved it would set it for every later page of the suite.
        Object.defineProperty(page, 'clock', {
          get: () => {
            throw new Error('this page shares its browser context\'s clock with the suite\'s other pages: a page whose clock a test sets or moves opens with `now`');
          },
        });
      }
      return await this.load(page, options);
    } catch (error) {
      // Not left running beside the next test's page in a shared renderer.
      await page.close().catch(() => undefined);
      throw error;
    }
  }

  private async load(page: Page, options: OpenOptions): Promise<WebviewPage> {
    const violations: string[] = [];
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    await page.addInitScript((saved: { state: unknown }) => {
      const w = window as unknown as { __posted: unknown[]; __states: unknown[]; __violations: string[]; acquireVsCodeApi: () => unknown };
      w.__posted = [];
      w.__states = [];
      w.__violations = [];
      document.addEventListener('securitypolicyviolation', (event) => w.__violations.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}:${event.columnNumber} ${event.sample}`));
      let acquired = false;
      w.acquireVsCodeApi = () => {
        if (acquired) throw new Error('acquireVsCodeApi called twice');
        acquired = true;
        return {
          postMessage: (message: unknown) => w.__posted.push(message),
          getState: () => saved.state,
          // A copy, as VS Code serializes it: what the page saved then, not what the object holds later.
          setState: (state: unknown) => w.__states.push(JSON.parse(JSON.stringify(state)) as unknown),
        };
      };
    }, { state: options.state });
    if (options.theme) await page.addInitScript(applyPageTheme, pageTheme(options.theme));
    if (options.now !== undefined) await page.clock.setFixedTime(options.now);
    let address = `${this.origin}/`;
    if (options.firstRender) {
      const id = String(++this.heldCount);
      this.held.set(id, { ...options.firstRender, generation: 1 });
      address += `?held=${id}`;
    }
    await page.goto(address);
    const webview = new WebviewPage(page, violations, errors);
    if (options.firstRender) webview.generation = 1;
    await webview.waitForPosted((m) => m['type'] === 'ready');
    return webview;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

export class WebviewPage {
  /** The generation of the last `init` posted. */
  generation = 0;

  constructor(readonly page: Page, private readonly violationsSeen: string[], readonly errors: string[]) {}

  /** Plays the host: posts a message to the page. An `init` gets the next generation, as the page host gives every render one. */
  async post(message: HostToWebview | PageInit): Promise<void> {
    const sent = message.type === 'init' ? { ...message, generation: ++this.generation } : message;
    await this.page.evaluate((m) => window.postMessage(m, '*'), sent);
  }

  async posted(): Promise<Array<Record<string, unknown>>> {
    return this.page.evaluate(() => (window as unknown as { __posted: Array<Record<string, unknown>> }).__posted);
  }

  /** Every state the page saved with `setState`, oldest first (VS Code keeps the last, on disk across a reload). */
  async states(): Promise<unknown[]> {
    return this.page.evaluate(() => (window as unknown as { __states: unknown[] }).__states);
  }

  async waitForPosted(match: (message: Record<string, unknown>) => boolean, timeoutMs = 5_000): Promise<Record<string, unknown>> {
    const posted = await waitForValue(() => this.posted(), (messages) => messages.some(match), 'the page to post the expected message',
      { timeoutMs, everyMs: 20, show: (messages) => `posted ${JSON.stringify(messages)}` });
    const found = posted.find(match);
    if (!found) throw new Error('unreachable: the posted message matched a moment ago');
    return found;
  }

  async violations(): Promise<string[]> {
    const fromPage = await this.page.evaluate(() => (window as unknown as { __violations: string[] }).__violations);
    return [...this.violationsSeen, ...fromPage];
  }
}

/**
 * For a `describe` of request-page tests (each call its own): one browser, one
 * harness and one `pagesContext` for the suite, and `open(request)` giving a page that has
 * handled `init`. Each page is closed when its test ends (an idle page kept
 * open takes a share of a core); after the suite, every page opened must have
 * seen no CSP violation and no script error while it was open.
 */
export function requestPages(): { open: (request: PageRequest, options?: OpenOptions) => Promise<WebviewPage> } {
  let browser: Browser | undefined;
  let harness: WebviewHarness | undefined;
  /** Where the suite's pages open, one after another in one renderer (`pagesContext`). */
  let context: BrowserContext | undefined;
  /** The pages a test opened: closed when it ends, what they saw kept for the suite's end. */
  let pages: WebviewPage[] = [];
  const violations: string[] = [];
  const errors: string[] = [];
  before(async () => {
    browser = await launchBrowser();
    harness = await WebviewHarness.start();
    context = await harness.pagesContext(browser);
  });
  afterEach(async () => {
    const done = pages;
    pages = [];
    for (const page of done) {
      try {
        // A marker task: a violation's report or an error the test's last step queued is in before it runs.
        await page.page.evaluate(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));
        violations.push(...await page.violations());
      } catch (error) {
        errors.push(`could not read the page's reports: ${String(error)}`);
      } finally {
        errors.push(...page.errors);
        await page.page.close().catch(() => undefined);
      }
    }
  });
  after(async () => {
    // Closed first: a browser left open keeps the file's process alive, and a failed check would hang it.
    await browser?.close();
    await harness?.close();
    assert.deepEqual(violations, [], 'no CSP violation on any page');
    assert.deepEqual(errors, [], 'no script error on any page');
  });
  return {
    open: async (request, options = {}) => {
      if (!browser || !harness || !context) throw new Error('open() runs inside a test of the suite that called requestPages()');
      const page = await harness.open(options.now === undefined ? context : browser, options);
      pages.push(page);
      await page.post({ type: 'init', request, now: options.now ?? Date.now() });
      await page.page.waitForSelector('.request-header');
      return page;
    },
  };
}
