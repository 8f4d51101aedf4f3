// The request page past its deadline and for an agent that takes no answers,
// in headless Chromium with the test playing the extension host. Past
// `expires_at` the request stays answerable: the agent, not this clock, ends
// it (AEP-0002 §7). A session whose claimant does not declare
// `control.attention.respond` (AEP-0004 §4.2) cannot be answered from here:
// the page stays readable and sending is disabled, with the reason.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { PageRequest } from '../../src/shared/webviewMessages';
import { goldenForm, requestEvent, viewOf } from '../support/pageRequests';
import { requestPages, type WebviewPage } from '../support/webviewHarness';
import { chromiumSuite } from '../support/harness';

const DEADLINE_WORDS = /The deadline has passed by this computer's clock\. You can still send an answer; the agent may refuse it\./;
const NOT_ACCEPTING = 'This agent does not take answers from editors, so nothing can be sent from here.';

const disabled = (page: WebviewPage, selector: string) =>
  page.page.locator(selector).evaluate((b) => (b as HTMLElement & { disabled: boolean }).disabled);
const submits = async (page: WebviewPage) => (await page.posted()).filter((m) => m['type'] === 'submit');

function question(expiresAt: number): PageRequest {
  return { ...viewOf(requestEvent({ kind: 'input', prompt: 'Which branch?' })), expiresAt };
}

describe('request page: past the deadline', chromiumSuite(), () => {
  const { open } = requestPages();

  test('a request already past expires_at says so, and the send button still sends', async () => {
    const view = viewOf(requestEvent({ kind: 'input', prompt: 'Which branch?', expires_at: new Date(Date.now() - 60_000).toISOString() }));
    assert.equal(view.status, 'pending', 'the inbox keeps it open');
    const page = await open(view);
    const p = page.page;
    await p.waitForFunction(() => document.getElementById('status')?.dataset['deadline'] === 'passed');
    assert.match(await p.locator('#status').innerText(), DEADLINE_WORDS);
    assert.equal(await p.locator('#status').getAttribute('data-status'), 'pending');
    assert.equal((await p.locator('#countdown').innerText()).trim(), 'passed, by this computer\'s clock');
    assert.equal(await disabled(page, '#send'), false);
    await p.locator('#reply').click();
    await p.keyboard.type('main');
    await p.locator('#send').click();
    const submit = await page.waitForPosted((m) => m['type'] === 'submit');
    assert.deepEqual(submit['answer'], { text: 'main' });

    // The agent's timeout is what ends it.
    await page.post({ type: 'outcome', submitId: String(submit['submitId']), phase: 'rejected', message: 'The agent refused the answer: the request timed out.' });
    await page.post({ type: 'update', status: 'timed-out', reachability: { state: 'reachable' }, now: Date.now() });
    await p.waitForFunction(() => document.getElementById('status')?.dataset['status'] === 'timed-out');
    assert.match(await p.locator('#status').innerText(), /The agent stopped waiting \(timeout\)\. Nothing more can be sent\./);
    assert.equal((await p.locator('#countdown').innerText()).trim(), 'timed out');
    assert.equal(await disabled(page, '#send'), true);
  });

  test('the deadline passing while the page is open changes the words, not what can be sent', async () => {
    // Both clocks held 4 s before the deadline, however long the page takes to open; then moved past it.
    const at = Date.now();
    const page = await open(question(at + 4_000), { now: at });
    const p = page.page;
    assert.equal(await p.locator('#status').getAttribute('data-deadline'), 'ahead');
    assert.equal(await p.locator('#status').innerText(), '');
    assert.equal(await p.locator('#countdown').innerText(), 'in 4 s');
    await p.clock.setFixedTime(at + 4_001);
    await p.waitForFunction(() => document.getElementById('status')?.dataset['deadline'] === 'passed', undefined, { timeout: 15_000 });
    assert.match(await p.locator('#status').innerText(), DEADLINE_WORDS);
    assert.equal(await p.locator('#status').getAttribute('data-status'), 'pending');
    assert.equal(await disabled(page, '#send'), false);
    await p.locator('#reply').click();
    await p.keyboard.type('release');
    await p.locator('#send').click();
    const submit = await page.waitForPosted((m) => m['type'] === 'submit');
    assert.deepEqual(submit['answer'], { text: 'release' });
  });
});

describe('request page: an agent that does not take answers from editors', chromiumSuite(), () => {
  const { open } = requestPages();

  test('the page stays readable, sending is disabled with the reason, and a roster that adds respond lifts it', async () => {
    const view = viewOf(requestEvent({ kind: 'permission', prompt: 'Delete the branch?', options: [{ id: 'allow', label: 'Allow' }, { id: 'deny', label: 'Deny' }] }), {
      state: 'not-accepting', accepts: [],
    });
    assert.deepEqual(view.reachability, { state: 'not-accepting', detail: 'it accepts no commands' });
    const page = await open(view);
    const p = page.page;
    assert.equal(await p.locator('#blocked').innerText(), NOT_ACCEPTING);
    assert.equal(await p.locator('#reachability').innerText(), 'this agent does not take answers from editors (it accepts no commands)');
    assert.match(await p.locator('.from-agent').innerText(), /Delete the branch\?/, 'what the agent asks is still shown');
    for (const selector of ['vscode-button[data-option="allow"]', 'vscode-button[data-option="deny"]', '#send', '#reply']) {
      assert.equal(await p.locator(selector).isHidden(), true, `${selector} is not shown`);
    }
    assert.deepEqual(await submits(page), [], 'nothing was sent');

    await page.post({ type: 'update', status: 'pending', reachability: { state: 'reachable' }, now: Date.now() });
    await p.locator('#blocked').waitFor({ state: 'detached' });
    await p.locator('#reply').waitFor({ state: 'visible' });
    assert.equal(await disabled(page, 'vscode-button[data-option="allow"]'), false);
    await p.locator('vscode-button[data-option="allow"]').click();
    const submit = await page.waitForPosted((m) => m['type'] === 'submit');
    assert.deepEqual(submit['answer'], { option: 'allow' });
  });

  test('a form cannot be sent with Enter while the agent takes no answers; becoming not-accepting later disables it too', async () => {
    const page = await open(viewOf(goldenForm()));
    const p = page.page;
    assert.equal(await p.locator('#blocked').count(), 0);
    assert.equal(await disabled(page, '#send'), false);
    await p.keyboard.type('billing-api');
    await page.post({ type: 'update', status: 'pending', reachability: { state: 'not-accepting', detail: 'its control.accepts does not list control.attention.respond' }, now: Date.now() });
    await p.locator('#blocked').waitFor();
    assert.equal(await disabled(page, '#send'), true);
    await p.locator('.answer').dispatchEvent('keydown', { key: 'Enter' });
    assert.deepEqual(await submits(page), [], 'Enter sent nothing');
    assert.equal(await p.locator('#reachability').innerText(), 'this agent does not take answers from editors (its control.accepts does not list control.attention.respond)');
  });
});
