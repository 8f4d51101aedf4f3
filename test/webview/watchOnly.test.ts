// A request whose hub is watch-only (its hello declared no control, and no token is set:
// src/client/watchOnly.ts) says so before anything is sent, in headless Chromium with the
// test playing the extension host: sending is disabled with the sentence, and the page offers
// Set Hub Token, which asks the host for the token and sends nothing.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { requestEvent, viewOf } from '../support/pageRequests';
import { requestPages, type WebviewPage } from '../support/webviewHarness';
import { chromiumSuite } from '../support/harness';

const WATCH_ONLY = 'This hub is watch-only: set a token to answer.';
const NOT_ACCEPTING = 'This agent does not take answers from editors, so nothing can be sent from here.';

const disabled = (page: WebviewPage, selector: string) =>
  page.page.locator(selector).evaluate((b) => (b as HTMLElement & { disabled: boolean }).disabled);

describe('request page: a watch-only hub', chromiumSuite(), () => {
  const { open } = requestPages();
  const permission = () => requestEvent({ kind: 'permission', prompt: 'Delete the branch?', options: [{ id: 'allow', label: 'Allow' }, { id: 'deny', label: 'Deny' }] });

  test('says the hub is watch-only before anything is sent, disables sending, and Set Hub Token asks the host for it', async () => {
    const page = await open(viewOf(permission(), { state: 'watch-only' }));
    const p = page.page;
    assert.match(await p.locator('#blocked').innerText(), /^This hub is watch-only: set a token to answer\.\s+Set Hub Token$/);
    assert.equal(await p.locator('#reachability').innerText(), WATCH_ONLY);
    for (const selector of ['vscode-button[data-option="allow"]', 'vscode-button[data-option="deny"]']) {
      assert.equal(await disabled(page, selector), true, `${selector} is disabled`);
    }
    await p.locator('vscode-button[data-option="allow"]').click({ force: true });
    await p.locator('#blocked vscode-button').click();
    await page.waitForPosted((m) => m['type'] === 'setToken');
    assert.deepEqual((await page.posted()).filter((m) => m['type'] === 'submit'), [], 'nothing was sent');
  });

  test('a hub found watch-only later replaces the note it had, and a token set (the hub answerable again) lifts it', async () => {
    const page = await open(viewOf(permission(), { state: 'not-accepting', accepts: [] }));
    const p = page.page;
    assert.equal(await p.locator('#blocked').innerText(), NOT_ACCEPTING);
    await page.post({ type: 'update', status: 'pending', reachability: { state: 'watch-only' }, now: Date.now() });
    await p.locator('#blocked vscode-button').waitFor();
    assert.match(await p.locator('#blocked').innerText(), /^This hub is watch-only: set a token to answer\./);
    assert.equal(await p.locator('#blocked').count(), 1, 'one note, not two');
    await page.post({ type: 'update', status: 'pending', reachability: { state: 'reachable' }, now: Date.now() });
    await p.locator('#blocked').waitFor({ state: 'detached' });
    assert.equal(await disabled(page, 'vscode-button[data-option="allow"]'), false);
  });
});
