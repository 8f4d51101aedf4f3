import { ACCEPTED_TYPE, readRejected, REJECTED_TYPE, type RespondCommand } from '../control';
import type { AepEvent } from '../envelope';
import type { ErrorFrame } from '../frames';
import type { Logger } from './logger';

/** How a command ended, as the sender saw it (AEP-0004 §3, §4.2). */
export type SendOutcome =
  | { kind: 'accepted'; commandId: string }
  /** The target said no; `invalid` leaves the request pending so the user can fix the answer. */
  | { kind: 'rejected'; commandId: string; reason: string; detail?: string }
  /** The hub refused on the target's behalf (`no-route`, `ambiguous`, `unsupported`, `unauthorized`). */
  | { kind: 'refused-by-hub'; commandId: string; code: string; detail?: string }
  /** No acknowledgement within the ack window: synthesized here, never on the wire. */
  | { kind: 'timeout'; commandId: string; afterMs: number }
  | { kind: 'cancelled'; commandId: string; reason: string };

const MAX_TIMED_OUT = 64;

/** Where commands are written; false when there is no open connection right now. */
export type CommandWriter = (text: string) => boolean;

/** Who a command is addressed to: the session it names and the emitter that owns it there. */
export interface CommandTarget {
  session: string;
  /** The `source` of the request being answered: its emitter is the session's owner (AEP-0001 §5.2). */
  source: string;
}

interface Pending {
  command: RespondCommand;
  target: CommandTarget;
  /** Serialized once: a retry MUST resend the same envelope (AEP-0004 §2.3). */
  text: string;
  ackWindowMs: number;
  timer: ReturnType<typeof setTimeout> | undefined;
  attempts: number;
  settle: (outcome: SendOutcome) => void;
}

/**
 * The control sender of AEP-0004 §7: sends each command, settles it exactly
 * once on the target's ack, a hub refusal or the ack window running out, and
 * resends the SAME envelope after a reconnect when no ack was seen, so the
 * target dedupes instead of executing twice. Commands written while offline
 * wait for the connection.
 */
export class ControlSender {
  private readonly pending = new Map<string, Pending>();
  /** Commands whose ack window ran out, kept (bounded) so the user can send the same command again. */
  private readonly timedOut = new Map<string, { command: RespondCommand; target: CommandTarget; ackWindowMs: number; late?: SendOutcome }>();
  private writer: CommandWriter | undefined;

  constructor(private readonly log: Logger) {}

  get pendingCount(): number {
    return this.pending.size;
  }

  send(command: RespondCommand, ackWindowMs: number, target: CommandTarget): Promise<SendOutcome> {
    this.timedOut.delete(command.id);
    return new Promise<SendOutcome>((resolve) => {
      const entry: Pending = {
        command, target, text: JSON.stringify(command), ackWindowMs, timer: undefined, attempts: 0,
        settle: (outcome) => {
          if (entry.timer) clearTimeout(entry.timer);
          this.pending.delete(command.id);
          resolve(outcome);
        },
      };
      this.pending.set(command.id, entry);
      this.write(entry);
    });
  }

  /** A connection is up (after hello and subscribe): send what is waiting or unacknowledged. */
  connected(writer: CommandWriter): void {
    this.writer = writer;
    for (const entry of this.pending.values()) this.write(entry);
  }

  /** The connection is gone: stop the ack clocks; unacknowledged commands are resent on reconnect. */
  disconnected(): void {
    this.writer = undefined;
    for (const entry of this.pending.values()) {
      if (entry.timer) clearTimeout(entry.timer);
      entry.timer = undefined;
    }
  }

  /**
   * Sends a timed-out command again, byte-identical and under the same id
   * (AEP-0004 §2.3), so a target that did receive it re-acks instead of
   * acting twice. Undefined when no such command timed out here. If its ack
   * arrived late in the meantime, that outcome is returned without a resend.
   */
  resend(commandId: string): Promise<SendOutcome> | undefined {
    const expired = this.timedOut.get(commandId);
    if (!expired) return undefined;
    if (expired.late) {
      this.timedOut.delete(commandId);
      return Promise.resolve(expired.late);
    }
    return this.send(expired.command, expired.ackWindowMs, expired.target);
  }

  /** Offer every applied `control.accepted` / `control.rejected` event; returns true when it settled one of ours. */
  onAck(event: AepEvent): boolean {
    if (event.cause === undefined) return false;
    const entry = this.pending.get(event.cause);
    const expired = entry ? undefined : this.timedOut.get(event.cause);
    if (!entry && !expired) return false;
    const commandId = event.cause;
    const target = entry?.target ?? expired?.target;
    if (target && !fromTarget(event, target)) {
      // AEP-0004 §4.5: "a sender that receives acks from a target it did not address has
      // been routed wrong, not answered twice". Only the addressed session's owner settles.
      this.log.warn(
        `ignored a misrouted ${event.type} for command ${commandId} from ${event.agent} (${event.source}, session ${event.session ?? 'none'}): ` +
          `the command was addressed to session ${target.session} of ${target.source}`,
      );
      return false;
    }
    let outcome: SendOutcome;
    if (event.type === ACCEPTED_TYPE) {
      outcome = { kind: 'accepted', commandId };
    } else if (event.type === REJECTED_TYPE) {
      const data = readRejected(event);
      const reason = data.ok ? data.value.reason : 'invalid';
      const detail = data.ok ? data.value.detail : data.problem;
      outcome = { kind: 'rejected', commandId, reason, ...(detail !== undefined ? { detail } : {}) };
    } else {
      return false;
    }
    if (entry) entry.settle(outcome);
    else if (expired) {
      expired.late = outcome;
      this.log.info(`late acknowledgement for ${commandId} (after its ack window): ${outcome.kind}`);
    }
    return true;
  }

  /** A hub `error` frame whose `cause` names one of our commands settles it as refused (AEP-0004 §4.2). */
  onErrorFrame(frame: ErrorFrame): boolean {
    const entry = frame.cause === undefined ? undefined : this.pending.get(frame.cause);
    if (!entry) return false;
    entry.settle({
      kind: 'refused-by-hub', commandId: entry.command.id, code: frame.code,
      ...(frame.detail !== undefined ? { detail: frame.detail } : {}),
    });
    return true;
  }

  dispose(reason = 'the extension stopped before the agent answered'): void {
    for (const entry of [...this.pending.values()]) entry.settle({ kind: 'cancelled', commandId: entry.command.id, reason });
    this.timedOut.clear();
    this.writer = undefined;
  }

  private write(entry: Pending): void {
    if (!this.writer || entry.timer) return;
    if (!this.writer(entry.text)) return;
    entry.attempts++;
    this.log.info(`sent ${entry.command.type} ${entry.command.id} for request ${entry.command.subject}${entry.attempts > 1 ? ` (resend ${entry.attempts - 1}, same id)` : ''}`);
    entry.timer = setTimeout(() => {
      this.rememberTimedOut(entry);
      entry.settle({ kind: 'timeout', commandId: entry.command.id, afterMs: entry.ackWindowMs });
    }, entry.ackWindowMs);
  }

  private rememberTimedOut(entry: Pending): void {
    this.timedOut.set(entry.command.id, { command: entry.command, target: entry.target, ackWindowMs: entry.ackWindowMs });
    // Oldest first out: a person retries within minutes, not hundreds of answers later.
    while (this.timedOut.size > MAX_TIMED_OUT) {
      const oldest = this.timedOut.keys().next().value;
      if (oldest === undefined) break;
      this.timedOut.delete(oldest);
    }
  }
}

/** An ack comes from the command's target when it is an event of the addressed session under the owner's identity. */
function fromTarget(event: AepEvent, target: CommandTarget): boolean {
  return event.session === target.session && event.source === target.source;
}
