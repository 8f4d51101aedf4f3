// An OS notification's words (src/words/osNotice.ts): read outside the
// window, so they name who asks, mark a synthesized prompt, and carry the
// prompt only when the §9.4 pipeline would send it unchanged.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { credentialIn } from '../../src/aep/credentials';
import { redactText, type RedactionOptions } from '../../src/aep/redaction';
import { Inbox } from '../../src/inbox/inbox';
import type { AttentionItem } from '../../src/inbox/attentionItem';
import { osMoreText, osNoticeText, wantsOsNotice } from '../../src/words/osNotice';
import type { PageBeforeAsking } from '../../src/shared/beforeAsking';
import { emitterEvents } from '../support/events';

const TOKEN = 'ghp_' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8';
/** As the host passes it: the user's home and always-secret values (none here). */
const PIPELINE: RedactionOptions = { home: '/home/op', secretValues: [] };

function requests(prompts: string[], capture: 'full' | 'redacted' | 'metadata' = 'full', agent = 'claude'): Array<Readonly<AttentionItem>> {
  const inbox = new Inbox();
  const events = emitterEvents({ agent, session: 's1' });
  prompts.forEach((prompt, i) => inbox.apply(events.request(`r${i}`, i + 1, { kind: 'permission', prompt, options: [{ id: 'allow', label: 'Allow' }] }, { capture })));
  return inbox.open();
}

test('one request: the agent in the title, the prompt as the body', () => {
  assert.deepEqual(osNoticeText(requests(['Run npm test?']), undefined, PIPELINE), { title: 'claude is waiting for you', body: 'Run npm test?' });
});

test('with several hubs the title names the hub the agent asked through', () => {
  assert.equal(osNoticeText(requests(['Run npm test?']), 'staging hub', PIPELINE)?.title, 'claude via staging hub is waiting for you');
});

test('at capture metadata the synthesized prompt is marked as such', () => {
  const [item] = requests(['placeholder'], 'metadata');
  assert.ok(item?.request);
  const shown = osNoticeText([item], undefined, PIPELINE);
  assert.match(shown?.body ?? '', /\(synthesized, capture metadata\)$/);
});

test('a prompt the credential detector fires on never leaves the window: only who asks', () => {
  const prompt = `Use ${TOKEN} to push?`;
  assert.ok(credentialIn(prompt), 'precondition: the detector fires on this prompt');
  const shown = osNoticeText(requests([prompt]), undefined, PIPELINE);
  assert.deepEqual(shown, { title: 'claude is waiting for you', body: 'A request from claude' });
  assert.ok(!JSON.stringify(shown).includes('ghp_'));
});

test('a value the user lists as always secret never leaves the window either', () => {
  const prompt = 'Log in to staging with hunter2-staging?';
  assert.equal(credentialIn(prompt), undefined, 'precondition: the detector alone would let it through');
  assert.equal(osNoticeText(requests([prompt]), undefined, { ...PIPELINE, secretValues: ['hunter2-staging'] })?.body, 'A request from claude');
  assert.equal(osNoticeText(requests([prompt]), undefined, PIPELINE)?.body, prompt, 'not listed, the words are ordinary');
});

// Each is something the pipeline replaces in what is sent; the first three reached the lock screen when only the credential detector decided.
for (const prompt of [
  'Deploy with DB password: correcthorsebattery ?',
  'Use token=abcdefgh to continue',
  'Send the invoice to alice@example.com, card 4111 1111 1111 1111',
  'Call me on +44 7700 900123 first?',
  'Delete /home/op/projects/payroll?',
]) {
  test(`a prompt the pipeline would change shows only who asks: ${prompt}`, () => {
    assert.notEqual(redactText(prompt, PIPELINE).text, prompt, 'precondition: the pipeline changes it');
    const shown = osNoticeText(requests([prompt]), undefined, PIPELINE);
    assert.deepEqual(shown, { title: 'claude is waiting for you', body: 'A request from claude' });
  });
}

// The pipeline's floor replaces `password: x` and `token=x`, not prose: the notification is stricter.
for (const prompt of ['The DB password is correcthorsebattery, deploy?', 'Log in with passphrase open-sesame?', 'Use token abcdefgh1234 to continue', 'Enter the one-time code 482913?', 'Your PIN 4821 for the card?']) {
  test(`a prompt that speaks of a secret in prose shows only who asks: ${prompt}`, () => {
    assert.equal(redactText(prompt, PIPELINE).text, prompt, 'precondition: the pipeline leaves it');
    assert.equal(osNoticeText(requests([prompt]), undefined, PIPELINE)?.body, 'A request from claude');
  });
}

test('ordinary words that merely contain a short secret word are shown', () => {
  for (const prompt of ['Keep spinning up the workers?', 'Run the optimizer?']) assert.equal(osNoticeText(requests([prompt]), undefined, PIPELINE)?.body, prompt);
});

// What reached the lock screen after the first fix: short words for a secret with a value after them, a
// password with no name beside it, the word in other languages, and the word spelt with look-alike letters.
const WITHHELD = [
  'Use pwd hunter2',
  'admin / Tr0ub4dor&3',
  'key hunter2',
  'Connect with mot de passe lapin42?',
  'Login mit Passwort sommer24?',
  'Entrar con la contraseña gato123?',
  'Usar a senha gato123?',
  'Inloggen met wachtwoord fiets99?',
  'パスワード sakura77 でログインしますか？',
  'Войти с пароль zima2024?',
  '使用密码 longma88 登录？',
  'Use ｐａｓｓｗｏｒｄ hunter2',
  'Use раѕѕwоrd hunter2',
  'Use tоkеn abcd1234 to continue',
  'Use ＴＯＫＥＮ abcd1234 to continue',
  'Use pass\u200bword hunter2',
  // A user and a password as a pair, short names with a value after them, more words for one (also typed
  // without their marks), and a one-time code given by its number.
  'curl -u admin:hunter2 https://x',
  'Log in with admin/hunter2?',
  'Login: admin Pass hunter2',
  'Use pw hunter2',
  'mdp: lapin42',
  'clave: gato123',
  'sifre: kedi123',
  'lozinka: macka123',
  'geheimnis hunter2',
  'Enter code 481516 to confirm',
  'Sign in as admin:hunter2?',
  'Mật khẩu meo123?',
  'Mat khau meo123?',
  'Jelszo: macska12?',
];
for (const prompt of WITHHELD) {
  test(`withheld from the lock screen: ${JSON.stringify(prompt)}`, () => {
    assert.deepEqual(osNoticeText(requests([prompt]), undefined, PIPELINE), { title: 'claude is waiting for you', body: 'A request from claude' });
  });
}

// Ordinary prompts that share a word with the rule, and how the rule tells them apart.
for (const prompt of [
  'Run npm test?', 'Allow edit to src/key.ts?', 'Run pwd?', 'Press any key to continue', 'Upgrade to node20 and v1.2.3?', 'Open README.md in src/Main2.ts?', 'Review the resenha doc?',
  'Pass the tests?', 'Use port 8080?', 'Open src/login/admin.ts?', 'Push to origin/main?', 'Log in to github.com/acme?', 'Sign in with https://github.com?',
  'Connect to localhost:8080?', 'Fix the exit code 137?', 'Solve the MDP exactly?', 'Git push -u origin main?', 'Use the keyboard shortcut?',
]) {
  test(`an ordinary prompt is shown: ${JSON.stringify(prompt)}`, () => {
    assert.equal(osNoticeText(requests([prompt]), undefined, PIPELINE)?.body, prompt);
  });
}

test('an agent name that holds a token is not in the title or the body; a neutral name still says an agent asked', () => {
  const shown = osNoticeText(requests(['Run npm test?'], 'full', 'deploy (token=abcdefgh1234)'), undefined, PIPELINE);
  assert.deepEqual(shown, { title: 'an agent (name withheld) is waiting for you', body: 'Run npm test?' });
  const withheld = osNoticeText(requests(['Use pwd hunter2'], 'full', 'deploy (token=abcdefgh1234)'), undefined, PIPELINE);
  assert.equal(withheld?.body, 'A request from an agent (name withheld)');
  const burst = osNoticeText(requests(['Run npm test?', 'Lint?'], 'full', 'bot пароль zima2024'), undefined, PIPELINE);
  assert.deepEqual(burst, { title: 'an agent (name withheld) is waiting for you', body: '2 requests from an agent (name withheld)' });
  const more = osMoreText([requests(['Lint?'], 'full', 'ops key: abcd1234')], PIPELINE);
  assert.deepEqual(more, { title: '1 more requests are waiting for you', body: 'Newest, from an agent (name withheld): Lint?' });
  for (const text of [shown, withheld, burst, more].map((t) => JSON.stringify(t))) assert.doesNotMatch(text, /abcdefgh|zima|abcd1234/);
});

test('a hub name that holds a secret is replaced too; an ordinary one is kept', () => {
  assert.equal(osNoticeText(requests(['Run npm test?']), 'proxy (token=abcdefgh1234)', PIPELINE)?.title, 'claude via a hub (name withheld) is waiting for you');
  assert.equal(osNoticeText(requests(['Run npm test?']), '127.0.0.1:8787', PIPELINE)?.title, 'claude via 127.0.0.1:8787 is waiting for you');
});

test('the user\'s own home is withheld wherever it is', () => {
  const prompt = 'Clean /srv/op-home/cache?';
  assert.equal(osNoticeText(requests([prompt]), undefined, PIPELINE)?.body, prompt);
  assert.equal(osNoticeText(requests([prompt]), undefined, { ...PIPELINE, home: '/srv/op-home' })?.body, 'A request from claude');
});

test('PII is withheld even when the options given would leave it (as the stores\' masking does)', () => {
  const prompt = 'Email alice@example.com the report?';
  assert.equal(osNoticeText(requests([prompt]), undefined, { pii: false })?.body, 'A request from claude');
});

test('a burst of one agent is counted, and no prompt of it is shown', () => {
  const shown = osNoticeText(requests(['Run npm test?', `Use ${TOKEN}?`, 'Deploy?']), undefined, PIPELINE);
  assert.deepEqual(shown, { title: 'claude is waiting for you', body: '3 requests from claude' });
  assert.equal(osNoticeText([], undefined, PIPELINE), undefined);
});

test('the requests held past the minute\'s budget: how many, and the newest with its prompt when the pipeline allows', () => {
  const flood = ['Run npm test?', 'Deploy?', 'Lint?'].map((prompt, i) => requests([prompt], 'full', `flood-${i}`));
  const newest = requests(['Publish the release?'], 'full', 'claude-code');
  assert.deepEqual(osMoreText([...flood, newest], PIPELINE), { title: '4 more requests are waiting for you', body: 'Newest, from claude-code: Publish the release?' });
  const secret = requests(['Use token=abcdefgh to continue'], 'full', 'claude-code');
  assert.deepEqual(osMoreText([...flood, secret], PIPELINE), { title: '4 more requests are waiting for you', body: 'The newest is from claude-code' });
  assert.equal(osMoreText([], PIPELINE), undefined);
});

test('hostile text comes out one plain line within the caps', () => {
  const hostile = `$(alert) [Click](https://evil.example) ${'x'.repeat(300)}\nSecond line\u202e`;
  const shown = osNoticeText(requests([hostile], 'full', `agent-${'y'.repeat(80)}`), 'hub\nB', PIPELINE);
  assert.ok(shown);
  assert.ok(shown.title.length <= 64 && shown.body.length <= 200, `${shown.title.length} / ${shown.body.length}`);
  for (const text of [shown.title, shown.body]) {
    assert.doesNotMatch(text, /[\n\r\u202e]/);
    assert.doesNotMatch(text, /\$\(alert\)/);
  }
});

test('a long agent or hub name is cut, never our words: the title always ends with them whole', () => {
  const agent = 'Visual Studio Code: your session expired. Click to sign in again';
  const alone = osNoticeText(requests(['Run npm test?'], 'full', agent), undefined, PIPELINE)?.title ?? '';
  assert.ok(alone.length <= 64, alone);
  assert.ok(alone.endsWith('… is waiting for you'), alone);
  assert.ok(alone.startsWith('Visual Studio Code'), alone);
  const viaHub = osNoticeText(requests(['Run npm test?'], 'full', agent), `hub-${'h'.repeat(70)}`, PIPELINE)?.title ?? '';
  assert.ok(viaHub.length <= 64, viaHub);
  assert.match(viaHub, /^Visual Studio Code.*… via hub-h+… is waiting for you$/u);
  // A short name is not cut, and our neutral name beside a withheld hub stays whole.
  assert.equal(osNoticeText(requests(['Run npm test?'], 'full', 'claude-code'), `hub-${'h'.repeat(70)}`, PIPELINE)?.title, `claude-code via hub-${'h'.repeat(11)}… is waiting for you`);
  assert.equal(osNoticeText(requests(['Run npm test?'], 'full', agent), 'proxy (token=abcdefgh1234)', PIPELINE)?.title.endsWith(' via a hub (name withheld) is waiting for you'), true);
});

test('when an OS notification is wanted', () => {
  assert.equal(wantsOsNotice('whenUnfocused', false), true);
  assert.equal(wantsOsNotice('whenUnfocused', true), false);
  assert.equal(wantsOsNotice('always', true), true);
  assert.equal(wantsOsNotice('off', false), false);
});

/** "Before asking" whose last action is tool `name`, failed two minutes before NOW. */
const NOW = 1_000_000_000;
function failedBefore(name: string): PageBeforeAsking {
  return { actions: [{ kind: 'tool', name, at: NOW - 120_000, capture: 'metadata', args: { shown: 'level' }, outcome: { state: 'failed' } }], earlier: 'complete' };
}

test('"Before asking": a lone request\'s notification ends with the last action, as the toast\'s line does; never for a burst, never past the cap, never what may not be shown in public', () => {
  const before = failedBefore('Bash');
  const after = 'after: "Bash" failed · 2 min ago';
  assert.deepEqual(osNoticeText(requests(['Run npm test?']), undefined, PIPELINE, before, NOW), { title: 'claude is waiting for you', body: `Run npm test? · ${after}` });
  // Whose prompt is withheld still gets it: the line is checked on its own.
  assert.equal(osNoticeText(requests([`Use ${TOKEN} to push?`]), undefined, PIPELINE, before, NOW)?.body, `A request from claude · ${after}`);
  assert.equal(osNoticeText(requests(['Run npm test?', 'Run npm publish?']), undefined, PIPELINE, before, NOW)?.body, '2 requests from claude');
  // The request's own words are never cut for it: too long together, the prompt alone.
  const long = `Run ${'x'.repeat(180)}?`;
  assert.equal(osNoticeText(requests([long]), undefined, PIPELINE, before, NOW)?.body, long);
  // A tool name the public rule stops (a credential, an always-secret value) keeps the whole line off the lock screen.
  for (const [name, options] of [[TOKEN, PIPELINE], ['hunter2-staging', { ...PIPELINE, secretValues: ['hunter2-staging'] }]] as const) {
    const shown = osNoticeText(requests(['Run npm test?']), undefined, options, failedBefore(name), NOW);
    assert.equal(shown?.body, 'Run npm test?');
  }
  assert.equal(osNoticeText(requests(['Run npm test?']), undefined, PIPELINE, undefined, NOW)?.body, 'Run npm test?');
  assert.equal(osNoticeText(requests(['Run npm test?']), undefined, PIPELINE, { actions: [], earlier: 'not-available' }, NOW)?.body, 'Run npm test?');
});

test('"Before asking" on a lock screen: the tool\'s whole name is checked, not only its start in the line, which would show part of a secret it cut', () => {
  const secret = 'zorblax9931quux';
  const options = { ...PIPELINE, secretValues: [secret] };
  // Cut to 32 in the line, the always-secret value is no longer whole ("…-zorbl…"), and its start would show.
  const pastTheCut = `${'a'.repeat(25)}-${secret}`;
  // The line's cut leaves a token's first characters ("ghp_A1b2…"), no longer a token by its pattern.
  const tokenCut = `${'a'.repeat(22)} ${TOKEN}`;
  for (const [name, redaction] of [[pastTheCut, options], [tokenCut, PIPELINE]] as const) {
    const shown = osNoticeText(requests(['Run npm test?']), undefined, redaction, failedBefore(name), NOW);
    assert.equal(shown?.body, 'Run npm test?', name);
  }
  // The same names with nothing to hide behind the cut are shown, cut.
  const plain = osNoticeText(requests(['Run npm test?']), undefined, PIPELINE, failedBefore('a'.repeat(40)), NOW)?.body ?? '';
  assert.match(plain, /^Run npm test\? · after: "a+…" failed · 2 min ago$/);
});
