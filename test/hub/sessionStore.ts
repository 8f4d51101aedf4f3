import { dedupeKey, epochOf, type AepEvent } from '../../src/aep/envelope';
import { comparePositions, type Position } from '../../src/aep/inbox/position';
import type { CaptureLevel } from '../../src/aep/levels';
import type { Admitted } from './admission';

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

function compareStored(a: StoredEvent, b: { epoch: number; seq: number; sub: number }): number {
  return a.epoch - b.epoch || a.seq - b.seq || a.sub - b.sub;
}

class SessionBuffer {
  readonly entries: StoredEvent[] = [];
  readonly held = new Set<string>();
  highWater: Position | undefined;
  /** The newest position ever evicted: a resume from below it has lost events (AEP-0003 §5). */
  evictedHigh: Position | undefined;
  private arrivals = 0;

  constructor(private readonly capacity: number) {}

  nextAnchor(): { epoch: number; seq: number; sub: number } {
    const anchor = this.highWater ?? { epoch: -1, seq: 0 };
    return { ...anchor, sub: ++this.arrivals };
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
      if (this.evictedHigh === undefined || comparePositions(position, this.evictedHigh) > 0) this.evictedHigh = position;
    }
  }
}

export interface ReplayPlan {
  /** Set when the requested position predates what is held: the earliest position that follows. */
  exhausted?: Position;
  entries: StoredEvent[];
}

/**
 * Bounded per-session replay buffers (AEP-0003 §5): at most `buffer` events
 * per session and `maxSessions` sessions, least recently active forgotten
 * first. Admission dedupes on `(source, id)`; what it returns is always
 * fanned out live, duplicates included, because at-least-once redelivery must
 * traverse the hop (AEP-0003 §5, AEP-0004 §3).
 */
export class SessionStore {
  private readonly sessions = new Map<string, SessionBuffer>();

  constructor(
    private readonly buffer: number,
    private readonly maxSessions: number,
  ) {}

  get sessionCount(): number {
    return this.sessions.size;
  }

  /** Stores the event when it is new and has a place in a session; returns what to fan out. */
  admit(admitted: Admitted): { entry: StoredEvent; stored: boolean } {
    const { event, raw } = admitted;
    const session = event.session;
    if (session === undefined) return { entry: this.transient(admitted, { epoch: 0, seq: 0, sub: 0 }), stored: false };
    const buffer = this.touch(session);
    const key = dedupeKey(event);
    const place = event.seq === undefined ? buffer.nextAnchor() : { epoch: epochOf(event), seq: event.seq, sub: 0 };
    const entry: StoredEvent = { event, raw, ...place, rendered: new Map() };
    if (buffer.held.has(key)) return { entry, stored: false };
    // A position already evicted cannot come back without moving "earliest held" backwards.
    if (place.sub === 0 && buffer.evictedHigh !== undefined && comparePositions(place, buffer.evictedHigh) <= 0) {
      return { entry, stored: false };
    }
    buffer.insert(entry, key);
    return { entry, stored: true };
  }

  /** Held events of one session strictly after `after` (AEP-0003 §7), or all of them. */
  replay(session: string, after?: Position): ReplayPlan {
    const buffer = this.sessions.get(session);
    if (!buffer) return { entries: [] };
    if (after === undefined) return { entries: [...buffer.entries] };
    const entries = buffer.entries.filter((e) => compareStored(e, { ...after, sub: 0 }) > 0);
    const first = buffer.entries[0];
    if (buffer.evictedHigh !== undefined && comparePositions(after, buffer.evictedHigh) < 0 && first) {
      return { exhausted: { epoch: first.epoch, seq: first.seq }, entries };
    }
    return { entries };
  }

  /** Every held session, each from its earliest held event (replay-all, AEP-0003 §5). */
  sessionNames(): string[] {
    return [...this.sessions.keys()];
  }

  private touch(session: string): SessionBuffer {
    let buffer = this.sessions.get(session);
    if (buffer) {
      // Re-insert to keep the Map in least-recently-active order.
      this.sessions.delete(session);
    } else {
      buffer = new SessionBuffer(this.buffer);
    }
    this.sessions.set(session, buffer);
    while (this.sessions.size > this.maxSessions) {
      const oldest = this.sessions.keys().next().value;
      if (oldest === undefined) break;
      this.sessions.delete(oldest);
    }
    return buffer;
  }

  private transient(admitted: Admitted, place: { epoch: number; seq: number; sub: number }): StoredEvent {
    return { ...admitted, ...place, rendered: new Map() };
  }
}
