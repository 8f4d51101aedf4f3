// The page's first render in its HTML (issue 40), in a real Chromium: a new
// page draws the render the host put in its HTML as soon as its script runs,
// with no `init` message, and says which render it drew in its `ready`; an
// agent's text in it stays text (it cannot end the element that holds it, nor
// run as script); a page VS Code rebuilt (it saved state) ignores that render
// and waits for a fresh `init`.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { PAGE_MARKS } from '../../webview/pageTimings';
import { launchBrowser } from '../support/browser';
import { chromiumSuite } from '../support/harness';
import { requestEvent, viewOf } from '../support/pageRequests';
import { WebviewHarness } from '../support/webviewHarness';

const FORM = {
  kind: 'form',
  prompt: 'Configure the new service deployment',
  respond_via: ['control'],
  fields: [
    { id: 'name', type: 'string', label: 'Service name', required: true },
    { id: 'staged', type: 'boolean', label: 'Deploy to staging first?' },
  ],
};

describe('request page: the first render in its HTML', chromiumSuite(), () => {
  let browser: Browser | undefined;
  let harness: WebviewHarness | undefined;
  before(async () => {
    browser = await launchBrowser();
    harness = await WebviewHarness.start();
  });
  after(async () => {
    await browser?.close();
    await harness?.close();
  });

  test('drawn with no init message, the first field focused, and the ready names it', async () => {
    if (!browser || !harness) throw new Error('the suite did not start');
    const request = viewOf(requestEvent(FORM));
    const page = await harness.open(browser, { firstRender: { type: 'init', request, now: Date.now() } });
    try {
      // harness.open returns once the page said ready: by then the form is on the page, without any message from the host.
      const ready = (await page.posted()).find((message) => message['type'] === 'ready');
      assert.deepEqual(ready, { type: 'ready', shows: { key: request.key, generation: 1 } });
      assert.ok((await page.page.locator('#prompt').textContent())?.includes('Configure the new service deployment'));
      assert.equal(await page.page.evaluate(() => document.activeElement?.id), 'field-0');
      // Read from the HTML before ready went, drawn after it, with no warm-up of the components.
      const order = await page.page.evaluate((marks) => [marks.initReceived, marks.readyPosted, marks.rendered].map((name) => performance.getEntriesByName(name)[0]?.startTime ?? -1), PAGE_MARKS);
      assert.ok(order[0]! >= 0 && order[0]! <= order[1]! && order[1]! <= order[2]!, `read, ready, drawn: ${order.join(' / ')}`);
      assert.equal(await page.page.evaluate(() => performance.getEntriesByType('measure').length), 0, 'no warm-up');
      // What the page sends names that render.
      await page.page.locator('#field-0').click();
      await page.page.keyboard.type('billing');
      const pin = await page.waitForPosted((message) => message['type'] === 'pin');
      assert.deepEqual(pin, { type: 'pin', key: request.key, generation: 1 });
      assert.deepEqual(await page.violations(), []);
      assert.deepEqual(page.errors, []);
    } finally {
      await page.page.close();
    }
  });

  test('a draft handed over in the first render pins the page, and the pin comes after the ready that names the render', async () => {
    if (!browser || !harness) throw new Error('the suite did not start');
    const request = viewOf(requestEvent(FORM));
    const page = await harness.open(browser, { firstRender: { type: 'init', request, now: Date.now(), draft: { fields: { name: { value: 'jobs-high' } } } } });
    try {
      const pin = await page.waitForPosted((message) => message['type'] === 'pin');
      assert.deepEqual(pin, { type: 'pin', key: request.key, generation: 1 });
      // The host takes a message about a render only once a ready named it (PageHost): ready first.
      assert.deepEqual((await page.posted()).map((message) => message['type']), ['ready', 'pin']);
      assert.equal(await page.page.evaluate(() => (document.querySelector('#field-0') as HTMLElement & { value?: string } | null)?.value), 'jobs-high');
      assert.deepEqual(page.errors, []);
    } finally {
      await page.page.close();
    }
  });

  test('an agent\'s text that would end the element or open a script stays text', async () => {
    if (!browser || !harness) throw new Error('the suite did not start');
    const hostile = 'Approve? </script><script>window.pwned = 1</script><!-- <img src=x onerror="window.pwned = 2"> & done';
    const request = viewOf(requestEvent({ ...FORM, prompt: hostile }));
    const page = await harness.open(browser, { firstRender: { type: 'init', request, now: Date.now() } });
    try {
      assert.ok((await page.page.locator('#prompt').textContent())?.includes(hostile), 'the prompt, as the agent wrote it');
      assert.equal(await page.page.evaluate(() => (window as unknown as { pwned?: number }).pwned), undefined, 'nothing ran');
      // One element holds the render, and nothing follows it but the page's own script.
      assert.equal(await page.page.evaluate(() => document.querySelectorAll('script').length), 2);
      assert.equal(await page.page.evaluate(() => document.querySelectorAll('img').length), 0);
      assert.deepEqual(await page.violations(), []);
      assert.deepEqual(page.errors, []);
    } finally {
      await page.page.close();
    }
  });

  test('a page VS Code rebuilt (it saved state) ignores the render in its HTML and waits for a fresh init', async () => {
    if (!browser || !harness) throw new Error('the suite did not start');
    const stale = viewOf(requestEvent(FORM));
    const page = await harness.open(browser, { firstRender: { type: 'init', request: stale, now: Date.now() }, state: { key: stale.key } });
    try {
      const ready = (await page.posted()).find((message) => message['type'] === 'ready');
      assert.deepEqual(ready, { type: 'ready' }, 'a plain ready: the render in the HTML was not drawn');
      assert.equal(await page.page.locator('#prompt').count(), 0);
      const fresh = viewOf(requestEvent({ ...FORM, prompt: 'The fresh render' }));
      await page.post({ type: 'init', request: fresh, now: Date.now() });
      await page.page.locator('#prompt', { hasText: 'The fresh render' }).waitFor();
      assert.deepEqual(page.errors, []);
    } finally {
      await page.page.close();
    }
  });
});
