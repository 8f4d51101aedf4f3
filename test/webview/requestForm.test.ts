// The real request page in headless Chromium, with the test playing the
// extension host: rendering, capture-honest labels, keyboard answering,
// validation, outcomes, and hostile agent text under the strict CSP.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { goldenEvents, readAepJson } from '../support/fixtures';
import { goldenForm, rawRequestEvent, requestEvent, viewOf } from '../support/pageRequests';
import { requestPages } from '../support/webviewHarness';
import { chromiumSuite } from '../support/harness';

describe('request page', chromiumSuite(), () => {
  const { open } = requestPages();

  test('the golden four-field form is answered by keyboard alone', async () => {
    const page = await open(viewOf(goldenForm()));
    const p = page.page;
    assert.equal(await p.locator('[data-field]').count(), 4);
    assert.match(await p.locator('#prompt').innerText(), /Configure the new service deployment/);
    // The capture is said once near the question; a label passed by the same redaction repeats no mark.
    assert.match(await p.locator('[data-field="name"] .field-label').innerText(), /^Service name\s*\*$/);
    // The first field has focus; type, then move on with Tab.
    await p.keyboard.type('billing-api');
    await p.locator('[data-field="staged"] vscode-checkbox').press('Space');
    await p.locator('[data-field="regions"] vscode-checkbox').nth(0).press('Space');
    await p.locator('[data-field="regions"] vscode-checkbox').nth(2).press('Space');
    await p.locator('[data-field="db"] vscode-radio').last().click();
    await p.locator('#field-3-other').waitFor({ state: 'visible' });
    await p.locator('#field-3-other').click();
    await p.keyboard.type('MariaDB');
    await p.keyboard.press('Control+Enter');
    const submit = await page.waitForPosted((m) => m['type'] === 'submit');
    assert.deepEqual(submit['answer'], { values: { name: 'billing-api', staged: true, regions: ['1', '3'], db: 'MariaDB' } });
  });

  test('nothing is sent while a required field is empty; the problem is inline and focused', async () => {
    const page = await open(viewOf(goldenForm()));
    await page.page.locator('#send').click();
    const error = page.page.locator('#field-0-error');
    await error.waitFor({ state: 'visible' });
    assert.equal(await error.innerText(), 'This field is required.');
    assert.equal(await page.page.evaluate(() => document.activeElement?.id), 'field-0');
    assert.equal((await page.posted()).filter((m) => m['type'] === 'submit').length, 0);
    assert.match(await page.page.locator('#outcome').innerText(), /One field needs attention/);
  });

  test('at capture metadata every label is shown as withheld, never as the question', async () => {
    const mapping = readAepJson<{ ask_user_question: { expected_data_metadata: Record<string, unknown> } }>('mappings/claude-code.json');
    const page = await open(viewOf(rawRequestEvent(mapping.ask_user_question.expected_data_metadata, { capture: 'metadata' })));
    const labels = await page.page.locator('.field-label').allInnerTexts();
    assert.equal(labels.length, 2);
    for (const [index, label] of labels.entries()) {
      assert.match(label, new RegExp(`^Question ${index + 1} · label withheld at capture metadata \\(field ${index + 1}, select\\)`));
    }
    const choices = await page.page.locator('[data-field="1"] vscode-radio').allInnerTexts();
    assert.deepEqual(choices.map((c) => c.trim()), ['Choice 1 (id 1)', 'Choice 2 (id 2)', 'Other…']);
    assert.match(await page.page.locator('#prompt .note').innerText(), /withheld its own words at capture metadata.*synthesized/);
  });

  test('hostile agent text is shown as text under the strict CSP', async () => {
    const hostile = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';
    const page = await open(viewOf(requestEvent({
      kind: 'form', prompt: hostile,
      fields: [{ id: 'x', type: 'select', label: hostile, choices: [{ id: '1', label: '<b>bold</b>' }] }],
    })));
    assert.equal(await page.page.locator('img').count(), 0);
    assert.equal(await page.page.locator('#app b').count(), 0);
    assert.equal(await page.page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
    assert.match(await page.page.locator('#prompt').innerText(), /<img src=x onerror=/);
  });

  test('permission: option buttons send the option, with an optional reason', async () => {
    const event = goldenEvents().find((e) => e.id === '01JX9YB4RQ000000000000GOLD')!;
    const page = await open(viewOf(event));
    await page.page.locator('#reply').click();
    await page.page.keyboard.type('only in build/');
    await page.page.locator('vscode-button[data-option="deny"]').click();
    const submit = await page.waitForPosted((m) => m['type'] === 'submit');
    assert.deepEqual(submit['answer'], { option: 'deny', text: 'only in build/' });
    // While the answer is on its way nothing can be sent twice.
    assert.equal(await page.page.locator('vscode-button[data-option="allow"]').evaluate((b) => (b as HTMLElement & { disabled: boolean }).disabled), true);
    await page.post({ type: 'outcome', submitId: String(submit['submitId']), phase: 'accepted', message: 'claude-code accepted the answer.' });
    await page.page.waitForFunction(() => document.getElementById('outcome')?.textContent === 'claude-code accepted the answer.');
  });

  test('an out-of-band request is information only: no send control', async () => {
    const hermes = readAepJson<{ hooks: { pre_approval_request: { expected: Array<{ type: string; data: Record<string, unknown> }> } } }>('mappings/hermes.json');
    const card = hermes.hooks.pre_approval_request.expected.find((e) => e.type === 'attention.requested')!;
    const page = await open(viewOf(rawRequestEvent(card.data)));
    assert.equal(await page.page.locator('vscode-button').count(), 0);
    assert.match(await page.page.locator('.informational').innerText(), /answered outside VS Code \(respond_via: oob\)/);
    assert.equal(await page.page.locator('.options-info li').count(), 4);
  });

  test('an invalid nack marks the named field and lets the user fix and resend', async () => {
    const page = await open(viewOf(goldenForm()));
    await page.page.keyboard.type('x');
    await page.page.locator('#send').click();
    const submit = await page.waitForPosted((m) => m['type'] === 'submit');
    await page.post({ type: 'outcome', submitId: String(submit['submitId']), phase: 'rejected', message: 'claude-code refused the answer as invalid: field "name" is taken.', fieldId: 'name' });
    await page.page.locator('#field-0-error').waitFor({ state: 'visible' });
    assert.equal(await page.page.locator('#send').evaluate((b) => (b as HTMLElement & { disabled: boolean }).disabled), false);
  });

  test('provenance, a live countdown, an unknown field type, and the end of the request', async () => {
    const page = await open(viewOf(requestEvent({
      kind: 'form', prompt: 'When?', expires_at: new Date(Date.now() + 120_000).toISOString(),
      fields: [{ id: 'when', type: 'date', label: 'Date' }, { id: 'why', type: 'string', label: 'Why', required: true }],
    })));
    const header = await page.page.locator('.request-header').innerText();
    for (const expected of ['claude-code', 's1', 'host-a', 'form', 'notice', 'redacted']) assert.ok(header.includes(expected), expected);
    assert.match(await page.page.locator('#countdown').innerText(), /^in (1 min \d+ s|2 min 0 s)$/);
    assert.match(await page.page.locator('[data-field="when"]').innerText(), /cannot answer a field of type date.*optional/s);
    await page.page.locator('#field-1').click();
    await page.page.keyboard.type('because');
    await page.page.locator('#send').click();
    assert.deepEqual((await page.waitForPosted((m) => m['type'] === 'submit'))['answer'], { values: { why: 'because' } });
    await page.post({ type: 'update', status: 'resolved', resolution: 'answered', reachability: { state: 'reachable' }, now: Date.now() });
    await page.page.waitForFunction(() => document.getElementById('status')?.textContent === 'Resolved (answered).');
  });
});

describe('request page: every fixture form at both ceilings', chromiumSuite(), () => {
  const { open } = requestPages();

  interface Mapping { expected_data: Record<string, unknown>; expected_data_metadata: Record<string, unknown> }
  const mappings = readAepJson<Record<string, Mapping>>('mappings/claude-code.json');
  for (const name of ['ask_user_question', 'elicitation']) {
    for (const capture of ['redacted', 'metadata'] as const) {
      test(`${name} at ${capture}: the right controls, honest labels, Enter submits`, async () => {
        const mapping = mappings[name]!;
        const data = capture === 'redacted' ? mapping.expected_data : mapping.expected_data_metadata;
        const view = viewOf(rawRequestEvent(data, { capture }));
        const page = await open(view);
        for (const [index, { spec, label: shown }] of view.fields.entries()) {
          const container = page.page.locator(`[data-field="${spec.id}"]`);
          const expected = spec.type === 'select' ? (spec.multi ? 'vscode-checkbox' : 'vscode-radio, vscode-dropdown') : spec.type === 'boolean' ? 'vscode-checkbox' : 'vscode-text-field, vscode-text-area';
          assert.ok((await container.locator(expected).count()) > 0, `${spec.id} has a ${expected}`);
          const label = await container.locator('.field-label').innerText();
          if (capture === 'metadata') assert.match(label, new RegExp(`^Question ${index + 1} · label withheld at capture metadata`));
          else assert.ok(label.startsWith(shown.text), label);
          // The control's accessible name is the visible label.
          const labelledBy = await page.page.locator(`#field-${index}`).getAttribute('aria-labelledby');
          assert.equal(labelledBy, `field-${index}-label`);
        }
        // Enter in a text field (or Send, where the form has none) does not send an empty
        // required form; it points at the first problem.
        const textIndex = view.fields.findIndex((f) => f.spec.type === 'string' || f.spec.type === 'number');
        if (textIndex >= 0) {
          await page.page.locator(`#field-${textIndex}`).click();
          await page.page.keyboard.press('Enter');
        } else {
          await page.page.locator('#send').click();
        }
        await page.page.locator('.error:not([hidden])').first().waitFor();
        assert.equal((await page.posted()).filter((m) => m['type'] === 'submit').length, 0);
      });
    }
  }

  test('an XSS corpus in prompts, labels, choice labels and ids stays inert text', async () => {
    const corpus = ['<img src=x onerror="window.__pwned=1">', '</script><script>window.__pwned=2</script>', 'javascript:window.__pwned=3', '"><svg onload="window.__pwned=4">'];
    const view = viewOf(requestEvent({
      kind: 'form', prompt: corpus.join(' '),
      fields: corpus.map((text, i) => ({ id: `f${i}${text}`, type: 'select', label: text, other: true, choices: [{ id: text, label: text }, { id: `c${i}`, label: 'plain' }] })),
    }));
    const page = await open(view);
    assert.equal(await page.page.locator('#app img, #app svg, #app script').count(), 0);
    assert.equal(await page.page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
    const text = await page.page.locator('#app').innerText();
    for (const entry of corpus) assert.ok(text.includes(entry), `"${entry}" shown as text`);
  });
});
