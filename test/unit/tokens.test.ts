// Where hub tokens are filed: one per hub (its base URL), so a path behind a proxy never gets another path's token.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type * as vscode from 'vscode';
import { environmentToken, tokenKeyOf, TokenStore, type TokenKey } from '../../src/ui/services/tokens';

/** SecretStorage as VS Code's behaves for what TokenStore uses: get, store, delete, and a change event per key. */
class MemorySecrets {
  readonly values = new Map<string, string>();
  private readonly listeners: Array<(event: { key: string }) => void> = [];
  get(key: string): Promise<string | undefined> {
    return Promise.resolve(this.values.get(key));
  }
  store(key: string, value: string): Promise<void> {
    this.values.set(key, value);
    for (const listener of this.listeners) listener({ key });
    return Promise.resolve();
  }
  delete(key: string): Promise<void> {
    this.values.delete(key);
    for (const listener of this.listeners) listener({ key });
    return Promise.resolve();
  }
  onDidChange = (listener: (event: { key: string }) => void) => {
    this.listeners.push(listener);
    return { dispose: () => undefined };
  };
}

function keyOf(url: string): TokenKey {
  const key = tokenKeyOf(url);
  assert.ok(key, url);
  return key;
}

const TEAM_A = keyOf('https://proxy.example.com/teamA/');
const TEAM_B = keyOf('wss://proxy.example.com/teamB/socket');
const ROOT = keyOf('https://proxy.example.com');

function makeStore(env?: NodeJS.ProcessEnv) {
  const secrets = new MemorySecrets();
  return { secrets, tokens: new TokenStore(secrets as unknown as vscode.SecretStorage, env ? environmentToken(env) : undefined) };
}

describe('TokenStore', () => {
  test('two paths on one origin each get their own token, and the origin its own', async () => {
    const { tokens, secrets } = makeStore();
    await tokens.set(TEAM_A, 'token-a');
    await tokens.set(TEAM_B, 'token-b');
    assert.deepEqual(await tokens.get(TEAM_A), { token: 'token-a', from: 'hub' });
    assert.deepEqual(await tokens.get(TEAM_B), { token: 'token-b', from: 'hub' });
    assert.equal(await tokens.get(ROOT), undefined, "no path's token goes to the origin");
    assert.deepEqual([...secrets.values.keys()].sort(), ['aepAttention.token:https://proxy.example.com/teamA', 'aepAttention.token:https://proxy.example.com/teamB']);
  });

  test("a hub with no path reads the key a token was filed under before paths told hubs apart; a path falls back to it until it has its own", async () => {
    const { tokens, secrets } = makeStore();
    // As the version before this one filed every token: under the origin.
    secrets.values.set('aepAttention.token:https://proxy.example.com', 'filed-by-origin');
    assert.deepEqual(await tokens.get(ROOT), { token: 'filed-by-origin', from: 'hub' });
    assert.deepEqual(await tokens.get(TEAM_A), { token: 'filed-by-origin', from: 'origin' });
    await tokens.set(TEAM_A, 'token-a');
    assert.deepEqual(await tokens.get(TEAM_A), { token: 'token-a', from: 'hub' }, "the hub's own token wins");
  });

  test('clearing a path hub clears the origin token it fell back to as well, so it really has none', async () => {
    const { tokens, secrets } = makeStore();
    secrets.values.set('aepAttention.token:https://proxy.example.com', 'filed-by-origin');
    await tokens.set(TEAM_A, 'token-a');
    assert.equal(await tokens.clear(TEAM_A), true);
    assert.equal(await tokens.get(TEAM_A), undefined);
    assert.equal(await tokens.clear(TEAM_B), false, 'nothing left to clear under the origin');
  });

  test("the environment's token goes to AEP_HUB itself, not to another path on its origin", async () => {
    const { tokens } = makeStore({ AEP_HUB: 'https://proxy.example.com/teamA', AEP_TOKEN: 'from-env' });
    assert.deepEqual(await tokens.get(TEAM_A), { token: 'from-env', from: 'environment' });
    assert.equal(await tokens.get(TEAM_B), undefined);
    assert.equal(await tokens.get(ROOT), undefined);
  });
});
