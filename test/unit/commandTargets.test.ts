// What a command's argument names (src/app/hubs/commandTargets.ts), and the hub
// Connect waits for once its settings change: found, or given up on, and either
// way nothing left listening or ticking.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Emitter } from '../../src/base/emitter';
import { HUB_ADDED_WAIT_MS, hubAdded, hubFrom, itemFrom } from '../../src/app/hubs/commandTargets';
import type { Hub } from '../../src/app/hubs/hubs';
import type { AttentionItem } from '../../src/inbox/inbox';

const item = { key: 'hub-a/req-1' } as unknown as Readonly<AttentionItem>;
const items = { item: (key: string) => (key === item.key ? item : undefined) };
const hub = { id: 'hub-a' } as unknown as Hub;

describe('itemFrom', () => {
  test('a key from a link or a notification, and a tree node carrying its item', () => {
    assert.equal(itemFrom(items, item.key), item);
    assert.equal(itemFrom(items, { item: { key: item.key } }), item);
  });
  test('the palette (no argument), an unknown key and malformed nodes name nothing', () => {
    for (const argument of [undefined, null, 'hub-a/other', { item: {} }, { item: { key: 7 } }, { hub: { id: 'hub-a' } }, 42]) {
      assert.equal(itemFrom(items, argument), undefined, JSON.stringify(argument));
    }
  });
});

describe('hubFrom', () => {
  const hubs = { get: (id: string) => (id === hub.id ? hub : undefined) };
  test('an inbox hub row names its hub', () => {
    assert.equal(hubFrom(hubs, { hub: { id: 'hub-a' } }), hub);
  });
  test('a bare id, a request node, an unknown or malformed hub name nothing', () => {
    for (const argument of [undefined, null, 'hub-a', { item: { key: item.key } }, { hub: { id: 'hub-b' } }, { hub: {} }, { hub: { id: 1 } }]) {
      assert.equal(hubFrom(hubs, argument), undefined, JSON.stringify(argument));
    }
  });
});

describe('hubAdded', () => {
  /** Hubs whose list grows by hand, and which counts who listens to it. */
  function growingHubs() {
    const changes = new Emitter<void>();
    const present = new Map<string, Hub>();
    let listening = 0;
    return {
      get: (id: string) => present.get(id),
      onDidChangeHubs: (listener: () => void) => {
        listening += 1;
        const subscription = changes.event(listener);
        return { dispose: () => { listening -= 1; subscription.dispose(); } };
      },
      add(added: Hub) {
        present.set(added.id, added);
        changes.fire();
      },
      fire: () => changes.fire(),
      get listening() {
        return listening;
      },
    };
  }

  test('a hub already there is given at once, with nothing to listen to', async () => {
    const hubs = growingHubs();
    hubs.add(hub);
    assert.equal(await hubAdded(hubs, 'hub-a'), hub);
    assert.equal(hubs.listening, 0);
  });

  test('the hub the change adds is given, once it is there; the listener is released', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const hubs = growingHubs();
    const added = hubAdded(hubs, 'hub-a');
    hubs.fire(); // another hub's change: still waiting
    assert.equal(hubs.listening, 1);
    hubs.add(hub);
    assert.equal(await added, hub);
    assert.equal(hubs.listening, 0);
  });

  test('no such hub within the wait: undefined, and the listener is released', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const hubs = growingHubs();
    let settled = false;
    const added = hubAdded(hubs, 'hub-a').finally(() => (settled = true));
    t.mock.timers.tick(HUB_ADDED_WAIT_MS - 1);
    await Promise.resolve();
    assert.equal(settled, false);
    t.mock.timers.tick(1);
    assert.equal(await added, undefined);
    assert.equal(hubs.listening, 0);
    hubs.add(hub); // too late: heard by no one
    assert.equal(hubs.listening, 0);
  });
});
