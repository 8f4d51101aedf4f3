// Restricted Mode as a property of the one place that reads the settings
// (src/app/hubs/readSettings.ts): whatever a repository's workspace and folder
// settings hold, an untrusted window reads what the person's own settings
// alone would give (the harmless layout settings aside); a trusted one still
// takes the application-scoped settings and the hub-reaching `user` values
// from the person alone; and each key of a scope is inspected once per read.
// fast-check prints the seed and the shrunk case on failure.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { DEFAULT_SENDER_NAME, readSettings, type ConfigScope, type SettingsSources } from '../../src/app/hubs/readSettings';
import type { Settings } from '../../src/app/hubs/settings';

type Layer = Record<string, unknown>;

const KEYS = [
  'hubUrl', 'hubs', 'filter', 'captureCeiling', 'notifications', 'notificationMinSeverity', 'senderName', 'allowInsecureRemote',
  'closeFormWhenResolved', 'history.maxEntries', 'history.maxAgeDays', 'osNotifications', 'sound', 'beforeAsking',
] as const;
/** Read as set, whatever the trust: how this editor lays out what it already shows. */
const HARMLESS = ['closeFormWhenResolved', 'history'] as const;

/** A scope over layers, as VS Code's configuration gives it: `get` merges them (folder over workspace over user), with no thought of trust. */
function scope(user: Layer, workspace: Layer, folder: Layer | undefined, counts: Map<string, number>): ConfigScope {
  return {
    inspect(key) {
      counts.set(key, (counts.get(key) ?? 0) + 1);
      return { globalValue: user[key], workspaceValue: workspace[key], workspaceFolderValue: folder?.[key] };
    },
    get: (key) => folder?.[key] ?? workspace[key] ?? user[key],
  };
}

interface Window {
  user: Layer;
  workspace: Layer;
  folders: Array<{ name: string; layer: Layer }>;
  environmentHub: string | undefined;
}

function sources(window: Window, trusted: boolean, counts: Array<Map<string, number>> = []): SettingsSources {
  const next = () => {
    const map = new Map<string, number>();
    counts.push(map);
    return map;
  };
  return {
    window: scope(window.user, window.workspace, undefined, next()),
    folders: window.folders.map((folder) => ({ name: folder.name, scope: scope(window.user, window.workspace, folder.layer, next()) })),
    trusted,
    ...(window.environmentHub ? { environmentHub: window.environmentHub } : {}),
  };
}

/** The same window with nothing but the person's own settings. */
const userOnly = (window: Window): Window => ({ ...window, workspace: {}, folders: window.folders.map((folder) => ({ name: folder.name, layer: {} })) });

const withoutHarmless = (settings: Settings): Partial<Settings> => {
  const copy: Partial<Settings> = { ...settings };
  for (const key of HARMLESS) delete copy[key];
  return copy;
};

const value = fc.oneof(
  fc.constant(undefined),
  fc.boolean(),
  fc.integer({ min: -5, max: 6_000 }),
  fc.string({ maxLength: 8 }),
  fc.constantFrom(
    'http://127.0.0.1:4000', 'https://hub.example:8443', 'http://evil.example', 'forms', 'off', 'all', 'warning', 'critical',
    'full', 'redacted', 'metadata', 'never', 'always', 'whenUnfocused', 'their-agent', DEFAULT_SENDER_NAME,
  ),
  fc.dictionary(fc.constantFrom('agent', 'session', 'kind'), fc.string({ maxLength: 6 }), { maxKeys: 2 }),
  fc.array(fc.oneof(fc.constantFrom('http://127.0.0.1:4001', 'https://listed.example'), fc.record({ url: fc.constantFrom('http://127.0.0.1:4002', 'nope'), label: fc.string({ maxLength: 6 }) })), { maxLength: 3 }),
);
const layer = fc.dictionary(fc.constantFrom(...KEYS), value, { maxKeys: KEYS.length });
const window: fc.Arbitrary<Window> = fc.record({
  user: layer,
  workspace: layer,
  folders: fc.array(fc.record({ name: fc.constantFrom('api', 'web', 'docs'), layer }), { maxLength: 3 }),
  environmentHub: fc.option(fc.constantFrom('http://127.0.0.1:4100', 'https://env.example'), { nil: undefined }),
});

test("an untrusted window reads what the person's own settings alone give, whatever the repository's settings hold", () => {
  fc.assert(
    fc.property(window, (w) => {
      assert.deepEqual(withoutHarmless(readSettings(sources(w, false))), withoutHarmless(readSettings(sources(userOnly(w), false))));
    }),
    { numRuns: 400 },
  );
});

test('a trusted window still takes the application-scoped settings and the hub-reaching user values from the person alone', () => {
  fc.assert(
    fc.property(window, (w) => {
      const read = readSettings(sources(w, true));
      const own = readSettings(sources(userOnly(w), true));
      assert.deepEqual(read.user, own.user);
      assert.deepEqual([read.osNotifications, read.sound, read.beforeAsking], [own.osNotifications, own.sound, own.beforeAsking]);
      const listed = (settings: Settings) => settings.hubs.filter((hub) => hub.source === 'list').map((hub) => hub.hubUrl);
      assert.deepEqual(listed(read).filter((url) => !listed(own).includes(url)), [], 'no hub in the list that the person did not list');
    }),
    { numRuns: 300 },
  );
});

test('each key of each scope is inspected at most once per read', () => {
  fc.assert(
    fc.property(window, fc.boolean(), (w, trusted) => {
      const counts: Array<Map<string, number>> = [];
      readSettings(sources(w, trusted, counts));
      for (const map of counts) for (const [key, count] of map) assert.ok(count <= 1, `${key} inspected ${count} times`);
    }),
    { numRuns: 200 },
  );
});

test('trusted, a folder names its hub and the workspace its notifications; untrusted, neither does', () => {
  const w: Window = {
    user: { hubs: [{ url: 'https://listed.example', label: 'mine' }], notifications: 'all' },
    workspace: { notifications: 'off', captureCeiling: 'full' },
    folders: [{ name: 'api', layer: { hubUrl: 'http://127.0.0.1:4000', captureCeiling: 'metadata' } }],
    environmentHub: undefined,
  };
  const trusted = readSettings(sources(w, true));
  assert.deepEqual(trusted.hubs.map((hub) => [hub.hubUrl, hub.source, hub.captureCeiling]), [['https://listed.example', 'list', undefined], ['http://127.0.0.1:4000', 'folder', 'metadata']], 'the person\'s list first');
  assert.equal(trusted.notifications, 'off');
  assert.equal(trusted.user.notifications, 'all');
  const untrusted = readSettings(sources(w, false));
  assert.deepEqual(untrusted.hubs.map((hub) => [hub.hubUrl, hub.source]), [['https://listed.example', 'list']]);
  assert.equal(untrusted.notifications, 'all');
});
