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

interface ItemSize {
  requestBytes: number;
  /** The answer counted in `answeredBytes` (a later `attention.answered` replaces it). */
  answered: AepEvent | undefined;
  answeredBytes: number;
  routed: number;
  routedBytes: number;
}

/** An item's bytes as `itemSizes` holds them (none when it holds nothing of it). */
function bytesOf(size: ItemSize | number | undefined): number {
  return typeof size === 'object' ? ITEM_BYTES + size.requestBytes + size.answeredBytes + size.routedBytes : (size ?? 0);
}

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
  /** Forgets the recent actions of sessions with no open request; returns how many sessions. */
  dropQuietActions(): number;
  /** Forgets the recent actions of sessions with open requests too; returns how many sessions. */
  dropHeldActions(): number;
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
  private actionBytes = 0;
  /**
   * What each held item was last counted at, its events measured once each:
   * the request when the item is first counted, the answer when it changes,
   * `routedBy` one name at a time. Dropped in `forgotten`. (A WeakMap per
   * event measured was the costliest line of the budget in a flood's profile.)
   * An item with neither an answer nor a router yet (most open requests) is
   * held as its total alone, a number, not a record (issue 40: objects per request).
   */
  private readonly itemSizes = new Map<AttentionItem, ItemSize | number>();
  /** The last event `sizeOf` measured, so the request measured for `fitsOpen` is not walked again when its item is first counted. */
  private lastMeasured: { event: AepEvent; bytes: number } | undefined;
  private readonly evictedSinceNotice = { closed: 0, parked: 0, histories: 0, actions: 0 };
  private lastNoticeAt: number | undefined;

  constructor(
    readonly maxBytes: number,
    private readonly now: () => number,
  ) {}

  get openBytes(): number {
    return this.openItemBytes;
  }

  held(reclaimable: Pick<Reclaimable, 'parkedBytes'>): number {
    return this.itemBytes + reclaimable.parkedBytes + this.timelineBytes + this.actionBytes;
  }

  /** The recent actions' summaries (src/inbox/recentActions.ts). */
  readonly onActionBytes = (delta: number): void => {
    this.actionBytes += delta;
  };

  readonly onTimelineBytes = (delta: number): void => {
    this.timelineBytes += delta;
  };

  /** An event's estimated bytes (events are not changed after they are bounded, so a measure stays true). */
  sizeOf(event: AepEvent): number {
    const last = this.lastMeasured;
    if (last !== undefined && last.event === event) return last.bytes;
    const bytes = approximateBytes(event);
    this.lastMeasured = { event, bytes };
    return bytes;
  }

  /** Whether a new open request of this event fits beside the open ones (open requests are never dropped to make room). */
  fitsOpen(event: AepEvent): boolean {
    return this.openItemBytes + ITEM_BYTES + this.sizeOf(event) <= this.maxBytes;
  }

  /** Brings a held item's share of the totals up to date with the events it now holds. */
  recount(item: AttentionItem): void {
    const held = this.itemSizes.get(item);
    const before = bytesOf(held);
    let size = held ?? ITEM_BYTES + this.sizeOf(item.requestEvent);
    if (held === undefined) this.lastMeasured = undefined;
    if (typeof size === 'number' && (item.answeredEvent !== undefined || item.routedBy.length > 0)) {
      size = { requestBytes: size - ITEM_BYTES, answered: undefined, answeredBytes: 0, routed: 0, routedBytes: 0 };
    }
    if (typeof size === 'object') {
      if (size.answered !== item.answeredEvent) {
        size.answered = item.answeredEvent;
        size.answeredBytes = item.answeredEvent ? approximateBytes(item.answeredEvent) : 0;
      }
      for (; size.routed < item.routedBy.length; size.routed++) size.routedBytes += approximateBytes(item.routedBy[size.routed]);
    }
    this.itemSizes.set(item, size);
    const after = bytesOf(size);
    this.itemBytes += after - before;
    if (isOpenStatus(item.status)) this.openItemBytes += after - before;
  }

  /** An open item closed: it still counts as held, no longer as open. */
  closed(item: AttentionItem): void {
    this.openItemBytes -= bytesOf(this.itemSizes.get(item));
  }

  /** An item is no longer held. */
  forgotten(item: AttentionItem): void {
    const bytes = bytesOf(this.itemSizes.get(item));
    this.itemSizes.delete(item);
    this.itemBytes -= bytes;
    if (isOpenStatus(item.status)) this.openItemBytes -= bytes;
  }

  /**
   * Past `maxBytes`, forgets the least useful first until well below it:
   * closed requests (longest closed first), then lifecycle events still
   * waiting for their request (longest waiting first), then recent history
   * (only used to follow `cause` and to order a session's view) of quiet
   * sessions, and last the history of sessions with open requests. The
   * recent actions ("Before asking") of quiet sessions go before the
   * histories, those of sessions with open requests after them. Open
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
    if (this.held(reclaimable) > target) evicted.actions += reclaimable.dropQuietActions();
    if (this.held(reclaimable) > target) {
      for (const timeline of reclaimable.historiesByUse()) {
        if (this.held(reclaimable) <= target) break;
        if (timeline.clear() > 0) evicted.histories++;
      }
    }
    if (this.held(reclaimable) > target) evicted.actions += reclaimable.dropHeldActions();
    const now = this.now();
    if (evicted.closed + evicted.parked + evicted.histories + evicted.actions === 0) return undefined;
    if (this.lastNoticeAt !== undefined && now - this.lastNoticeAt < NOTICE_INTERVAL_MS) return undefined;
    this.lastNoticeAt = now;
    const forgot = [
      evicted.closed > 0 ? `${evicted.closed} closed requests` : undefined,
      evicted.parked > 0 ? `${evicted.parked} lifecycle events still waiting for their request` : undefined,
      evicted.histories > 0 ? `the recent history of ${evicted.histories} sessions (used to follow cause links)` : undefined,
      evicted.actions > 0 ? `the recent actions of ${evicted.actions} sessions (shown as "Before asking")` : undefined,
    ].filter((part): part is string => part !== undefined);
    evicted.closed = evicted.parked = evicted.histories = evicted.actions = 0;
    return `the inbox passed its memory budget of ${describeBytes(this.maxBytes)} (open requests hold ${describeBytes(this.openItemBytes)}, kept in full), so it forgot ${forgot.join(', ')}`;
  }
}
