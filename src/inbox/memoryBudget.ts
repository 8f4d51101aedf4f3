import type { AepEvent } from '../aep/envelope';
import { isOpenStatus, type AttentionItem } from './attentionItem';
import { approximateBytes, describeBytes } from '../base/byteSize';
import type { SessionTimeline } from './sessionTimeline';

/** Heap an item costs beyond its events: the item, its parsed request's objects, index entries. */
export const ITEM_BYTES = 512;
/** Eviction goes this far below the budget, so the events after it do not each evict again. */
const EVICT_TO = 7 / 8;
/** Eviction notices are folded together for this long, so a full inbox does not report on every event. */
const NOTICE_INTERVAL_MS = 60_000;

/** What the budget may take back, least useful first; the inbox holds the structures. */
export interface Reclaimable {
  /** Forgets the longest-closed request: `forgot`, `skipped` (its slot was stale) or `none` left. */
  forgetOldestClosed(): 'forgot' | 'skipped' | 'none';
  /** Forgets the longest-waiting parked lifecycle events; returns how many. */
  dropOldestParked(): number;
  /** Session histories, least useful first (see SessionIndex.historiesByUse). */
  historiesByUse(): SessionTimeline[];
  /** Bytes held outside items and timelines (parked events). */
  readonly parkedBytes: number;
}

/**
 * The inbox's memory accounting, in bytes as `approximateBytes` estimates
 * them, kept current per event so no check scans: items (all, and the open
 * ones, which are never dropped), timelines, parked events.
 */
export class MemoryBudget {
  private itemBytes = 0;
  private openItemBytes = 0;
  private timelineBytes = 0;
  private readonly eventSizes = new WeakMap<AepEvent, number>();
  /** What each item was last counted at; `routedBytes` grows with `routedBy`, counted once per name added. */
  private readonly itemSizes = new WeakMap<AttentionItem, { bytes: number; routed: number; routedBytes: number }>();
  private readonly evictedSinceNotice = { closed: 0, parked: 0, histories: 0 };
  private lastNoticeAt: number | undefined;

  constructor(
    readonly maxBytes: number,
    private readonly now: () => number,
  ) {}

  get openBytes(): number {
    return this.openItemBytes;
  }

  held(reclaimable: Pick<Reclaimable, 'parkedBytes'>): number {
    return this.itemBytes + reclaimable.parkedBytes + this.timelineBytes;
  }

  readonly onTimelineBytes = (delta: number): void => {
    this.timelineBytes += delta;
  };

  /** An event's estimated bytes, measured once: events are not changed after they are stored. */
  sizeOf(event: AepEvent): number {
    let bytes = this.eventSizes.get(event);
    if (bytes === undefined) {
      bytes = approximateBytes(event);
      this.eventSizes.set(event, bytes);
    }
    return bytes;
  }

  /** Whether a new open request of this event fits beside the open ones (open requests are never dropped to make room). */
  fitsOpen(event: AepEvent): boolean {
    return this.openItemBytes + ITEM_BYTES + this.sizeOf(event) <= this.maxBytes;
  }

  /** Brings a held item's share of the totals up to date with the events it now holds. */
  recount(item: AttentionItem): void {
    const size = this.itemSizes.get(item) ?? { bytes: 0, routed: 0, routedBytes: 0 };
    const before = size.bytes;
    for (; size.routed < item.routedBy.length; size.routed++) size.routedBytes += approximateBytes(item.routedBy[size.routed]);
    const after = ITEM_BYTES + this.sizeOf(item.requestEvent) + (item.answeredEvent ? this.sizeOf(item.answeredEvent) : 0) + size.routedBytes;
    size.bytes = after;
    this.itemSizes.set(item, size);
    this.itemBytes += after - before;
    if (isOpenStatus(item.status)) this.openItemBytes += after - before;
  }

  /** An open item closed: it still counts as held, no longer as open. */
  closed(item: AttentionItem): void {
    this.openItemBytes -= this.itemSizes.get(item)?.bytes ?? 0;
  }

  /** An item is no longer held. */
  forgotten(item: AttentionItem): void {
    const bytes = this.itemSizes.get(item)?.bytes ?? 0;
    this.itemBytes -= bytes;
    if (isOpenStatus(item.status)) this.openItemBytes -= bytes;
  }

  /**
   * Past `maxBytes`, forgets the least useful first until well below it:
   * closed requests (longest closed first), then lifecycle events still
   * waiting for their request (longest waiting first), then recent history
   * (only used to follow `cause` and to order a session's view) of quiet
   * sessions, and last the history of sessions with open requests. Open
   * requests and resume positions are kept. Returns a notice when something
   * was forgotten, at most once a minute.
   */
  keepWithin(reclaimable: Reclaimable): string | undefined {
    if (this.held(reclaimable) <= this.maxBytes) return undefined;
    const target = this.maxBytes * EVICT_TO;
    const evicted = this.evictedSinceNotice;
    while (this.held(reclaimable) > target) {
      const forgot = reclaimable.forgetOldestClosed();
      if (forgot === 'none') break;
      if (forgot === 'forgot') evicted.closed++;
    }
    while (this.held(reclaimable) > target) {
      const dropped = reclaimable.dropOldestParked();
      if (dropped === 0) break;
      evicted.parked += dropped;
    }
    if (this.held(reclaimable) > target) {
      for (const timeline of reclaimable.historiesByUse()) {
        if (this.held(reclaimable) <= target) break;
        if (timeline.clear() > 0) evicted.histories++;
      }
    }
    const now = this.now();
    if (evicted.closed + evicted.parked + evicted.histories === 0) return undefined;
    if (this.lastNoticeAt !== undefined && now - this.lastNoticeAt < NOTICE_INTERVAL_MS) return undefined;
    this.lastNoticeAt = now;
    const forgot = [
      evicted.closed > 0 ? `${evicted.closed} closed requests` : undefined,
      evicted.parked > 0 ? `${evicted.parked} lifecycle events still waiting for their request` : undefined,
      evicted.histories > 0 ? `the recent history of ${evicted.histories} sessions (used to follow cause links)` : undefined,
    ].filter((part): part is string => part !== undefined);
    evicted.closed = evicted.parked = evicted.histories = 0;
    return `the inbox passed its memory budget of ${describeBytes(this.maxBytes)} (open requests hold ${describeBytes(this.openItemBytes)}, kept in full), so it forgot ${forgot.join(', ')}`;
  }
}
