// What asks for a secret on the real request page (headless Chromium, the
// test playing the host): drawn as dots, as the quick input hides it, by the
// core's one rule (src/aep/secretAsking.ts, which the quick input's plan also
// asks); never kept with `setState`, which VS Code keeps on disk across a
// reload; and once an answer went out redacted, the page shows what went
// out, not the text as typed.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseAttentionRequest } from '../../src/aep/attention';
import { inlinePlan } from '../../src/answer/inlinePlan';
import type { PageRequest } from '../../src/shared/webviewMessages';
import { requestEvent, viewOf } from '../support/pageRequests';
import { requestPages, type WebviewPage } from '../support/webviewHarness';
import { chromiumSuite } from '../support/harness';
import { PAGE_READ_EVERY_MS, waitForValue } from '../support/waitUntil';

const CODE = '829144';
const PASSWORD = 'Correct-Horse-9';
const SSO = 'sso-Hunter-77';
const GITHUB = 'ghp_AbCdEfGhIjKlMnOpQrStUvWxYz012345';

const signIn = () =>
  requestEvent({
    kind: 'form', prompt: 'Sign in to the deploy',
    fields: [
      { id: 'user', type: 'string', label: 'User name', required: true },
      { id: 'code', type: 'string', label: 'One-time code', required: true },
      { id: 'db_password', type: 'string', label: 'Database' },
    ],
  });

/** How each control draws what is typed: the `type` of the input inside the toolkit's element. */
function inputTypes(page: WebviewPage, ids: readonly string[]): Promise<Record<string, string | undefined>> {
  return page.page.evaluate((list) => {
    const out: Record<string, string | undefined> = {};
    for (const id of list) {
      const host = document.getElementById(id);
      const inner = host?.shadowRoot?.querySelector('input, textarea');
      out[id] = inner instanceof HTMLInputElement ? inner.type : inner ? 'textarea' : undefined;
    }
    return out;
  }, ids);
}

/** Everything the page ever saved with `setState`, as one text. */
async function savedText(page: WebviewPage): Promise<string> {
  return JSON.stringify(await page.states());
}

async function typeInto(page: WebviewPage, id: string, text: string): Promise<void> {
  await page.page.locator(`#${id}`).click();
  await page.page.keyboard.type(text);
}

describe('request page: what asks for a secret', chromiumSuite(), () => {
  const { open } = requestPages();

  test('a secret-asking field is drawn as dots, as the quick input hides it, by the same rule; an auth reply too; other text is plain', async () => {
    const event = signIn();
    const parsed = parseAttentionRequest(event);
    assert.ok(parsed.ok);
    const plan = inlinePlan(parsed.value);
    assert.ok(plan);
    const quickInput = plan.steps.map((step) => (step.kind === 'field' ? step.secret : undefined));
    assert.deepEqual(quickInput, [false, true, true], 'the quick input hides the code and the password');

    const page = await open(viewOf(event));
    const types = await inputTypes(page, ['field-0', 'field-1', 'field-2']);
    assert.deepEqual(types, { 'field-0': 'text', 'field-1': 'password', 'field-2': 'password' }, 'the page draws the same fields as dots');

    const auth = await open(viewOf(requestEvent({ kind: 'auth', prompt: 'SSO password for deploy@corp' })));
    assert.deepEqual(await inputTypes(auth, ['reply']), { reply: 'password' });
    const input = await open(viewOf(requestEvent({ kind: 'input', prompt: 'Which branch?' })));
    assert.deepEqual(await inputTypes(input, ['reply']), { reply: 'textarea' }, 'a reply that is not for an auth request stays a text area');
  });

  test('what is typed for a secret-asking field or an auth reply is never saved with setState; the rest is', async () => {
    const view = viewOf(signIn());
    const page = await open(view);
    await typeInto(page, 'field-0', 'alice');
    await typeInto(page, 'field-1', CODE);
    await typeInto(page, 'field-2', PASSWORD);
    await typeInto(page, 'field-0', 'x');
    const states = await page.states();
    assert.deepEqual(states.at(-1), { key: view.key, fields: { user: { value: 'alicex' } } }, 'the name is kept, to come back after a reload');
    const saved = await savedText(page);
    assert.ok(!saved.includes(CODE) && !saved.includes(PASSWORD), `no secret saved: ${saved}`);

    const auth = await open(viewOf(requestEvent({ kind: 'auth', prompt: 'SSO password for deploy@corp' })));
    await typeInto(auth, 'reply', SSO);
    await auth.page.waitForFunction(() => ((document.getElementById('reply') as HTMLElement & { value: string } | null)?.value ?? '').length === 13);
    assert.ok((await auth.states()).length > 0, 'the page does save its state');
    assert.ok(!(await savedText(auth)).includes(SSO), 'the auth reply is not saved');
  });

  test('a draft handed over by the quick input, and one an older version saved, show their secret but never save it', async () => {
    const view = viewOf(signIn());
    const draft = { fields: { user: { value: 'alice' }, code: { value: CODE } } };
    const handed = await open(view);
    await handed.post({ type: 'init', request: view, now: Date.now(), draft });
    await handed.page.waitForFunction((code) => (document.getElementById('field-1') as HTMLElement & { value: string } | null)?.value === code, CODE);
    assert.deepEqual((await handed.states()).at(-1), { key: view.key, fields: { user: { value: 'alice' } } });
    assert.ok(!(await savedText(handed)).includes(CODE));

    // Reloaded from a state the last version saved, the code in it: shown once, and the state saved again without it.
    const reloaded = await open(view, { state: { key: view.key, ...draft } });
    assert.equal(await reloaded.page.evaluate(() => (document.getElementById('field-1') as HTMLElement & { value: string } | null)?.value), CODE);
    assert.deepEqual((await reloaded.states()).at(-1), { key: view.key, fields: { user: { value: 'alice' } } });
  });

  test('once the request is over, a page whose answer went out redacted shows what was sent, not the text as typed, and kept no copy of it', async () => {
    const view: PageRequest = viewOf(requestEvent({ kind: 'input', prompt: 'Which token should the deploy use?' }));
    const page = await open(view);
    const p = page.page;
    await typeInto(page, 'reply', `deploy with ${GITHUB}`);
    await p.locator('#send').click();
    await p.locator('#confirm-redacted').click();
    const first = await page.waitForPosted((m) => m['type'] === 'submit');
    assert.deepEqual(first['answer'], { text: 'deploy with [REDACTED:secret]' });
    // Refused while the request stays open: the box keeps what was typed, to edit or to send as typed.
    await page.post({ type: 'outcome', submitId: String(first['submitId']), phase: 'rejected', message: 'claude-code refused the answer (busy).' });
    await p.locator('#outcome', { hasText: 'refused' }).waitFor();
    assert.equal(await p.evaluate(() => (document.getElementById('reply') as HTMLElement & { value: string }).value), `deploy with ${GITHUB}`);
    await p.locator('#send').click();
    await p.locator('#confirm-redacted').click();
    const submit = await page.waitForPosted((m) => m['type'] === 'submit' && m['submitId'] !== first['submitId']);
    assert.deepEqual(submit['answer'], { text: 'deploy with [REDACTED:secret]' });
    await page.post({ type: 'outcome', submitId: String(submit['submitId']), phase: 'accepted', message: 'claude-code accepted the answer.' });
    await page.post({ type: 'update', status: 'resolved', resolution: 'answered', reachability: { state: 'reachable' }, now: Date.now() });
    await p.locator('.summary').waitFor({ state: 'visible' });
    const shown = await p.evaluate(() => {
      const reply = document.getElementById('reply') as HTMLElement & { value: string; disabled: boolean };
      return { value: reply.value, disabled: reply.disabled, text: document.body.innerText };
    });
    assert.equal(shown.disabled, true);
    assert.equal(shown.value, 'deploy with [REDACTED:secret]', 'the disabled box holds what was sent');
    assert.ok(!shown.text.includes(GITHUB));
    assert.ok(!(await savedText(page)).includes(GITHUB), 'no state saved on the way held the token as typed');
  });

  test("values the host learns after the page loaded (a hub's token read once the page was restored) mask the draft kept on disk", async () => {
    const TOKEN = 'hub-token-Kx9mPq2vLr7tNw4z';
    const page = await open(viewOf(requestEvent({ kind: 'input', prompt: 'Which token does the deploy use?' })));
    await typeInto(page, 'reply', `sure, it is ${TOKEN}`);
    await waitForValue(() => savedText(page), (text) => text.includes(TOKEN), 'the draft kept as typed while no value masks it', { everyMs: PAGE_READ_EVERY_MS });
    const before = (await page.states()).length;
    await page.post({ type: 'update', status: 'pending', reachability: { state: 'reachable' }, now: Date.now(), secretValues: [TOKEN] });
    const states = await waitForValue(() => page.states(), (all) => all.length > before, 'the draft kept again once the values came', { everyMs: PAGE_READ_EVERY_MS });
    const last = JSON.stringify(states.at(-1));
    assert.ok(!last.includes(TOKEN), `the draft VS Code keeps on disk holds the token: ${last}`);
    assert.ok(last.includes('[REDACTED:secret]'), last);
  });
});
