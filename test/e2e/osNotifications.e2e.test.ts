// System notifications (issue 28), in the REAL VS Code workbench (code-server)
// with the extension installed from its VSIX, in a real Chromium:
//   - before the AEP Attention sidebar was opened, the status tooltip says the
//     notifications start once it is;
//   - the notifications view asks the browser from a click; refused, the view
//     and the status tooltip say so; granted (as the person would in the
//     site settings), the view says so;
//   - a request while the workbench has focus makes a toast and no system
//     notification; the workbench loses focus, the view says the next request
//     is a system notification, and one arrives with the agent in its title
//     and the prompt as its body, then the last action before it ("after:
//     "Bash" failed · 2 s ago", as the toast says it); a prompt holding a token
//     says only "A request from {agent}" (and that line) and is taken back when
//     the agent resolves it;
//   - with the sound on, the view plays its two tones for the request in the background;
//   - clicking the notification asks the browser to focus the window and
//     opens the request in the quick input;
//   - with two windows of one code-server on one hub, a request makes one
//     system notification and one sound across both, and none while the
//     person looks at a window that shows the request's toast; once one
//     window's page is gone without a word (its extension host still
//     connected), the other gives the next request's.
//   - from a fresh window with no hub (issue 42): Connect to Hub's four steps,
//     then the one click it offers; the view shows itself without the focus,
//     says why and asks the browser; allowed, the next request while the
//     window is in the background is a system notification; a later window
//     of the same browser, opening in the background while that request
//     still waits, leaves its sidebar alone for it (the first window took
//     it), then shows its view by itself for the next request, with
//     no offer and no second ask.
// Headless Chromium shows no notification on any screen: an init script, run
// in every frame before the page's own scripts, records each `Notification`
// the webview constructs (over the real one) and each `window.focus()` call.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import type { BrowserContext, Frame, Page } from 'playwright-core';
import { startHub, type RunningHub } from '../peers/hub/hub';
import { freshSession, makeEvent } from '../support/events';
import { codeServerSuite } from '../support/harness';
import { PAGE_READ_EVERY_MS, waitForValue, waitUntil } from '../support/waitUntil';
import { WsPeer } from '../support/wsPeer';
import { e2eAvailable, e2eOutDir, extensionLogs, openWorkbench, startCodeServer, type CodeServer, type Workbench } from './codeServer';
import { withConnectedWorkbench } from './connectedWorkbench';
import { escape, pickThisWorkspace, typeIntoBox, typeToken, waitForPaletteCommand } from './connectSteps';
import { packageExtension } from './vsce';
import { runCommand, statusTooltip, waitForQuickInputTitle, waitForStatus } from './workbenchPage';

const TOKEN = 'e2e-token-os-notify-3c91';
const AGENT = 'e2e-os-agent';
const TOKEN_IN_PROMPT = `ghp_${'Z9'.repeat(18)}`;

interface Recorded { title: string; body: string; tag: string; closed: boolean }

/** Runs in every frame before its scripts: records notifications and focus calls, changing neither. */
function recordNotifications(): void {
  const made: Recorded[] = [];
  const clicks: Array<() => void> = [];
  const scope = window as unknown as { __aepMade: Recorded[]; __aepClick: typeof clicks; __aepFocusCalls: number };
  scope.__aepMade = made;
  scope.__aepClick = clicks;
  scope.__aepFocusCalls = 0;
  // Each tone the view starts (the sound is two).
  const tones = window as unknown as { __aepTones: number[]; __aepSounded: string[] };
  tones.__aepTones = [];
  // Each alert the host sends with its sound, by the body of its notification ('-' with none): in order, so once a
  // marker's is here every earlier one is, where a tone may start a moment after its notification. Read where the
  // view reads each message (its data), as the webview's document.open() erases a listener added here.
  tones.__aepSounded = [];
  const data = Object.getOwnPropertyDescriptor(MessageEvent.prototype, 'data');
  const read = new WeakSet<MessageEvent>();
  if (data?.get) {
    const get = data.get;
    Object.defineProperty(MessageEvent.prototype, 'data', {
      ...data,
      get(this: MessageEvent) {
        const value = get.call(this) as { type?: unknown; sound?: unknown; notice?: { body?: unknown } } | null;
        if (!read.has(this)) {
          read.add(this);
          if (value?.type === 'alert' && value.sound === true) tones.__aepSounded.push(typeof value.notice?.body === 'string' ? value.notice.body : '-');
        }
        return value;
      },
    });
  }
  if (typeof OscillatorNode !== 'undefined') {
    const start = OscillatorNode.prototype.start;
    OscillatorNode.prototype.start = function (this: OscillatorNode, when?: number) {
      tones.__aepTones.push(this.frequency.value);
      start.call(this, when);
    };
  }
  const focus = window.focus.bind(window);
  window.focus = () => {
    scope.__aepFocusCalls++;
    focus();
  };
  const Real = window.Notification as typeof Notification | undefined;
  if (!Real) return;
  class Recording extends Real {
    constructor(title: string, options?: NotificationOptions) {
      super(title, options);
      const entry: Recorded = { title, body: options?.body ?? '', tag: options?.tag ?? '', closed: false };
      made.push(entry);
      const close = this.close.bind(this);
      this.close = () => {
        entry.closed = true;
        close();
      };
      // What the system does when the person clicks it.
      clicks.push(() => this.dispatchEvent(new Event('click')));
    }
  }
  window.Notification = Recording as typeof Notification;
}

async function prepare(context: BrowserContext): Promise<void> {
  await context.addInitScript(recordNotifications);
}

/** The notifications view's frame (webviews nest two iframes deep). */
async function alertsFrame(page: Page, timeoutMs = 60_000): Promise<Frame> {
  const visible = async () => {
    for (const frame of page.frames()) {
      if (await frame.locator('#test-sound').isVisible().catch(() => false)) return frame;
    }
    return undefined;
  };
  const frame = await waitForValue(visible, (found) => found !== undefined, 'the notifications view to appear', { timeoutMs, everyMs: PAGE_READ_EVERY_MS, show: () => 'not on screen' });
  if (!frame) throw new Error('unreachable: waitForValue returned no frame');
  return frame;
}

async function waitForText(frame: Frame, selector: string, pattern: RegExp, timeoutMs = 30_000): Promise<string> {
  return waitForValue(() => frame.locator(selector).innerText().catch(() => ''), (text) => pattern.test(text), `${selector} to match ${pattern}`,
    { timeoutMs, everyMs: PAGE_READ_EVERY_MS, show: (text) => `"${text}"` });
}

async function waitForTooltip(page: Page, pattern: RegExp, timeoutMs = 60_000): Promise<string> {
  return waitForValue(() => statusTooltip(page, /Connected\sto/), (text) => pattern.test(text), `the status tooltip to match ${pattern}`,
    { timeoutMs, everyMs: 1_000, show: (text) => `\n${text || '(no hover)'}` });
}

const tones = (frame: Frame) => frame.evaluate(() => [...(window as unknown as { __aepTones: number[] }).__aepTones]);
/** The alerts this view was sent with a sound, by their notification's body ('-' for a sound alone). */
const sounded = (frame: Frame) => frame.evaluate(() => [...(window as unknown as { __aepSounded: string[] }).__aepSounded]);
const made = (frame: Frame) => frame.evaluate(() => (window as unknown as { __aepMade: Recorded[] }).__aepMade.map((entry) => ({ ...entry })));

async function waitForMade(frame: Frame, count: number, timeoutMs = 30_000): Promise<Recorded[]> {
  return waitForValue(() => made(frame), (now) => now.length >= count, `${count} system notifications`, { timeoutMs, everyMs: PAGE_READ_EVERY_MS });
}

test('system notifications: asked from a click, refused then allowed, one per request while the window is in the background, clicked to answer', { timeout: 360_000, ...codeServerSuite() }, async (t) => {
  let agent: WsPeer | undefined;
  try {
    await withConnectedWorkbench(t, { name: 'os-notify', token: TOKEN, prepare, userSettings: { 'aepAttention.osNotifications': 'whenUnfocused', 'aepAttention.sound': true } }, async ({ hub, page, shot }) => {
      // Nothing has shown the view yet: the tooltip says what starts it.
      const before = await waitForTooltip(page, /start once the AEP Attention sidebar has been opened/);
      t.diagnostic(`tooltip before the sidebar: ${before.replace(/\n+/g, ' | ')}`);

      await runCommand(page, 'AEP Attention: Show Inbox');
      const view = await alertsFrame(page);
      await waitForText(view, '#permission', /need your permission first/);
      await waitForTooltip(page, /not allowed yet: open the AEP Attention sidebar and choose Allow System Notifications/);

      // Headless Chromium refuses a permission nobody granted: the person's click, refused.
      await view.getByRole('button', { name: 'Allow System Notifications' }).click();
      await waitForText(view, '#permission', /blocked for VS Code here/);
      const refused = await waitForTooltip(page, /System notifications are blocked/);
      assert.doesNotMatch(refused, /sound is blocked/, 'the click in the view lets the sound play');
      await shot('1-refused');
      t.diagnostic(`tooltip when refused: ${refused.replace(/\n+/g, ' | ')}`);

      // The person allows them in the site settings; the view sees the change.
      await page.context().grantPermissions(['notifications']);
      await waitForText(view, '#permission', /System notifications are allowed\./);
      await waitForText(view, '#next', /This window has focus/);
      await waitForText(view, '#sound', /Sound: on/);

      const peer = await WsPeer.connect(hub.url, { token: TOKEN, role: 'both', agent: AGENT, capabilities: { control: { accepts: ['control.attention.respond'] } } });
      agent = peer;
      const session = freshSession('os-notify');
      let seq = 1;
      const ask = (id: string, prompt: string) =>
        peer.send(makeEvent('attention.requested', session, seq++, {
          id, capture: 'full', data: { kind: 'permission', prompt, options: [{ id: 'allow', label: 'Allow' }, { id: 'deny', label: 'Deny' }], respond_via: ['control'] },
        }, AGENT));
      const toast = (prompt: string) => page.locator('.notifications-toasts .notification-toast', { hasText: prompt }).first();

      // Focused: a toast, and (whenUnfocused) no system notification.
      ask('req-os-1', 'Run the linter?');
      await toast('Run the linter?').waitFor({ state: 'visible', timeout: 60_000 });

      // The workbench loses focus, as when the person switches to another application. The
      // workbench asks document.hasFocus() on the window's blur and on visibilitychange; a click
      // in the view already moved focus into its frame (a real blur of the window), so the
      // synthetic one would be ignored, and visibilitychange is what makes it ask again.
      await page.evaluate(() => {
        document.hasFocus = () => false;
        window.dispatchEvent(new FocusEvent('blur'));
        document.dispatchEvent(new Event('visibilitychange'));
      });
      await waitForText(view, '#next', /in the background: the next request shows as a system notification/);

      // "Before asking": the agent ran a build that failed just before it asked.
      const bash = { name: 'Bash', call_id: 'os-call-1' };
      peer.send(makeEvent('tool.requested', session, seq++, { capture: 'metadata', data: { tool: bash } }, AGENT));
      peer.send(makeEvent('tool.failed', session, seq++, { capture: 'metadata', data: { tool: bash, error: { type: 'exit_1' } } }, AGENT));
      ask('req-os-2', 'Deploy to staging?');
      const [first, ...more] = await waitForMade(view, 1);
      // Messages reach the view in order: had the focused request made one, it would be first.
      assert.deepEqual(more, [], 'one system notification so far');
      assert.equal(first?.title, `${AGENT} is waiting for you`);
      // The prompt, then the last action before it, as the toast and the quick input say it.
      assert.match(first?.body ?? '', /^Deploy to staging\? · after: "Bash" failed · \d+ s ago$/);
      // The sound, once, for the request in the background (the focused one played none: it would come first).
      await waitForValue(() => tones(view), (played) => played.length >= 2, 'two tones', { timeoutMs: 10_000, everyMs: PAGE_READ_EVERY_MS });
      assert.deepEqual(await tones(view), [660, 990], 'two rising tones, once');
      await shot('2-notified');

      // A prompt holding a token: the body names only the agent. Then the agent resolves it: taken back.
      ask('req-os-3', `Use the token ${TOKEN_IN_PROMPT} to publish?`);
      const afterToken = await waitForMade(view, 2);
      assert.match(afterToken[1]?.body ?? '', new RegExp(`^A request from ${AGENT} · after: "Bash" failed · \\d+ s ago$`));
      assert.ok(!JSON.stringify(afterToken).includes('ghp_'), 'the token never reaches the notification');
      peer.send(makeEvent('attention.resolved', session, seq++, { subject: 'req-os-3', cause: 'req-os-3', data: { resolution: 'answered' } }, AGENT));
      await waitForValue(() => made(view), (now) => now[1]?.closed === true, 'the notification of the resolved request to be taken back', { timeoutMs: 30_000, everyMs: PAGE_READ_EVERY_MS });
      assert.equal((await made(view))[0]?.closed, false, 'the open request\'s notification stays');

      // The person clicks the first notification: the window is asked to come forward, and the request opens inline.
      await view.evaluate(() => (window as unknown as { __aepClick: Array<() => void> }).__aepClick[0]?.());
      await waitForQuickInputTitle(page, new RegExp(`${AGENT} · permission: Deploy to staging\\?`));
      const focusCalls = await view.evaluate(() => (window as unknown as { __aepFocusCalls: number }).__aepFocusCalls);
      assert.ok(focusCalls >= 1, 'the click asks the browser to focus the window');
      await shot('3-clicked');
      await waitForStatus(page, /2 requests wait for you\./);
      assert.equal((await made(view)).length, 2, 'no notification for anything else');
    });
  } finally {
    await agent?.close();
  }
});

/** Takes the window out of focus, as when the person switches to another application (see the test above for why these three). */
async function blur(page: Page): Promise<void> {
  await page.evaluate(() => {
    document.hasFocus = () => false;
    window.dispatchEvent(new FocusEvent('blur'));
    document.dispatchEvent(new Event('visibilitychange'));
  });
}

/** The person comes back to this window. */
async function refocus(page: Page): Promise<void> {
  await page.evaluate(() => {
    document.hasFocus = () => true;
    window.dispatchEvent(new FocusEvent('focus'));
    document.dispatchEvent(new Event('visibilitychange'));
  });
}

test('two windows of one code-server on one hub: one request, one system notification and one sound across both; none while a window on that hub has focus', { timeout: 480_000, ...codeServerSuite() }, async (t) => {
  let agent: WsPeer | undefined;
  try {
    await withConnectedWorkbench(t, {
      name: 'os-notify-two',
      token: TOKEN,
      prepare: async (context) => {
        await prepare(context);
        await context.grantPermissions(['notifications']);
      },
      userSettings: { 'aepAttention.osNotifications': 'whenUnfocused', 'aepAttention.sound': true },
    }, async ({ hub, page, shot }) => {
      // A second window of the same code-server, on another folder: its own extension host, the same user settings and hub.
      const otherFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'aep-e2e-os-notify-other-'));
      t.after(() => fs.rmSync(otherFolder, { recursive: true, force: true }));
      const address = new URL(page.url());
      address.searchParams.set('folder', otherFolder);
      const other = await page.context().newPage();
      await other.goto(address.toString(), { waitUntil: 'load', timeout: 90_000 });
      await other.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 90_000 });
      await waitForStatus(other, /Connected to http:\/\/127\.0\.0\.1/);

      const windows = [page, other];
      const views: Frame[] = [];
      for (const win of windows) {
        await runCommand(win, 'AEP Attention: Show Inbox');
        const view = await alertsFrame(win);
        await waitForText(view, '#permission', /System notifications are allowed\./);
        // The person's click in each view lets it play sound (the browser's autoplay rule); each plays the test tones once.
        await view.getByRole('button', { name: 'Play Test Sound' }).click();
        views.push(view);
      }
      const allMade = async () => (await Promise.all(views.map(made))).flat();
      const allTones = async () => (await Promise.all(views.map(tones))).flat().length;
      const waitForAll = (count: number, timeoutMs = 30_000): Promise<Recorded[]> =>
        waitForValue(allMade, (now) => now.length >= count, `${count} system notifications across both windows`, { timeoutMs, everyMs: PAGE_READ_EVERY_MS });
      // Each window's test sound: two tones, all played before a request's are counted (a late one would count as a request's).
      await waitForValue(allTones, (played) => played >= 4, 'the test sounds', { timeoutMs: 30_000, everyMs: PAGE_READ_EVERY_MS });
      const testTones = await allTones();
      t.diagnostic(`test tones played: ${testTones}`);

      const peer = await WsPeer.connect(hub.url, { token: TOKEN, role: 'both', agent: AGENT, capabilities: { control: { accepts: ['control.attention.respond'] } } });
      agent = peer;
      const session = freshSession('os-notify-two');
      let seq = 1;
      const ask = (id: string, prompt: string) =>
        peer.send(makeEvent('attention.requested', session, seq++, {
          id, capture: 'full', data: { kind: 'permission', prompt, options: [{ id: 'allow', label: 'Allow' }, { id: 'deny', label: 'Deny' }], respond_via: ['control'] },
        }, AGENT));

      // The person is away from both windows.
      for (const win of windows) await blur(win);
      for (const view of views) await waitForText(view, '#next', /in the background: the next request shows as a system notification/);

      ask('req-two-1', 'Run the migrations?');
      const [first] = await waitForAll(1);
      assert.equal(first?.body, 'Run the migrations?');
      // To show that the other window gave none, a marker request: once it is there, anything for the first would be too.
      ask('req-two-2', 'Marker one?');
      const afterMarker = await waitForAll(2);
      assert.deepEqual(afterMarker.map((entry) => entry.body).sort(), ['Marker one?', 'Run the migrations?'], 'one system notification per request across both windows');
      const allSounded = async () => (await Promise.all(views.map(sounded))).flat().sort();
      assert.deepEqual(await allSounded(), ['Marker one?', 'Run the migrations?'], 'one sound per request across both windows');
      await waitForValue(allTones, (played) => played >= testTones + 4, 'two sounds', { timeoutMs: 30_000, everyMs: PAGE_READ_EVERY_MS });
      assert.equal((await allTones()) - testTones, 4, 'one sound (two tones) per request across both windows');
      await shot('two-windows-1');

      // The person looks at the first window: it shows its toast, and the window behind it gives no system notification or sound.
      await refocus(page);
      await waitForText(views[0] as Frame, '#next', /This window has focus/);
      ask('req-two-3', 'Open the pull request?');
      await page.locator('.notifications-toasts .notification-toast', { hasText: 'Open the pull request?' }).first().waitFor({ state: 'visible', timeout: 60_000 });
      // The window behind shows its toast too. Each window starts reading where the person looks (its focus, the
      // marker file) before it shows the toast, so once both are up that reading is all but certainly done, and
      // turning away below cannot change what either decides for this request, however late its page answers.
      await other.locator('.notifications-toasts .notification-toast', { hasText: 'Open the pull request?' }).first().waitFor({ state: 'visible', timeout: 60_000 });
      // Away again, and a marker: had the window behind given one for the focused request, it would be there before the marker's.
      await blur(page);
      await waitForText(views[0] as Frame, '#next', /in the background/);
      ask('req-two-4', 'Marker two?');
      const end = await waitForAll(3);
      assert.deepEqual(end.map((entry) => entry.body).sort(), ['Marker one?', 'Marker two?', 'Run the migrations?'], 'nothing for the request shown in the focused window');
      assert.deepEqual(await allSounded(), ['Marker one?', 'Marker two?', 'Run the migrations?'], 'and no sound for it');
      await waitForValue(allTones, (played) => played >= testTones + 6, 'three sounds', { timeoutMs: 30_000, everyMs: PAGE_READ_EVERY_MS });
      assert.equal((await allTones()) - testTones, 6, 'and no tones for it');
      t.diagnostic(`notifications per window: ${JSON.stringify(await Promise.all(views.map(async (view) => (await made(view)).map((entry) => entry.body))))}`);

      // The first window's page dies without a word (a crashed or discarded tab): code-server keeps its extension host,
      // still connected to the hub, with a view that would take every claim and show nothing. The window left gives it.
      const [, otherView] = views;
      assert.ok(otherView);
      const before = (await made(otherView)).length;
      const crashed = new Promise<void>((resolve) => page.once('crash', () => resolve()));
      const cdp = await page.context().newCDPSession(page);
      // Never answered: the page is gone.
      cdp.send('Page.crash').catch(() => undefined);
      await crashed;
      // Two requests: the orphaned host, were it to claim, would have to lose both races to pass unseen. (Not more: the
      // five a minute across windows would make later ones one "more requests" notification.)
      // One after the other, each its own burst.
      for (const [index, prompt] of ['After the crash?', 'Still after the crash?'].entries()) {
        ask(`req-two-${5 + index}`, prompt);
        const seen: Recorded[] = await waitForValue(() => made(otherView), (now) => now.length > before + index, `system notification ${index + 1} in the window left`, { timeoutMs: 30_000, everyMs: PAGE_READ_EVERY_MS });
        assert.equal(seen.at(-1)?.body, prompt);
      }
    });
  } finally {
    await agent?.close();
  }
});

/**
 * Runs in every frame, after recordNotifications: stands in for the browser's
 * permission prompt, which headless Chromium cannot show (it refuses at
 * once). A request waits, as the prompt would, until the test answers for the
 * person; each request is counted.
 */
function modelPermissionPrompt(): void {
  const Shown = window.Notification as typeof Notification | undefined;
  if (!Shown) return;
  const scope = window as unknown as { __aepAsks: number[]; __aepAnswer: (() => void) | undefined };
  scope.__aepAsks = [];
  scope.__aepAnswer = undefined;
  Shown.requestPermission = () => {
    scope.__aepAsks.push(Date.now());
    return new Promise<NotificationPermission>((resolve) => {
      scope.__aepAnswer = () => resolve(Shown.permission);
    });
  };
}

const asks = (frame: Frame) => frame.evaluate(() => [...(window as unknown as { __aepAsks: number[] }).__aepAsks]);

test('from a fresh window: Connect to Hub, the one offered click, the browser\'s Allow, and the next request in the background is a system notification; another window needs no click', { timeout: 420_000, ...codeServerSuite() }, async (t) => {
  const install = e2eAvailable();
  if (!install.ok) assert.fail(install.why);
  const out = e2eOutDir();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'aep-e2e-os-setup-'));
  const workspaceDir = path.join(tmp, 'workspace');
  const userDataDir = path.join(tmp, 'user-data');
  let hub: RunningHub | undefined;
  let server: CodeServer | undefined;
  let workbench: Workbench | undefined;
  let agent: WsPeer | undefined;
  try {
    const vsixPath = await packageExtension(path.join(tmp, 'aep-attention.vsix'));
    hub = await startHub({ port: 0, token: TOKEN });
    // No AEP_HUB, no hubUrl: the newcomer's window.
    server = await startCodeServer({ vsixPath, workspaceDir, userDataDir, extensionsDir: path.join(tmp, 'extensions') });
    workbench = await openWorkbench(server.url, workspaceDir, undefined, undefined, async (context) => {
      await context.addInitScript(recordNotifications);
      await context.addInitScript(modelPermissionPrompt);
    });
    const page = workbench.page;
    const context = workbench.context;
    await waitForPaletteCommand(page, 'AEP Attention: Connect to Hub');

    // Connect's four steps, counted as connect.e2e counts them.
    let steps = 0;
    await runCommand(page, 'AEP Attention: Connect to Hub', { opensQuickInput: true });
    steps++;
    await waitForQuickInputTitle(page, /^Connect to an AEP hub/);
    await typeIntoBox(page, hub.url);
    await page.keyboard.press('Enter');
    steps++;
    await pickThisWorkspace(page);
    steps++;
    await typeToken(page, hub.url, TOKEN);
    steps++;
    await waitForStatus(page, new RegExp(`^AEP Attention: Connected to ${escape(hub.url)}`), 60_000);

    // The offer, at Connect's end: one click, on a notification of the extension's own.
    const offer = page.locator('.notifications-toasts .notification-toast', { hasText: 'Agents can reach you with a system notification' }).first();
    await offer.waitFor({ state: 'visible', timeout: 60_000 });
    await offer.getByRole('button', { name: 'Allow System Notifications' }).click();
    steps++;

    // The view shows itself, says why, and asks the browser without a click inside it.
    const view = await alertsFrame(page);
    await waitForText(view, '#why', /opened this view because system notifications reach you from here/);
    await waitUntil(async () => (await asks(view)).length > 0, 'the view to ask the browser', 30_000, undefined, PAGE_READ_EVERY_MS);
    // The keyboard focus stayed out of the view.
    const focusInView = await view.evaluate(() => document.hasFocus());
    assert.equal(focusInView, false, 'showing the view does not take the focus');
    await page.screenshot({ path: path.join(out, 'os-setup-1-asked.png') });

    // The browser's prompt: the person chooses Allow (the browser's own step, not the extension's).
    await context.grantPermissions(['notifications']);
    await view.evaluate(() => (window as unknown as { __aepAnswer?: () => void }).__aepAnswer?.());
    await waitForText(view, '#permission', /System notifications are allowed\./);
    t.diagnostic(`fresh window to system notifications allowed: ${steps} steps of the extension's (Connect's four, then the offered click), plus the browser's own Allow`);
    assert.equal(steps, 5, 'Connect\'s four steps plus one');

    const peer = await WsPeer.connect(hub.url, { token: TOKEN, role: 'both', agent: AGENT, capabilities: { control: { accepts: ['control.attention.respond'] } } });
    agent = peer;
    const session = freshSession('os-setup');
    let seq = 1;
    const ask2 = (id: string, prompt: string) =>
      peer.send(makeEvent('attention.requested', session, seq++, {
        id, capture: 'full', data: { kind: 'permission', prompt, options: [{ id: 'allow', label: 'Allow' }, { id: 'deny', label: 'Deny' }], respond_via: ['control'] },
      }, AGENT));

    // The person leaves the window; the next request is a system notification.
    await blur(page);
    await waitForText(view, '#next', /in the background: the next request shows as a system notification/);
    ask2('req-setup-1', 'Merge the release branch?');
    const [first] = await waitForMade(view, 1);
    assert.equal(first?.title, `${AGENT} is waiting for you`);
    assert.equal(first?.body, 'Merge the release branch?');
    await page.screenshot({ path: path.join(out, 'os-setup-2-notified.png') });

    // Another window of this browser profile, later, on another folder naming the same hub: no offer, no click.
    // Its first request while it is in the background shows its view by itself and is a system notification.
    // Another folder, so this window starts with an inbox of its own: the hub's replay of the first request, still
    // waiting, is new to it. (In the same folder the first window's saved inbox may restore it, or may not yet.)
    const otherDir = path.join(tmp, 'other-workspace');
    fs.mkdirSync(path.join(otherDir, '.vscode'), { recursive: true });
    fs.copyFileSync(path.join(workspaceDir, '.vscode', 'settings.json'), path.join(otherDir, '.vscode', 'settings.json'));
    await page.close();
    const other = await context.newPage();
    // The person is in another application while it opens: the window is in the background from its start.
    await other.addInitScript(() => {
      document.hasFocus = () => false;
    });
    const address = new URL(server.url);
    address.searchParams.set('folder', otherDir);
    await other.goto(address.toString(), { waitUntil: 'load', timeout: 90_000 });
    await other.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 90_000 });
    await waitForStatus(other, new RegExp(`^AEP Attention: Connected to ${escape(hub.url)}`), 60_000);
    // The first request still waits; the hub replays it to this window, which decides it has nothing to give:
    // the first window claimed it (and gave its system notification). So its sidebar is left as it was.
    await waitForValue(() => extensionLogs(userDataDir), (logs) => /os-notice-elsewhere: another window claimed the system notification for these requests\n/.test(logs),
      'the other window to decide on the replayed request', { timeoutMs: 60_000, everyMs: 250, show: () => '(no such line yet)' });
    // Its Notifications view was not made: the sidebar shows the Explorer.
    await other.locator('.sidebar .composite.title', { hasText: /Explorer/i }).first().waitFor({ state: 'visible', timeout: 30_000 });
    const made0 = await Promise.all(other.frames().map((frame) => frame.locator('#test-sound').count().catch(() => 0)));
    assert.equal(made0.reduce((sum, count) => sum + count, 0), 0, 'the other window has no Notifications view before a request it has to give');
    await blur(other);
    ask2('req-setup-2', 'Tag the release?');
    const otherView = await alertsFrame(other);
    const [second] = await waitForMade(otherView, 1);
    assert.equal(second?.body, 'Tag the release?');
    assert.deepEqual(await asks(otherView), [], 'the browser was not asked again');
    assert.equal(await other.locator('.notifications-toasts .notification-toast', { hasText: 'Agents can reach you with a system notification' }).count(), 0, 'no offer in the other window');
    await waitForText(otherView, '#why', /opened this view because/);
    await other.screenshot({ path: path.join(out, 'os-setup-3-other-window.png') });
  } catch (error) {
    if (workbench) {
      for (const [index, open] of workbench.context.pages().entries()) await open.screenshot({ path: path.join(out, `os-setup-failure-${index}.png`) }).catch(() => undefined);
      t.diagnostic(`page console (last 30):\n${workbench.console().slice(-30).join('\n')}`);
    }
    if (server) t.diagnostic(`code-server output (last 3000 chars):\n${server.logs().slice(-3_000)}`);
    t.diagnostic(`extension logs:\n${extensionLogs(userDataDir)}`);
    throw error;
  } finally {
    await agent?.close();
    await workbench?.close();
    await server?.stop();
    await hub?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});

test('a window connected without Connect to Hub: the first request\'s notification comes with the offer, whose one click makes the next request in the background a system notification', { timeout: 300_000, ...codeServerSuite() }, async (t) => {
  let agent: WsPeer | undefined;
  try {
    await withConnectedWorkbench(t, {
      name: 'os-offer-first-toast',
      token: TOKEN,
      userSettings: { 'aepAttention.osNotifications': 'whenUnfocused' },
      prepare: async (context) => {
        await context.addInitScript(recordNotifications);
        await context.addInitScript(modelPermissionPrompt);
      },
    }, async ({ hub, page, shot }) => {
      const peer = await WsPeer.connect(hub.url, { token: TOKEN, role: 'both', agent: AGENT, capabilities: { control: { accepts: ['control.attention.respond'] } } });
      agent = peer;
      const session = freshSession('os-offer');
      let seq = 1;
      const ask = (id: string, prompt: string) =>
        peer.send(makeEvent('attention.requested', session, seq++, {
          id, capture: 'full', data: { kind: 'permission', prompt, options: [{ id: 'allow', label: 'Allow' }, { id: 'deny', label: 'Deny' }], respond_via: ['control'] },
        }, AGENT));
      // The person is looking: the request's toast, and beside it the offer.
      ask('req-offer-1', 'Install the dependencies?');
      await page.locator('.notifications-toasts .notification-toast', { hasText: 'Install the dependencies?' }).first().waitFor({ state: 'visible', timeout: 60_000 });
      const offer = page.locator('.notifications-toasts .notification-toast', { hasText: 'Agents can reach you with a system notification' }).first();
      await offer.waitFor({ state: 'visible', timeout: 30_000 });
      await offer.getByRole('button', { name: 'Allow System Notifications' }).click();
      const view = await alertsFrame(page);
      await waitUntil(async () => (await asks(view)).length > 0, 'the view to ask the browser', 30_000, undefined, PAGE_READ_EVERY_MS);
      await page.context().grantPermissions(['notifications']);
      await view.evaluate(() => (window as unknown as { __aepAnswer?: () => void }).__aepAnswer?.());
      await waitForText(view, '#permission', /System notifications are allowed\./);
      assert.deepEqual(await made(view), [], 'no system notification for the request the person saw as a toast');
      await blur(page);
      await waitForText(view, '#next', /in the background/);
      ask('req-offer-2', 'Run the smoke tests?');
      const [first] = await waitForMade(view, 1);
      assert.equal(first?.body, 'Run the smoke tests?');
      await shot('notified');
    });
  } finally {
    await agent?.close();
  }
});
