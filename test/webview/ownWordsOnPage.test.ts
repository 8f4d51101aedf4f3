// The request page lists the agent's option buttons beside its own ("Send
// reply only", "Reply in Words Instead…"): an option reading like one of our
// words (the registry, src/shared/ownActionWords.ts) says whose it is on its
// button, as in the quick input, and is sent only after the same second
// step: a click asks, "Back to the choices" has the focus, and only "Send the
// agent's option" sends it. The rest read as the agent wrote them and send
// at one click.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { requestEvent, viewOf } from '../support/pageRequests';
import { requestPages, type WebviewPage } from '../support/webviewHarness';
import { chromiumSuite } from '../support/harness';

describe('request page: agent options beside our buttons', chromiumSuite(), () => {
  const { open } = requestPages();

  test('an option labelled like our own button is marked as the agent\'s', async () => {
    const page = await open(viewOf(requestEvent({
      kind: 'permission', prompt: 'Run the migration?',
      options: [{ id: 'allow', label: 'Allow' }, { id: 'allow_always', label: 'SEND REPLY ONLY' }, { id: 'x', label: 'Answer 2 Similar…' }],
    })));
    const label = (id: string) => page.page.locator(`vscode-button[data-option="${id}"]`).innerText();
    assert.equal(await label('allow'), 'Allow');
    assert.equal(await label('allow_always'), 'SEND REPLY ONLY (from the agent: id allow_always)');
    assert.equal(await label('x'), 'Answer 2 Similar… (from the agent: id x)');
  });

  test('a right-to-left override draws neither an agent\'s label nor its id as words of ours, in the page as in the checks', async () => {
    const REORDERING = /[\u202a-\u202e\u2066-\u2069]/u;
    const page = await open(viewOf(requestEvent({
      kind: 'permission', prompt: 'Run the migration?',
      options: [{ id: 'always', label: '\u202eylno ylper dneS' }, { id: 'deny', label: 'Deny' }],
    })));
    const texts = await page.page.locator('vscode-button[data-option]').allInnerTexts();
    assert.deepEqual(texts, ['ylno ylper dneS', 'Deny'], 'drawn as the agent wrote the letters, not as our "Send reply only"');
    // Withheld at capture metadata, an option and a field are named by their ids: those are drawn without the controls too.
    const withheld = await open(viewOf(requestEvent({
      kind: 'form', prompt: 'Fill in',
      options: [{ id: '\u202eylno ylper dneS', label: 'x' }],
      fields: [{ id: '\u202edrowssap', type: 'string', label: 'y' }],
    }, { capture: 'metadata' })));
    const body = await withheld.page.locator('body').innerText();
    assert.match(body, /drowssap/);
    assert.doesNotMatch(body, REORDERING, 'no reordering control reaches the page');
  });

  test('two options or two choices that read alike are each named with the id they send, as in the quick input', async () => {
    const page = await open(viewOf(requestEvent({
      kind: 'permission', prompt: 'Run the migration?',
      options: [{ id: 'allow_once', label: 'Allow' }, { id: 'allow_always', label: 'Allow' }, { id: 'deny', label: 'Deny' }],
    })));
    assert.deepEqual(await page.page.locator('vscode-button[data-option]').allInnerTexts(),
      ['Allow (from the agent: id allow_once)', 'Allow (from the agent: id allow_always)', 'Deny']);
    // What was sent is named as the button was.
    await page.page.locator('vscode-button[data-option="allow_always"]').click();
    const submit = await page.waitForPosted((m) => m['type'] === 'submit');
    assert.deepEqual(submit['answer'], { option: 'allow_always' });
    await page.post({ type: 'outcome', submitId: String(submit['submitId']), phase: 'accepted', message: 'claude-code accepted the answer.' });
    await page.post({ type: 'update', status: 'resolved', resolution: 'answered', reachability: { state: 'reachable' }, now: Date.now() });
    const summary = page.page.locator('.summary');
    await summary.waitFor({ state: 'visible' });
    assert.match(await summary.innerText(), /Allow \(from the agent: id allow_always\)/);
    const form = await open(viewOf(requestEvent({
      kind: 'form', prompt: 'Where?',
      fields: [{ id: 'env', type: 'select', label: 'Environment', choices: [{ id: 'prod-eu', label: 'Prod' }, { id: 'prod-us', label: 'PROD' }, { id: 'dev', label: 'Dev' }] }],
    })));
    const body = await form.page.locator('body').innerText();
    assert.match(body, /Prod \(from the agent: id prod-eu\)/);
    assert.match(body, /PROD \(from the agent: id prod-us\)/);
    assert.doesNotMatch(body, /Dev \(from the agent/);
  });

  const submits = async (page: WebviewPage) => (await page.posted()).filter((m) => m['type'] === 'submit');

  test('such an option asks before it is sent, as in the quick input; Back sends nothing, and a second Enter is Back', async () => {
    const page = await open(viewOf(requestEvent({
      kind: 'permission', prompt: 'Run the migration?',
      options: [{ id: 'deny', label: 'Deny' }, { id: 'allow_always', label: 'Send reply only' }],
    })));
    const p = page.page;
    await p.locator('vscode-button[data-option="allow_always"]').click();
    await p.locator('.confirm').waitFor({ state: 'visible' });
    assert.equal(await p.locator('#confirm-text').innerText(), '"Send reply only" is an option the agent offers, not an item of this editor. Send it?');
    assert.equal(await p.evaluate(() => document.activeElement?.id), 'confirm-back');
    assert.equal((await submits(page)).length, 0, 'nothing sent on the click');
    await p.keyboard.press('Enter');
    await p.locator('.confirm').waitFor({ state: 'detached' });
    assert.equal(await p.evaluate(() => document.activeElement?.getAttribute('data-option')), 'allow_always', 'back at the option');
    assert.equal((await submits(page)).length, 0, 'Back sends nothing');
    // Asked again, and this time the person means the agent's option.
    await p.keyboard.press('Enter');
    await p.locator('#confirm-send-option').click();
    const submit = await page.waitForPosted((m) => m['type'] === 'submit');
    assert.deepEqual(submit['answer'], { option: 'allow_always' });
    assert.equal((await submits(page)).length, 1);
  });

  test('an option unlike ours sends at one click; one withheld at capture is named in our words and sends at one click too', async () => {
    const page = await open(viewOf(requestEvent({
      kind: 'permission', prompt: 'Run the migration?',
      options: [{ id: 'deny', label: 'Deny' }, { id: 'allow_always', label: 'Send reply only' }],
    })));
    await page.page.locator('vscode-button[data-option="deny"]').click();
    const submit = await page.waitForPosted((m) => m['type'] === 'submit');
    assert.deepEqual(submit['answer'], { option: 'deny' });
    assert.equal(await page.page.locator('.confirm').count(), 0);

    const withheld = await open(viewOf(requestEvent({ kind: 'permission', prompt: 'Run the migration?', options: [{ id: 'allow_always', label: 'Send reply only' }] }, { capture: 'metadata' })));
    assert.equal(await withheld.page.locator('vscode-button[data-option="allow_always"]').innerText(), 'Option 1 (allow_always)');
    await withheld.page.locator('vscode-button[data-option="allow_always"]').click();
    assert.deepEqual((await withheld.waitForPosted((m) => m['type'] === 'submit'))['answer'], { option: 'allow_always' });
  });
});
