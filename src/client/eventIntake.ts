import { ACCEPTED_TYPE, REJECTED_TYPE } from '../aep/control';
import type { Subscription } from '../base/emitter';
import { epochOf, sessionKey, type AepEvent } from '../aep/envelope';
import type { Inbox } from '../inbox/inbox';
import { comparePositions } from '../inbox/position';
import type { ControlSender } from './controlSender';
import type { KeptPosition, PositionStore } from './positionStore';

/** Counts since the client started, for diagnostics and benchmarks. */
export interface IntakeCounts {
  eventsApplied: number;
  duplicatesDropped: number;
  commandsSettled: number;
}

/**
 * Where every event from the hub goes: into the inbox (which dedupes on
 * `(source, id)` before anything else sees it), the resume positions, and
 * the control sender's acks. Knows nothing of sockets or subscriptions.
 */
export class EventIntake {
  readonly counts: IntakeCounts = { eventsApplied: 0, duplicatesDropped: 0, commandsSettled: 0 };
  /**
   * Where each session stood when this client was built from saved state (a
   * window reload): the earlier window applied everything up to there, and its
   * saved inbox holds what of it is still open. A replay of everything brings
   * those events again; a request among them that the earlier window saw
   * closed must not reopen here because the replay was cut before its close.
   * Keyed by `(source, session)` (AEP-0001 §5.2): another emitter's events in
   * a session of the same name were not applied by it. A position saved
   * without its source names no emitter and holds nothing back.
   */
  private readonly appliedBefore = new Map<string, KeptPosition>();
  /** Drops the positions of sessions the inbox forgets. */
  private readonly forgetting: Subscription;

  constructor(
    private readonly inbox: Inbox,
    private readonly positions: PositionStore,
    private readonly sender: ControlSender,
    private readonly report: (message: string) => void,
  ) {
    this.forgetting = inbox.onDidForgetSession(({ source, session }) => positions.forget?.(source, session));
    for (const position of positions.load()) if (position.source !== undefined) this.appliedBefore.set(sessionKey(position.source, position.session), position);
  }

  /**
   * One event. `acksOnly`: it came only for the acks of our commands, so it
   * settles one or nothing and stays out of the inbox (a session the user's
   * filter leaves out gets no timeline and no resume position here).
   */
  take(event: AepEvent, acksOnly: boolean): void {
    if (acksOnly) {
      this.settle(event);
      return;
    }
    if (this.seenByEarlierWindow(event)) {
      this.counts.duplicatesDropped++;
      return;
    }
    const outcome = this.inbox.apply(event);
    if (!outcome.applied) {
      if (outcome.reason === 'refused') this.report(outcome.problem);
      else this.counts.duplicatesDropped++;
      return;
    }
    this.counts.eventsApplied++;
    if (outcome.problem) this.report(outcome.problem);
    const isAck = event.type === ACCEPTED_TYPE || event.type === REJECTED_TYPE;
    if (event.session !== undefined && event.type === 'session.ended' && event.seq !== undefined) {
      // An ended session has nothing left to resume: its position would only take a `from` slot.
      this.positions.forget?.(event.source, event.session);
    } else if (outcome.positionAdvanced && event.session !== undefined && !isAck) {
      // Acks may arrive on the ack subscription ahead of the main subscription's replay of
      // their session: saving a position from one could skip the events still being replayed.
      // The session's next event on the main subscription saves it instead.
      const position = this.inbox.positionOf(event.source, event.session);
      if (position) this.positions.record(position);
    }
    if (isAck) this.settle(event);
  }

  /** An error frame about a command settled it (AEP-0004 §4.2). */
  noteSettled(): void {
    this.counts.commandsSettled++;
  }

  dispose(): void {
    this.forgetting.dispose();
  }

  private settle(event: AepEvent): void {
    if (this.sender.onAck(event)) this.counts.commandsSettled++;
  }

  /**
   * A sequenced event at or below where its session stood when this client was
   * built from saved state. Acks are let through: a resent command's target
   * re-emits its recorded ack at the same position (AEP-0004 §3), and only
   * the ack settles the command.
   */
  private seenByEarlierWindow(event: AepEvent): boolean {
    if (this.appliedBefore.size === 0 || event.seq === undefined || event.session === undefined || event.type === ACCEPTED_TYPE || event.type === REJECTED_TYPE) return false;
    const before = this.appliedBefore.get(sessionKey(event.source, event.session));
    return before !== undefined && comparePositions({ epoch: epochOf(event), seq: event.seq }, before) <= 0;
  }
}
