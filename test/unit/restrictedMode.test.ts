// Restricted Mode: every setting that changes where traffic goes, what
// reaches the user or what is sent is read through the trust-aware accessor
// (src/app/hubs/readSettings.ts; its behaviour is a property in readSettings.property.test.ts) and listed in package.json's
// `restrictedConfigurations`, so a cloned repository's .vscode/settings.json
// cannot set it before the user trusts the folder.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../support/fixtures';

/** Settings that only change how this editor lays out what it already shows; a repository may set them. */
const HARMLESS = new Set(['aepAttention.closeFormWhenResolved', 'aepAttention.history.maxEntries', 'aepAttention.history.maxAgeDays']);
/** Settings a workspace cannot set at all (scope `application`), read from the user's value only. */
const USER_ONLY = new Set(['aepAttention.hubs', 'aepAttention.osNotifications', 'aepAttention.sound', 'aepAttention.beforeAsking']);

test('every setting but the harmless ones is restricted and read through the trust-aware accessor', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot(), 'package.json'), 'utf8')) as {
    contributes: { configuration: { properties: Record<string, { scope?: string }> } };
    capabilities: { untrustedWorkspaces: { restrictedConfigurations: string[] } };
  };
  const declared = Object.keys(pkg.contributes.configuration.properties);
  const restricted = new Set(pkg.capabilities.untrustedWorkspaces.restrictedConfigurations);
  const source = fs.readFileSync(path.join(repoRoot(), 'src', 'app', 'hubs', 'readSettings.ts'), 'utf8');
  const trusted = new Set([...source.matchAll(/\.trusted\('([^']+)'\)/g)].map((m) => `aepAttention.${m[1]}`));
  const plain = [...source.matchAll(/\.get\('([^']+)'\)/g)].map((m) => `aepAttention.${m[1]}`);
  assert.ok(declared.length >= 8, `found ${declared.length} settings`);
  const userOnly = new Set([...source.matchAll(/\.user\('([^']+)'\)/g)].map((m) => `aepAttention.${m[1]}`));
  for (const key of USER_ONLY) {
    assert.equal(pkg.contributes.configuration.properties[key]?.scope, 'application', `${key} can only be set in user settings`);
    assert.ok(userOnly.has(key), `${key} is read from the user's value only`);
  }
  for (const key of declared) {
    if (HARMLESS.has(key) || USER_ONLY.has(key)) continue;
    assert.ok(restricted.has(key), `${key} is in restrictedConfigurations`);
    assert.ok(trusted.has(key), `${key} is read through ScopeReader.trusted`);
  }
  for (const key of plain) assert.ok(HARMLESS.has(key), `${key} is read without the trust check`);
  for (const key of restricted) assert.ok(declared.includes(key), `${key} (restricted) is a declared setting`);
});

/** Window-wide settings that reach a hub: a hub of the user's own list reads them from the user's value only (connectionInputs.ts hubSettings). */
const HUB_SCOPED = ['aepAttention.allowInsecureRemote', 'aepAttention.senderName', 'aepAttention.notifications'];

test("the window-wide settings a hub is reached with are also read from the user's value alone, for the hubs the user listed", () => {
  const source = fs.readFileSync(path.join(repoRoot(), 'src', 'app', 'hubs', 'readSettings.ts'), 'utf8');
  const userBlock = /\n {4}user: \{([^}]*)\}/.exec(source)?.[1] ?? '';
  const userOnly = new Set([...userBlock.matchAll(/\.user\('([^']+)'\)/g)].map((m) => `aepAttention.${m[1]}`));
  for (const key of HUB_SCOPED) assert.ok(userOnly.has(key), `${key} is read from the user's value for Settings.user`);
  const inputs = fs.readFileSync(path.join(repoRoot(), 'src', 'app', 'hubs', 'connectionInputs.ts'), 'utf8');
  assert.match(inputs, /if \(hub\.source === 'list'\) return settings\.user;/, "a listed hub takes Settings.user");
});
