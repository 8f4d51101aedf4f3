import { ACCEPTED_TYPE, REJECTED_TYPE } from '../aep/control';
import { epochOf, sessionKey, type AepEvent } from '../aep/envelope';
import { comparePositions, type Position } from '../inbox/position';
import type { KeptPosition } from './positionStore';

/** A session the hub no longer held from where this client stood; `earliest` is where its delivery began. */
export interface ReplayGap {
  session: string;
  earliest: Position;
}

/**
 * What a replay of everything (AEP-0003 §5 replay-all) shows of what the hub
 * dropped, which it never says itself (rule 2: no `replay-exhausted` for it).
 * It replays each session from its earliest held position, so where this
 * client stood is delivered again whenever the hub still holds it (that event
 * passed the same filter before). The first sequenced event of an emitter's
 * session after where the client stood, and not next to it, means the hub
 * dropped that position and perhaps requests after it. A session the hub
 * dropped whole, or one never seen here, shows nothing: the status says the
 * hub cannot tell (ResumeNotice `replay-all-unverifiable`).
 */
export class ReplayAllGaps {
  /** Where each saved `(source, session)` stood, until its first event on this subscription. */
  private waiting = new Map<string, Position>();

  /** A replay of everything was asked for; `kept`: where the client stood. Positions saved without a source name no emitter to watch. */
  watch(kept: readonly KeptPosition[]): void {
    this.waiting = new Map();
    for (const { source, session, epoch, seq } of kept) if (source !== undefined) this.waiting.set(sessionKey(source, session), { epoch, seq });
  }

  /** The subscription resumes otherwise (positions draw `replay-exhausted` from the hub) or is gone. */
  stop(): void {
    this.waiting = new Map();
  }

  /** One event of the main subscription: the gap it shows, once per watched session. */
  check(event: AepEvent): ReplayGap | undefined {
    if (this.waiting.size === 0 || event.seq === undefined || event.session === undefined) return undefined;
    // Acks may come live on their own subscription ahead of the replay of their session.
    if (event.type === ACCEPTED_TYPE || event.type === REJECTED_TYPE) return undefined;
    const key = sessionKey(event.source, event.session);
    const stood = this.waiting.get(key);
    if (stood === undefined) return undefined;
    this.waiting.delete(key);
    const first = { epoch: epochOf(event), seq: event.seq };
    if (comparePositions(first, stood) <= 0) return undefined;
    if (first.epoch === stood.epoch && first.seq === stood.seq + 1) return undefined;
    return { session: event.session, earliest: first };
  }
}
