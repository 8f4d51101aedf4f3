import type { Answer, AttentionRequest } from '../aep/attention';
import type { DecidedCapture } from '../aep/capture';
import { ACCEPTED_TYPE, DEFAULT_ACK_WINDOW_MS, readRejected, REJECTED_TYPE, respondCommand, type RespondCommand, type SenderIdentity } from '../aep/control';
import type { AepEvent } from '../aep/envelope';
import type { ErrorFrame } from '../aep/frames';
import { commandHoldsSecret } from '../aep/secretAsking';
import type { StoredCommand, UnsettledCommands } from './commandStore';
import type { Logger } from '../base/logger';
import type { NotSentReason } from './notSent';

/** How a command ended, as the sender saw it (AEP-0004 §3, §4.2). */
export type SendOutcome =
  | { kind: 'accepted'; commandId: string }
  /** The target said no; `invalid` leaves the request pending so the user can fix the answer. */
  | { kind: 'rejected'; commandId: string; reason: string; detail?: string }
  /** The hub refused on the target's behalf (`no-route`, `ambiguous`, `unsupported`, `unauthorized`). */
  | { kind: 'refused-by-hub'; commandId: string; code: string; detail?: string }
  /** No acknowledgement within the ack window: synthesized here, never on the wire. */
  | { kind: 'timeout'; commandId: string; afterMs: number }
  /** Not sent, and why (notSent.ts). `watch-only`: refused here, before anything went to a hub that refuses every command (watchOnly.ts). */
  | ({ kind: 'cancelled'; commandId: string } & NotSentReason)
  /**
   * The client stopped (reload, rebuild) before an ack: the command is kept
   * and goes out again, unchanged, from the next client for the same hub.
   * `sent`: it was written at least once, so the agent may already have it.
   */
  | { kind: 'awaiting-ack'; commandId: string; sent: boolean }
  /**
   * An answer kept from before a reload or rebuild whose request closed
   * before its ack came: it is not sent again. `sent`: it was written before,
   * so the agent may have it; never reported as "not sent" then.
   */
  | { kind: 'request-closed'; commandId: string; sent: boolean }
  /**
   * An answer from before a reload that held text never stored readable
   * (sent at capture `full`, or a secret asked for): its envelope was kept in
   * memory only, so it cannot be sent again under its id, and is not. `sent`:
   * it was written before, so the agent may have it. The person answers again.
   */
  | { kind: 'not-kept'; commandId: string; sent: boolean };

const MAX_TIMED_OUT = 64;

/** Where commands are written; false when there is no open connection right now. */
export type CommandWriter = (text: string) => boolean;

/** Who a command is addressed to: the session it names and the emitter that owns it there. */
export interface CommandTarget {
  session: string;
  /** The `source` of the request being answered: its emitter is the session's owner (AEP-0001 §5.2). */
  source: string;
}

/** What is sent and kept: the envelope serialized once, since a retry MUST resend it unchanged (AEP-0004 §2.3). */
type Sendable = Omit<StoredCommand, 'timedOut' | 'unsent'>;

/**
 * What the caller hears of one command on the wire, as it happens; the
 * answer pipeline (src/answer) keeps the answer's phase from these, the
 * sender keeps none a surface reads.
 */
export interface SendHooks {
  /** The envelope, before it is handed over (the answer history keeps what was sent). */
  built?(command: RespondCommand): void;
  /** Written to a hub for the first time: the agent may act on it from now on. */
  written?(commandId: string): void;
  /** An ack, or a hub's refusal, that came after the ack window ran out: the timeout was not the end. */
  late?(outcome: SendOutcome): void;
}

/** The request an answer goes to, as far as building and addressing its command needs. */
export type AnsweredRequest = Pick<AttentionRequest, 'id' | 'session' | 'source' | 'fields'> & Partial<Pick<AttentionRequest, 'kind' | 'renderKind' | 'capture'>>;

/** Who the sender is and how long each target may take to ack; the client knows both (hubClient.ts). */
export interface SenderRoute {
  identity: SenderIdentity;
  ackWindowFor(session: string): number;
  /** Set when every command is refused before it is written (a watch-only hub, watchOnly.ts). */
  refusal?(commandId: string): SendOutcome | undefined;
}

const DEFAULT_ROUTE: SenderRoute = { identity: { agent: 'aep-attention', source: 'aep://localhost/agent/aep-attention' }, ackWindowFor: () => DEFAULT_ACK_WINDOW_MS };

interface Pending extends Sendable {
  hooks: SendHooks;
  timer: ReturnType<typeof setTimeout> | undefined;
  attempts: number;
  /** Came from the store (an earlier client): re-checked against the open requests before each write. */
  restored: boolean;
  /** An earlier client may have written it (the store does not know it as unsent). */
  writtenBefore: boolean;
  /** Others awaiting the same command (a "Send again" while it is still in flight: the same bytes, written again). */
  joined: Array<(outcome: SendOutcome) => void>;
  settle: (outcome: SendOutcome, how?: { keep: boolean }) => void;
}

/**
 * What the inbox knows of the request a command answers: open (with the
 * request, when it could be read), closed, or unknown (never seen here, or
 * no longer kept).
 */
export type RequestLookup = { state: 'open'; request?: AttentionRequest | undefined } | { state: 'closed' } | { state: 'unknown' };
export type OpenCheck = (command: Readonly<Sendable>) => RequestLookup;

/**
 * Where the answer pipeline (src/answer) hands a decided answer: the
 * hub client's control sender (ControlSender below), which builds the command with the capture
 * decided here (control.ts stamps it, never decides it again), keeps and
 * writes it, and tells the hooks as it goes.
 */
export interface AnswerSender {
  respond(request: AnsweredRequest, answer: Answer, capture: DecidedCapture, hooks: SendHooks): Promise<SendOutcome>;
  resend(commandId: string, hooks: SendHooks): Promise<SendOutcome> | undefined;
  /** Whether this sender keeps the command (in flight or timed out here): the one `resend` can act on. */
  holds(commandId: string): boolean;
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
  /**
   * Commands whose ack window ran out (bounded): their bytes, for "Send
   * again" under the same id, and who hears a late ack. Wire bookkeeping
   * only; what became of the answer is the pipeline's record.
   */
  private readonly timedOut = new Map<string, Sendable & { late: SendHooks['late'] }>();
  private writer: CommandWriter | undefined;
  private isOpen: OpenCheck | undefined;

  /** `store`: where unsettled commands survive this sender (a reload, a rebuild); without it they live in memory only. */
  constructor(
    private readonly log: Logger,
    private readonly store?: UnsettledCommands,
    private readonly route: SenderRoute = DEFAULT_ROUTE,
  ) {}

  get pendingCount(): number {
    return this.pending.size;
  }

  /**
   * Builds the `control.attention.respond` for an answer whose capture the
   * pipeline decided (control.ts stamps it), addresses it to the request's
   * session and emitter, and sends it. A secret or text sent as typed is
   * not kept on disk (secretAsking.ts): its envelope lives in memory only.
   */
  respond(request: AnsweredRequest, answer: Answer, capture: DecidedCapture, hooks: SendHooks = {}): Promise<SendOutcome> {
    const refused = this.route.refusal?.('');
    if (refused) return Promise.resolve(refused);
    const command = respondCommand(request, answer, this.route.identity, capture);
    hooks.built?.(command);
    const { kind, renderKind, capture: asked } = request;
    const secret = commandHoldsSecret(JSON.stringify(command), kind !== undefined && renderKind !== undefined && asked !== undefined ? { kind, renderKind, capture: asked, fields: request.fields } : undefined);
    return this.send(command, this.route.ackWindowFor(request.session), { session: request.session, source: request.source }, secret, hooks);
  }

  /** `memoryOnly`: the answer holds text never stored readable (secretAsking.ts); its envelope is not written to disk. */
  send(command: RespondCommand, ackWindowMs: number, target: CommandTarget, memoryOnly = false, hooks: SendHooks = {}): Promise<SendOutcome> {
    const text = JSON.stringify(command);
    return this.enqueue({ id: command.id, type: command.type, subject: command.subject, text, target, ackWindowMs, ...(memoryOnly ? { memoryOnly: true } : {}) }, undefined, hooks);
  }

  /**
   * Takes over the commands an earlier sender left unsettled (a window reload,
   * a client rebuild): those still awaiting an ack are resent unchanged once
   * connected, timed-out ones wait for "Send again"; those whose request is no
   * longer open are dropped, and so are timed-out ones whose request the inbox
   * no longer knows (no page can offer "Send again" of them). One kept without
   * its text (`withheld`) is not sent: `onOutcome` hears it as `not-kept`, and
   * how each resent one settles.
   */
  restore(isOpen: OpenCheck, onOutcome: (outcome: SendOutcome, command: Readonly<StoredCommand>) => void): number {
    this.isOpen = isOpen;
    let restored = 0;
    for (const stored of this.store?.list() ?? []) {
      if (this.pending.has(stored.id) || this.timedOut.has(stored.id)) continue;
      const lookup = this.lookup(stored);
      if (lookup.state === 'closed') continue;
      if (lookup.state === 'unknown' && (stored.timedOut || stored.withheld)) {
        this.store?.remove(stored.id);
        this.log.info(`dropped unsettled answer ${stored.id}: request ${stored.subject} is no longer known here, so it cannot be sent again from here`, {
          code: 'command-dropped',
          data: { ...ids(stored), why: 'request-unknown' },
        });
        continue;
      }
      if (stored.withheld) {
        const outcome: SendOutcome = { kind: 'not-kept', commandId: stored.id, sent: stored.unsent !== true };
        this.log.info(`not sending answer ${stored.id} for request ${stored.subject} again: it held text that is not kept across a reload`, {
          code: 'command-dropped',
          data: { ...ids(stored), why: 'text-not-kept' },
        });
        void Promise.resolve().then(() => onOutcome(outcome, stored));
        restored++;
        continue;
      }
      // Stored by an older version with a secret in it: off the disk now, resent from memory.
      if (!stored.memoryOnly && lookup.state === 'open' && commandHoldsSecret(stored.text, lookup.request)) {
        this.store?.keepInMemoryOnly(stored.id);
        stored.memoryOnly = true;
      }
      const { timedOut, unsent, ...command } = stored;
      if (timedOut) {
        this.timedOut.set(command.id, { ...command, late: (outcome) => onOutcome(outcome, stored) });
      } else {
        this.log.info(`restored answer ${command.id} for request ${command.subject}: it goes out ${unsent ? '' : 'again, '}unchanged, once connected`, {
          code: 'command-restored',
          data: ids(command),
        });
        void this.enqueue(command, { writtenBefore: unsent !== true }).then((outcome) => onOutcome(outcome, stored));
      }
      restored++;
    }
    return restored;
  }

  /** A connection is up (after hello and subscribe): send what is waiting or unacknowledged. */
  connected(writer: CommandWriter): void {
    this.writer = writer;
    for (const entry of [...this.pending.values()]) {
      if (entry.restored && this.lookup(entry).state === 'closed') entry.settle({ kind: 'request-closed', commandId: entry.id, sent: entry.writtenBefore || entry.attempts > 0 });
      else this.write(entry);
    }
  }

  /**
   * The hub turned out to refuse every command (watchOnly.ts): the commands
   * never written settle with `outcome` and are not written to it. One
   * written before (to this hub, before a reload) stays: the hub's own answer
   * says what became of it, and "not sent" would not be true of it.
   */
  refuseUnwritten(outcome: (commandId: string) => SendOutcome): void {
    for (const entry of [...this.pending.values()]) if (entry.attempts === 0 && !entry.writtenBefore) entry.settle(outcome(entry.id));
  }

  /** The connection is gone: stop the ack clocks; unacknowledged commands are resent on reconnect. */
  disconnected(): void {
    this.writer = undefined;
    for (const entry of this.pending.values()) {
      if (entry.timer) clearTimeout(entry.timer);
      entry.timer = undefined;
    }
  }

  holds(commandId: string): boolean {
    return this.pending.has(commandId) || this.timedOut.has(commandId);
  }

  /**
   * Sends a timed-out command again, byte-identical and under the same id
   * (AEP-0004 §2.3), so a target that did receive it re-acks instead of
   * acting twice. Undefined when no such command is in flight or timed out
   * here (a late ack settled it: the pipeline's record says how).
   */
  resend(commandId: string, hooks: SendHooks = {}): Promise<SendOutcome> | undefined {
    const refused = this.route.refusal?.(commandId);
    if (refused) return Promise.resolve(refused);
    const inFlight = this.pending.get(commandId);
    if (inFlight) {
      // Written and still awaiting its ack: the same bytes again under the same id (AEP-0004 §2 item 3), which the
      // target re-acks without acting twice, so "Send Again" sends. Queued while offline, it goes once connected.
      if (inFlight.timer && this.writer?.(inFlight.text)) {
        inFlight.attempts++;
        this.log.info(`sent ${inFlight.type} ${inFlight.id} for request ${inFlight.subject} (resend ${inFlight.attempts - 1} while awaiting its ack, same id)`, {
          code: 'command-sent',
          data: { ...ids(inFlight), sameIdAgain: true },
        });
      }
      return new Promise<SendOutcome>((resolve) => inFlight.joined.push(resolve));
    }
    const expired = this.timedOut.get(commandId);
    if (!expired) return undefined;
    const { late: _late, ...command } = expired;
    return this.enqueue(command, undefined, hooks);
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
        { code: 'ack-misrouted', data: { commandId: commandId ?? '' } },
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
    else this.settleLate(commandId, outcome, 'acknowledgement');
    return true;
  }

  /**
   * A hub `error` frame whose `cause` names one of our commands settles it as
   * refused (AEP-0004 §4.2: any cause-matched error frame is a refusal), also
   * one that comes after the ack window ran out, as a late ack does.
   */
  onErrorFrame(frame: ErrorFrame): boolean {
    if (frame.cause === undefined) return false;
    const outcome: SendOutcome = {
      kind: 'refused-by-hub', commandId: frame.cause, code: frame.code,
      ...(frame.detail !== undefined ? { detail: frame.detail } : {}),
    };
    const entry = this.pending.get(frame.cause);
    if (entry) {
      entry.settle(outcome);
      return true;
    }
    return this.settleLate(frame.cause, outcome, `refusal by the hub (${frame.code})`);
  }

  /**
   * A timed-out command settled after all: nothing is left to send again, and
   * the pipeline's record hears how it ended. False when it is not one of ours.
   */
  private settleLate(commandId: string, outcome: SendOutcome, what: string): boolean {
    const expired = this.timedOut.get(commandId);
    if (!expired) return false;
    this.timedOut.delete(commandId);
    this.store?.remove(commandId);
    this.log.info(`late ${what} for ${commandId} (after its ack window): ${outcome.kind}`);
    expired.late?.(outcome);
    return true;
  }

  /**
   * Stops this sender. Commands kept in the store are not lost: they settle
   * here as `awaiting-ack` and the next sender for the hub resends them
   * unchanged. Without a store they are cancelled.
   */
  dispose(): void {
    this.writer = undefined;
    for (const entry of [...this.pending.values()]) {
      if (this.store) entry.settle({ kind: 'awaiting-ack', commandId: entry.id, sent: entry.attempts > 0 || entry.writtenBefore }, { keep: true });
      else entry.settle({ kind: 'cancelled', commandId: entry.id, code: 'client-stopped' });
    }
    this.timedOut.clear();
  }

  /** `restored`: taken over from the store, so already in it; otherwise it is stored first, and not sent if it cannot be. */
  private enqueue(command: Sendable, restored?: { writtenBefore: boolean }, hooks: SendHooks = {}): Promise<SendOutcome> {
    if (!restored && this.store) {
      // A new answer to the request supersedes what a reload left of an earlier one without its text.
      for (const old of this.store.list()) {
        if (old.withheld && old.subject === command.subject && old.target.session === command.target.session && old.target.source === command.target.source) this.store.remove(old.id);
      }
      const kept = this.store.put({ ...command, unsent: true });
      // Sent but not kept, its ack could not be matched after a reload and the person would never learn how it ended.
      if (!kept.ok) return Promise.resolve({ kind: 'cancelled', commandId: command.id, ...kept.problem });
    }
    this.timedOut.delete(command.id);
    return new Promise<SendOutcome>((resolve) => {
      const entry: Pending = {
        ...command, hooks, timer: undefined, attempts: 0, restored: restored !== undefined, writtenBefore: restored?.writtenBefore ?? false, joined: [],
        settle: (outcome, how) => {
          if (entry.timer) clearTimeout(entry.timer);
          this.pending.delete(command.id);
          // A timed-out command stays stored so "Send again" repeats its id after a rebuild; a stopped one stays for the next sender.
          if (outcome.kind === 'timeout') this.store?.markTimedOut(command.id);
          else if (!how?.keep) this.store?.remove(command.id);
          resolve(outcome);
          for (const join of entry.joined) join(outcome);
        },
      };
      this.pending.set(command.id, entry);
      this.write(entry);
    });
  }

  /** What the inbox knows of the command's request; a closed one's command is dropped, not resent. Unknown is the agent's to nack. */
  private lookup(command: Readonly<Sendable>): RequestLookup {
    const lookup: RequestLookup = this.isOpen ? this.isOpen(command) : { state: 'unknown' };
    if (lookup.state !== 'closed') return lookup;
    this.store?.remove(command.id);
    this.log.info(`dropped unsettled answer ${command.id}: request ${command.subject} is no longer open, so it is not sent again`, {
      code: 'command-dropped',
      data: { ...ids(command), why: 'request-closed' },
    });
    return lookup;
  }

  private write(entry: Pending): void {
    if (!this.writer || entry.timer) return;
    if (!this.writer(entry.text)) return;
    entry.attempts++;
    if (entry.attempts === 1) {
      this.store?.markWritten(entry.id);
      entry.hooks.written?.(entry.id);
    }
    const again = entry.attempts > 1 ? ` (resend ${entry.attempts - 1}, same id)` : entry.writtenBefore ? ' (again after a restart, same id)' : entry.restored ? ' (kept across a restart)' : '';
    this.log.info(`sent ${entry.type} ${entry.id} for request ${entry.subject}${again}`, {
      code: 'command-sent',
      // `sameIdAgain`: these bytes may have gone out before (a resend, or written before a restart): the target dedupes them.
      data: { ...ids(entry), sameIdAgain: entry.attempts > 1 || entry.writtenBefore },
    });
    entry.timer = setTimeout(() => {
      this.rememberTimedOut(entry);
      entry.settle({ kind: 'timeout', commandId: entry.id, afterMs: entry.ackWindowMs });
    }, entry.ackWindowMs);
  }

  private rememberTimedOut(entry: Pending): void {
    const { id, type, subject, text, target, ackWindowMs, memoryOnly, hooks } = entry;
    this.timedOut.set(id, { id, type, subject, text, target, ackWindowMs, ...(memoryOnly ? { memoryOnly } : {}), late: hooks.late });
    // Oldest first out: a person retries within minutes, not hundreds of answers later.
    while (this.timedOut.size > MAX_TIMED_OUT) {
      const oldest = this.timedOut.keys().next().value;
      if (oldest === undefined) break;
      this.timedOut.delete(oldest);
      this.store?.remove(oldest);
    }
  }
}

/** An ack comes from the command's target when it is an event of the addressed session under the owner's identity. */
function fromTarget(event: AepEvent, target: CommandTarget): boolean {
  return event.session === target.session && event.source === target.source;
}

/** A command's log data: its id and its request's. */
function ids(command: { id: string; subject: string }): { commandId: string; requestId: string } {
  return { commandId: command.id, requestId: command.subject };
}
