import type { AepEvent } from '../envelope';
import { maxPosition, type Position } from './position';

interface Entry {
  event: AepEvent;
  key: [epoch: number, seq: number, arrival: number];
}

function compareKeys(a: Entry['key'], b: Entry['key']): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
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
 */
export class SessionTimeline {
  // Entries live in `entries[head..]`; dropping the oldest moves `head` instead of shifting the
  // array on every event once the limit is reached, and the dead prefix is cut in one go.
  private entries: Entry[] = [];
  private head = 0;
  private highWater: Position | undefined;
  private arrivals = 0;

  constructor(readonly limit: number) {}

  get size(): number {
    return this.entries.length - this.head;
  }

  /** The highest owner position applied so far (the resume point). */
  get position(): Position | undefined {
    return this.highWater;
  }

  addSequenced(event: AepEvent, position: Position): void {
    this.highWater = maxPosition(this.highWater, position);
    this.insert({ event, key: [position.epoch, position.seq, 0] });
  }

  addUnsequenced(event: AepEvent): void {
    const anchor = this.highWater ?? { epoch: -1, seq: 0 };
    this.insert({ event, key: [anchor.epoch, anchor.seq, ++this.arrivals] });
  }

  /** Events in session order, oldest first. */
  events(): AepEvent[] {
    return this.entries.slice(this.head).map((entry) => entry.event);
  }

  find(id: string): AepEvent | undefined {
    for (let i = this.entries.length - 1; i >= this.head; i--) {
      const entry = this.entries[i];
      if (entry?.event.id === id) return entry.event;
    }
    return undefined;
  }

  private insert(entry: Entry): void {
    // Binary search for the first entry that sorts after this one; most
    // events arrive in order, so this is usually the end.
    let low = this.head;
    let high = this.entries.length;
    const last = this.entries[high - 1];
    if (last === undefined || high === low || compareKeys(last.key, entry.key) <= 0) {
      low = high;
    } else {
      while (low < high) {
        const mid = (low + high) >>> 1;
        const probe = this.entries[mid];
        if (probe && compareKeys(probe.key, entry.key) <= 0) low = mid + 1;
        else high = mid;
      }
    }
    if (low === this.entries.length) this.entries.push(entry);
    else this.entries.splice(low, 0, entry);
    if (this.size > this.limit) this.head++;
    if (this.head >= this.limit) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
  }
}
