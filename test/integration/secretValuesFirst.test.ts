// A window whose always-secret values are slow to read (a desktop keychain):
// its hubs wait for them before reading a token or connecting, so nothing a
// hub sends reaches a surface, the log or the history before the values that
// mask it are known. Plain Node over a real hub on loopback.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { writeSecretValues } from '../../src/aep/alwaysSecret';
import { Emitter } from '../../src/base/emitter';
import { Hubs, type HubsOptions } from '../../src/app/hubs/hubs';
import { AlwaysSecretValues, type SecretValueStorage } from '../../src/app/hubs/alwaysSecretValues';
import { hubList } from '../../src/app/hubs/hubList';
import { tokenKeyOf, TokenStore } from '../../src/app/hubs/tokens';
import { SECRET_MARK } from '../../src/aep/redaction';
import type { Settings } from '../../src/ui/services/settings';
import { startHub } from '../peers/hub/hub';
import { freshSession } from '../support/events';
import { MemoryMemento } from '../support/memoryMemento';
import { RecordingLogger } from '../support/recordingLogger';
import { ScriptedTarget } from '../support/scriptedTarget';
import { waitUntil } from '../support/waitUntil';

const TOKEN = 'secret-values-first-token';
const SECRET = 'correct-horse-battery';

function settingsFor(hubUrl: string): Settings {
  const { hubs, problems } = hubList({
    named: [{ hubUrl, source: 'user', filter: undefined, captureCeiling: undefined }],
    list: undefined,
    defaults: { filter: undefined, captureCeiling: undefined },
  });
  const user = { notifications: 'all' as const, senderName: 'secret-values-test', allowInsecureRemote: false };
  return { hubs, hubListProblems: problems, ...user, user, notificationMinSeverity: 'info', closeFormWhenResolved: false, history: { maxEntries: 10, maxAgeDays: 1 }, osNotifications: 'whenUnfocused', sound: false, beforeAsking: true };
}

/** A window's Hubs; `tokenReads` counts how often a connection asked for its token. */
function openWindow(hubUrl: string, options: HubsOptions) {
  const settings = { value: settingsFor(hubUrl), onDidChange: new Emitter<Settings>().event };
  let tokenReads = 0;
  const tokens = {
    get: () => {
      tokenReads++;
      return Promise.resolve({ token: TOKEN, from: 'hub' as const });
    },
    onDidChange: () => ({ dispose: () => undefined }),
  };
  const log = new RecordingLogger();
  const hubs = new Hubs(settings, tokens, new MemoryMemento(), { for: () => log }, { client: { backoffBaseMs: 50, backoffCapMs: 200 }, ...options });
  hubs.start();
  return { hubs, log, tokenReads: () => tokenReads };
}

test('while the always-secret values are being read, no hub is connected, nor its token read; once read, the window connects', async () => {
  const hub = await startHub({ port: 0, token: TOKEN });
  const target = await ScriptedTarget.start(hub.url, TOKEN, freshSession('secret-values'));
  const requestId = target.raise({ kind: 'input', prompt: `Is ${SECRET} still the password?` });
  let read: ((value: string | undefined) => void) | undefined;
  const storage: SecretValueStorage = {
    get: () => new Promise((resolve) => (read = resolve)),
    store: () => Promise.resolve(),
    delete: () => Promise.resolve(),
    onDidChange: () => ({ dispose: () => undefined }),
  };
  const values = new AlwaysSecretValues(storage, new RecordingLogger());
  values.start();
  const slow = openWindow(hub.url, { redaction: () => values.redaction(), loaded: () => values.loaded() });
  // A window opened after it, with nothing to wait for: once it holds the request, the slow one would too if it had connected.
  const control = openWindow(hub.url, {});
  try {
    const has = (window: ReturnType<typeof openWindow>) => window.hubs.visibleItems().some((item) => item.requestId === requestId);
    await waitUntil(() => has(control), 'the request in the window with nothing to wait for', 5_000, () => control.log.lines.join('\n'));
    assert.equal(has(slow), false, 'the request reached a window whose always-secret values are not read yet');
    assert.equal(slow.tokenReads(), 0, 'the token was read before the always-secret values');
    assert.equal(slow.hubs.list()[0]?.state.kind, 'connecting');
    assert.doesNotMatch(slow.log.lines.join('\n'), new RegExp(SECRET));
    assert.ok(read, 'the values are being read');
    read(writeSecretValues([SECRET]));
    await waitUntil(() => has(slow), 'the request in the window once its values are read', 5_000, () => slow.log.lines.join('\n'));
    assert.equal(slow.tokenReads(), 1);
    assert.deepEqual(values.redaction().secretValues, [SECRET]);
  } finally {
    slow.hubs.dispose();
    control.hubs.dispose();
    values.dispose();
    await target.close();
    await hub.close();
  }
});

test("a hub token typed into an agent's plain question is not sent: the pipeline shows it replaced, and sending redacted sends the mark", async () => {
  const hub = await startHub({ port: 0, token: TOKEN });
  const target = await ScriptedTarget.start(hub.url, TOKEN, freshSession('token-question'));
  // An agent that asks in our product's words for the token (an agent can word its prompt as it likes).
  const requestId = target.raise({ kind: 'input', prompt: 'AEP Attention cannot connect: the hub refused the token (HTTP 401). Enter the right one?' });
  const stored = new Map<string, string>();
  const storage: SecretValueStorage = {
    get: (key) => Promise.resolve(stored.get(key)),
    store: (key, value) => Promise.resolve(void stored.set(key, value)),
    delete: (key) => Promise.resolve(void stored.delete(key)),
    onDidChange: () => ({ dispose: () => undefined }),
  };
  const values = new AlwaysSecretValues(storage, new RecordingLogger());
  values.start();
  const tokens = new TokenStore(storage, undefined, () => Promise.resolve(false), (token) => values.maskHubToken(token));
  const key = tokenKeyOf(hub.url);
  assert.ok(key);
  await tokens.set(key, TOKEN);
  const settings = { value: settingsFor(hub.url), onDidChange: new Emitter<Settings>().event };
  const log = new RecordingLogger();
  const hubs = new Hubs(settings, tokens, new MemoryMemento(), { for: () => log }, { client: { backoffBaseMs: 50, backoffCapMs: 200 }, redaction: () => values.redaction(), loaded: () => values.loaded() });
  hubs.start();
  try {
    const find = () => hubs.visibleItems().find((item) => item.requestId === requestId);
    await waitUntil(() => find() !== undefined, 'the request in the window', 5_000, () => log.lines.join('\n'));
    const item = find()!;
    await waitUntil(() => hubs.reachability(item).state === 'reachable', 'the agent in the roster');
    const typed = hubs.answer('quick-input', item, { text: TOKEN }, { redaction: values.redaction() });
    assert.equal(typed.kind, 'refused', 'the token went out as typed');
    assert.ok(typed.kind === 'refused' && typed.refusal.code === 'would-redact');
    assert.deepEqual(typed.refusal.changes.map((change) => change.replacements.map((r) => r.rule)), [['configured']], 'the person is shown the token would be replaced');
    const shown = typed.refusal.changes[0]?.redacted;
    assert.equal(shown, SECRET_MARK, 'what "Send redacted" sends');
    const redacted = hubs.answer('quick-input', item, { text: shown }, { redaction: values.redaction() });
    assert.equal(redacted.kind, 'sending');
    const command = await target.nextCommand();
    const data = command.value['data'] as { answer: { text: string } };
    assert.equal(data.answer.text, SECRET_MARK);
    assert.equal(command.value['capture'], 'redacted');
    assert.doesNotMatch(JSON.stringify(target.commands().map((c) => c.value)), new RegExp(TOKEN), 'no command carries the token');
    assert.doesNotMatch(log.lines.join('\n'), new RegExp(TOKEN), 'nor does the log');
  } finally {
    hubs.dispose();
    values.dispose();
    await target.close();
    await hub.close();
  }
});
