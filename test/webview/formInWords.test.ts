// A form answered in words instead of its fields (issue 29 item 4, issue 38
// item 4), on the request page in headless Chromium with the test playing the
// extension host. AEP-0006: an agent must reject values that leave a required
// field out, so "Reply in Words Instead…" is offered only for a form with no
// required field, and Send Reply posts `{ text }` alone; the reply survives as
// a draft; the page becomes the person's (pin) once they type.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { goldenForm, requestEvent, viewOf } from '../support/pageRequests';
import { requestPages, type WebviewPage } from '../support/webviewHarness';
import { chromiumSuite } from '../support/harness';

/** Nothing required: words alone answer it. */
const optionalForm = () =>
  requestEvent({
    kind: 'form', prompt: 'Anything to change before the deploy?',
    fields: [
      { id: 'replicas', type: 'number', label: 'Replicas' },
      { id: 'note', type: 'string', label: 'Release note' },
    ],
  });

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
});
