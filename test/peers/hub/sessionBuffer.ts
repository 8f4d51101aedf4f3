import { dedupeKey, type AepEvent } from '../../../src/aep/envelope';
import { comparePositions, type Position } from '../../../src/inbox/position';
import type { CaptureLevel } from '../../../src/aep/levels';

/** One event as the hub holds it, with its place in the session's order. */
export interface StoredEvent {
  readonly event: AepEvent;
  readonly raw: string;
  /**
   * Ordering key (AEP-0001 §7): `(epoch, seq, 0)` for sequenced events; a
   * seq-less event (a command, `attention.routed`) is anchored just after the
   * newest position that arrived before it, `(epoch, seq, n)`.
   */
  readonly epoch: number;
  readonly seq: number;
  readonly sub: number;
  /** Serializations per capture ceiling, made once and shared by every subscriber. */
  readonly rendered: Map<CaptureLevel, string>;
}

export interface ReplayPlan {
  /** Set when the requested position predates what is held: the earliest position that follows (AEP-0003 §5). */
  exhausted?: Position;
  entries: StoredEvent[];
}

type Place = { epoch: number; seq: number; sub: number };

export function compareStored(a: Place, b: Place): number {
  return a.epoch - b.epoch || a.seq - b.seq || a.sub - b.sub;
}

/** The first position strictly after `position`, kept a safe integer whatever an emitter sent. */
export function positionAfter(position: Position): Position {
  return position.seq < Number.MAX_SAFE_INTEGER ? { epoch: position.epoch, seq: position.seq + 1 } : { epoch: position.epoch + 1, seq: 0 };
}

/**
 * The replay buffer of one session of one emitter, `(source, session)`
 * (AEP-0001 §5.2): the newest `capacity` events in `(epoch, seq)` order.
 */
export class SessionBuffer {
  readonly entries: StoredEvent[] = [];
  /** Dedupe keys `(source, id)` of what is held (AEP-0003 §5 buffer admission). */
  readonly held = new Set<string>();
  /** The newest sequenced position held or ever held. */
  highWater: Position | undefined;
  private arrivals = 0;

  /**
   * @param evictedHigh the newest position already lost, when this buffer
   *   follows one the hub forgot: a resume from below it has lost events.
   */
  constructor(
    readonly source: string,
    readonly session: string,
    private readonly capacity: number,
    public evictedHigh?: Position,
  ) {
    this.highWater = evictedHigh;
  }

  /** True when the session's owner has sent this buffer sequenced events (it owns the session's order). */
  get owned(): boolean {
    return this.highWater !== undefined;
  }

  nextAnchor(): Place {
    const anchor = this.highWater ?? { epoch: -1, seq: 0 };
    return { ...anchor, sub: ++this.arrivals };
  }

  /** True when a sequenced event at `position` may be stored: never one already evicted, which would move "earliest held" back. */
  admits(position: Position): boolean {
    return this.evictedHigh === undefined || comparePositions(position, this.evictedHigh) > 0;
  }

  insert(entry: StoredEvent, key: string): void {
    let low = 0;
    let high = this.entries.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const probe = this.entries[mid];
      if (probe && compareStored(probe, entry) <= 0) low = mid + 1;
      else high = mid;
    }
    this.entries.splice(low, 0, entry);
    this.held.add(key);
    if (entry.sub === 0) {
      const position = { epoch: entry.epoch, seq: entry.seq };
      if (this.highWater === undefined || comparePositions(position, this.highWater) > 0) this.highWater = position;
    }
    while (this.entries.length > this.capacity) {
      const evicted = this.entries.shift();
      if (!evicted) break;
      this.held.delete(dedupeKey(evicted.event));
      const position = { epoch: evicted.epoch, seq: evicted.seq };
      if (evicted.epoch >= 0 && (this.evictedHigh === undefined || comparePositions(position, this.evictedHigh) > 0)) this.evictedHigh = position;
    }
  }

  /** Held events strictly after `after` (AEP-0003 §7), or all of them. */
  replay(after?: Position): ReplayPlan {
    if (after === undefined) return { entries: [...this.entries] };
    const entries = this.entries.filter((e) => compareStored(e, { ...after, sub: 0 }) > 0);
    if (this.evictedHigh !== undefined && comparePositions(after, this.evictedHigh) < 0) {
      return { exhausted: this.earliestHeld(this.evictedHigh), entries };
    }
    return { entries };
  }

  private earliestHeld(evictedHigh: Position): Position {
    const first = this.entries.find((e) => e.sub === 0);
    return first ? { epoch: first.epoch, seq: first.seq } : positionAfter(evictedHigh);
  }
}
