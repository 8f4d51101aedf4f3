// A form answered in words instead of its fields (issue 29 item 4), on the
// request page in headless Chromium with the test playing the extension host:
// "Reply in Words Instead…" opens a reply box that says the agent may refuse
// it, and Send Reply posts `{ text }` alone; the reply survives as a draft;
// the page becomes the person's (pin) once they type.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { goldenForm, viewOf } from '../support/pageRequests';
import { requestPages } from '../support/webviewHarness';
import { chromiumSuite } from '../support/harness';

describe('request page: a form answered in words', chromiumSuite(), () => {
  const { open } = requestPages();

  test('Reply in Words Instead… opens a reply box that says the agent may refuse it; Send Reply posts the text alone', async () => {
    const page = await open(viewOf(goldenForm()));
    const p = page.page;
    assert.equal(await p.locator('#words').count(), 0, 'closed until asked for');
    await p.locator('#reply-in-words').click();
    await p.locator('#words').waitFor();
    assert.match(await p.locator('#words').innerText(), /The agent may refuse a reply in words and ask for the fields\./);
    await p.locator('#reply textarea, #reply').first().focus();
    await p.keyboard.type('Use the defaults; name it billing-api.');
    await page.waitForPosted((m) => m['type'] === 'pin');
    await p.locator('#send-words').click();
    const submitted = await page.waitForPosted((m) => m['type'] === 'submit');
    assert.deepEqual(submitted['answer'], { text: 'Use the defaults; name it billing-api.' });
    assert.equal(submitted['verbatim'], undefined, 'text the pipeline passes goes as redacted, not as typed');
  });

  test('a reply in words kept as a draft opens its box again when the page loads anew (a reload)', async () => {
    const view = viewOf(goldenForm());
    const first = await open(view);
    await first.page.locator('#reply-in-words').click();
    await first.page.locator('#words').waitFor();
    await first.page.locator('#reply textarea, #reply').first().focus();
    await first.page.keyboard.type('later');
    const saved = await first.page.evaluate(() => (window as unknown as { __states: Array<Record<string, unknown>> }).__states.at(-1));
    assert.equal(saved?.['reply'], 'later');
    const again = await open(view, { state: saved });
    await again.page.locator('#words').waitFor();
    assert.equal(await again.page.locator('#reply').evaluate((e) => (e as HTMLElement & { value: string }).value), 'later');
    await again.waitForPosted((m) => m['type'] === 'pin');
  });
});
