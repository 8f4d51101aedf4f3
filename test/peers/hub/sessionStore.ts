import { dedupeKey, epochOf, sessionKey, type AepEvent } from '../../../src/aep/envelope';
import { comparePositions, type Position } from '../../../src/inbox/position';
import type { Admitted } from './admission';
import { positionAfter, SessionBuffer, type ReplayPlan, type StoredEvent } from './sessionBuffer';

export type { ReplayPlan, StoredEvent } from './sessionBuffer';

/** A session the hub no longer holds, and the newest position it lost with it. */
interface Forgotten {
  readonly session: string;
  readonly last: Position;
}

/**
 * Bounded replay buffers (AEP-0003 §5), one per emitter session
 * `(source, session)`: two emitters can use one session string for two
 * sessions (AEP-0001 §5.2). At most `buffer` events per session and
 * `maxSessions` sessions, least recently active forgotten first; the newest
 * position of each forgotten session is remembered (as many as there are
 * sessions), so a resume into it can say what was lost.
 *
 * Admission dedupes on `(source, id)`; what it returns is always fanned out
 * live, duplicates included, because at-least-once redelivery must traverse
 * the hop (AEP-0003 §5, AEP-0004 §3).
 */
export class SessionStore {
  /** Least recently active first. */
  private readonly buffers = new Map<string, SessionBuffer>();
  private readonly forgotten = new Map<string, Forgotten>();
  /** Session string → keys of the buffers and forgotten sessions of that name. */
  private readonly byName = new Map<string, Set<string>>();

  constructor(
    private readonly buffer: number,
    private readonly maxSessions: number,
  ) {}

  get sessionCount(): number {
    return this.buffers.size;
  }

  /**
   * Stores the event when it is new and has a place in a session; returns
   * what to fan out. `owner` is the source of the session a seq-less event is
   * addressed to, when the caller knows it (a command it routed to a claimant).
   */
  admit(admitted: Admitted, owner?: string): { entry: StoredEvent; stored: boolean } {
    const { event, raw } = admitted;
    const session = event.session;
    if (session === undefined) return { entry: { ...admitted, epoch: 0, seq: 0, sub: 0, rendered: new Map() }, stored: false };
    const buffer = this.touch(event.seq === undefined ? (owner ?? this.homeOf(event, session)) : event.source, session);
    const key = dedupeKey(event);
    const place = event.seq === undefined ? buffer.nextAnchor() : { epoch: epochOf(event), seq: event.seq, sub: 0 };
    const entry: StoredEvent = { event, raw, ...place, rendered: new Map() };
    if (buffer.held.has(key)) return { entry, stored: false };
    if (place.sub === 0 && !buffer.admits(place)) return { entry, stored: false };
    buffer.insert(entry, key);
    return { entry, stored: true };
  }

  /**
   * Replay for a resume position. A position names a bare session
   * (AEP-0001 §5.2, §7.6: resume tokens presume one owner of the name), so
   * it applies to every emitter's session of that name: one plan each.
   */
  replay(session: string, after: Position): ReplayPlan[] {
    const plans: ReplayPlan[] = [];
    for (const key of this.byName.get(session) ?? []) {
      const buffer = this.buffers.get(key);
      if (buffer) {
        plans.push(buffer.replay(after));
        continue;
      }
      const lost = this.forgotten.get(key)?.last;
      // §5: a position that predates the buffer MUST draw replay-exhausted, and one before
      // what this session lost does. Nothing is held, so "earliest" is the first position
      // the hub could still deliver: past everything it lost, since it will not hold those again.
      if (lost !== undefined && comparePositions(after, lost) < 0) plans.push({ exhausted: positionAfter(lost), entries: [] });
    }
    return plans;
  }

  /** Every held session from its earliest held event (replay-all, AEP-0003 §5: wholly forgotten sessions are absent). */
  replayAll(): StoredEvent[][] {
    return [...this.buffers.values()].map((buffer) => buffer.replay().entries);
  }

  /**
   * A seq-less session event comes from a foreign emitter (AEP-0001 §5.2: a
   * command, `attention.routed`); it belongs in the view of the session it
   * addresses: the owner holding the event it refers to, else the only owner
   * of that session string, else a buffer of its own. The client's inbox
   * places it the same way (src/inbox/inbox.ts `foreignHome`).
   */
  private homeOf(event: AepEvent, session: string): string {
    const owners: SessionBuffer[] = [];
    for (const key of this.byName.get(session) ?? []) {
      const buffer = this.buffers.get(key);
      if (buffer?.owned && buffer.source !== event.source) owners.push(buffer);
    }
    const refs = [event.subject, event.cause].filter((ref): ref is string => ref !== undefined);
    const referenced = owners.find((buffer) => refs.some((id) => buffer.held.has(dedupeKey({ source: buffer.source, id }))));
    return (referenced ?? (owners.length === 1 ? owners[0] : undefined))?.source ?? event.source;
  }

  private touch(source: string, session: string): SessionBuffer {
    const key = sessionKey(source, session);
    let buffer = this.buffers.get(key);
    if (buffer) {
      // Re-insert to keep the Map in least-recently-active order.
      this.buffers.delete(key);
    } else {
      buffer = new SessionBuffer(source, session, this.buffer, this.forgotten.get(key)?.last);
      this.forgotten.delete(key);
      let keys = this.byName.get(session);
      if (!keys) this.byName.set(session, (keys = new Set()));
      keys.add(key);
    }
    this.buffers.set(key, buffer);
    while (this.buffers.size > this.maxSessions) {
      const [oldestKey, oldest] = this.buffers.entries().next().value ?? [];
      if (oldestKey === undefined || oldest === undefined) break;
      this.forget(oldestKey, oldest);
    }
    return buffer;
  }

  private forget(key: string, buffer: SessionBuffer): void {
    this.buffers.delete(key);
    // A buffer that never held a position (only seq-less events) lost nothing a resume could name.
    if (buffer.highWater === undefined) {
      this.unindex(key, buffer.session);
      return;
    }
    this.forgotten.set(key, { session: buffer.session, last: buffer.highWater });
    while (this.forgotten.size > this.maxSessions) {
      const [oldestKey, oldest] = this.forgotten.entries().next().value ?? [];
      if (oldestKey === undefined || oldest === undefined) break;
      this.forgotten.delete(oldestKey);
      this.unindex(oldestKey, oldest.session);
    }
  }

  private unindex(key: string, session: string): void {
    const keys = this.byName.get(session);
    keys?.delete(key);
    if (keys?.size === 0) this.byName.delete(session);
  }
}
