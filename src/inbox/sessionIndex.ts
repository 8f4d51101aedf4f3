import { sessionKey } from '../aep/envelope';
import type { AppliedPositions } from './appliedPositions';
import type { Position } from './position';
import { SessionTimeline } from './sessionTimeline';

export interface SessionState {
  readonly key: string;
  readonly source: string;
  readonly session: string;
  agent: string;
  readonly timeline: SessionTimeline;
  /** Sequenced events came from this source for this session: it owns the session's order. */
  owned: boolean;
  /** The positions applied, the earlier window's included: what arrives at one of them again is not applied. */
  readonly applied: AppliedPositions;
  /** The first event refused for a position another event holds, and how many were; surfaced once (AEP-0001 §7.2). */
  positionTaken?: PositionTaken;
  endedAt?: Position;
  openCount: number;
  touched: number;
}

/** Two events of one emitter's session at one `(epoch, seq)` with different ids: the first stands. */
export interface PositionTaken {
  readonly epoch: number;
  readonly seq: number;
  /** The id applied at the position. */
  readonly kept: string;
  /** The first id refused there. */
  readonly refused: string;
  /** Events refused so far in the session for a position already held. */
  count: number;
}

/**
 * The sessions an inbox tracks, by `(source, session)` (an emitter's session,
 * AEP-0001 §5.2) and by session string (what `subscribe.from` and foreign
 * events name), and which one to forget first when there are too many.
 */
export class SessionIndex {
  private readonly byKey = new Map<string, SessionState>();
  /**
   * The tracked sessions holding no open request, least recently active first
   * (a touch re-inserts at the end), so eviction finds the one to forget
   * without a scan. Sessions holding open requests are kept out of it.
   */
  private readonly quiet = new Map<string, SessionState>();
  private readonly byName = new Map<string, Set<string>>();
  private touchCounter = 0;

  constructor(
    private readonly timelineLimit: number,
    private readonly onTimelineBytes: (delta: number) => void,
    /** Open requests already held for a session key, under a seq-less request applied before the session was tracked. */
    private readonly openCountOf: (key: string) => number,
    /** The applied positions a session starts with: the earlier window's, after a reload. */
    private readonly appliedOf: (key: string) => AppliedPositions,
  ) {}

  get size(): number {
    return this.byKey.size;
  }

  get(key: string): SessionState | undefined {
    return this.byKey.get(key);
  }

  of(source: string, session: string): SessionState | undefined {
    return this.byKey.get(sessionKey(source, session));
  }

  /** Every emitter's tracked session of one session string. */
  *named(session: string): Generator<SessionState> {
    for (const key of this.byName.get(session) ?? []) {
      const state = this.byKey.get(key);
      if (state) yield state;
    }
  }

  values(): IterableIterator<SessionState> {
    return this.byKey.values();
  }

  /** The emitter's session, tracked from now on if it was not, and marked active. */
  own(source: string, session: string, agent: string): SessionState {
    const key = sessionKey(source, session);
    let state = this.byKey.get(key);
    if (!state) {
      const timeline = new SessionTimeline(this.timelineLimit, this.onTimelineBytes);
      const openCount = this.openCountOf(key);
      state = { key, source, session, agent, timeline, owned: false, applied: this.appliedOf(key), openCount, touched: 0 };
      this.byKey.set(key, state);
      if (openCount === 0) this.quiet.set(key, state);
      let names = this.byName.get(session);
      if (!names) this.byName.set(session, (names = new Set()));
      names.add(key);
    }
    this.touch(state);
    return state;
  }

  /** Marks a session active now: a quiet one moves to the end of the eviction order. */
  touch(state: SessionState): void {
    state.touched = ++this.touchCounter;
    if (this.quiet.delete(state.key)) this.quiet.set(state.key, state);
  }

  /** One more open request in the session: while it holds any, eviction does not look at it. */
  opened(state: SessionState): void {
    if (state.openCount++ === 0) this.quiet.delete(state.key);
  }

  /** One fewer: with none left the session is quiet again, as active now (a request closing is activity). */
  closed(state: SessionState): void {
    if (state.openCount === 0) return;
    if (--state.openCount > 0) return;
    state.touched = ++this.touchCounter;
    if (this.byKey.get(state.key) === state) this.quiet.set(state.key, state);
  }

  /**
   * Forgets the least recently active quiet sessions until `max` are
   * tracked. Sessions holding open requests are not in `quiet`, so a flood of
   * them costs nothing here: O(1) per event, amortised.
   */
  evictBeyond(max: number, forgotten: (state: SessionState) => void): void {
    while (this.byKey.size > max) {
      const state: SessionState | undefined = this.quiet.values().next().value;
      if (state === undefined) return;
      this.quiet.delete(state.key);
      state.timeline.clear();
      this.byKey.delete(state.key);
      const names = this.byName.get(state.session);
      names?.delete(state.key);
      if (names && names.size === 0) this.byName.delete(state.session);
      forgotten(state);
    }
  }

  /** Timelines holding history, least useful first: quiet sessions, then those with open requests, each least recently active first. */
  historiesByUse(): SessionTimeline[] {
    const byActivity = (a: SessionState, b: SessionState) => a.touched - b.touched;
    const withHistory = [...this.byKey.values()].filter((state) => state.timeline.size > 0);
    return [
      ...withHistory.filter((state) => state.openCount === 0).sort(byActivity),
      ...withHistory.filter((state) => state.openCount > 0).sort(byActivity),
    ].map((state) => state.timeline);
  }
}
