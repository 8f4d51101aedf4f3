// Honest capture on the real request page (headless Chromium, the test
// playing the host): before an answer leaves, the page runs the AEP-0003 §9.4
// pipeline over its free text. Unchanged text goes at once (and is
// `redacted`: it passed); text the pipeline would change shows exactly what
// would be replaced, and goes redacted or, if the user says so, as typed
// (`verbatim`, capture `full`). Authentication requests and fields asking for
// a secret are always confirmed. The capture each sent answer gets is checked
// with the host's own rule (commandCapture), on the answer the page posted.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseAttentionRequest, type Answer, type FieldSpec } from '../../src/aep/attention';
import { commandCapture } from '../../src/aep/capture';
import type { AepEvent } from '../../src/aep/envelope';
import type { PageRequest } from '../../src/shared/webviewMessages';
import { goldenForm, requestEvent, viewOf } from '../support/pageRequests';
import { requestPages, type WebviewPage } from '../support/webviewHarness';
import { chromiumSuite } from '../support/harness';

const GITHUB = 'ghp_AbCdEfGhIjKlMnOpQrStUvWxYz012345';
const HOME = '/home/tester';

function fieldsOf(event: AepEvent): FieldSpec[] {
  const parsed = parseAttentionRequest(event);
  if (!parsed.ok) assert.fail(parsed.problem.message);
  return parsed.value.fields;
}

/** The capture the host would declare for what the page posted (the host re-runs the same pipeline with the same home). */
function hostCapture(submit: Record<string, unknown>, fields: readonly FieldSpec[]): string {
  const decision = commandCapture(submit['answer'] as Answer, fields, { verbatim: submit['verbatim'] === true, redaction: { home: HOME } });
  return decision.ok ? decision.capture : 'refused';
}

const question = (kind: string) => requestEvent({ kind, prompt: 'Which token should the deploy use?' });
const withHome = (view: PageRequest): PageRequest => ({ ...view, home: HOME });

describe('request page: the redaction pipeline before sending', chromiumSuite(), () => {
  const { open } = requestPages();
  const submits = async (page: WebviewPage) => (await page.posted()).filter((m) => m['type'] === 'submit');
  const reply = async (page: WebviewPage, text: string) => {
    await page.page.locator('#reply').click();
    await page.page.keyboard.type(text);
    await page.page.locator('#send').click();
  };

  test('text the pipeline leaves unchanged is sent at once, and declares redacted', async () => {
    const event = goldenForm();
    const page = await open(withHome(viewOf(event)));
    await page.page.keyboard.type('billing-api');
    await page.page.keyboard.press('Enter');
    const submit = await page.waitForPosted((m) => m['type'] === 'submit');
    assert.equal(await page.page.locator('.confirm').count(), 0, 'nothing to confirm');
    assert.equal(submit['verbatim'], undefined);
    assert.equal(hostCapture(submit, fieldsOf(event)), 'redacted');
  });

  test('a value the user lists as always secret (rule b): the page replaces it as the host will, and what it sends declares redacted', async () => {
    const event = question('input');
    const page = await open({ ...withHome(viewOf(event)), secretValues: ['plainword'] });
    const p = page.page;
    await reply(page, 'the db one is plainword');
    await p.locator('.confirm').waitFor({ state: 'visible' });
    const rows = await p.locator('#confirm-replacements li').allInnerTexts();
    assert.deepEqual(rows, ['Reply: plainword → [REDACTED:secret] (configured secret)']);
    await p.locator('#confirm-redacted').click();
    const submit = await page.waitForPosted((m) => m['type'] === 'submit');
    assert.deepEqual(submit['answer'], { text: 'the db one is [REDACTED:secret]' });
    const decision = commandCapture(submit['answer'] as Answer, [], { redaction: { home: HOME, secretValues: ['plainword'] } });
    assert.deepEqual(decision, { ok: true, capture: 'redacted' });
  });

  test('a GitHub token: the page lists what would be replaced; Send redacted sends the redacted text at redacted, and the summary shows it', async () => {
    const event = question('input');
    const page = await open(withHome(viewOf(event)));
    const p = page.page;
    await reply(page, `deploy with ${GITHUB} from ${HOME}/app`);
    await p.locator('.confirm').waitFor({ state: 'visible' });
    assert.match(await p.locator('#confirm-text').innerText(), /looks like it contains a credential \(GitHub token\)/);
    const rows = await p.locator('#confirm-replacements li').allInnerTexts();
    assert.deepEqual(rows, [`Reply: ${GITHUB} → [REDACTED:secret] (GitHub token)`, `Reply: ${HOME} → ~`]);
    assert.match(await p.locator('#confirm-verbatim-note').innerText(), /kept verbatim in the agent's session history/);
    assert.equal((await submits(page)).length, 0, 'nothing sent before the user decides');
    assert.equal(await p.evaluate(() => document.activeElement?.id), 'confirm-redacted');
    await p.keyboard.press('Enter');
    const submit = await page.waitForPosted((m) => m['type'] === 'submit');
    assert.deepEqual(submit['answer'], { text: 'deploy with [REDACTED:secret] from ~/app' });
    assert.equal(submit['verbatim'], undefined);
    assert.equal(hostCapture(submit, []), 'redacted');
    await page.post({ type: 'outcome', submitId: String(submit['submitId']), phase: 'accepted', message: 'claude-code accepted the answer.' });
    await page.post({ type: 'update', status: 'resolved', resolution: 'answered', reachability: { state: 'reachable' }, now: Date.now() });
    const summary = await p.locator('.summary').innerText();
    assert.match(summary, /Reply\s+deploy with \[REDACTED:secret\] from ~\/app/, 'the summary shows what was actually sent');
    assert.ok(!summary.includes(GITHUB));
  });

  test('Send as typed sends the text verbatim, marked verbatim: the host declares full', async () => {
    const event = question('input');
    const page = await open(withHome(viewOf(event)));
    await reply(page, `use ${GITHUB}`);
    await page.page.locator('#confirm-verbatim').click();
    const submit = await page.waitForPosted((m) => m['type'] === 'submit');
    assert.deepEqual(submit['answer'], { text: `use ${GITHUB}` });
    assert.equal(submit['verbatim'], true);
    assert.equal(hostCapture(submit, []), 'full');
    // Without the choice, the host refuses it: the page cannot get `redacted` for it by leaving `verbatim` out.
    assert.equal(hostCapture({ ...submit, verbatim: undefined }, []), 'refused');
  });

  test('editing the answer withdraws a confirmation that lists what it held before', async () => {
    const page = await open(withHome(viewOf(question('input'))));
    const p = page.page;
    await reply(page, `use ${GITHUB}`);
    await p.locator('.confirm').waitFor({ state: 'visible' });
    await p.locator('#reply').click();
    await p.keyboard.type(' now');
    await p.locator('.confirm').waitFor({ state: 'detached' });
    assert.equal((await submits(page)).length, 0);
  });

  test('an auth request always confirms, even when the pipeline changes nothing; the text then goes at redacted', async () => {
    const event = question('auth');
    const page = await open(withHome(viewOf(event)));
    const p = page.page;
    await reply(page, 'hunter2');
    await p.locator('.confirm').waitFor({ state: 'visible' });
    assert.match(await p.locator('#confirm-text').innerText(), /authentication request.*finds nothing to replace/s);
    assert.equal(await p.locator('#confirm-replacements').count(), 0);
    assert.equal(await p.evaluate(() => document.activeElement?.id), 'confirm-edit');
    assert.equal((await submits(page)).length, 0);
    await p.locator('#confirm-send').click();
    const submit = await page.waitForPosted((m) => m['type'] === 'submit');
    assert.deepEqual(submit['answer'], { text: 'hunter2' });
    assert.equal(hostCapture(submit, []), 'redacted');
  });

  test('a field whose label asks for a secret is confirmed; a field id named like a credential has its value replaced whole', async () => {
    const event = requestEvent({
      kind: 'form', prompt: 'Credentials for the deploy',
      fields: [{ id: 'deploy', type: 'string', label: 'Deploy token', required: true }, { id: 'db_password', type: 'string', label: 'Database' }],
    });
    const fields = fieldsOf(event);
    const page = await open(withHome(viewOf(event)));
    const p = page.page;
    await p.keyboard.type('plain');
    await p.keyboard.press('Enter');
    await p.locator('.confirm').waitFor({ state: 'visible' });
    assert.match(await p.locator('#confirm-text').innerText(), /The field "Deploy token" asks for a secret/);
    await p.locator('#confirm-edit').click();
    await p.locator('#field-1').click();
    await p.keyboard.type('hunter2');
    await p.keyboard.press('Enter');
    await p.locator('#confirm-replacements').waitFor({ state: 'visible' });
    assert.deepEqual(await p.locator('#confirm-replacements li').allInnerTexts(), ['Database: hunter2 → [REDACTED:secret] (field named like a credential)']);
    assert.match(await p.locator('.confirm').innerText(), /The field "Deploy token" asks for a secret/);
    await p.locator('#confirm-redacted').click();
    const submit = await page.waitForPosted((m) => m['type'] === 'submit');
    assert.deepEqual(submit['answer'], { values: { deploy: 'plain', db_password: '[REDACTED:secret]' } });
    assert.equal(hostCapture(submit, fields), 'redacted');
  });

  test('what would be replaced is shown as text, never markup', async () => {
    const page = await open(withHome(viewOf(question('input'))));
    const p = page.page;
    const typed = 'password=<b>hunter2</b><img/src=x/onerror=alert(1)>';
    await reply(page, typed);
    await p.locator('#confirm-replacements').waitFor({ state: 'visible' });
    assert.deepEqual(await p.locator('#confirm-replacements li').allInnerTexts(), ['Reply: <b>hunter2</b><img/src=x/onerror=alert(1)> → [REDACTED:secret] (password assignment)']);
    assert.equal(await p.locator('.confirm img').count(), 0);
  });

  test('the credential kind is said in the display language', async () => {
    const view = withHome(viewOf(question('input')));
    const page = await open(view);
    await page.post({ type: 'init', request: view, now: Date.now(), l10n: { 'GitHub token': 'GitHub-Token', 'Send redacted': 'Geschwärzt senden' } });
    await reply(page, GITHUB);
    await page.page.locator('.confirm').waitFor({ state: 'visible' });
    assert.match(await page.page.locator('#confirm-text').innerText(), /\(GitHub-Token\)/);
    assert.equal(await page.page.locator('#confirm-redacted').innerText(), 'Geschwärzt senden');
  });
});
