// Agent-authored text in the REAL VS Code workbench (code-server): a request
// whose agent name, prompt and option labels carry a notification command link
// (`[label](command:…)`), codicon syntax (`$(…)`) and Markdown is shown in the
// notification toast (message and buttons), the inbox tree (rows and hover) and
// the Open Request quick pick. None of them may render a link or an icon from
// that text, every one must still show the text as written, and a click where
// the link would be must run nothing: the command the link names (New Untitled
// Text File) leaves a trace, the name of the next untitled editor.
// Screenshots go to out/e2e/untrusted-*.png.
import * as assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import { freshSession, makeEvent, postEvents } from '../../support/events';
import type { Scenario } from './scenario';
import { runCommand } from '../workbenchPage';

const LINKED_COMMAND = 'workbench.action.files.newUntitledFile';
// Within the 64 characters an agent's name may take in a sentence (untrustedText PIECES.agent).
const AGENT = `[Docs](command:${LINKED_COMMAND})$(bell)`;
const PROMPT = `Approve the deploy? [Open request](command:${LINKED_COMMAND}) $(zap) $(sync~spin) **now** <https://example.com/x>`;
// Short enough for a button to show whole (a longer label is no button: inlineWords.ts optionButtons).
const ALLOW = '[Allow](command:a.b)';
const DENY = 'Deny $(check)';

/** What a surface shows, read back as text: the word joiners that keep syntax inert are invisible and dropped here. */
const shownText = async (locator: Locator) => (await locator.innerText()).replace(/\u2060/g, '').replace(/\u00a0/g, ' ');

/**
 * Elements a surface would create from markup in the text: links, icons, Markdown formatting,
 * images. (VS Code's own label element is an `a.label-name` without href, and a notification
 * button is an `a.monaco-button`: neither is a link.)
 */
const MARKUP = 'a[href], .monaco-link, .codicon, strong, em, img, h1, h2, h3';

async function renderedMarkup(locator: Locator, selector = MARKUP): Promise<string[]> {
  return locator.evaluate((element, query) => [...element.querySelectorAll(query)].map((node) => node.outerHTML.slice(0, 160)), selector);
}

/** Clicks the middle of the first occurrence of `text` inside `container` (a text node), where a link built from it would sit. */
async function clickOnText(page: Page, container: Locator, text: string): Promise<void> {
  const box = await container.evaluate((element, needle) => {
    const walker = element.ownerDocument.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = node.textContent?.indexOf(needle) ?? -1;
      if (at < 0) continue;
      const range = element.ownerDocument.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + needle.length);
      const rect = range.getBoundingClientRect();
      return { x: rect.x + rect.width / 2, y: rect.y + rect.height / 2 };
    }
    return undefined;
  }, text);
  assert.ok(box, `"${text}" is not shown as text`);
  await page.mouse.click(box.x, box.y);
}

export const untrustedText: Scenario = {
  name: 'untrusted',
  title: 'agent text is inert on every VS Code surface',
  run: async ({ hub, page, shot, token: TOKEN }) => {
    // Every surface is checked before the test fails, so one run names all that render markup.
    const found: string[] = [];
    const expectNoMarkup = async (surface: string, locator: Locator, selector = MARKUP) => {
      for (const element of await renderedMarkup(locator, selector)) found.push(`${surface} renders ${element}`);
    };
    const expectText = async (surface: string, locator: Locator, text: string) => {
      const shown = await shownText(locator);
      if (!shown.includes(text)) found.push(`${surface} does not show "${text}" as text; it shows "${shown}"`);
    };
    const session = freshSession('hostile');
    const source = `aep://e2e-host/agent/mallory/session/${session}`;
    const request = makeEvent('attention.requested', session, 1, {
      source,
      capture: 'full',
      data: { kind: 'permission', prompt: PROMPT, options: [{ id: 'allow', label: ALLOW }, { id: 'deny', label: DENY }] },
    }, AGENT);
    const posted = await postEvents(hub.url, TOKEN, [request]);
    assert.ok(posted.status >= 200 && posted.status < 300, `the hub refused the request: ${posted.status} ${JSON.stringify(posted.body)}`);

    // 1. The notification: message and option buttons.
    const toast = page.locator('.notifications-toasts .notification-toast', { hasText: 'Approve the deploy' }).first();
    await toast.waitFor({ state: 'visible', timeout: 60_000 });
    // The pointer rests on it: VS Code hides an information toast after 10 s otherwise (workbenchPage.ts recordToasts).
    await toast.hover();
    await shot('1-notification');
    const message = toast.locator('.notification-list-item-message');
    await expectNoMarkup('the notification message', message);
    await expectText('the notification message', message, `${AGENT}: ${PROMPT}`);
    const buttons = toast.locator('.notification-list-item-buttons-container');
    await expectNoMarkup('the notification buttons', buttons, `.monaco-button :is(${MARKUP})`);
    const labels = (await buttons.locator('.monaco-button').allInnerTexts()).map((label) => label.replace(/\u2060/g, ''));
    if (!labels.includes(ALLOW)) found.push(`no button shows "${ALLOW}" as text: ${JSON.stringify(labels)}`);
    if (!labels.includes(DENY)) found.push(`no button shows "${DENY}" as text: ${JSON.stringify(labels)}`);
    // Where the link would be: a click on its label must run nothing (checked in step 4).
    await clickOnText(page, message, 'Open request');
    await clickOnText(page, message, 'Docs');

    // 2. The inbox: the request's row (with one agent and one session it is a top row, naming its agent) and its hover.
    await page.locator('.activitybar .action-label[aria-label^="AEP Attention"]').click({ force: true });
    const requestRow = page.locator('.sidebar .monaco-list-row', { hasText: 'Approve the deploy' }).first();
    await requestRow.waitFor({ timeout: 30_000 });
    await expectNoMarkup('the inbox request row', requestRow.locator('.monaco-icon-label-container'));
    await expectText('the inbox request row', requestRow, PROMPT);
    await expectText('the inbox request row', requestRow.locator('.label-description'), `${AGENT} · session ${session}`);
    await requestRow.locator('.monaco-icon-label-container').hover();
    const hover = page.locator('.monaco-hover, .workbench-hover').filter({ hasText: 'deploy' }).first();
    await hover.waitFor({ state: 'visible', timeout: 15_000 });
    await shot('2-inbox-hover');
    await expectNoMarkup('the inbox request hover', hover);
    await expectText('the inbox request hover', hover, PROMPT);
    await page.mouse.move(0, 0);

    // 3. The Open Request quick pick.
    await runCommand(page, 'AEP Attention: Open Request', { opensQuickInput: true });
    const pickRow = page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Approve the deploy' }).first();
    await pickRow.waitFor({ timeout: 15_000 });
    await shot('3-quick-pick');
    await expectNoMarkup('the quick pick row', pickRow);
    await expectText('the quick pick row', pickRow, PROMPT);
    await expectText('the quick pick row', pickRow, `${AGENT} · session ${session}`);
    await page.keyboard.press('Escape');
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 15_000 });

    // 4. Nothing ran: the command the links name opens its first untitled editor only now.
    await runCommand(page, 'File: New Untitled Text File');
    const tabs = page.locator('.part.editor .tab');
    await tabs.first().waitFor({ timeout: 15_000 });
    await shot('4-untitled');
    const tabTexts = (await tabs.allInnerTexts()).map((text) => text.trim());
    if (tabTexts.join() !== 'Untitled-1') found.push(`a click on the agent text ran the command it named: the editors are ${JSON.stringify(tabTexts)}`);
    assert.deepEqual(found, []);

    // The agent withdraws its request: the window is left with nothing waiting.
    const resolved = await postEvents(hub.url, TOKEN, [makeEvent('attention.resolved', session, 2, { source, subject: String(request['id']), data: { resolution: 'cancelled' } }, AGENT)]);
    assert.ok(resolved.status >= 200 && resolved.status < 300, `the hub refused the resolution: ${resolved.status}`);
  },
};
