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
