// The context an agent attached to its request (AEP-0002 §5.3), on the request
// page in headless Chromium with the test playing the extension host: key:
// value rows, nested values collapsible, long values folded with their size;
// hostile keys and values stay text; below capture full it is not shown, and
// the page says why; without one there is no section at all.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { requestEvent, viewOf } from '../support/pageRequests';
import { requestPages } from '../support/webviewHarness';
import { chromiumSuite } from '../support/harness';
import { hostileStrings } from '../support/hostileCorpus';

const permission = (context: Record<string, unknown> | undefined, capture: 'full' | 'redacted' = 'full') =>
  requestEvent({ kind: 'permission', prompt: 'Run the migration?', options: [{ id: 'allow', label: 'Allow' }, { id: 'deny', label: 'Deny' }], ...(context ? { context } : {}) }, { capture });

describe('request page: the context the agent attached', chromiumSuite(), () => {
  const { open } = requestPages();

  test('key: value rows after the question, a nested object collapsible, a long value folded with its size', async () => {
    const diff = `--- a/db.sql\n+++ b/db.sql\n${'+ALTER TABLE t ADD c int;\n'.repeat(20)}`;
    const page = await open(viewOf(permission({ branch: 'main', tests: { passed: 12, failed: 0 }, diff })));
    const p = page.page;
    const context = p.locator('#context');
    assert.match(await context.locator('summary').first().innerText(), /^Context from claude-code$/);
    const rows = (await context.locator('li').allInnerTexts()).map((row) => row.replace(/\s+/g, ' ').trim());
    assert.equal(rows[0], 'branch: main');
    assert.match(rows[1] ?? '', /^tests object, 2 keys passed: 12 failed: 0$/);
    assert.match(rows.at(-1) ?? '', new RegExp(`^diff: --- a/db\\.sql .*… \\(${diff.length} characters\\)`));
    // Nested: a group the person can close.
    const group = context.locator('li details').first();
    assert.equal(await group.evaluate((d) => (d as HTMLDetailsElement).open), true, 'a short context starts open');
    await group.locator('summary').click();
    assert.equal(await group.evaluate((d) => (d as HTMLDetailsElement).open), false);
    // Folded: the whole value on request, as text.
    const long = context.locator('details.context-long');
    assert.equal(await long.locator('pre').isVisible(), false);
    await long.locator('summary').click();
    assert.equal(await long.locator('pre').textContent(), diff);
    // After the question, before the answer; focus stays on the first option.
    const order = await p.evaluate(() => ['#prompt', '#context', '#status', '[data-option]'].map((s) => [...document.querySelectorAll('#app *')].indexOf(document.querySelector(s)!)));
    assert.deepEqual([...order].sort((a, b) => a - b), order, `in reading order: ${order.join(',')}`);
  });

  test('hostile keys and values are text: no element, link or handler from them', async () => {
    const corpus = hostileStrings().filter(({ text }) => text.length < 2_000);
    assert.ok(corpus.length >= 5, `found ${corpus.length} short hostile strings`);
    const context = Object.fromEntries(corpus.map(({ name, text }) => [`${name}: ${text}`, { value: text }]));
    const page = await open(viewOf(permission(context)));
    const p = page.page;
    await p.locator('#context').waitFor();
    const found = await p.evaluate(() => {
      const section = document.querySelector('#context')!;
      const tags = [...section.querySelectorAll('*')].map((e) => e.tagName.toLowerCase());
      const handlers = [...section.querySelectorAll('*')].flatMap((e) => [...e.attributes].map((a) => a.name)).filter((n) => n.startsWith('on') || n === 'href' || n === 'src');
      return { tags: [...new Set(tags)].sort(), handlers };
    });
    assert.deepEqual(found.handlers, []);
    assert.deepEqual(found.tags.filter((tag) => !['details', 'summary', 'ul', 'li', 'span', 'pre', 'p'].includes(tag)), [], `only our elements: ${found.tags.join(', ')}`);
    const text = await p.locator('#context').textContent();
    for (const { name, text: value } of corpus.slice(0, 5)) assert.ok(text?.includes(value.slice(0, 40)), `${name} is shown as text`);
  });

  test('below capture full the context is not shown, and the page says why; without one there is no section', async () => {
    const withheld = await open(viewOf(permission({ secret_path: '/home/me/.ssh/id_rsa' }, 'redacted')));
    assert.match(await withheld.page.locator('#context').innerText(), /attached context that its capture level does not allow/);
    assert.equal(await withheld.page.getByText('/home/me/.ssh/id_rsa').count(), 0);
    const none = await open(viewOf(permission(undefined)));
    await none.page.locator('#prompt').waitFor();
    assert.equal(await none.page.locator('#context').count(), 0);
  });
});
