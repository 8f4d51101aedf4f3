// What a person reads first on the request page: the question as the one
// heading, who asks beneath it, the fields, then the details; capture said
// once; "Other…" loses no keystroke; an agent that takes no answers shows why
// instead of a reply box.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { goldenForm, requestEvent, viewOf } from '../support/pageRequests';
import { requestPages } from '../support/webviewHarness';
import { chromiumSuite } from '../support/harness';

describe('request page reading order', chromiumSuite(), () => {
  const { open } = requestPages();

  test('choosing "Other…" and typing at once keeps the first keystroke', async () => {
    const page = await open(viewOf(goldenForm()));
    const p = page.page;
    const radios = p.locator('[data-field="db"] vscode-radio');
    await radios.last().focus();
    // Space chooses "Other…"; the keystrokes are all sent at once, with no wait for the text field to show.
    await Promise.all([' ', ...'custom-db'].map((key) => p.keyboard.press(key)));
    assert.equal(await p.locator('#field-3-other').evaluate((e) => (e as HTMLElement & { value: string }).value), 'custom-db');
  });

  test('choosing "Other…" on a busy page and typing at once keeps the first keystroke', async () => {
    const page = await open(viewOf(goldenForm()));
    const p = page.page;
    // A loaded machine: the task that chooses "Other…" runs long, so the keystrokes typed meanwhile wait
    // in the input queue, and the page handles them before any timer the choice set.
    await p.evaluate(() => {
      document.addEventListener('change', () => {
        const until = performance.now() + 300;
        while (performance.now() < until) { /* busy */ }
      }, { capture: true, once: true });
    });
    const other = p.locator('[data-field="db"] vscode-radio').last();
    await other.focus();
    await Promise.all([' ', ...'custom-db'].map((key) => p.keyboard.press(key)));
    assert.equal(await p.locator('#field-3-other').evaluate((e) => (e as HTMLElement & { value: string }).value), 'custom-db');
  });

  test('the question is the one h1, who asks is beneath it, then the fields, then the details', async () => {
    const page = await open(viewOf(goldenForm()));
    const p = page.page;
    assert.equal(await p.locator('h1').count(), 1);
    assert.match(await p.locator('h1').innerText(), /Configure the new service deployment/);
    const order = await p.evaluate(() => ['h1', '.asked-by', '[data-field]', '#send', 'details.request-header', '#countdown, #age', '#reachability'].map((selector) => {
      const all = [...document.querySelectorAll('#app *')];
      return all.indexOf(document.querySelector(selector)!);
    }));
    assert.ok(order.every((at) => at >= 0), `every part is there: ${order.join(',')}`);
    assert.deepEqual([...order].sort((a, b) => a - b), order, `in reading order: ${order.join(',')}`);
    assert.match(await p.locator('.asked-by').innerText(), /^Asked by /);
  });

  test('a uniform capture is marked once near the question, not on each field', async () => {
    const page = await open(viewOf(goldenForm()));
    const p = page.page;
    assert.equal(await p.locator('#capture-mark').count(), 1);
    assert.match(await p.locator('#capture-mark').innerText(), /Answers are redacted before they are sent/);
    assert.equal(await p.locator('.field-label .tag').count(), 0, 'no field repeats the mark');
  });

  test('a field whose label is shown otherwise than the question gets its own mark', async () => {
    const view = viewOf(goldenForm());
    // Every label as the question is shown (verbatim) but the second, which passed redaction.
    const fields = view.fields.map((field, i) => ({ ...field, label: { ...field.label, honesty: i === 1 ? 'redacted' as const : 'verbatim' as const } }));
    const page = await open({ ...view, prompt: { ...view.prompt, honesty: 'verbatim' }, fields });
    const p = page.page;
    assert.equal(await p.locator('.field-label .tag').count(), 1);
    assert.equal(await p.locator('[data-field] .field-label .tag').first().evaluate((e) => e.closest('[data-field]')?.getAttribute('data-field')), view.fields[1]!.spec.id);
  });

  test('an agent that takes no answers: no reply box, no Send, and a sentence why', async () => {
    const page = await open(viewOf(requestEvent({ kind: 'question', prompt: 'Which branch?' }), { state: 'not-accepting', accepts: [] }));
    const p = page.page;
    assert.match(await p.locator('#blocked').innerText(), /does not take answers from editors/);
    assert.equal(await p.locator('#reply').isHidden(), true);
    assert.equal(await p.locator('#send').isHidden(), true);
    assert.equal(await p.locator('h1').count(), 1);
  });
});
