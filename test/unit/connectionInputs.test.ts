// Which settings changes rebuild the hub client: only those the connection is made of.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { connectionInputs, hubSettings, needsRebuild } from '../../src/app/hubs/connectionInputs';
import type { HubConfig } from '../../src/app/hubs/hubList';
import type { Settings } from '../../src/app/hubs/settings';

const HUB: HubConfig = {
  id: 'http://127.0.0.1:8787',
  hubUrl: 'http://127.0.0.1:8787',
  source: 'user',
  label: undefined,
  folders: [],
  filter: { agent: 'claude-code', session: ['s1', 's2'] },
  captureCeiling: 'redacted',
};

/** A hub's settings and the window's, side by side, as one change can touch either. */
type Both = HubConfig & Settings;
const BASE: Both = {
  ...HUB,
  hubs: [HUB],
  hubListProblems: [],
  notifications: 'all',
  notificationMinSeverity: 'info',
  senderName: 'vscode-aep-attention',
  allowInsecureRemote: false,
  closeFormWhenResolved: false,
  history: { maxEntries: 200, maxAgeDays: 30 },
  osNotifications: 'whenUnfocused',
  sound: false,
  beforeAsking: true,
  user: { notifications: 'all', senderName: 'vscode-aep-attention', allowInsecureRemote: false },
};

const inputs = (both: Both) => connectionInputs(both, both);
const rebuilds = (change: Partial<Both>) => needsRebuild(inputs(BASE), inputs({ ...BASE, ...change }));

describe('needsRebuild', () => {
  test('a change of what the connection is made of rebuilds', () => {
    const changes: Array<Partial<Both>> = [
      { hubUrl: 'http://127.0.0.1:8788' },
      { hubUrl: 'http://127.0.0.1:8787/other-path' },
      { hubUrl: '' },
      { filter: undefined },
      { filter: { agent: 'codex', session: ['s1', 's2'] } },
      { filter: { agent: 'claude-code', session: ['s2', 's1'] } },
      { filter: { agent: 'claude-code', session: ['s1', 's2'], xproject: 'alpha' } },
      { captureCeiling: undefined },
      { captureCeiling: 'full' },
      { senderName: 'my-editor' },
      { allowInsecureRemote: true },
      // What is subscribed to: the agents' tool calls and runs, or not.
      { beforeAsking: false },
    ];
    for (const change of changes) assert.equal(rebuilds(change), true, JSON.stringify(change));
  });

  test('settings read where they are used take effect without a rebuild', () => {
    const changes: Array<Partial<Both>> = [
      { closeFormWhenResolved: true },
      { notifications: 'off' },
      { notifications: 'forms' },
      { notificationMinSeverity: 'warning' },
      // Where the same URL came from, and what the hub is called, word what is shown; the connection is the same.
      { source: 'folder' },
      { label: 'laptop' },
      { folders: ['api'] },
      {},
    ];
    for (const change of changes) assert.equal(rebuilds(change), false, JSON.stringify(change));
  });

  test('the same filter rewritten, keys in another order, is the same subscription', () => {
    assert.equal(rebuilds({ filter: { session: ['s1', 's2'], agent: 'claude-code' } }), false);
    assert.equal(rebuilds({ filter: { ...BASE.filter } }), false);
  });

  test('a filter that differs only by a missing or an extra key, or a type, rebuilds', () => {
    assert.equal(rebuilds({ filter: { agent: 'claude-code' } }), true);
    assert.equal(rebuilds({ filter: { agent: 'claude-code', session: 's1' } }), true);
    assert.equal(rebuilds({ filter: { agent: 'claude-code', session: { 0: 's1', 1: 's2' } } }), true);
    assert.equal(needsRebuild(inputs({ ...BASE, filter: { epoch: 1 } }), inputs({ ...BASE, filter: { epoch: '1' } })), true);
  });
});

describe('hubSettings: a workspace never loosens a hub the user listed', () => {
  // A trusted repository's .vscode/settings.json allows plain http, renames the sender and silences
  // notifications; the user's own settings do none of it.
  const loosened: Both = { ...BASE, notifications: 'off', senderName: 'repo-bot', allowInsecureRemote: true };
  const lanHub: HubConfig = { ...HUB, id: 'http://192.168.1.20:8787', hubUrl: 'http://192.168.1.20:8787', source: 'list', label: 'my LAN hub' };

  test("a hub from the user's aepAttention.hubs is reached and notified with the user's values only", () => {
    assert.deepEqual(hubSettings(lanHub, loosened), { notifications: 'all', senderName: 'vscode-aep-attention', allowInsecureRemote: false });
    const inputsForList = connectionInputs(lanHub, loosened);
    assert.equal(inputsForList.allowInsecureRemote, false, 'its token does not go out in clear text because a repository said so');
    assert.equal(inputsForList.senderName, 'vscode-aep-attention');
  });

  test("the user's own values still apply to a listed hub", () => {
    const userAllows: Both = { ...loosened, user: { notifications: 'forms', senderName: 'my-editor', allowInsecureRemote: true } };
    assert.deepEqual(hubSettings(lanHub, userAllows), { notifications: 'forms', senderName: 'my-editor', allowInsecureRemote: true });
  });

  test("the workspace's own hubs (a folder's, the window's, the environment's) take the window's values, as trusted", () => {
    for (const source of ['folder', 'workspace', 'user', 'environment'] as const) {
      assert.deepEqual(hubSettings({ source }, loosened), { notifications: 'off', senderName: 'repo-bot', allowInsecureRemote: true }, source);
      assert.equal(connectionInputs({ ...HUB, source }, loosened).allowInsecureRemote, true, source);
    }
  });

  test("a workspace changing its values does not rebuild a listed hub's connection", () => {
    assert.equal(needsRebuild(connectionInputs(lanHub, BASE), connectionInputs(lanHub, loosened)), false);
  });
});
