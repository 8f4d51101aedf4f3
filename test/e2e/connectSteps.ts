// Connect to Hub's steps as a person takes them in the workbench: shared by
// the newcomer's path (connect.e2e.test.ts) and the path to a first system
// notification (osNotifications.e2e.test.ts).
import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { filterQuickInputTo, quickInput, waitForQuickInputTitle } from './workbenchPage';

export const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
export const quickBox = (page: Page) => quickInput(page).locator('input.input');

/** Types `text` into the input box on screen (its value, not a filter) and waits until it holds it. */
export async function typeIntoBox(page: Page, text: string): Promise<void> {
  await quickBox(page).fill('');
  await page.keyboard.type(text);
  await page.waitForFunction((value) => {
    const box = document.querySelector('.quick-input-widget input.input');
    return box instanceof HTMLInputElement && box.value === value;
  }, text, { timeout: 15_000 });
}

/** The scope pick: filters to "This workspace" and takes it. */
export async function pickThisWorkspace(page: Page): Promise<void> {
  await waitForQuickInputTitle(page, /^Save the hub address for/);
  await filterQuickInputTo(page, 'This workspace', /^This workspace$/);
  await page.keyboard.press('Enter');
}

/** The token's password box for `base`: typed, Enter. */
export async function typeToken(page: Page, base: string, token: string): Promise<void> {
  await waitForQuickInputTitle(page, new RegExp(`^AEP hub token for ${escape(base)}`));
  assert.equal(await quickBox(page).getAttribute('type'), 'password', 'the token is typed into a password box');
  await page.keyboard.type(token);
  await page.keyboard.press('Enter');
}

/**
 * Waits for the palette to list `title`: the palette computes its rows once as it
 * opens, so one opened before the extension's commands registered says "No matching
 * commands" for good; it is closed and opened again until the row is there.
 */
export async function waitForPaletteCommand(page: Page, title: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const row = quickInput(page).locator('.monaco-list-row .label-name', { hasText: new RegExp(`^${escape(title)}$`) }).first();
  for (;;) {
    await page.keyboard.press('F1');
    await quickBox(page).waitFor({ state: 'visible', timeout: 15_000 });
    await quickBox(page).fill(`>${title}`);
    const listed = await row.waitFor({ timeout: 3_000 }).then(() => true, () => false);
    await page.keyboard.press('Escape');
    await quickBox(page).waitFor({ state: 'hidden', timeout: 15_000 });
    if (listed) return;
    if (Date.now() > deadline) throw new Error(`the palette never listed "${title}"`);
  }
}
