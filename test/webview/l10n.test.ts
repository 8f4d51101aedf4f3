// The request page in the user's language: the host hands the page its loaded
// bundle (`vscode.l10n.bundle`, keyed by the English message) in `init`, and
// every string of the page comes from it, English where it has no entry. A
// translation is text like agent text: markup in it is shown, never parsed.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { getL10nPseudoLocalized, type l10nJsonFormat } from '@vscode/l10n-dev';
import { repoRoot } from '../support/fixtures';
import { hostToWebviewSchema, type PageRequest } from '../../src/shared/webviewMessages';
import { goldenForm, viewOf } from '../support/pageRequests';
import { requestPages, type WebviewPage } from '../support/webviewHarness';
import { chromiumSuite } from '../support/harness';

const GERMAN: Record<string, string> = {
  'Send answer': 'Antwort senden',
  Agent: 'Agent:in',
  'Pick any.': 'Beliebig wählen.',
  'Asked by {0} · session {1} · {2}': 'Gefragt von {0} · Sitzung {1} · {2}',
  'The agent stopped waiting (timeout). Nothing more can be sent.': 'Der Agent wartet nicht mehr (Zeitüberschreitung). Es kann nichts mehr gesendet werden.',
  'timed out': 'abgelaufen',
  // The embedded <code> moves to the front: the sentence is translated whole, the element put back where the translation says.
  'The agent withheld its own words at capture {0}. This summary was synthesized from metadata:':
    '{0}: Bei dieser Erfassungsstufe hat der Agent seine eigenen Worte zurückgehalten. Diese Zusammenfassung stammt aus Metadaten:',
};

/** The golden form with its prompt withheld, as at capture metadata (a sentence embedding a `<code>`). */
function withheldPrompt(): PageRequest {
  return { ...viewOf(goldenForm()), capture: 'metadata', prompt: { text: 'A form with 4 fields', honesty: 'structural' } };
}

/**
 * Plays a host with a display language: `open` has rendered the page in
 * English; the host's `init` with a bundle renders it again, translated
 * (the page configures its strings on every `init`, before rendering).
 */
async function initWith(page: WebviewPage, request: PageRequest, l10n?: Record<string, string>): Promise<void> {
  await page.page.evaluate(() => document.querySelector('.request-header')?.setAttribute('data-stale', ''));
  await page.post({ type: 'init', request, now: Date.now(), ...(l10n ? { l10n } : {}) });
  await page.page.waitForSelector('.request-header:not([data-stale])');
}

const firstTerm = (page: WebviewPage) => page.page.locator('.provenance dt').first().innerText();

describe('request page: strings in the display language', chromiumSuite(), () => {
  const { open } = requestPages();

  test('the host\'s bundle translates the page; what it lacks stays English', async () => {
    const view = withheldPrompt();
    const page = await open(view);
    await initWith(page, view, GERMAN);
    const p = page.page;
    assert.equal(await p.locator('#send').innerText(), 'Antwort senden');
    assert.equal(await firstTerm(page), 'Agent:in');
    assert.equal(await p.locator('[data-field="regions"] .hint').innerText(), 'Beliebig wählen.');
    assert.match(await p.locator('.asked-by').innerText(), /^Gefragt von claude-code · Sitzung /, 'a placeholder filled with the agent\'s name');
    // Not in the bundle: English, unchanged.
    assert.equal(await p.locator('.provenance dt').nth(1).innerText(), 'Session');
    // The <code> is an element again, where the translation put it, and the sentence around it is text.
    const note = await p.locator('#prompt .note').evaluate((n) => Array.from(n.childNodes, (c) => [c.nodeName, c.textContent]));
    assert.deepEqual(note, [
      ['CODE', 'metadata'],
      ['#text', ': Bei dieser Erfassungsstufe hat der Agent seine eigenen Worte zurückgehalten. Diese Zusammenfassung stammt aus Metadaten:'],
    ]);
    await page.post({ type: 'update', status: 'timed-out', reachability: { state: 'reachable' }, now: Date.now() });
    await p.waitForFunction(() => document.getElementById('status')?.dataset['status'] === 'timed-out');
    assert.equal(await p.locator('#status').innerText(), 'Der Agent wartet nicht mehr (Zeitüberschreitung). Es kann nichts mehr gesendet werden.');
    assert.equal(await p.locator('#countdown').count(), 0, 'the golden form has no expiry');
  });

  test('the words of the countdown come from the bundle too', async () => {
    const view: PageRequest = { ...viewOf(goldenForm()), expiresAt: Date.now() + 120_000 };
    const page = await open(view);
    await initWith(page, view, { ...GERMAN, 'in {0}': 'noch {0}', '{0} min {1} s': '{0} Min. {1} Sek.' });
    const p = page.page;
    assert.match(await p.locator('#countdown').innerText(), /^noch (1 Min\. \d+ Sek\.|2 Min\. 0 Sek\.)$/);
    await page.post({ type: 'update', status: 'timed-out', reachability: { state: 'reachable' }, now: Date.now() });
    await p.waitForFunction(() => document.getElementById('countdown')?.textContent === 'abgelaufen');
  });

  test('the extension\'s own bundle, pseudo-translated, translates the page and its field problems', async () => {
    // What VS Code would hand over for a display language: the committed export, every message translated.
    const exported = JSON.parse(fs.readFileSync(path.join(repoRoot(), 'l10n', 'bundle.l10n.json'), 'utf8')) as l10nJsonFormat;
    const pseudo = Object.fromEntries(Object.entries(getL10nPseudoLocalized(exported)).map(([key, value]) => [key, typeof value === 'string' ? value : value.message]));
    const translated = (english: string) => {
      const text = pseudo[english];
      assert.ok(text !== undefined && text !== english, `${english} is in the bundle, translated`);
      return text;
    };
    const view = viewOf(goldenForm());
    const page = await open(view);
    await initWith(page, view, pseudo);
    const p = page.page;
    assert.equal(await p.locator('#send').innerText(), translated('Send answer'));
    assert.equal(await p.locator('[data-field="regions"] .hint').innerText(), translated('Pick any.'));
    // A field problem is a code from the core; the page words it from the same bundle.
    await p.locator('#send').click();
    const error = p.locator('#field-0-error');
    await error.waitFor({ state: 'visible' });
    assert.equal(await error.innerText(), translated('This field is required.'));
  });

  test('a sentence that embeds an element is in the extension\'s bundle, and translated whole around it', async () => {
    const exported = JSON.parse(fs.readFileSync(path.join(repoRoot(), 'l10n', 'bundle.l10n.json'), 'utf8')) as l10nJsonFormat;
    const pseudo = Object.fromEntries(Object.entries(getL10nPseudoLocalized(exported)).map(([key, value]) => [key, typeof value === 'string' ? value : value.message]));
    const english = 'The agent withheld its own words at capture {0}. This summary was synthesized from metadata:';
    const text = pseudo[english];
    assert.ok(text !== undefined && text !== english, `${english} is in the bundle, translated`);
    const [before = '', after = ''] = text.split('{0}');
    const view = withheldPrompt();
    const page = await open(view);
    await initWith(page, view, pseudo);
    const note = await page.page.locator('#prompt .note').evaluate((n) => Array.from(n.childNodes, (c) => [c.nodeName, c.textContent]));
    assert.deepEqual(note, [...(before ? [['#text', before]] : []), ['CODE', 'metadata'], ...(after ? [['#text', after]] : [])]);
  });

  test('markup in a translation is shown as text, never parsed', async () => {
    const view = withheldPrompt();
    const page = await open(view);
    const img = '<img src=x onerror="window.__pwned=1">';
    await initWith(page, view, {
      'Send answer': `${img}Senden`,
      Agent: '<b>Agent</b>',
      'The agent withheld its own words at capture {0}. This summary was synthesized from metadata:': `${img} {0} <script>window.__pwned=2</script>`,
    });
    const p = page.page;
    assert.equal(await p.locator('#send').evaluate((b) => b.textContent), `${img}Senden`);
    assert.equal(await firstTerm(page), '<b>Agent</b>');
    const note = p.locator('#prompt .note');
    assert.equal(await note.evaluate((n) => n.textContent), `${img} metadata <script>window.__pwned=2</script>`);
    assert.deepEqual(await note.evaluate((n) => Array.from(n.querySelectorAll('*'), (e) => e.tagName)), ['CODE'], 'the one element is the <code>');
    assert.equal(await p.locator('img, b, script:not([nonce])').count(), 0, 'no element made from a translation');
    assert.equal(await p.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
  });

  test('without a bundle the page is in English, also after a translated init', async () => {
    const view = withheldPrompt();
    const page = await open(view);
    const english = async () => {
      assert.equal(await page.page.locator('#send').innerText(), 'Send answer');
      assert.equal(await firstTerm(page), 'Agent');
      assert.equal(await page.page.locator('[data-field="regions"] .hint').innerText(), 'Pick any.');
      assert.match(await page.page.locator('#prompt .note').innerText(), /^The agent withheld its own words at capture metadata\. This summary was synthesized from metadata:$/);
    };
    await english();
    await initWith(page, view, GERMAN);
    assert.equal(await page.page.locator('#send').innerText(), 'Antwort senden');
    await initWith(page, view);
    await english();
  });
});

describe('the init message carries the bundle', () => {
  const request = viewOf(goldenForm());

  test('a bundle of strings is kept; without one, init is as before', () => {
    const parsed = hostToWebviewSchema.parse({ type: 'init', request, now: 1, generation: 1, l10n: { 'Send answer': 'Antwort senden' } });
    assert.deepEqual(parsed.type === 'init' ? parsed.l10n : undefined, { 'Send answer': 'Antwort senden' });
    const plain = hostToWebviewSchema.parse({ type: 'init', request, now: 1, generation: 1 });
    assert.equal(plain.type === 'init' ? plain.l10n : 'not init', undefined);
  });

  test('a bundle with anything but strings is refused', () => {
    assert.equal(hostToWebviewSchema.safeParse({ type: 'init', request, now: 1, generation: 1, l10n: { 'Send answer': 1 } }).success, false);
    assert.equal(hostToWebviewSchema.safeParse({ type: 'init', request, now: 1, generation: 1, l10n: 'Antwort senden' }).success, false);
  });
});
