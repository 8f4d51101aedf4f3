// No `vscode` here: what a command's argument names, plain logic over the hubs.
import type { AttentionItem } from '../../inbox/inbox';
import type { Hub, Hubs } from './hubs';

/** A command argument from the palette (none), a tree item (node) or a link/notification (key). */
export function itemFrom(hubs: Hubs, argument: unknown): Readonly<AttentionItem> | undefined {
  if (typeof argument === 'string') return hubs.item(argument);
  if (typeof argument === 'object' && argument !== null && 'item' in argument) {
    const key = (argument as { item: { key?: unknown } }).item.key;
    return typeof key === 'string' ? hubs.item(key) : undefined;
  }
  return undefined;
}

/** A hub row of the inbox (its context menu), when the command came from one. */
export function hubFrom(hubs: Hubs, argument: unknown): Hub | undefined {
  if (typeof argument !== 'object' || argument === null || !('hub' in argument)) return undefined;
  const id = (argument as { hub: { id?: unknown } }).hub.id;
  return typeof id === 'string' ? hubs.get(id) : undefined;
}
