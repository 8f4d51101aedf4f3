// The request form's whole journey in the real VS Code workbench (code-server),
// installed from its VSIX, against the local hub and the demo agent; a scenario
// of the one connected workbench (oneWorkbench/scenario.ts), its steps one
// after another:
//   1. the golden four-field form (s_form) arrives as a notification; its Open
//      button brings up the form, ready to type into (time measured, not
//      asserted; earlier scenarios opened pages in this window before it);
//   2. the form filled and sent by keyboard only, `other` free text included;
//      the agent's log shows exactly the values sent;
//   3. an invalid answer forced past the page's own validation is refused by the
//      host with words saying why, never reaches the agent, and the form stays
//      editable: a correct answer then goes through;
//   4. an out-of-band request shows no way to send, and says where it is answered;
//   5. an expiring request turns read-only when it expires;
//   6. a half-typed answer survives a window reload: the panel is restored
//      (WebviewPanelSerializer) with what was typed (setState);
//   7. "Before asking" at capture metadata: the tools' names and outcomes only,
//      and the page says the arguments are withheld at this capture level
//      (step 1 checks it at capture redacted).
// Screenshots go to out/e2e/form-*.png.
//
// Locators go by ids, data attributes, roles and accessible names, never by the
// component library's tag names, so the page may swap its toolkit.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { TestContext } from 'node:test';
import type { Frame, Locator, Page } from 'playwright-core';
import { startAgent, type AgentOptions, type RunningAgent } from '../../peers/agent/agent';
import { loadFormVariants } from '../../peers/agent/scenarios';
import { PAGE_READ_EVERY_MS, TIMED_PAGE_READ_EVERY_MS, waitForValue } from '../../support/waitUntil';
import { e2eOutDir } from '../codeServer';
import { postPastPage, runCommand, visibleWebviewFrame, waitForStatus, webviewFrame } from '../workbenchPage';
import type { Scenario } from './scenario';

const FORM_PROMPT = 'Configure the new service deployment';
/** The synthesized prompt of the Claude Code AskUserQuestion mapping at capture metadata (the form rotation's third variant). */
const METADATA_FORM_PROMPT = 'claude-code asks 2 questions';
const OOB_PROMPT = 'Approval requested in the agent terminal';
const EXPIRING_PROMPT = 'demo-agent wants to restart the dev server';
/** Long enough for the panel to open before it runs out on a slow machine, short enough to keep the file quick. */
const EXPIRE_MS = 6_000;
/** What the golden form is answered with in step 2: the answer of the golden corpus itself. */
const GOLDEN_VALUES = { name: 'billing-api', staged: true, regions: ['1', '3'], db: 'MariaDB' };

const toast = (page: Page, text: string) => page.locator('.notifications-toasts .notification-toast', { hasText: text }).first();
/** Clicks Open on a request's notification and waits for its page, the one showing `session`. */
async function openFromToast(page: Page, notification: Locator, session: string): Promise<Frame> {
  await notification.getByRole('button', { name: 'Open', exact: true }).click();
  // Timed by some steps, and raced against a request's expiry by one.
  return webviewFrame(page, 30_000, session, TIMED_PAGE_READ_EVERY_MS);
}

/** Polls `probe` until it returns a value other than undefined; fails with `what` after `timeoutMs`. */
async function waitUntil<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000, everyMs = PAGE_READ_EVERY_MS): Promise<T> {
  const value = await waitForValue(() => probe().catch(() => undefined), (found) => found !== undefined, what, { timeoutMs, everyMs, show: () => 'nothing yet' });
  if (value === undefined) throw new Error('unreachable: waitForValue returned nothing');
  return value;
}


/**
 * Whether the element (or anything inside it, through shadow roots both ways)
 * holds the keyboard focus of its document, and that document has the focus.
 */
function hasFocus(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => {
    if (!element.ownerDocument.hasFocus()) return false;
    let active: Element | null = element.ownerDocument.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    for (let node: Node | null = active; node; node = node instanceof ShadowRoot ? node.host : node.parentNode) {
      if (node === element) return true;
    }
    return false;
  });
}

async function waitFocused(locator: Locator, what: string, timeoutMs = 10_000): Promise<void> {
  await waitUntil(`keyboard focus on ${what}`, async () => ((await hasFocus(locator)) ? true : undefined), timeoutMs, 50);
}

/** The value of a text control, native or custom element alike. */
function valueOf(locator: Locator): Promise<string> {
  return locator.evaluate((element) => String((element as HTMLInputElement).value ?? ''));
}

/**
 * Whether a control is disabled: by its `disabled` property (native elements, and
 * custom elements that mirror it) or by `aria-disabled`.
 */
function isDisabled(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => (element as HTMLInputElement).disabled === true || element.getAttribute('aria-disabled') === 'true');
}


/** Closes every editor and panel, so each step starts with an empty editor area. */
async function closeAllEditors(page: Page): Promise<void> {
  await runCommand(page, 'View: Close All Editor Groups');
  await waitUntil('the editor area to empty', async () => ((await page.locator('.part.editor .tab').count()) === 0 ? true : undefined), 15_000);
}

export const requestForm: Scenario = {
  name: 'form',
  title: 'the request form end to end: notified, opened, sent by keyboard, refused when invalid, out of band, expired, restored after a reload, and "Before asking" at capture metadata',
  timeoutMs: 480_000,
  async run(e2e, t) {
    const out = e2eOutDir();
    const agentLog: string[] = [];
    const agents: RunningAgent[] = [];
    /** Steps failed: the scenario fails after the last, and the next scenario gets a new workbench. */
    let failed = 0;

    const shot = async (ctx: TestContext, page: Page, name: string) => {
      const file = path.join(out, `form-${name}.png`);
      await page.screenshot({ path: file });
      ctx.diagnostic(`screenshot: ${file}`);
    };
    const agent = async (options: AgentOptions): Promise<RunningAgent> => {
      const started = await startAgent({ hubUrl: e2e.hub.url, token: e2e.token, everyMs: 600_000, log: (line) => agentLog.push(line), ...options });
      agents.push(started);
      return started;
    };
    const onlyRequest = (running: RunningAgent) => {
      const [request, ...more] = running.requests();
      assert.ok(request, 'the agent raised a request');
      assert.equal(more.length, 0, 'the agent raised exactly one request');
      return request;
    };
    /** What the agents decided about the commands naming `requestId`. */
    const decisionsAbout = (requestId: string) => agents.flatMap((running) => running.decisions()).filter((decision) => decision.subject === requestId);
    /** Each step: on failure, what the page, the editor and the agents said. */
    const step = (name: string, body: (ctx: TestContext, page: Page) => Promise<void>, options: { cleanUp: boolean } = { cleanUp: true }) =>
      t.test(name, async (ctx) => {
        const page = e2e.page;
        const started = Date.now();
        let passed = false;
        try {
          await body(ctx, page);
          passed = true;
          ctx.diagnostic(`step took ${Date.now() - started} ms`);
        } catch (error) {
          failed += 1;
          const file = path.join(out, `form-failure-${name.split('.')[0]}.png`);
          await page.screenshot({ path: file }).catch(() => undefined);
          ctx.diagnostic(`failure screenshot: ${file}`);
          ctx.diagnostic(e2e.consoleAndServer());
          ctx.diagnostic(`agent log:\n${agentLog.join('\n')}`);
          ctx.diagnostic(`extension log:\n${e2e.extensionLog()}`);
          throw error;
        } finally {
          // The next step starts with no panel and no agent of this one (unless it carries on from here).
          if (options.cleanUp || !passed) await closeAllEditors(page).catch((error: unknown) => ctx.diagnostic(`could not close the editors: ${String(error)}`));
          if (options.cleanUp || !passed) for (const running of agents.splice(0)) await running.close();
        }
      });

    try {

      // ---- 1 -----------------------------------------------------------------------------------
      let session1 = '';
      let formOpen = false;
      await step('1. the golden form arrives as a notification; Open brings up a form ready to type into', async (ctx, page) => {
        // The `form` scenario's first variant is the golden corpus' s_form: string, boolean, multi-select, select with `other`.
        const golden = loadFormVariants()[0];
        assert.equal(golden?.label, 'form s_form');
        const fields = golden.data['fields'] as Array<{ id: string; type: string; multi?: boolean; other?: boolean; required?: boolean }>;
        assert.deepEqual(
          fields.map((f) => [f.id, f.type, f.multi === true, f.other === true, f.required === true]),
          [['name', 'string', false, false, true], ['staged', 'boolean', false, false, false], ['regions', 'select', true, false, false], ['db', 'select', false, true, false]],
        );

        const formAgent = await agent({ scenarios: ['form'] });
        session1 = formAgent.sessions[0] ?? '';
        const notification = toast(page, `demo-agent: ${FORM_PROMPT}`);
        await notification.waitFor({ state: 'visible', timeout: 60_000 });
        // The pointer rests on it until Open is clicked: VS Code hides an information toast after 10 s otherwise.
        await notification.hover();
        await waitForStatus(page, /1 request waits for you/);
        // The last thing the agent did before asking, in the notification's one line.
        assert.match(await notification.innerText(), /after: "Edit" done · \d+ (s|min) ago/);
        const open = notification.getByRole('button', { name: 'Open', exact: true });
        await open.waitFor({ state: 'visible', timeout: 10_000 });
        await shot(ctx, page, '1-notification');

        const clickedAt = Date.now();
        await open.click();
        const frame = await webviewFrame(page, 30_000, session1, TIMED_PAGE_READ_EVERY_MS);
        const frameAt = Date.now();
        const name = frame.locator('#field-0');
        await waitFocused(name, 'the first field (service name)', 30_000);
        const interactiveAt = Date.now();
        // Typed straight away, with no click: the keystrokes land in the first field.
        await page.keyboard.type(GOLDEN_VALUES.name);
        await waitUntil('the typed service name in the first field', async () => ((await valueOf(name)) === GOLDEN_VALUES.name ? true : undefined), 10_000, 50);
        const typedAt = Date.now();
        ctx.diagnostic(`click Open -> webview frame: ${frameAt - clickedAt} ms`);
        ctx.diagnostic(`click Open -> interactive form: ${interactiveAt - clickedAt} ms`);
        ctx.diagnostic(`click Open -> typed text in the first field: ${typedAt - clickedAt} ms`);

        await notification.waitFor({ state: 'hidden', timeout: 10_000 });
        assert.equal(await frame.locator('.from-agent', { hasText: FORM_PROMPT }).count(), 1, 'the prompt is shown');
        assert.deepEqual(
          await frame.locator('[data-field]').evaluateAll((elements) => elements.map((element) => element.getAttribute('data-field'))),
          ['name', 'staged', 'regions', 'db'],
          'the four fields, in order',
        );
        // "Before asking": what the agent emitted before it asked (it read a file, ran a build that failed,
        // edited), newest first, at the form's capture (redacted): the arguments' redacted form and the error.
        assert.deepEqual(formAgent.worked().filter((work) => work.session === session1), [{ session: session1, capture: 'redacted', tools: ['Read', 'Bash', 'Edit'] }], 'the agent worked first');
        const before = (await frame.locator('#before-asking li.action').allInnerTexts()).map((row) => row.replace(/\s+/g, ' ').trim());
        assert.equal(before.length, 3, before.join('\n'));
        assert.match(before[0] ?? '', /· Edit · done in 15 ms Arguments \(redacted\): \{"file_path":"src\/app\.ts",/);
        assert.match(before[1] ?? '', /· Bash · failed: exit_1 after 3\.2 s Arguments \(redacted\): \{"command":"npm run build"\} Error \(redacted\): tsc: 3 errors in src\/app\.ts$/);
        assert.match(before[2] ?? '', /· Read · done in 40 ms Arguments \(redacted\): \{"file_path":"src\/app\.ts"\}$/);
        assert.match(await frame.locator('#before-asking-usage').innerText(), /1,850 input tokens · 240 output tokens · 0\.0123 USD/);
        assert.equal(await frame.locator('#status').getAttribute('data-status'), 'pending');
        await shot(ctx, page, '1-interactive');
        formOpen = true;
      }, { cleanUp: false });

      // ---- 2 -----------------------------------------------------------------------------------
      await step('2. filled and sent by keyboard only, with free text for the select\'s "Other…"', async (ctx, page) => {
        if (!formOpen) return ctx.skip('step 1 did not open the form');
        const formAgent = agents[0];
        assert.ok(formAgent, 'the form agent of step 1');
        const frame = await webviewFrame(page, 30_000, session1);
        const name = frame.locator('#field-0');
        assert.equal(await valueOf(name), GOLDEN_VALUES.name, 'the name typed in step 1 is still there');

        const staged = frame.getByRole('checkbox', { name: /Deploy to staging first\?/ });
        const usEast = frame.getByRole('checkbox', { name: 'us-east', exact: true });
        const euWest = frame.getByRole('checkbox', { name: 'eu-west', exact: true });
        const apSouth = frame.getByRole('checkbox', { name: 'ap-south', exact: true });
        const dbGroup = frame.locator('[data-field="db"]');
        const other = frame.getByRole('radio', { name: 'Other…', exact: true });

        await page.keyboard.press('Tab');
        await waitFocused(staged, '"Deploy to staging first?"');
        await page.keyboard.press('Space');
        await page.keyboard.press('Tab');
        await waitFocused(usEast, 'the region us-east');
        await page.keyboard.press('Space');
        await page.keyboard.press('Tab');
        await waitFocused(euWest, 'the region eu-west');
        await page.keyboard.press('Tab');
        await waitFocused(apSouth, 'the region ap-south');
        await page.keyboard.press('Space');
        await page.keyboard.press('Tab');
        await waitFocused(dbGroup, 'the database choices');
        // Arrow keys move through a radio group and pick as they go: PostgreSQL, SQLite, then "Other…".
        for (const choice of ['SQLite', 'Other…']) {
          await page.keyboard.press('ArrowDown');
          const radio = frame.getByRole('radio', { name: choice, exact: true });
          await waitUntil(`the database choice ${choice} picked by ArrowDown`, async () => ((await radio.isChecked()) ? true : undefined), 10_000, 50);
        }
        // Picking "Other…" reveals its text field and moves the focus there.
        const otherText = dbGroup.locator('#field-3-other');
        await otherText.waitFor({ state: 'visible', timeout: 10_000 });
        await waitFocused(otherText, 'the "Your own answer" field of the database');
        await page.keyboard.type(GOLDEN_VALUES.db);

        assert.equal(await staged.isChecked(), true, 'staged: yes');
        assert.deepEqual(
          [await usEast.isChecked(), await euWest.isChecked(), await apSouth.isChecked()],
          [true, false, true],
          'regions: us-east and ap-south',
        );
        assert.equal(await other.isChecked(), true, 'database: Other…');
        assert.equal(await valueOf(otherText), GOLDEN_VALUES.db);
        await shot(ctx, page, '2-filled');

        // Enter sends the form from a one-line field.
        await page.keyboard.press('Enter');
        await frame.locator('#outcome', { hasText: 'demo-agent accepted the answer.' }).waitFor({ timeout: 30_000 });
        await frame.locator('#status', { hasText: 'Resolved (answered).' }).waitFor({ timeout: 30_000 });
        await waitForStatus(page, /0 requests wait for you/);

        // AEP-0006: the `other` answer travels as the select's value, the free text itself.
        const request = onlyRequest(formAgent);
        const accepted = decisionsAbout(request.id).filter((decision) => decision.kind === 'accepted');
        assert.equal(accepted.length, 1, `one accepted command for ${request.id}:\n${agentLog.join('\n')}`);
        assert.equal(request.state, 'answered');
        assert.deepEqual(request.answer, { values: GOLDEN_VALUES }, `the agent got exactly ${JSON.stringify(GOLDEN_VALUES)}`);
        assert.deepEqual([request.commandId, request.by], [accepted[0]?.commandId, 'vscode-aep-attention'], 'by that command, from the extension');

        // Over: nothing more can be sent, and the page shows what was sent.
        assert.equal(await isDisabled(frame.getByRole('button', { name: 'Send answer' })), true, 'Send is disabled once resolved');
        assert.equal(await isDisabled(staged), true, 'the fields are read-only once resolved');
        const summary = frame.getByRole('region', { name: 'What you sent' });
        await summary.waitFor({ timeout: 10_000 });
        assert.match(await summary.innerText(), /MariaDB/);
        await shot(ctx, page, '2-answered');
      });

      // ---- 3 -----------------------------------------------------------------------------------
      await step('3. an invalid answer forced past the page is refused by the host, nothing reaches the agent, the form stays editable', async (ctx, page) => {
        // A fresh agent raises the golden form again (each agent's rotation starts with s_form).
        const formAgent = await agent({ scenarios: ['form'] });
        const session = formAgent.sessions[0] ?? '';
        const notification = toast(page, `demo-agent: ${FORM_PROMPT}`);
        await notification.waitFor({ state: 'visible', timeout: 60_000 });
        const clickedAt = Date.now();
        const frame = await openFromToast(page, notification, session);
        const request = onlyRequest(formAgent);
        const name = frame.locator('#field-0');
        await waitFocused(name, 'the first field', 30_000);
        ctx.diagnostic(`click Open -> interactive form (a later panel, for comparison): ${Date.now() - clickedAt} ms`);
        const outcome = frame.locator('#outcome');
        const send = frame.getByRole('button', { name: 'Send answer' });

        // The page's own check first: Enter with the required name empty is refused inline.
        await page.keyboard.press('Enter');
        await frame.locator('#outcome', { hasText: /needs? attention before sending/ }).waitFor({ timeout: 10_000 });
        assert.match(await frame.locator('[data-field="name"] [role="alert"]').innerText(), /required/i);
        await shot(ctx, page, '3-refused-inline');

        // Then past it: the page would never send this, so the test posts it the way the page's
        // own postMessage does, through the webview host frame's channel to the extension host
        // (the page itself can acquire its VS Code API only once, and already did).
        // Every outcome line the page shows from here on, to see that nothing was ever on its way.
        await frame.evaluate(() => {
          const target = document.getElementById('outcome');
          const seen: string[] = [];
          (window as unknown as { outcomesSeen: string[] }).outcomesSeen = seen;
          if (target) new MutationObserver(() => seen.push(target.textContent ?? '')).observe(target, { childList: true, characterData: true, subtree: true });
        });
        const posted = await postPastPage(frame, { type: 'submit', submitId: 'forced-invalid-1', answer: { values: { staged: true, regions: ['9'], db: '1' } } });
        assert.ok(posted, 'the webview host frame offers the channel the page posts through');
        await frame.locator('#outcome', { hasText: /^Not sent:/ }).waitFor({ timeout: 30_000 });
        const refusal = await outcome.innerText();
        ctx.diagnostic(`host refusal: ${refusal}`);
        assert.match(refusal, /"Service name": This field is required\./, 'it names the missing field by its label');
        assert.match(refusal, /"Regions": Pick only the listed choices\./, 'it says the region is not one of the choices');
        assert.doesNotMatch(refusal, /\.\./, 'one full stop per sentence');
        // The first field at fault is marked and has focus, as for an agent's own refusal.
        assert.match(await frame.locator('[data-field="name"] [role="alert"]').innerText(), /Not sent/);
        await waitFocused(name, 'the refused name field');
        const outcomesSeen = await frame.evaluate(() => (window as unknown as { outcomesSeen?: string[] }).outcomesSeen ?? []);
        assert.ok(outcomesSeen.length > 0 && outcomesSeen.every((text) => text.startsWith('Not sent:')), `refused before sending, never "Sending…": ${JSON.stringify(outcomesSeen)}`);
        await shot(ctx, page, '3-refused-by-host');

        // Still editable: the name takes typing, Send is enabled, and a correct answer goes through.
        assert.equal(await isDisabled(send), false, 'Send stays enabled after the refusal');
        await name.click();
        await page.keyboard.type('ledger-api');
        await waitUntil('the name typed after the refusal', async () => ((await valueOf(name)) === 'ledger-api' ? true : undefined), 10_000, 50);
        await send.click();
        await frame.locator('#outcome', { hasText: 'demo-agent accepted the answer.' }).waitFor({ timeout: 30_000 });
        await frame.locator('#status', { hasText: 'Resolved (answered).' }).waitFor({ timeout: 30_000 });

        // The agent heard one command for this request, the correct one: the forced answer,
        // had it been sent, would have arrived (and been refused as invalid) before it.
        const commands = decisionsAbout(request.id);
        assert.deepEqual(commands.map((decision) => decision.kind), ['accepted'], `exactly one command reached the agent for ${request.id}:\n${agentLog.join('\n')}`);
        // An untouched checkbox is an answer too: "no".
        const expected = { name: 'ledger-api', staged: false };
        assert.equal(onlyRequest(formAgent).by, 'vscode-aep-attention');
        assert.deepEqual(agents.flatMap((running) => running.decisions()).filter((decision) => decision.kind === 'rejected'), [], 'the agent rejected nothing');
        assert.deepEqual(onlyRequest(formAgent).answer, { values: expected });
        await shot(ctx, page, '3-answered');
      });

      // ---- 4 -----------------------------------------------------------------------------------
      await step('4. an out-of-band request shows no way to send and says where it is answered', async (ctx, page) => {
        // Answered "in the terminal" much later than this step lasts.
        const oobAgent = await agent({ scenarios: ['oob'], oobMs: 600_000 });
        const session = oobAgent.sessions[0] ?? '';
        const notification = toast(page, `demo-agent: ${OOB_PROMPT}`);
        await notification.waitFor({ state: 'visible', timeout: 60_000 });
        assert.equal(await notification.getByRole('button', { name: 'Allow once' }).count(), 0, 'no option buttons on the notification');
        const frame = await openFromToast(page, notification, session);
        const where = frame.getByText(/answered outside VS Code \(respond_via: oob\)/);
        await where.waitFor({ timeout: 30_000 });
        assert.match(await where.innerText(), /nothing can be sent from this editor/);
        const offered = await frame.getByRole('list', { name: 'Options offered elsewhere' }).getByRole('listitem').allInnerTexts();
        assert.deepEqual(offered.map((text) => text.trim()), ['Allow once', 'Deny'], 'the options are shown as information');
        assert.equal(await frame.locator('#send').count(), 0, 'no Send control');
        assert.equal(await frame.getByRole('button').count(), 0, 'no button at all');
        for (const role of ['textbox', 'checkbox', 'radio', 'combobox'] as const) {
          assert.equal(await frame.getByRole(role).count(), 0, `no ${role}`);
        }
        assert.equal(onlyRequest(oobAgent).state, 'pending', 'still waiting for its answer in the terminal');
        await shot(ctx, page, '4-oob');
      });

      // ---- 5 -----------------------------------------------------------------------------------
      // AEP-0002 §7: the page's clock passing expires_at ends nothing; the agent's attention.timeout does.
      await step('5. an expiring request turns read-only when the agent times it out', async (ctx, page) => {
        const expiringAgent = await agent({ scenarios: ['expiring'], expireMs: EXPIRE_MS });
        const session = expiringAgent.sessions[0] ?? '';
        const notification = toast(page, `demo-agent: ${EXPIRING_PROMPT}`);
        await notification.waitFor({ state: 'visible', timeout: 60_000 });
        const frame = await openFromToast(page, notification, session);
        const request = onlyRequest(expiringAgent);
        const status = frame.locator('#status');
        const allow = frame.getByRole('button', { name: 'Allow', exact: true });
        const deny = frame.getByRole('button', { name: 'Deny', exact: true });
        const sendReply = frame.getByRole('button', { name: 'Send reply only' });
        const reply = frame.locator('#reply');
        await allow.waitFor({ timeout: 30_000 });
        // Which statuses the page goes through (diagnostic only): pending (past the deadline, still pending), then the agent's timeout.
        await frame.evaluate(() => {
          const target = document.getElementById('status');
          const seen: string[] = [target?.dataset['status'] ?? ''];
          (window as unknown as { statusSeen: string[] }).statusSeen = seen;
          if (target) new MutationObserver(() => seen.push(target.dataset['status'] ?? '')).observe(target, { attributes: true, attributeFilter: ['data-status'] });
        });

        // While it is open (the panel normally opens well before its expiry), it can be answered.
        // Read without racing the expiry: the status and countdown in one go, then the controls,
        // then the status again; the page disables the controls in the same turn it changes the status.
        const snapshot = await frame.evaluate(() => ({
          status: document.getElementById('status')?.dataset['status'] ?? '',
          countdown: document.getElementById('countdown')?.textContent?.trim() ?? '',
          deadline: document.getElementById('status')?.dataset['deadline'] ?? '',
        }));
        const enabledWhileOpen = [!(await isDisabled(allow)), !(await isDisabled(deny)), !(await isDisabled(sendReply)), !(await isDisabled(reply))];
        const stillOpen = (await status.getAttribute('data-status')) === 'pending';
        if (snapshot.status === 'pending' && snapshot.deadline !== 'passed') {
          ctx.diagnostic(`panel open with ${Math.max(0, (request.expiresAt ?? 0) - Date.now())} ms left before expiry (countdown: ${snapshot.countdown})`);
          assert.match(snapshot.countdown, /^in \d+ s$/, 'the header counts down');
        }
        if (stillOpen) {
          assert.deepEqual(enabledWhileOpen, [true, true, true, true], 'Allow, Deny, Send reply only and the reply field are enabled while it is open');
          await shot(ctx, page, '5-before-expiry');
        } else {
          ctx.diagnostic(`the panel was not seen open before the request expired (status ${snapshot.status}): only the read-only state is checked`);
        }

        await frame.locator('#status', { hasText: /timeout/ }).waitFor({ timeout: EXPIRE_MS + 30_000 });
        const words = await status.innerText();
        ctx.diagnostic(`status once over: ${words} (data-status ${await status.getAttribute('data-status')})`);
        assert.match(words, /Nothing more can be sent/);
        // The header stops counting down when the status ends the request, whichever clock came first.
        assert.equal((await frame.locator('#countdown').innerText()).trim(), 'timed out');
        ctx.diagnostic(`status changes seen: ${JSON.stringify(await frame.evaluate(() => (window as unknown as { statusSeen?: string[] }).statusSeen ?? []))}`);
        for (const [what, control] of [['Allow', allow], ['Deny', deny], ['Send reply only', sendReply], ['the reply field', reply]] as const) {
          assert.equal(await isDisabled(control), true, `${what} is disabled once the agent timed it out`);
        }
        assert.equal(await frame.getByRole('button', { name: 'Send again (same answer)' }).isVisible().catch(() => false), false, 'no retry offered');
        // The agent timed it out, and nothing was ever sent for it (its own record, in this process: no page is read).
        await waitUntil('the agent to time the request out', async () => (agents.some((running) => running.requests().some((r) => r.id === request.id && r.state === 'timed-out')) ? true : undefined), 30_000, 100);
        assert.deepEqual(decisionsAbout(request.id), [], 'no command reached the agent');
        await shot(ctx, page, '5-expired');
      });

      // ---- 6 -----------------------------------------------------------------------------------
      await step('6. a half-typed answer survives a window reload: the panel comes back with the draft', async (ctx, page) => {
        const formAgent = await agent({ scenarios: ['form'] });
        const session = formAgent.sessions[0] ?? '';
        const notification = toast(page, `demo-agent: ${FORM_PROMPT}`);
        await notification.waitFor({ state: 'visible', timeout: 60_000 });
        let frame = await openFromToast(page, notification, session);
        const name = () => frame.locator('#field-0');
        await waitFocused(name(), 'the service name');
        await page.keyboard.type('draft-api');
        await frame.getByRole('checkbox', { name: 'Deploy to staging first?' }).press('Space');
        await shot(ctx, page, '6-draft');

        // Hidden and shown again: the page is rebuilt (no retainContextWhenHidden) and puts the draft back.
        const tabs = async () => (await page.locator('.part.editor .tab').allInnerTexts()).map((text) => text.trim()).join(' | ');
        ctx.diagnostic(`tabs with the draft: ${await tabs()}`);
        await runCommand(page, 'File: New Untitled Text File');
        await waitUntil('the request page to be hidden', async () => ((await visibleWebviewFrame(page, session)) ? undefined : true), 15_000);
        ctx.diagnostic(`tabs with an untitled file in front: ${await tabs()}`);
        await shot(ctx, page, '6-hidden');
        await runCommand(page, 'View: Close Editor');
        ctx.diagnostic(`tabs after closing it: ${await tabs()}`);
        frame = await webviewFrame(page, 30_000, session);
        await waitUntil('the draft after hide and show', async () => ((await valueOf(name())) === 'draft-api' ? true : undefined), 15_000);

        // The way a user reloads the window (the workbench saves its editors first).
        // The old workbench is visible until the reload replaces it, with the draft in its page:
        // wait for the new document's load first, or every wait below may read the old one.
        const reloaded = page.waitForEvent('load', { timeout: 90_000 });
        await runCommand(page, 'Developer: Reload Window');
        await reloaded;
        await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 90_000 });
        const restoredAt = Date.now();
        frame = await webviewFrame(page, 60_000, session, TIMED_PAGE_READ_EVERY_MS);
        await waitUntil('the restored draft', async () => ((await valueOf(name())) === 'draft-api' ? true : undefined), 30_000, TIMED_PAGE_READ_EVERY_MS);
        ctx.diagnostic(`workbench visible -> panel restored with its draft: ${Date.now() - restoredAt} ms`);
        const staged = frame.getByRole('checkbox', { name: 'Deploy to staging first?' });
        assert.equal(await staged.getAttribute('aria-checked'), 'true', 'the ticked box is ticked again');
        assert.equal(await frame.locator('#status').innerText(), '', 'still pending');
        await shot(ctx, page, '6-restored');

        // The restored panel answers like any other.
        await frame.locator('#send').click();
        await frame.locator('#status', { hasText: 'Resolved (answered).' }).waitFor({ timeout: 30_000 });
        const request = onlyRequest(formAgent);
        assert.deepEqual(request.answer, { values: { name: 'draft-api', staged: true } });
      });

      // ---- 7 -----------------------------------------------------------------------------------
      await step('7. at capture metadata, "Before asking" shows only the tools\' names and says the rest is withheld', async (ctx, page) => {
        // The form rotation's third variant is the first at capture metadata: the agent's work before it goes at metadata too.
        const formAgent = await agent({ scenarios: ['form'], firstVariant: 2 });
        const session = formAgent.sessions[0] ?? '';
        const notification = toast(page, METADATA_FORM_PROMPT);
        await notification.waitFor({ state: 'visible', timeout: 60_000 });
        assert.match(await notification.innerText(), /after: "Edit" done · \d+ (s|min) ago/);
        const frame = await openFromToast(page, notification, session);
        await frame.locator('#before-asking li.action').first().waitFor({ timeout: 30_000 });
        assert.deepEqual(agents.flatMap((running) => running.worked()).filter((work) => work.session === session), [{ session, capture: 'metadata', tools: ['Read', 'Bash', 'Edit'] }], 'the agent worked at metadata first');
        const request = onlyRequest(formAgent);
        assert.equal(request.capture, 'metadata');
        const before = (await frame.locator('#before-asking li.action').allInnerTexts()).map((row) => row.replace(/\s+/g, ' ').trim());
        assert.equal(before.length, 3, before.join('\n'));
        // What the agent emitted at metadata: each tool's name and its outcome's structure (duration, error type), no arguments, no error message.
        const withheld = "Arguments not shared at capture metadata: only the tool's name is shown.";
        const expected = ['· Edit · done in 15 ms', '· Bash · failed: exit_1 after 3.2 s', '· Read · done in 40 ms'];
        expected.forEach((line, i) => assert.ok((before[i] ?? '').endsWith(`${line} ${withheld}`), `row ${i + 1}: ${before[i]}`));
        const block = await frame.locator('#before-asking').innerText();
        for (const content of ['src/app.ts', 'npm run build', 'tsc: 3 errors', 'Error (']) assert.ok(!block.includes(content), `nothing of the arguments or the error at metadata: ${content}`);
        // Tokens and cost are structure (AEP-0002 §5.2): they are shown at metadata too.
        assert.match(await frame.locator('#before-asking-usage').innerText(), /1,850 input tokens · 240 output tokens · 0\.0123 USD/);
        await shot(ctx, page, '7-metadata-before-asking');
      });
    } finally {
      // Each agent ends its sessions as it closes: nothing of this scenario waits after it.
      for (const running of agents.splice(0)) await running.close();
    }
    if (failed > 0) throw new Error(`${failed} of the form's steps failed (their diagnostics are above)`);
  },
};
