// Where hub tokens are filed: one per hub (its base URL), so a path behind a proxy never gets another path's token,
// nor its origin's unless the person agrees.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type * as vscode from 'vscode';
import { environmentToken, tokenKeyOf, TokenStore, type TokenKey } from '../../src/app/hubs/tokens';

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

/** The person, as the origin-token question meets them: answers as told, and keeps every question asked. */
class Person {
  readonly asked: Array<{ hub: string; origin: string }> = [];
  constructor(public agrees: boolean) {}
  readonly consent = (hub: string, origin: string) => {
    this.asked.push({ hub, origin });
    return Promise.resolve(this.agrees);
  };
}

function makeStore(env?: NodeJS.ProcessEnv, person = new Person(false)) {
  const secrets = new MemorySecrets();
  const seen: string[] = [];
  return { secrets, person, seen, tokens: new TokenStore(secrets as unknown as vscode.SecretStorage, env ? environmentToken(env) : undefined, person.consent, (token) => seen.push(token)) };
}

const ORIGIN_KEY = 'aepAttention.token:https://proxy.example.com';

describe('TokenStore', () => {
  test('two paths on one origin each get their own token, and the origin its own', async () => {
    const { tokens, secrets, person } = makeStore();
    await tokens.set(TEAM_A, 'token-a');
    await tokens.set(TEAM_B, 'token-b');
    assert.deepEqual(await tokens.get(TEAM_A), { token: 'token-a', from: 'hub' });
    assert.deepEqual(await tokens.get(TEAM_B), { token: 'token-b', from: 'hub' });
    assert.equal(await tokens.get(ROOT), undefined, "no path's token goes to the origin");
    assert.deepEqual([...secrets.values.keys()].sort(), ['aepAttention.token:https://proxy.example.com/teamA', 'aepAttention.token:https://proxy.example.com/teamB']);
    assert.deepEqual(person.asked, [], 'a hub with its own token asks nothing');
  });

  test('a hub with no path reads the key a token was filed under before paths told hubs apart, unasked', async () => {
    const { tokens, secrets, person } = makeStore();
    secrets.values.set(ORIGIN_KEY, 'filed-by-origin');
    assert.deepEqual(await tokens.get(ROOT), { token: 'filed-by-origin', from: 'hub' });
    assert.deepEqual(person.asked, []);
  });

  test("the origin's hub's token set with this version never reaches a path behind it unless the person agrees", async () => {
    const { tokens, secrets, person } = makeStore();
    await tokens.set(ROOT, 'meant-for-the-origin');
    assert.equal(await tokens.get(TEAM_B), undefined, 'refused: no token at all');
    assert.deepEqual(person.asked, [{ hub: 'https://proxy.example.com/teamB', origin: 'https://proxy.example.com' }], 'the question names both addresses');
    assert.equal(secrets.values.get('aepAttention.token:https://proxy.example.com/teamB'), undefined, 'nothing filed for the path');
    assert.equal(secrets.values.get(ORIGIN_KEY), 'meant-for-the-origin', "the origin's token is left as it was");
  });

  test('a refusal is remembered for the session: every later connection goes without, unasked', async () => {
    const { tokens, secrets, person } = makeStore();
    secrets.values.set(ORIGIN_KEY, 'filed-by-origin');
    for (let attempt = 0; attempt < 5; attempt++) assert.equal(await tokens.get(TEAM_A), undefined);
    assert.equal(person.asked.length, 1);
    // Another path behind the same origin is its own question.
    assert.equal(await tokens.get(TEAM_B), undefined);
    assert.deepEqual(person.asked.map((question) => question.hub), ['https://proxy.example.com/teamA', 'https://proxy.example.com/teamB']);
  });

  test("agreeing once files the origin's token as the path's own, so it is never asked again", async () => {
    const { tokens, secrets, person } = makeStore(undefined, new Person(true));
    secrets.values.set(ORIGIN_KEY, 'filed-by-origin');
    assert.deepEqual(await tokens.get(TEAM_A), { token: 'filed-by-origin', from: 'origin' });
    assert.equal(secrets.values.get('aepAttention.token:https://proxy.example.com/teamA'), 'filed-by-origin');
    person.agrees = false;
    assert.deepEqual(await tokens.get(TEAM_A), { token: 'filed-by-origin', from: 'hub' });
    assert.equal(person.asked.length, 1);
    await tokens.set(TEAM_A, 'token-a');
    assert.deepEqual(await tokens.get(TEAM_A), { token: 'token-a', from: 'hub' }, "the hub's own token wins");
  });

  test('connections reading the token while the question is open share its one answer', async () => {
    const secrets = new MemorySecrets();
    secrets.values.set(ORIGIN_KEY, 'filed-by-origin');
    let questions = 0;
    let answer: (agreed: boolean) => void = () => undefined;
    let signalAsked: () => void = () => undefined;
    const asked = new Promise<void>((resolve) => (signalAsked = resolve));
    const tokens = new TokenStore(secrets as unknown as vscode.SecretStorage, undefined, () => {
      questions++;
      signalAsked();
      return new Promise<boolean>((resolve) => (answer = resolve));
    });
    const reads = Promise.all([tokens.get(TEAM_A), tokens.get(TEAM_A), tokens.get(TEAM_A)]);
    await Promise.race([asked, reads]);
    answer(true);
    const found = await reads;
    assert.equal(questions, 1);
    assert.deepEqual(found, Array(3).fill({ token: 'filed-by-origin', from: 'origin' }));
  });

  test("a refused path can still be given a token of its own; setting one is not a question", async () => {
    const { tokens, secrets, person } = makeStore();
    secrets.values.set(ORIGIN_KEY, 'filed-by-origin');
    assert.equal(await tokens.get(TEAM_A), undefined);
    await tokens.set(TEAM_A, 'token-a');
    assert.deepEqual(await tokens.get(TEAM_A), { token: 'token-a', from: 'hub' });
    assert.equal(person.asked.length, 1);
  });

  test("clearing a path hub clears its own token only, and it is not offered the origin's again this session", async () => {
    const { tokens, secrets, person } = makeStore(undefined, new Person(true));
    secrets.values.set(ORIGIN_KEY, 'filed-by-origin');
    await tokens.set(TEAM_A, 'token-a');
    await tokens.clear(TEAM_A);
    assert.equal(await tokens.get(TEAM_A), undefined);
    assert.equal(secrets.values.get(ORIGIN_KEY), 'filed-by-origin', "the origin's hub keeps its token");
    assert.deepEqual(person.asked, []);
  });

  test('a question that fails counts as a refusal', async () => {
    const secrets = new MemorySecrets();
    secrets.values.set(ORIGIN_KEY, 'filed-by-origin');
    const tokens = new TokenStore(secrets as unknown as vscode.SecretStorage, undefined, () => Promise.reject(new Error('no window')));
    assert.equal(await tokens.get(TEAM_A), undefined);
  });

  test("the environment's token goes to AEP_HUB itself, not to another path on its origin", async () => {
    const { tokens } = makeStore({ AEP_HUB: 'https://proxy.example.com/teamA', AEP_TOKEN: 'from-env' });
    assert.deepEqual(await tokens.get(TEAM_A), { token: 'from-env', from: 'environment' });
    assert.equal(await tokens.get(TEAM_B), undefined);
    assert.equal(await tokens.get(ROOT), undefined);
  });

  test("the environment's token for a path comes before any question about its origin's", async () => {
    const { tokens, secrets, person } = makeStore({ AEP_HUB: 'https://proxy.example.com/teamA', AEP_TOKEN: 'from-env' });
    secrets.values.set(ORIGIN_KEY, 'filed-by-origin');
    assert.deepEqual(await tokens.get(TEAM_A), { token: 'from-env', from: 'environment' });
    assert.deepEqual(person.asked, []);
  });

  test('every token the store hands out or files is told to what masks answers: set, read, agreed from the origin, from the environment', async () => {
    const { tokens, secrets, seen } = makeStore({ AEP_HUB: 'https://env.example.com', AEP_TOKEN: 'from-env' }, new Person(true));
    assert.deepEqual(seen, ['from-env'], 'the environment token, before any connection reads it');
    await tokens.set(TEAM_A, 'typed-token');
    await secrets.store(ORIGIN_KEY, 'origin-token');
    await tokens.get(TEAM_B);
    await secrets.store('aepAttention.token:https://proxy.example.com/teamC', 'other-window-token');
    await tokens.get(keyOf('https://proxy.example.com/teamC'));
    assert.deepEqual(seen, ['from-env', 'typed-token', 'origin-token', 'other-window-token']);
  });
});
