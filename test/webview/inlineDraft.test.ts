// A partial answer typed in the quick input (issue 15) and left with Escape or
// "Open as page" reaches the real page as `init.draft`: the page shows it in
// its own controls, so sending from the page sends what the quick input held.
// The drafts are built with the core's own functions (src/answer/inlinePlan.ts),
// so a change of the page's draft shapes ("Other…" included) fails here.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseAttentionRequest, type SelectField } from '../../src/aep/attention';
import { inlinePlan, selectDraft, withField, withReply } from '../../src/answer/inlinePlan';
import type { PageDraft, PageRequest } from '../../src/shared/webviewMessages';
import { goldenEvents } from '../support/fixtures';
import { goldenForm, viewOf } from '../support/pageRequests';
import { requestPages, type WebviewPage } from '../support/webviewHarness';
import { chromiumSuite } from '../support/harness';

/** Renders the page again, as the host does when it hands a draft to a page already open. */
async function initWith(page: WebviewPage, request: PageRequest, draft: PageDraft): Promise<void> {
  await page.page.evaluate(() => document.querySelector('.request-header')?.setAttribute('data-stale', ''));
  await page.post({ type: 'init', request, now: Date.now(), draft });
  await page.page.waitForSelector('.request-header:not([data-stale])');
}

describe('the page takes the quick input\'s draft', chromiumSuite(), () => {
  const { open } = requestPages();

  test('a form: every field shows the drafted input, "Other…" with its text, and Send sends exactly that', async () => {
    const event = goldenForm();
    const parsed = parseAttentionRequest(event);
    assert.ok(parsed.ok);
    const plan = inlinePlan(parsed.value);
    assert.ok(plan);
    const select = (id: string) => parsed.value.fields.find((f): f is SelectField => f.id === id && f.type === 'select')!;
    let draft: PageDraft = {};
    draft = withField(draft, 'name', { value: 'billing-api' });
    draft = withField(draft, 'staged', { value: true });
    draft = withField(draft, 'regions', selectDraft(select('regions'), { choices: ['1', '3'] }));
    draft = withField(draft, 'db', selectDraft(select('db'), { choices: [], other: 'MariaDB' }));
    const view = viewOf(event);
    const page = await open(view);
    await initWith(page, view, draft);
    const p = page.page;
    await p.locator('#field-3-other').waitFor({ state: 'visible' });
    await p.locator('#send').click();
    const submit = await page.waitForPosted((m) => m['type'] === 'submit');
    assert.deepEqual(submit['answer'], { values: { name: 'billing-api', staged: true, regions: ['1', '3'], db: 'MariaDB' } });
  });

  test('a reply: the reply box holds the drafted text, and the page sends it', async () => {
    const event = goldenEvents().find((e) => e.id === '01JX9YB4RQ000000000000GOLD')!;
    const view = viewOf(event);
    const page = await open(view);
    await initWith(page, view, withReply({}, 'only in build/'));
    await page.page.locator('#send').click();
    const submit = await page.waitForPosted((m) => m['type'] === 'submit');
    assert.deepEqual(submit['answer'], { text: 'only in build/' });
  });

  test('a draft that fails the agent\'s rules goes in as typed and is marked when sent', async () => {
    const view = viewOf(goldenForm());
    const page = await open(view);
    await initWith(page, view, withField({}, 'name', { value: '   ' }));
    await page.page.locator('#send').click();
    const error = page.page.locator('#field-0-error');
    await error.waitFor({ state: 'visible' });
    assert.equal(await error.innerText(), 'This field is required.');
    assert.equal((await page.posted()).filter((m) => m['type'] === 'submit').length, 0);
  });
});
