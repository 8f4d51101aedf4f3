import { matchesFilter, type AttrFilter } from '../aep/attrMatch';
import { ACCEPTED_TYPE, REJECTED_TYPE } from '../aep/control';
import { AEP_VERSION, epochOf, type AepEvent } from '../aep/envelope';
import { parseWireMessage, type ErrorFrame, type HelloFrame, type InboundFrame, type OutboundFrame, type RosterEntry, type SubscribeFrame } from '../aep/frames';
import type { Position } from '../inbox/position';
import type { CaptureLevel } from '../aep/levels';
import type { ConnectionFailure, LostReason } from './connectionFailure';
import type { Logger, LogNote } from '../base/logger';
import type { KeptPosition } from './positionStore';
import { ReplayAllGaps } from './replayAllGaps';
import { resumeEntries } from './resumePlan';
import { describeFrom, fromData, type ResumeTracker } from './resumeTracker';
import { ackSubscriptionFilter } from './userFilter';

export interface HubSessionOptions {
  /** Our `identity.agent` in hello. */
  agent: string;
  instance: string;
  /** The main subscription's filter: the user's attr-match ANDed with the types we need (userFilter.ts). */
  filter: AttrFilter;
  captureCeiling?: CaptureLevel;
  helloTimeoutMs: number;
  /** How long the hub may take to confirm the subscriptions after its hello. */
  subscribeTimeoutMs: number;
  log: Logger;
}

/** What the conversation on one connection hands to the client that owns it. */
export interface HubSessionHost {
  send(frame: OutboundFrame): void;
  /** This connection cannot go on: reconnect with backoff. */
  drop(why: LostReason): void;
  /** Retrying cannot help until something changes. */
  fail(failure: ConnectionFailure): void;
  /** A problem with something the hub sent: logged (with its code, when a reader looks for it) and shown, never fatal. */
  report(message: string, note?: LogNote): void;
  /** The hub said hello and confirmed the subscriptions. */
  ready(hello: HelloFrame): void;
  /** `acksOnly`: it came only for the acks of our commands (the user's filter would have dropped it). */
  event(event: AepEvent, acksOnly: boolean): void;
  /** An error frame about one of our commands; true when it settled one. */
  commandError(frame: ErrorFrame): boolean;
  /** A resume position predated the hub's buffer (AEP-0003 §5). */
  gap(gap: { session: string; earliest: { epoch: number; seq: number } }): void;
  /** The latest roster (AEP-0003 §4.1); null when the hub offers none. */
  roster(entries: readonly RosterEntry[] | null): void;
  /** Saved positions per `(source, session)`, least recently advanced first, those of sessions holding an open request last (resumePlan.ts `waitingLast`). */
  savedPositions(): readonly KeptPosition[];
  /** There was an absence to resume from: an earlier connection of this client, or saved positions. */
  resuming(): boolean;
}

/**
 * The AEP conversation on one connection (AEP-0003 §4–§6): hello, the main
 * subscription resumed as the tracker plans and asked again for less after a
 * refusal, the acks' own subscription, their confirmation, pongs and the
 * roster. It reads frames and decides; the socket, the inbox and the control
 * sender belong to the client. One per connection: a reconnect starts afresh.
 */
export class HubSession {
  private hubHello: HelloFrame | undefined;
  private subscriptionCount = 0;
  private subscriptionId: string | undefined;
  /** The main subscription as sent (its filter and capture). */
  private subscription: SubscribeFrame | undefined;
  /** The subscription for the acks of our commands; undefined on a connection that needs none. */
  private ackSubscriptionId: string | undefined;
  private mainConfirmed = false;
  /** The ack subscription is confirmed, refused (and said so), or not needed. */
  private acksSettled = false;
  private isReady = false;
  private rosterRequest = 0;
  private rosterTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private readonly replayAllGaps = new ReplayAllGaps();
  /**
   * The last position the main subscription delivered per session string on
   * this connection, for `closing` (AEP-0003 §3.5.4), most recently advanced
   * last and bounded: it tells the hub where this client stood, and nothing
   * depends on it (the client's own positions are what it resumes from).
   */
  private readonly delivered = new Map<string, Position>();
  private disposed = false;

  constructor(
    private readonly options: HubSessionOptions,
    private readonly resume: ResumeTracker,
    private readonly host: HubSessionHost,
  ) {}

  /** The socket opened: say hello, and give the hub `helloTimeoutMs` to answer. */
  opened(): void {
    this.host.send({
      type: 'hello', versions: [AEP_VERSION], role: 'both',
      identity: { agent: this.options.agent, instance: this.options.instance }, capabilities: {},
    });
    this.after(this.options.helloTimeoutMs, () => {
      if (!this.hubHello) this.host.drop({ code: 'no-hello' });
    });
  }

  /** One text frame from the hub. */
  receive(text: string): void {
    if (this.disposed) return;
    const message = parseWireMessage(text);
    switch (message.kind) {
      case 'event':
        if (!this.hubHello) this.host.report(`the hub sent an event (${message.event.type}) before its hello; it was ignored`);
        else {
          const acksOnly = this.arrivedForAcksOnly(message.event);
          const gap = acksOnly ? undefined : this.replayAllGaps.check(message.event);
          if (gap) {
            this.options.log.warn(`the hub's replay of everything it holds begins session ${gap.session} after where this client left off; older requests may be missing`, {
              code: 'replay-gap',
              data: { session: gap.session, replay: 'all' },
            });
            this.host.gap(gap);
          }
          if (!acksOnly) this.noteDelivered(message.event);
          this.host.event(message.event, acksOnly);
        }
        return;
      case 'frame':
        this.onFrame(message.frame);
        return;
      case 'unknown-frame':
        this.options.log.debug(`ignored a frame of unknown type "${message.type}"`);
        return;
      case 'invalid':
        this.host.report(`the hub sent something unreadable: ${message.problem}`);
        return;
    }
  }

  /** Sessions started or ended: ask for the roster again, once for a burst. */
  scheduleRoster(): void {
    if (!this.isReady || !this.hubHello?.capabilities?.roster || this.rosterTimer) return;
    this.rosterTimer = setTimeout(() => {
      this.rosterTimer = undefined;
      this.requestRoster();
    }, 250);
  }

  /**
   * The client closes this connection on purpose: say so first (AEP-0003
   * §3.5.4: a party closing deliberately SHOULD send `closing`, carrying the
   * last delivered positions per subscription). Only once the hub has said
   * hello: before that there is no conversation to close. The ack
   * subscription is live only, so it has no position worth naming.
   */
  closing(reason: string): void {
    if (this.disposed || !this.hubHello) return;
    const sub = this.subscriptionId;
    const delivered = sub === undefined ? [] : [...this.delivered].map(([session, position]) => ({ sub, session, ...position }));
    this.host.send({ type: 'closing', reason, delivered });
  }

  dispose(): void {
    this.disposed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    if (this.rosterTimer) clearTimeout(this.rosterTimer);
    this.rosterTimer = undefined;
  }

  private onFrame(frame: InboundFrame): void {
    if (frame.type === 'hello') {
      this.onHello(frame);
      return;
    }
    if (!this.hubHello && frame.type !== 'error') {
      this.host.report(`the hub sent a ${frame.type} frame before its hello; it was ignored`);
      return;
    }
    switch (frame.type) {
      case 'subscribed':
        this.onSubscriptionConfirmed(frame.id);
        return;
      case 'error':
        this.onErrorFrame(frame);
        return;
      case 'replay-exhausted':
        this.options.log.warn(`the hub no longer holds session ${frame.session} from where this client left off; older requests may be missing`, {
          code: 'replay-gap',
          data: { session: frame.session, replay: 'positions' },
        });
        this.host.gap({ session: frame.session, earliest: frame.earliest });
        return;
      case 'closing':
        this.options.log.info(`the hub is closing the connection${frame.reason ? ` (${frame.reason})` : ''}`);
        return;
      case 'ping':
        this.host.send({ type: 'pong', t: frame.t });
        return;
      case 'roster':
        // The reply echoes the request's id (AEP-0003 §4.1 rule 2). Only the latest request's
        // reply is a snapshot worth holding: an earlier one is older, and an id never asked for
        // is not an answer at all.
        if (frame.id !== rosterId(this.rosterRequest)) {
          this.options.log.info(`ignored a roster frame with id ${JSON.stringify(frame.id.slice(0, 80))}: the last roster this client asked for is ${rosterId(this.rosterRequest)}`, {
            code: 'roster-ignored',
            data: { id: frame.id.slice(0, 80), asked: rosterId(this.rosterRequest) },
          });
          return;
        }
        this.host.roster(frame.entries);
        return;
      case 'pong':
      case 'unsubscribed':
        return;
    }
  }

  private onHello(frame: HelloFrame): void {
    if (this.hubHello) return;
    if (!frame.versions.includes(AEP_VERSION)) {
      this.host.fail({ code: 'version-unsupported', ours: AEP_VERSION, hubVersions: frame.versions });
      return;
    }
    this.hubHello = frame;
    this.subscribeToAcks();
    const resuming = this.host.resuming();
    // Every connection asks for everything the hub holds when it can, since saved positions name
    // no session begun while this client was away; else the most recent positions that fit (resumePlan.ts).
    const from = this.resume.plan(resumeEntries(this.host.savedPositions()), this.hubReplaysAll, resuming);
    this.subscribeMain(from);
    this.options.log.info(`hello from the hub; subscribing${describeFrom(from)}`, { code: 'subscribing', data: fromData(from) });
    this.after(this.options.subscribeTimeoutMs, () => {
      if (this.isReady) return;
      this.host.drop({ code: 'subscription-unconfirmed', afterMs: this.options.subscribeTimeoutMs });
    });
  }

  private get hubReplaysAll(): boolean {
    return this.hubHello?.capabilities?.replay?.all === true;
  }

  private subscribeMain(from: SubscribeFrame['from']): void {
    this.subscriptionId = `attention-${++this.subscriptionCount}`;
    const subscribe: SubscribeFrame = { type: 'subscribe', id: this.subscriptionId, filter: { ...this.options.filter } };
    if (this.options.captureCeiling) subscribe.capture = this.options.captureCeiling;
    if (from !== undefined) subscribe.from = from;
    if (from === 'all') this.replayAllGaps.watch(this.host.savedPositions());
    else this.replayAllGaps.stop();
    this.subscription = subscribe;
    this.host.send(subscribe);
  }

  /**
   * A second subscription for the acks of our commands (AEP-0003 §6.5:
   * several per connection, disjunction as several subscriptions), live only:
   * no command of this connection is written before it is confirmed, and a
   * command resent after a reconnect is re-acked (AEP-0004 §2.3). Sent before
   * the main one, so its confirmation does not wait behind the main replay.
   */
  private subscribeToAcks(): void {
    const filter = ackSubscriptionFilter(this.options.filter);
    this.acksSettled = filter === undefined;
    if (filter === undefined) return;
    this.ackSubscriptionId = `acks-${++this.subscriptionCount}`;
    const subscribe: SubscribeFrame = { type: 'subscribe', id: this.ackSubscriptionId, filter };
    // The user's ceiling holds for every subscription: it is what may reach this editor.
    if (this.options.captureCeiling) subscribe.capture = this.options.captureCeiling;
    this.host.send(subscribe);
  }

  /** Ready once both subscriptions are answered: a command written earlier could have its ack pass unseen. */
  private onSubscriptionConfirmed(id: string): void {
    if (id === this.subscriptionId) this.mainConfirmed = true;
    else if (id === this.ackSubscriptionId) this.acksSettled = true;
    else return;
    this.readyOnceSubscribed();
  }

  private readyOnceSubscribed(): void {
    if (!this.mainConfirmed || !this.acksSettled || this.isReady || !this.hubHello) return;
    this.isReady = true;
    this.host.ready(this.hubHello);
    if (this.hubHello.capabilities?.roster) this.requestRoster();
    else this.host.roster(null);
  }

  private onErrorFrame(frame: ErrorFrame): void {
    if (this.host.commandError(frame)) return;
    if (frame.code === 'version-unsupported') {
      this.host.fail({ code: 'version-unsupported', ours: AEP_VERSION, hubVersions: frame.versions ?? [] });
      return;
    }
    if (frame.code === 'hello-required') {
      this.host.fail({ code: 'hello-not-received' });
      return;
    }
    if (frame.id !== undefined && frame.id === this.subscriptionId) {
      this.onMainSubscriptionRefused(frame);
      return;
    }
    if (frame.id !== undefined && frame.id === this.ackSubscriptionId) {
      this.onAckSubscriptionRefused(frame);
      return;
    }
    this.host.report(`the hub reported ${frame.code}${frame.detail ? `: ${frame.detail}` : ''}`, { code: 'hub-error', data: { hubCode: frame.code } });
  }

  /** Asks again for less (resumeTracker.ts); once nothing is left to drop, reconnects with backoff. */
  private onMainSubscriptionRefused(frame: ErrorFrame): void {
    const why = `the hub refused the subscription (${frame.code})${frame.detail ? `: ${frame.detail}` : ''}`;
    const refused = this.subscription?.from;
    const next = this.resume.replanAfterRefusal({ from: refused, hubCode: frame.code, why }, resumeEntries(this.host.savedPositions()), this.hubReplaysAll, this.host.resuming());
    if (!next) {
      this.host.report(why, { code: 'subscription-refused', data: { hubCode: frame.code } });
      this.host.drop({ code: 'subscription-refused', hubCode: frame.code, ...(frame.detail ? { detail: frame.detail } : {}) });
      return;
    }
    this.subscribeMain(next.from);
  }

  /**
   * The hub refused the ack subscription (a refusal leaves the connection and
   * the main subscription alone, AEP-0003 §6.5). Retrying would meet the same
   * limit or authorisation, so carry on as a connection whose acks come
   * through the main subscription only, and say what that costs.
   */
  private onAckSubscriptionRefused(frame: ErrorFrame): void {
    this.host.report(
      `the hub refused the subscription for the acknowledgements of your answers (${frame.code})${frame.detail ? `: ${frame.detail}` : ''}. ` +
        'An acknowledgement now arrives only if aepAttention.filter lets it through, so an answer the agent took may be reported as timed out; ' +
        'remove aepAttention.filter, or ask the hub\'s operator about its subscription limits',
      { code: 'ack-subscription-refused', data: { hubCode: frame.code } },
    );
    this.ackSubscriptionId = undefined;
    this.acksSettled = true;
    this.readyOnceSubscribed();
  }

  /**
   * An ack the main subscription would not have delivered came through the
   * ack subscription only: it settles one of our commands or nothing, and
   * stays out of the inbox, so a session the user's filter leaves out gets no
   * timeline and no resume position there.
   */
  private arrivedForAcksOnly(event: AepEvent): boolean {
    if (this.ackSubscriptionId === undefined || this.subscription === undefined) return false;
    if (event.type !== ACCEPTED_TYPE && event.type !== REJECTED_TYPE) return false;
    return !matchesFilter(this.subscription.filter, event);
  }

  private noteDelivered(event: AepEvent): void {
    if (event.session === undefined || event.seq === undefined) return;
    const epoch = epochOf(event);
    const seq = event.seq;
    const known = this.delivered.get(event.session);
    if (known !== undefined) {
      if (epoch < known.epoch || (epoch === known.epoch && seq <= known.seq)) return;
      // Moved to the end (most recently advanced last), the same object: one position per session, not one per event.
      known.epoch = epoch;
      known.seq = seq;
      this.delivered.delete(event.session);
      this.delivered.set(event.session, known);
    } else {
      this.delivered.set(event.session, { epoch, seq });
    }
    if (this.delivered.size > MAX_CLOSING_POSITIONS) {
      const oldest = this.delivered.keys().next().value;
      if (oldest !== undefined) this.delivered.delete(oldest);
    }
  }

  private requestRoster(): void {
    this.host.send({ type: 'roster', id: rosterId(++this.rosterRequest) });
  }

  private after(ms: number, run: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (!this.disposed) run();
    }, ms);
    this.timers.add(timer);
  }
}

/** Positions named in `closing`: the most recently advanced, so one frame stays small whatever the fleet. */
const MAX_CLOSING_POSITIONS = 256;

function rosterId(request: number): string {
  return `roster-${request}`;
}
