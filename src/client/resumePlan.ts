import type { ResumePosition, SubscribeFrame } from '../aep/frames';
import { comparePositions } from '../inbox/position';
import type { KeptPosition } from './positionStore';

/**
 * Resume positions named in one `from` until the hub says it takes fewer.
 * AEP 0.1 gives a hub no way to advertise how many it replays (AEP-0003 §4
 * capabilities carry only `replay.buffer` and `replay.all`); it refuses more
 * with `limit-exceeded` (§6.5), and its limits are its own: the test hub takes
 * 256, the reference relay its session cap, the conformance stub 8. So the
 * first try stays well under the known ones and a refusal halves it.
 */
export const DEFAULT_FROM_LIMIT = 64;

/**
 * The `from` entries for kept positions (least recently advanced first): one
 * per session string, as the wire names no emitter (AEP-0003 §7: `(session,
 * epoch, seq)`). Where several emitters share a session string the earliest
 * of their positions is sent, so none of them misses an event; what arrives
 * again for the others is dropped by the `(source, id)` dedupe (AEP-0001 §7.4).
 * An entry stands as recent as its most recently advanced emitter.
 */
export function resumeEntries(kept: readonly KeptPosition[]): ResumePosition[] {
  const bySession = new Map<string, ResumePosition>();
  for (const { session, epoch, seq } of kept) {
    const known = bySession.get(session);
    const earliest = known === undefined || comparePositions({ epoch, seq }, known) < 0 ? { session, epoch, seq } : known;
    // Deleted first so the entry moves to the recent end, as its newest emitter stands.
    bySession.delete(session);
    bySession.set(session, earliest);
  }
  return [...bySession.values()];
}

/**
 * Kept positions in the order a `from` takes them (planResume sends the last
 * that fit): sessions holding an open request after all others, each group
 * least recently advanced first. A session waiting on the person is quiet
 * while busy ones advance, and its outcome (answered or resolved elsewhere
 * meanwhile) is what a resume must not miss. A position saved without its
 * source names no emitter, and counts as holding none.
 */
export function waitingLast(kept: readonly KeptPosition[], waiting: (source: string, session: string) => boolean): KeptPosition[] {
  const quiet: KeptPosition[] = [];
  const open: KeptPosition[] = [];
  for (const position of kept) (position.source !== undefined && waiting(position.source, position.session) ? open : quiet).push(position);
  return [...quiet, ...open];
}

export interface ResumeInput {
  /** Saved positions, least recently advanced first, sessions holding an open request last (`waitingLast`). */
  saved: readonly ResumePosition[];
  /** The hub advertised `replay.all` (AEP-0003 §5) and has not refused it on this client. */
  replayAll: boolean;
  /** Most positions to name in one `from`. */
  limit: number;
}

export interface ResumePlan {
  from: SubscribeFrame['from'];
  /** Saved sessions the `from` leaves out (only live events of theirs arrive): for the log and the status tooltip. */
  leftOut: number;
}

/**
 * The main subscription's `from`. Replay-all whenever the hub offers it:
 * positions name only the sessions this client has seen (AEP-0003 §7), so a
 * session begun while it was away, by an agent that posted over HTTP or has
 * since disconnected, is in none of them and in no roster (§4.1 rule 3).
 * Replay-all covers every session the hub holds (§5), and the inbox drops
 * what arrives again by the positions each session applied (however long the
 * replay), by `(source, id)` for events without one. Without it: the last
 * positions that fit (those of sessions holding an open request, then the most
 * recently advanced); else none (live delivery only).
 */
export function planResume(input: ResumeInput): ResumePlan {
  const { saved, replayAll, limit } = input;
  if (replayAll) return { from: 'all', leftOut: 0 };
  if (saved.length === 0) return { from: undefined, leftOut: 0 };
  const sent = Math.max(0, Math.min(limit, saved.length));
  if (sent === 0) return { from: undefined, leftOut: saved.length };
  return { from: saved.slice(saved.length - sent), leftOut: saved.length - sent };
}

/**
 * What to try after the hub refused the main subscription (AEP-0003 §6.5: a
 * refusal is per request and leaves the connection open). Each step asks for
 * less, so the ladder ends: replay-all refused → positions only; positions
 * refused → half as many, down to none; a subscription with no `from` refused
 * → nothing left to drop (`undefined`: reconnect with backoff).
 */
export function degradeAfterRefusal(
  refused: SubscribeFrame['from'],
  state: { limit: number; replayAll: boolean },
): { limit: number; replayAll: boolean } | undefined {
  if (refused === 'all') return { limit: state.limit, replayAll: false };
  if (Array.isArray(refused) && refused.length > 0) return { limit: Math.min(state.limit, Math.floor(refused.length / 2)), replayAll: state.replayAll };
  return undefined;
}
