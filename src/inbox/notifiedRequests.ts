import type { AttentionItem, InboxChange } from './inbox';

/**
 * Which open requests a window has already notified, per inbox, so a
 * redelivery, a reconnect or a reload never notifies twice. Only open
 * requests are held: a request leaves when it closes or is dismissed (the
 * inbox's `removed`), and an inbox that is replaced takes its keys with it.
 * So the set is as large as the open requests, which the inbox bounds,
 * however many requests a long-running window sees come and go.
 *
 * Forgetting a closed request is safe because the inbox fires `added` once
 * per key it holds; a key it evicted and then takes again is a request it
 * shows as open again, worth a notification.
 */
export class NotifiedRequests<Owner extends object> {
  // Weak, so an inbox (hub) that goes away takes its keys with it.
  private readonly byOwner = new WeakMap<Owner, Set<string>>();

  /** A restored or replaced inbox: what it holds now was notified before; what it held earlier is gone. */
  restore(owner: Owner, openKeys: Iterable<string>): void {
    this.byOwner.set(owner, new Set(openKeys));
  }

  /**
   * Files one change of `owner`'s inbox; returns the request when this is its
   * first sighting (worth a notification), else undefined. A request that
   * closed or was dismissed (`removed`) is forgotten: the inbox will not add
   * it again while it holds it.
   */
  observe(owner: Owner, change: InboxChange): Readonly<AttentionItem> | undefined {
    let keys = this.byOwner.get(owner);
    if (change.kind === 'removed') {
      keys?.delete(change.item.key);
      return undefined;
    }
    if (change.kind !== 'added') return undefined;
    if (!keys) this.byOwner.set(owner, (keys = new Set()));
    if (keys.has(change.item.key)) return undefined;
    keys.add(change.item.key);
    return change.item;
  }

  /** How many requests of `owner` are remembered (for tests and diagnostics). */
  count(owner: Owner): number {
    return this.byOwner.get(owner)?.size ?? 0;
  }
}
