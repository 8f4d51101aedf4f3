// No `vscode` here: what a command's argument names, and the hub Connect waits
// for, plain logic over the hubs (test/unit/commandTargets.test.ts).
import { DisposableStore, toDisposable } from '../../base/disposable';
import type { AttentionItem } from '../../inbox/inbox';
import type { Hub, Hubs } from './hubs';

/** A command argument from the palette (none), a tree item (node) or a link/notification (key). */
export function itemFrom(hubs: Pick<Hubs, 'item'>, argument: unknown): Readonly<AttentionItem> | undefined {
  if (typeof argument === 'string') return hubs.item(argument);
  if (typeof argument === 'object' && argument !== null && 'item' in argument) {
    const key = (argument as { item: { key?: unknown } }).item.key;
    return typeof key === 'string' ? hubs.item(key) : undefined;
  }
  return undefined;
}

/** A hub row of the inbox (its context menu), when the command came from one. */
export function hubFrom(hubs: Pick<Hubs, 'get'>, argument: unknown): Hub | undefined {
  if (typeof argument !== 'object' || argument === null || !('hub' in argument)) return undefined;
  const id = (argument as { hub: { id?: unknown } }).hub.id;
  return typeof id === 'string' ? hubs.get(id) : undefined;
}

/** How long Connect waits for the hub its settings change adds. */
export const HUB_ADDED_WAIT_MS = 5_000;

/**
 * The hub of that id once the settings change has added it (hubs.ts reconciles
 * on the change event); undefined after HUB_ADDED_WAIT_MS without. Either way
 * the listener and the timer are released.
 */
export function hubAdded(hubs: Pick<Hubs, 'get' | 'onDidChangeHubs'>, id: string): Promise<Hub | undefined> {
  const now = hubs.get(id);
  if (now) return Promise.resolve(now);
  return new Promise((resolve) => {
    const waiting = new DisposableStore();
    const done = (hub: Hub | undefined) => {
      waiting.dispose();
      resolve(hub);
    };
    const timer = setTimeout(() => done(undefined), HUB_ADDED_WAIT_MS);
    waiting.add(toDisposable(() => clearTimeout(timer)));
    waiting.add(hubs.onDidChangeHubs(() => {
      const hub = hubs.get(id);
      if (hub) done(hub);
    }));
  });
}
