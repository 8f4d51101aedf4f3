import type { AepEvent } from '../aep/envelope';
import { approximateBytes } from '../base/byteSize';
import { maxPosition, type Position } from './position';

/**
 * What a timeline keeps of an event: the envelope, extension attributes
 * included (AEP-0001 §5.4), without `data`. Timelines exist to follow `cause`
 * and to order a session's history; payloads (prompts, answers) live on the
 * inbox's items, so keeping them here too would hold every prompt twice, and
 * the prompts of closed requests for as long as their session stays busy.
 */
export type TimelineEvent = AepEvent & { data?: never };

/**
 * Its place in session order is `(epoch, seq, arrival)`, held as fields: a tuple per event was one more object each.
 * `event` is the envelope, or the whole event while an item of the inbox holds it anyway (`share`): read through `envelopeOf`.
 */
interface Entry {
  event: AepEvent;
  epoch: number;
  seq: number;
  arrival: number;
  bytes: number;
}

function compareEntries(a: Entry, b: Entry): number {
  return a.epoch - b.epoch || a.seq - b.seq || a.arrival - b.arrival;
}

/** Heap an entry costs beyond its envelope: the entry, its order fields and a slot. */
export const TIMELINE_ENTRY_BYTES = 96;

/** The event as a timeline keeps it: the same object when it has no `data`, else a copy without it. */
export function envelopeOf(event: AepEvent): TimelineEvent {
  if (event.data === undefined) return event as TimelineEvent;
  const { data: _data, ...envelope } = event;
  return envelope as TimelineEvent;
}

/**
 * The recent history of one session, in session order, bounded to `limit`
 * events (oldest dropped first).
 *
 * Sequenced events sort by `(epoch, seq)` (AEP-0001 §7.3), so backfill lands
 * in place. Seq-less events from foreign emitters (commands, `attention.routed`,
 * AEP-0001 §5.2) have no position of their own: each is anchored just after
 * the highest position that had arrived before it, so they keep arrival order
 * among the owner's ordered events.
 *
 * `bytes` estimates the heap the entries hold, for the inbox's memory budget.
 */
export class SessionTimeline {
  // Entries live in `entries[head..]`; dropping the oldest moves `head` instead of shifting the
  // array on every event once the limit is reached, and the dead prefix is cut in one go.
  // Dropped slots are emptied at once so a dropped event is not held until the cut.
  private entries: Array<Entry | undefined> = [];
  private head = 0;
  private highWater: Position | undefined;
  private arrivals = 0;
  private heldBytes = 0;
  /** The entry `insert` made last, until `share` takes it. */
  private last: Entry | undefined;

  /** `onBytesChanged` hears every change of `bytes`, so an owner can keep a total without scanning. */
  constructor(
    readonly limit: number,
    private readonly onBytesChanged: (delta: number) => void = () => undefined,
  ) {}

  get size(): number {
    return this.entries.length - this.head;
  }

  get bytes(): number {
    return this.heldBytes;
  }

  /** The highest owner position applied so far (the resume point). */
  get position(): Position | undefined {
    return this.highWater;
  }

  addSequenced(event: AepEvent, position: Position): void {
    this.highWater = maxPosition(this.highWater, position);
    this.insert(event, position.epoch, position.seq, 0);
  }

  addUnsequenced(event: AepEvent): void {
    const anchor = this.highWater ?? { epoch: -1, seq: 0 };
    this.insert(event, anchor.epoch, anchor.seq, ++this.arrivals);
  }

  /**
   * Forgets every entry but keeps the resume position, which is not history
   * but where the subscription resumes (AEP-0003 §5). Returns the bytes freed.
   */
  clear(): number {
    const freed = this.heldBytes;
    this.entries = [];
    this.head = 0;
    this.heldBytes = 0;
    this.last = undefined;
    if (freed !== 0) this.onBytesChanged(-freed);
    return freed;
  }

  /** Events in session order, oldest first, without their `data`. */
  events(): TimelineEvent[] {
    const events: TimelineEvent[] = [];
    for (let i = this.head; i < this.entries.length; i++) {
      const entry = this.entries[i];
      if (entry) events.push(envelopeOf(entry.event));
    }
    return events;
  }

  find(id: string): TimelineEvent | undefined {
    const entry = this.entries[this.indexOf(id)];
    return entry === undefined ? undefined : envelopeOf(entry.event);
  }

  /** Whether an event with this id is kept: `find` without the envelope's copy, for a caller that only asks. */
  has(id: string): boolean {
    return this.indexOf(id) >= 0;
  }

  /** The newest kept entry with this id, or -1. */
  private indexOf(id: string): number {
    for (let i = this.entries.length - 1; i >= this.head; i--) {
      if (this.entries[i]?.event.id === id) return i;
    }
    return -1;
  }

  /**
   * The event just added is held whole by an item of the inbox (a request):
   * its entry keeps that event instead of a copy of its envelope, one object
   * fewer per request (issue 40). Its bytes stay the envelope's: the item
   * counts the rest. `unshare` when the item lets it go.
   */
  share(event: AepEvent): void {
    if (this.last?.event.id === event.id && this.last.event.source === event.source) this.last.event = event;
    this.last = undefined;
  }

  /** The item holding `event` whole let it go: its entry, while kept, holds its envelope again, not its `data`. */
  unshare(event: AepEvent): void {
    // From the newest: an item is forgotten a while after it closed, far more often than after its entry was dropped.
    for (let i = this.entries.length - 1; i >= this.head; i--) {
      const entry = this.entries[i];
      if (entry?.event === event) {
        entry.event = envelopeOf(event);
        return;
      }
    }
  }

  /** The id of the owner's event at `position`, while the history still holds it. */
  idAt(position: Position): string | undefined {
    for (let i = this.entries.length - 1; i >= this.head; i--) {
      const entry = this.entries[i];
      if (entry && entry.arrival === 0 && entry.epoch === position.epoch && entry.seq === position.seq) return entry.event.id;
    }
    return undefined;
  }

  private insert(event: AepEvent, epoch: number, seq: number, arrival: number): void {
    const envelope = envelopeOf(event);
    const entry: Entry = { event: envelope, epoch, seq, arrival, bytes: TIMELINE_ENTRY_BYTES + approximateBytes(envelope) };
    this.last = entry;
    // Binary search for the first entry that sorts after this one; most
    // events arrive in order, so this is usually the end.
    let low = this.head;
    let high = this.entries.length;
    const last = this.entries[high - 1];
    if (last === undefined || high === low || compareEntries(last, entry) <= 0) {
      low = high;
    } else {
      while (low < high) {
        const mid = (low + high) >>> 1;
        const probe = this.entries[mid];
        if (probe && compareEntries(probe, entry) <= 0) low = mid + 1;
        else high = mid;
      }
    }
    if (low === this.entries.length) this.entries.push(entry);
    else this.entries.splice(low, 0, entry);
    let delta = entry.bytes;
    if (this.size > this.limit) {
      delta -= this.entries[this.head]?.bytes ?? 0;
      this.entries[this.head] = undefined;
      this.head++;
    }
    this.heldBytes += delta;
    this.onBytesChanged(delta);
    if (this.head >= this.limit) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
  }
}
