// A preview page is reused for another request (src/ui/page/requestPages.ts
// `reuse`): on the real request page in headless Chromium, with the test
// playing the extension host, everything the page posts about a request
// names the render it was composed on (the request's key and the host's
// generation from `init`), so the host can drop a click on what the page
// showed before (src/app/page/pageHost.ts).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { requestEvent, viewOf } from '../support/pageRequests';
import { requestPages, type WebviewPage } from '../support/webviewHarness';
import { chromiumSuite } from '../support/harness';

const permission = (prompt: string) => requestEvent({ kind: 'permission', prompt, options: [{ id: 'allow', label: 'Allow' }, { id: 'deny', label: 'Deny' }] });

/** What the page posted about a request, as (type, key, generation), in order. */
async function aboutRequests(page: WebviewPage): Promise<Array<[unknown, unknown, unknown]>> {
  return (await page.posted()).filter((m) => m['type'] !== 'ready').map((m) => [m['type'], m['key'], m['generation']]);
}

describe('request page: what it posts names the render it was composed on', chromiumSuite(), () => {
  const { open } = requestPages();

  test('a page opened without `now` refuses its clock, which its browser context shares with the suite\'s other pages', async () => {
    const page = await open(viewOf(permission('Whose clock is this?')));
    assert.throws(() => page.page.clock, /opens with `now`/);
  });

  test('reused for another request, the page names the new request and render in its Send, pin, Send again and Set Hub Token', async () => {
    const first = viewOf(permission('Delete the branch?'));
    const second = viewOf(permission('Force-push to main?'));
    assert.notEqual(first.key, second.key);
    const page = await open(first);
    const p = page.page;
    const shown = () => p.evaluate(() => [document.getElementById('app')?.dataset['key'], document.getElementById('app')?.dataset['generation']]);
    assert.deepEqual(await shown(), [first.key, String(page.generation)]);
    const firstRender = page.generation;
    await p.locator('vscode-button[data-option="allow"]').click();
    await page.waitForPosted((m) => m['type'] === 'submit');
    assert.deepEqual(await aboutRequests(page), [['pin', first.key, firstRender], ['submit', first.key, firstRender]]);

    // The host reuses the page for the second request.
    await page.post({ type: 'init', request: second, now: Date.now() });
    await p.locator('#prompt', { hasText: 'Force-push to main?' }).waitFor();
    const secondRender = page.generation;
    assert.notEqual(secondRender, firstRender);
    assert.deepEqual(await shown(), [second.key, String(secondRender)]);
    await p.locator('vscode-button[data-option="deny"]').click();
    const submit = await page.waitForPosted((m) => m['type'] === 'submit' && m['key'] === second.key);
    assert.deepEqual(submit['answer'], { option: 'deny' });
    await page.post({ type: 'outcome', submitId: String(submit['submitId']), phase: 'timeout', message: 'claude-code did not acknowledge the answer within 10 s.', canRetry: true });
    await p.locator('#retry').click();
    await page.waitForPosted((m) => m['type'] === 'retry');
    await page.post({ type: 'outcome', submitId: String(submit['submitId']), phase: 'rejected', message: 'claude-code refused it.' });
    await page.post({ type: 'update', status: 'pending', reachability: { state: 'watch-only' }, now: Date.now() });
    await p.locator('#blocked vscode-button').click();
    await page.waitForPosted((m) => m['type'] === 'setToken');
    assert.deepEqual((await aboutRequests(page)).slice(2), [
      ['pin', second.key, secondRender],
      ['submit', second.key, secondRender],
      ['retry', second.key, secondRender],
      ['setToken', second.key, secondRender],
    ]);
  });
});
