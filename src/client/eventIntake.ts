import { ACCEPTED_TYPE, REJECTED_TYPE } from '../aep/control';
import { isActionType } from '../inbox/recentActions';
import { MutableDisposable, toDisposable } from '../base/disposable';
import type { Subscription } from '../base/emitter';
import { epochOf, sessionKey, type AepEvent } from '../aep/envelope';
import type { Inbox, PositionTaken } from '../inbox/inbox';
import type { Position } from '../inbox/position';
import type { ControlSender } from './controlSender';
import type { PositionStore } from './positionStore';

/**
 * How long a session's position moved by tool calls and runs alone waits
 * before it is saved: a burst of tool chatter saves one position per session
 * per this long (and what is left on dispose), not one per event.
 */
export const ACTION_SAVE_MS = 1_000;

/** Counts since the client started, for diagnostics and benchmarks. */
export interface IntakeCounts {
  eventsApplied: number;
  duplicatesDropped: number;
  /** Events not applied because another event of their session held their position (AEP-0001 §7.2). */
  positionsTaken: number;
  commandsSettled: number;
}

/**
 * Where every event from the hub goes: into the inbox (which dedupes on
 * `(source, id)` before anything else sees it), the resume positions, and
 * the control sender's acks. Knows nothing of sockets or subscriptions.
 */
export class EventIntake {
  readonly counts: IntakeCounts = { eventsApplied: 0, duplicatesDropped: 0, positionsTaken: 0, commandsSettled: 0 };
  /** Drops the positions of sessions the inbox forgets. */
  private readonly forgetting: Subscription;
  /**
   * Sessions whose latest applied position came from a tool call or a run and
   * is not saved yet, by `(source, session)` key, with that position: only it
   * is saved (saveUnsaved), never one something else moved the session to since.
   */
  private readonly unsaved = new Map<string, { source: string; session: string; at: Position }>();
  /** Set while a paced save is due (saveLater); cleared by the save. */
  private readonly saveTimer = new MutableDisposable();
  private disposed = false;

  constructor(
    private readonly inbox: Inbox,
    private readonly positions: PositionStore,
    private readonly sender: ControlSender,
    private readonly report: (message: string) => void,
  ) {
    this.forgetting = inbox.onDidForgetSession(({ source, session }) => {
      this.unsaved.delete(sessionKey(source, session));
      positions.forget?.(source, session);
    });
    // A window reload: what the earlier window applied is not applied again (a replay of everything
    // brings it back, and a request it saw closed must not reopen if the replay is cut before the close),
    // and nothing else is held back: a request it never received (a gap filled since, a filter since
    // widened, one its snapshot left out) arrives as new. Per `(source, session)` (AEP-0001 §5.2); a
    // position saved without its source names no emitter and holds nothing back.
    for (const { source, session, epoch, seq, applied } of positions.load()) {
      if (source !== undefined) inbox.seedApplied(source, session, applied ?? { floor: { epoch, seq }, runs: [] });
    }
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
    const isAck = event.type === ACCEPTED_TYPE || event.type === REJECTED_TYPE;
    const outcome = this.inbox.apply(event);
    if (!outcome.applied) {
      if (outcome.reason === 'refused') this.report(outcome.problem);
      else if (outcome.reason === 'position-taken') this.positionTaken(event, outcome.taken, outcome.first);
      else {
        this.counts.duplicatesDropped++;
        if (outcome.changed?.first) {
          this.report(
            `${event.agent} sent request ${JSON.stringify(event.id)} in session ${event.session ?? ''} (${event.source}) again with other content: ` +
              'the first stands (AEP-0001 §7: deduplicated by source and id); a changed request needs a new id. Further ones are counted, not reported',
          );
        }
        // A resent command's target re-emits its recorded ack (AEP-0004 §3): the same event, and only it settles the command.
        if (isAck) this.settle(event);
      }
      return;
    }
    this.counts.eventsApplied++;
    if (outcome.problem) this.report(outcome.problem);
    if (event.session !== undefined && event.type === 'session.ended' && event.seq !== undefined) {
      // An ended session has nothing left to resume: its position would only take a `from` slot.
      this.unsaved.delete(sessionKey(event.source, event.session));
      this.positions.forget?.(event.source, event.session);
    } else if (outcome.positionAdvanced && event.session !== undefined && event.seq !== undefined && !isAck && !this.endedBy(event, event.session)) {
      // Acks may arrive on the ack subscription ahead of the main subscription's replay of
      // their session: saving a position from one could skip the events still being replayed.
      // The session's next event on the main subscription saves it instead.
      // Tool calls and runs ("Before asking") are most of a busy agent's traffic, and saving
      // (and persisting) a position per tool call cost more than the rest of their handling:
      // their session's position is saved at most once per ACTION_SAVE_MS (and on dispose).
      // Never saving it would leave a reload resuming from the last attention or session event,
      // which a hub that has since dropped it (its buffer rolled over with tool chatter) answers
      // with `replay-exhausted`: "older requests may be missing" when none were.
      if (isActionType(event.type)) this.saveLater(event.source, event.session, { epoch: epochOf(event), seq: event.seq });
      else this.save(event.source, event.session);
    }
    if (isAck) this.settle(event);
  }

  /** An error frame about a command settled it (AEP-0004 §4.2). */
  noteSettled(): void {
    this.counts.commandsSettled++;
  }

  /** Saves what is left unsaved (a window reload or a rebuilt client resumes from there), then stops. */
  dispose(): void {
    if (this.disposed) return;
    this.saveUnsaved();
    this.disposed = true;
    this.forgetting.dispose();
    this.saveTimer.dispose();
  }

  private save(source: string, session: string): void {
    this.unsaved.delete(sessionKey(source, session));
    const position = this.inbox.positionOf(source, session);
    if (position) this.positions.record(position);
  }

  /**
   * The event comes after its session ended, in the epoch that ended (a tool
   * call straggling after `session.ended`): its position would bring back the
   * one the end forgot. A later epoch is the session begun again, and resumes.
   */
  private endedBy(event: AepEvent, session: string): boolean {
    const end = this.inbox.endOf(event.source, session);
    return end !== undefined && end.epoch >= epochOf(event);
  }

  /** The session's position `at` (the action event's) is saved with the next batch, at most ACTION_SAVE_MS from now. */
  private saveLater(source: string, session: string, at: Position): void {
    if (this.disposed) return;
    this.unsaved.set(sessionKey(source, session), { source, session, at });
    if (this.saveTimer.value) return;
    const timer = setTimeout(() => this.saveUnsaved(), ACTION_SAVE_MS);
    this.saveTimer.value = toDisposable(() => clearTimeout(timer));
  }

  /**
   * Saves each unsaved session where its action event left it, and only if it
   * still stands there: a live ack applied since (from the ack subscription,
   * never saved) may have moved the session past events still being replayed
   * on the main one, and saving that position would skip them on a reload.
   * Such a session is saved by its next event on the main subscription.
   */
  private saveUnsaved(): void {
    this.saveTimer.clear();
    for (const [key, { source, session, at }] of [...this.unsaved]) {
      this.unsaved.delete(key);
      const position = this.inbox.positionOf(source, session);
      if (position !== undefined && position.epoch === at.epoch && position.seq === at.seq) this.positions.record(position);
    }
  }

  private settle(event: AepEvent): void {
    if (this.sender.onAck(event)) this.counts.commandsSettled++;
  }

  /** Said once per session; the inbox keeps the first one for the session's tooltip (Inbox.positionTaken). */
  private positionTaken(event: AepEvent, taken: Readonly<PositionTaken>, first: boolean): void {
    this.counts.positionsTaken++;
    if (!first) return;
    this.report(
      `${event.agent} sent two events at one position (epoch ${taken.epoch}, seq ${taken.seq}) in session ${event.session ?? ''} ` +
        `(${event.source}): ${taken.kept} stands and ${taken.refused} was not applied (AEP-0001 §7.2: one event per position); ` +
        'further events at a taken position in this session are counted, not reported',
    );
  }
}
