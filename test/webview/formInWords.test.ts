// A form answered in words instead of its fields (issue 29 item 4, issue 38
// item 4), on the request page in headless Chromium with the test playing the
// extension host. AEP-0006: an agent must reject values that leave a required
// field out, so "Reply in Words Instead…" is offered only for a form with no
// required field, and Send Reply posts `{ text }` alone; the reply survives as
// a draft; the page becomes the person's (pin) once they type. Words to a form
// with a secret-asking field are that field's secret: dots, a confirmation,
// never saved with `setState`.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { goldenForm, requestEvent, viewOf } from '../support/pageRequests';
import { requestPages, type WebviewPage } from '../support/webviewHarness';
import { chromiumSuite } from '../support/harness';

const TOKEN_WORDS = 'use my token Quiet-Falcon-42';

/** Nothing required: words alone answer it. */
const optionalForm = () =>
  requestEvent({
    kind: 'form', prompt: 'Anything to change before the deploy?',
    fields: [
      { id: 'replicas', type: 'number', label: 'Replicas' },
      { id: 'note', type: 'string', label: 'Release note' },
    ],
  });

/** Nothing required, and one field asks for a secret. */
const secretForm = () =>
  requestEvent({
    kind: 'form', prompt: 'Registry access for the deploy',
    fields: [
      { id: 'registry', type: 'string', label: 'Registry' },
      { id: 'api_token', type: 'string', label: 'API token' },
    ],
  });

/** How the reply box draws what is typed: the `type` of the input inside the toolkit's element. */
function replyType(page: WebviewPage): Promise<string | undefined> {
  return page.page.evaluate(() => {
    const inner = document.getElementById('reply')?.shadowRoot?.querySelector('input, textarea');
    return inner instanceof HTMLInputElement ? inner.type : inner ? 'textarea' : undefined;
  });
}

async function typeWords(page: WebviewPage, text: string): Promise<void> {
  await page.page.locator('#reply-in-words').click();
  await page.page.locator('#words').waitFor();
  await page.page.locator('#reply').click();
  await page.page.keyboard.type(text);
  await page.page.waitForFunction((length) => ((document.getElementById('reply') as HTMLElement & { value: string } | null)?.value ?? '').length === length, text.length);
}

describe('request page: a form answered in words', chromiumSuite(), () => {
  const { open } = requestPages();

  test('a form with a required field offers no reply in words (the agent must refuse it), not even from a saved draft', async () => {
    const view = viewOf(goldenForm());
    const page = await open(view, { state: { key: view.key, reply: 'use the defaults' } });
    await page.page.locator('#send').waitFor();
    assert.equal(await page.page.locator('#reply-in-words').count(), 0, 'no button');
    assert.equal(await page.page.locator('#words, #reply').count(), 0, 'no box, though the draft held words');
  });

  test('Reply in Words Instead… on a form with no required field opens a plain reply box; Send Reply posts the text alone', async () => {
    const page = await open(viewOf(optionalForm()));
    const p = page.page;
    assert.equal(await p.locator('#words').count(), 0, 'closed until asked for');
    await typeWords(page, 'Use the defaults; name it billing-api.');
    assert.equal(await replyType(page), 'textarea');
    await page.waitForPosted((m) => m['type'] === 'pin');
    await p.locator('#send-words').click();
    const submitted = await page.waitForPosted((m) => m['type'] === 'submit');
    assert.deepEqual(submitted['answer'], { text: 'Use the defaults; name it billing-api.' });
    assert.equal(submitted['verbatim'], undefined, 'text the pipeline passes goes as redacted, not as typed');
  });

  test('a reply in words kept as a draft opens its box again when the page loads anew (a reload)', async () => {
    const view = viewOf(optionalForm());
    const first = await open(view);
    await typeWords(first, 'later');
    const saved = (await first.states()).at(-1) as Record<string, unknown> | undefined;
    assert.equal(saved?.['reply'], 'later');
    const again = await open(view, { state: saved });
    await again.page.locator('#words').waitFor();
    assert.equal(await again.page.locator('#reply').evaluate((e) => (e as HTMLElement & { value: string }).value), 'later');
    await again.waitForPosted((m) => m['type'] === 'pin');
  });

  test('words to a form whose field asks for a secret: drawn as dots, never saved with setState, confirmed before they leave', async () => {
    const view = viewOf(secretForm());
    const page = await open(view);
    const p = page.page;
    await typeWords(page, TOKEN_WORDS);
    assert.equal(await replyType(page), 'password');
    await page.waitForPosted((m) => m['type'] === 'pin');
    assert.ok((await page.states()).length > 0, 'the page does save its state');
    assert.ok(!JSON.stringify(await page.states()).includes('Quiet-Falcon'), 'the words are not saved');
    await p.locator('#send-words').click();
    await p.locator('#confirm-text', { hasText: 'asks for a secret' }).waitFor();
    assert.match(await p.locator('#confirm-text').innerText(), /The field "API token" asks for a secret: your reply in words is kept as one\./);
    assert.equal((await page.posted()).some((m) => m['type'] === 'submit'), false, 'nothing sent before the confirmation');
    await p.locator('#confirm-send').click();
    const submitted = await page.waitForPosted((m) => m['type'] === 'submit');
    assert.deepEqual(submitted['answer'], { text: TOKEN_WORDS });
  });

  test('words handed over by the quick input for a secret-asking form show, but are never saved', async () => {
    const view = viewOf(secretForm());
    const page = await open(view);
    await page.post({ type: 'init', request: view, now: Date.now(), draft: { reply: TOKEN_WORDS } });
    await page.page.waitForFunction((words) => (document.getElementById('reply') as HTMLElement & { value: string } | null)?.value === words, TOKEN_WORDS);
    const last = (await page.states()).at(-1) as Record<string, unknown> | undefined;
    assert.equal(last?.['key'], view.key);
    assert.equal(last?.['reply'], undefined, 'the words are not in the state');
    assert.ok(!JSON.stringify(await page.states()).includes('Quiet-Falcon'));
  });
});
