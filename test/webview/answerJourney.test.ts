// What happens after Send, on the real request page in headless Chromium
// with the test playing the extension host: an answer the redaction pipeline
// would change goes only as the user chooses, an answer waiting for the
// connection says so, a timed-out answer can be sent again as the same
// command, an accepted answer leaves a read-only summary, and a request
// answered elsewhere turns read-only.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { goldenForm, viewOf } from '../support/pageRequests';
import { requestPages, type WebviewPage } from '../support/webviewHarness';
import { chromiumSuite } from '../support/harness';

const reachable = { state: 'reachable' as const };

describe('request page: after Send', chromiumSuite(), () => {
  const { open } = requestPages();
  const submits = async (page: WebviewPage) => (await page.posted()).filter((m) => m['type'] === 'submit');
  /** Fills the golden form's required name (the first field has focus) and sends it. */
  const fillAndSend = async (page: WebviewPage, name: string) => {
    await page.page.keyboard.type(name);
    await page.page.keyboard.press('Enter');
  };

  test('an answer the redaction pipeline would change goes only as the user chooses: back to editing, then as typed', async () => {
    const page = await open(viewOf(goldenForm()));
    const p = page.page;
    await fillAndSend(page, 'password=hunter2');
    const question = p.locator('.confirm');
    await question.waitFor({ state: 'visible' });
    assert.match(await question.innerText(), /looks like it contains a credential \(password assignment\)/);
    assert.match(await p.locator('#confirm-replacements').innerText(), /Service name: hunter2 → \[REDACTED:secret\]/);
    assert.equal((await submits(page)).length, 0, 'nothing sent before the user decides');
    // "Send redacted" has focus (it sends nothing secret); "Edit answer" goes back to the field, still unsent.
    assert.equal(await p.evaluate(() => document.activeElement?.id), 'confirm-redacted');
    await p.locator('#confirm-edit').click();
    await question.waitFor({ state: 'detached' });
    assert.equal(await p.evaluate(() => document.activeElement?.id), 'field-0');
    assert.equal((await submits(page)).length, 0);
    await p.keyboard.press('Enter');
    await p.locator('#confirm-verbatim').click();
    const submit = await page.waitForPosted((m) => m['type'] === 'submit');
    assert.deepEqual((submit['answer'] as { values: Record<string, unknown> }).values['name'], 'password=hunter2');
    assert.equal(submit['verbatim'], true, 'sent as typed is said so: the host declares capture full');
    assert.equal(await p.locator('.confirm').count(), 0);
  });

  test('queued while offline, then accepted and resolved: a read-only summary of what was sent', async () => {
    const view = viewOf(goldenForm());
    const page = await open(view);
    const p = page.page;
    await p.keyboard.type('billing-api');
    await p.locator('[data-field="regions"] [role="checkbox"]').nth(1).click();
    await p.locator('#send').click();
    const submit = await page.waitForPosted((m) => m['type'] === 'submit');
    const submitId = String(submit['submitId']);
    await page.post({ type: 'outcome', submitId, phase: 'queued', message: 'Not connected to the hub: the answer waits here.' });
    await p.waitForFunction(() => document.getElementById('outcome')?.dataset['tone'] === 'info');
    assert.equal(await p.locator('#send').evaluate((b) => (b as HTMLElement & { disabled: boolean }).disabled), true, 'a queued answer cannot be sent twice');
    // The agent resolves before the host has posted the ack's outcome: no "answered elsewhere" while ours is in flight.
    await page.post({ type: 'update', status: 'resolved', resolution: 'answered', reachability: reachable, now: Date.now() });
    await p.waitForFunction(() => document.getElementById('status')?.dataset['status'] === 'resolved');
    await page.post({ type: 'outcome', submitId, phase: 'accepted', message: 'claude-code accepted the answer.' });
    const summary = p.locator('.summary');
    await summary.waitFor({ state: 'visible' });
    assert.equal(await p.locator('#status').innerText(), 'Resolved (answered).');
    const regions = view.fields.find((f) => f.spec.id === 'regions')!;
    const text = await summary.innerText();
    assert.match(text, /What you sent/);
    assert.match(text, /Service name\s+billing-api/);
    assert.match(text, new RegExp(`${regions.label.text}\\s+${regions.choices[1]!.label.text}`));
    assert.equal(await p.locator('#field-0').evaluate((f) => (f as HTMLElement & { disabled: boolean }).disabled), true, 'read-only once resolved');
  });

  test('a timed-out answer is offered again as the same command', async () => {
    const page = await open(viewOf(goldenForm()));
    const p = page.page;
    await fillAndSend(page, 'billing-api');
    const submit = await page.waitForPosted((m) => m['type'] === 'submit');
    assert.equal(await p.locator('#retry').isVisible(), false);
    await page.post({ type: 'outcome', submitId: String(submit['submitId']), phase: 'timeout', message: 'claude-code did not acknowledge the answer within 10 s.', canRetry: true });
    await p.locator('#retry').waitFor({ state: 'visible' });
    await p.locator('#retry').click();
    const retry = await page.waitForPosted((m) => m['type'] === 'retry');
    assert.equal(retry['submitId'], submit['submitId']);
    assert.equal(await p.locator('#retry').isVisible(), false, 'one retry at a time');
    assert.equal((await submits(page)).length, 1, 'a retry is not a new answer');
  });

  test('a second answer refused while the first awaits its ack stays waiting, offering Send again of the command in flight', async () => {
    const page = await open(viewOf(goldenForm()));
    const p = page.page;
    await fillAndSend(page, 'billing-api');
    const submit = await page.waitForPosted((m) => m['type'] === 'submit');
    const submitId = String(submit['submitId']);
    await page.post({ type: 'outcome', submitId, phase: 'awaiting-ack', message: 'Not sent: your earlier answer is still waiting for claude-code to acknowledge it.' });
    await p.waitForFunction(() => document.getElementById('outcome')?.textContent?.startsWith('Not sent'));
    assert.equal(await p.locator('#retry').isVisible(), false, 'waiting alone offers no Send again');
    await page.post({ type: 'outcome', submitId, phase: 'awaiting-ack', message: 'Not sent: still waiting; Send Again.', canRetry: true });
    await p.locator('#retry').waitFor({ state: 'visible' });
    assert.equal(await p.locator('#send').evaluate((b) => (b as HTMLElement & { disabled: boolean }).disabled), true, 'no new answer while one is in flight');
    await p.locator('#retry').click();
    const retry = await page.waitForPosted((m) => m['type'] === 'retry');
    assert.equal(retry['submitId'], submitId);
    assert.equal((await submits(page)).length, 1, 'Send again is not a new answer');
  });

  test('a request resolved elsewhere turns read-only and says so', async () => {
    const page = await open(viewOf(goldenForm()));
    const p = page.page;
    await p.keyboard.type('half-typed');
    await page.post({ type: 'update', status: 'resolved', resolution: 'answered', reachability: reachable, now: Date.now() });
    await p.waitForFunction(() => document.getElementById('status')?.dataset['status'] === 'answered-elsewhere');
    assert.match(await p.locator('#status').innerText(), /Answered elsewhere/);
    assert.equal(await p.locator('#send').evaluate((b) => (b as HTMLElement & { disabled: boolean }).disabled), true);
    assert.equal(await p.locator('.summary').count(), 0, 'no summary of an answer this page did not send');
    await p.keyboard.press('Enter');
    assert.equal((await submits(page)).length, 0);
  });
});
