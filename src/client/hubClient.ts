import { hostname } from 'node:os';
import type { Answer } from '../aep/attention';
import type { AttrFilter } from '../aep/attrMatch';
import { commandCapture, type CaptureChoice } from '../aep/capture';
import type { RespondCommand, SenderIdentity } from '../aep/control';
import { Emitter } from '../base/emitter';
import type { HelloFrame } from '../aep/frames';
import { isOpenStatus, type Inbox } from '../inbox/inbox';
import type { CaptureLevel } from '../aep/levels';
import { Backoff } from './backoff';
import type { StoredCommand, UnsettledCommands } from './commandStore';
import { failureLogLine, lostLogLine, tokenFailure, type ConnectionFailure, type LostReason } from './connectionFailure';
import { ControlSender, type AnsweredRequest, type AnswerSender, type RequestLookup, type SendOutcome } from './controlSender';
import { EventIntake } from './eventIntake';
import { hubEndpoint, type HubEndpoint } from './hubEndpoint';
import { HubSession } from './hubSession';
import { HubSocket, MAX_FRAME_BYTES } from './hubSocket';
import type { Logger, LogNote } from '../base/logger';
import type { PositionStore } from './positionStore';
import { waitingLast } from './resumePlan';
import { ResumeTracker, type ResumeNotice } from './resumeTracker';
import { RosterSnapshot, type Reachability } from './rosterSnapshot';
import { subscriptionFilter } from './userFilter';
import { isWatchOnly, WATCH_ONLY } from './watchOnly';

export { MAX_FRAME_BYTES } from './hubSocket';
export type { ResumeNotice } from './resumeTracker';

/**
 * The connection as the user should see it. `connected` is only ever shown
 * after the hub's hello and the acknowledgement of the main subscription (and
 * of the acknowledgements' own subscription, when there is one), and is left
 * the moment the socket closes or falls silent.
 */
export type ClientState =
  | { kind: 'idle' }
  | { kind: 'connecting'; attempt: number }
  | { kind: 'connected'; since: number; hub: string }
  | { kind: 'backing-off'; attempt: number; retryAt: number; lost: LostReason }
  /** Retrying cannot help until something changes (token, URL, version, filter); `retryNow` still tries. */
  | { kind: 'failed'; failure: ConnectionFailure };

export interface HubClientOptions {
  hubUrl: string;
  /** Sent only as `Authorization: Bearer`, never in a URL or a log line. */
  token?: string;
  allowInsecureRemote?: boolean;
  /** The user's attr-match filter; ANDed with the types the extension needs. */
  filter?: unknown;
  captureCeiling?: CaptureLevel;
  /** Also subscribe to the agents' tool calls and runs, for "Before asking" (src/inbox/recentActions.ts). */
  beforeAsking?: boolean;
  /** Our emitter name on commands (`agent`), e.g. `vscode-aep-attention`. */
  senderName: string;
  inbox: Inbox;
  positions: PositionStore;
  /**
   * Where commands wait for their ack across a reload or a rebuild (per hub
   * origin). Those an earlier client left are resent, unchanged, once connected.
   */
  commands?: UnsettledCommands;
  /** How each command taken over from an earlier client settled. */
  onRestoredOutcome?: (outcome: SendOutcome, command: Readonly<StoredCommand>) => void;
  log: Logger;
  /** Timings; the defaults are the spec's (AEP-0003 §3.5.5: ping 30 s, give up after 90 s). */
  pingMs?: number;
  idleMs?: number;
  helloTimeoutMs?: number;
  /**
   * How long the hub may take to confirm the subscription after its hello
   * (default: the hello timeout). A hub that never does is treated like a lost
   * connection: reported, then retried with backoff.
   */
  subscribeTimeoutMs?: number;
  backoffBaseMs?: number;
  backoffCapMs?: number;
  /** A connection that lasted this long resets the backoff. */
  stableMs?: number;
  /** Inbound messages waiting to be processed before the client disconnects and resumes instead. */
  maxQueuedMessages?: number;
  /** Largest frame accepted from the hub, in bytes (default `MAX_FRAME_BYTES`). */
  maxFrameBytes?: number;
  random?: () => number;
}

/** A problem with something the hub sent; reported, never fatal. */
export interface HubProblem {
  message: string;
}

/** One connection: its socket and the AEP conversation on it. */
interface Connection {
  socket: HubSocket;
  session: HubSession;
  /** The hub's hello and the subscriptions are done: commands may go out. */
  ready: boolean;
}

/**
 * One long-lived connection to the hub, kept: connect, reconnect with
 * backoff, the user-facing state, and the parts each connection plugs
 * into — the transport (hubSocket.ts), the conversation (hubSession.ts), the
 * resume plan across connections (resumeTracker.ts), where events go
 * (eventIntake.ts), the control sender and the roster. The request deadline
 * is the attention store's business, not the client's.
 */
export class HubClient {
  private readonly endpoint: HubEndpoint | undefined;
  private readonly filter: AttrFilter | undefined;
  private readonly configProblem: ConnectionFailure | undefined;
  private readonly backoff: Backoff;
  private readonly sender: ControlSender;
  private readonly roster: RosterSnapshot;
  private readonly resume: ResumeTracker;
  private readonly intake: EventIntake;
  private readonly identity: SenderIdentity;
  private readonly instance: string;

  private connection: Connection | undefined;
  /** The latest hello, kept while the connection is down: the same hub, reached the same way, until this client is replaced. */
  private lastHello: HelloFrame | undefined;
  private connections = 0;
  private started = false;
  private disposed = false;
  private stateValue: ClientState = { kind: 'idle' };
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private stableTimer: ReturnType<typeof setTimeout> | undefined;

  private readonly stateChanges: Emitter<ClientState>;
  private readonly gaps: Emitter<{ session: string; earliest: { epoch: number; seq: number } }>;
  private readonly problems: Emitter<HubProblem>;
  private readonly rosterChanges: Emitter<void>;
  private readonly resumeNotices: Emitter<ResumeNotice>;
  readonly onDidChangeState;
  /** This connection resumes with less than everything missed (see ResumeNotice). */
  readonly onDidNoteResume;
  /** A resume position predated the hub's buffer: older requests may be missing (AEP-0003 §5). */
  readonly onDidReplayGap;
  readonly onDidReportProblem;
  readonly onDidChangeRoster;

  constructor(private readonly options: HubClientOptions) {
    const onListenerError = (error: unknown) => options.log.error(`listener failed: ${String(error)}`);
    this.stateChanges = new Emitter(onListenerError);
    this.gaps = new Emitter(onListenerError);
    this.problems = new Emitter(onListenerError);
    this.rosterChanges = new Emitter(onListenerError);
    this.resumeNotices = new Emitter(onListenerError);
    this.onDidNoteResume = this.resumeNotices.event;
    this.onDidChangeState = this.stateChanges.event;
    this.onDidReplayGap = this.gaps.event;
    this.onDidReportProblem = this.problems.event;
    this.onDidChangeRoster = this.rosterChanges.event;
    this.backoff = new Backoff(options.backoffBaseMs ?? 500, options.backoffCapMs ?? 30_000, options.random);
    this.identity = { agent: options.senderName, source: `aep://${encodeURIComponent(hostname())}/agent/${encodeURIComponent(options.senderName)}` };
    this.roster = new RosterSnapshot(options.log);
    this.sender = new ControlSender(options.log, options.commands, {
      identity: this.identity,
      ackWindowFor: (session) => this.roster.ackWindowFor(session),
      refusal: (commandId) => (this.watchOnly ? watchOnlyRefusal(commandId) : undefined),
    });
    if (options.commands) {
      // Closed only when the inbox knows it closed: an unknown request is the agent's to nack.
      const isOpen = (command: { subject: string; target: { session: string; source: string } }): RequestLookup => {
        const item = options.inbox.findRequest(command.target.session, command.subject, command.target.source);
        if (item === undefined) return { state: 'unknown' };
        return isOpenStatus(item.status) ? { state: 'open', request: item.request } : { state: 'closed' };
      };
      this.sender.restore(isOpen, (outcome, command) => options.onRestoredOutcome?.(outcome, command));
    }
    this.resume = new ResumeTracker(options.stableMs ?? 10_000, (notice, message, problem) => {
      const { code, ...data } = notice;
      const note: LogNote = { code, data };
      if (problem) this.report(message, note);
      else options.log.info(message, note);
      this.resumeNotices.fire(notice);
    });
    this.intake = new EventIntake(options.inbox, options.positions, this.sender, (message) => this.report(message));
    this.instance = `${hostname()}/${process.pid}`;

    const endpoint = hubEndpoint(options.hubUrl, options.allowInsecureRemote ?? false);
    const filter = subscriptionFilter(options.filter, options.beforeAsking ?? false);
    if (!endpoint.ok) this.configProblem = { code: 'bad-address', address: endpoint.problem };
    else if (!filter.ok) this.configProblem = { code: 'bad-filter', filter: filter.problem };
    else {
      this.endpoint = endpoint.value;
      this.filter = filter.value;
    }
  }

  get state(): ClientState {
    return this.stateValue;
  }

  /** Counts since the client started, and answers not yet settled, for diagnostics and benchmarks. */
  get stats(): Readonly<{ eventsApplied: number; duplicatesDropped: number; connections: number; commandsSettled: number; pendingCommands: number }> {
    return { ...this.intake.counts, connections: this.connections, pendingCommands: this.sender.pendingCount };
  }

  reachability(session: string): Reachability {
    return this.watchOnly ? { state: 'watch-only' } : this.roster.reachability(session);
  }

  /** The hub refuses every command from this client (watchOnly.ts): answers are refused here, and nothing is sent. */
  get watchOnly(): boolean {
    return isWatchOnly(this.lastHello, Boolean(this.options.token));
  }

  start(): void {
    if (this.disposed || this.started) return;
    this.started = true;
    this.connect();
  }

  /** The user asked, or the network came back: skip the wait (a final failure is retried too). */
  retryNow(): void {
    if (this.disposed) return;
    if (this.stateValue.kind === 'backing-off' || this.stateValue.kind === 'failed' || this.stateValue.kind === 'idle') {
      if (this.retryTimer) clearTimeout(this.retryTimer);
      this.retryTimer = undefined;
      this.backoff.reset();
      this.started = true;
      this.connect();
    }
  }

  /**
   * Where answers go: the answer pipeline (src/answer) hands its
   * decided answers to this sender directly, which builds, keeps and writes
   * the command and settles it on the target's ack.
   */
  get answers(): AnswerSender {
    return this.sender;
  }

  /**
   * Answers a request outside any surface (tools, tests): the capture is
   * decided here with the core's rule, then it goes as the pipeline's does.
   * Resolves once the command is settled.
   */
  respond(request: AnsweredRequest, answer: Answer, choice: CaptureChoice = {}, onBuilt?: (command: RespondCommand) => void): Promise<SendOutcome> {
    const decision = commandCapture(answer, request.fields, choice);
    if (!decision.ok) {
      const parts = decision.changes.reduce((n, change) => n + change.replacements.length, 0);
      return Promise.resolve({ kind: 'cancelled', commandId: '', code: 'would-redact', parts });
    }
    return this.sender.respond(request, answer, decision, onBuilt ? { built: onBuilt } : {});
  }

  /** Sends a timed-out answer again under the same command id; undefined when there is none to resend. */
  resend(commandId: string): Promise<SendOutcome> | undefined {
    return this.sender.resend(commandId);
  }

  /** True while a hub connection is open (commands go out at once rather than waiting). */
  get isConnected(): boolean {
    return this.stateValue.kind === 'connected';
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.intake.dispose();
    this.sender.dispose();
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.closeOnPurpose('client disposed');
    this.setState({ kind: 'idle' });
    for (const emitter of [this.stateChanges, this.gaps, this.problems, this.rosterChanges, this.resumeNotices]) emitter.dispose();
  }

  private setState(state: ClientState): void {
    this.stateValue = state;
    this.stateChanges.fire(state);
  }

  private connect(): void {
    if (this.disposed) return;
    if (!this.endpoint || !this.filter) {
      this.fail(this.configProblem ?? { code: 'bad-address' });
      return;
    }
    this.closeOnPurpose('reconnecting');
    this.setState({ kind: 'connecting', attempt: this.backoff.attempts + 1 });
    const helloTimeoutMs = this.options.helloTimeoutMs ?? 10_000;
    // Each callback first checks that its connection is still the current one.
    let connection: Connection;
    const current = () => this.connection === connection;
    const session = new HubSession(
      {
        agent: this.options.senderName,
        instance: this.instance,
        filter: this.filter,
        ...(this.options.captureCeiling ? { captureCeiling: this.options.captureCeiling } : {}),
        helloTimeoutMs,
        subscribeTimeoutMs: this.options.subscribeTimeoutMs ?? helloTimeoutMs,
        log: this.options.log,
      },
      this.resume,
      {
        send: (frame) => void socket.send(JSON.stringify(frame)),
        drop: (why) => socket.drop(why),
        fail: (failure) => current() && this.fail(failure),
        report: (message, note) => this.report(message, note),
        ready: (hello) => current() && this.onReady(connection, hello),
        event: (event, acksOnly) => {
          if (!current()) return;
          this.intake.take(event, acksOnly);
          if (acksOnly) return;
          const sessionsChanged = event.type === 'session.started' || event.type === 'session.ended';
          if (sessionsChanged || (event.type === 'attention.requested' && event.session !== undefined && !this.roster.lists(event.session))) session.scheduleRoster();
        },
        commandError: (frame) => {
          if (!this.sender.onErrorFrame(frame)) return false;
          this.intake.noteSettled();
          return true;
        },
        gap: (gap) => this.gaps.fire(gap),
        roster: (entries) => {
          this.roster.update(entries === null ? null : [...entries]);
          this.rosterChanges.fire();
        },
        savedPositions: () => waitingLast(this.options.positions.load(), (source, session) => this.options.inbox.holdsOpen(source, session)),
        resuming: () => this.connections > 0 || this.options.positions.load().length > 0,
      },
    );
    const socket = new HubSocket(
      {
        url: this.endpoint.socketUrl,
        ...(this.options.token ? { token: this.options.token } : {}),
        handshakeTimeoutMs: helloTimeoutMs,
        maxFrameBytes: this.options.maxFrameBytes ?? MAX_FRAME_BYTES,
        maxQueuedMessages: this.options.maxQueuedMessages ?? 20_000,
      },
      {
        open: () => current() && session.opened(),
        message: (text) => current() && session.receive(text),
        problem: (message) => this.report(message),
        lost: (why, behind) => current() && this.lost(why, behind),
        unauthorized: (status) => {
          if (!current()) return;
          this.fail(tokenFailure(this.options.token !== undefined && this.options.token !== '', status));
        },
      },
    );
    connection = { socket, session, ready: false };
    this.connection = connection;
    this.options.log.info(`connecting to ${this.endpoint.origin}`);
  }

  /** Forgets the current connection (its session's timers, the sender's link to it) and hands it back to be closed. */
  private endConnection(): Connection | undefined {
    const connection = this.connection;
    this.connection = undefined;
    if (this.stableTimer) clearTimeout(this.stableTimer);
    this.stableTimer = undefined;
    connection?.session.dispose();
    this.sender.disconnected();
    return connection;
  }

  private onReady(connection: Connection, hello: HelloFrame): void {
    if (!this.endpoint) return;
    connection.ready = true;
    this.lastHello = hello;
    this.connections++;
    this.setState({ kind: 'connected', since: Date.now(), hub: this.endpoint.origin });
    if (this.watchOnly) this.sender.refuseUnwritten(watchOnlyRefusal);
    this.sender.connected((text) => this.connection === connection && connection.socket.send(text));
    connection.socket.keepAlive(this.options.pingMs ?? 30_000, this.options.idleMs ?? 90_000);
    this.stableTimer = setTimeout(() => {
      this.stableTimer = undefined;
      if (this.connection !== connection) return;
      this.backoff.reset();
      this.resume.connectionLasted();
    }, this.options.stableMs ?? 10_000);
  }

  /** The connection ended or failed: back off and reconnect (unless a final failure was already recorded). */
  private lost(why: LostReason, behind: boolean): void {
    if (this.disposed) return;
    this.resume.connectionLost(behind);
    this.endConnection();
    if (this.stateValue.kind === 'failed') return;
    const delay = this.backoff.next();
    this.options.log.warn(`${lostLogLine(why)}; retrying in ${delay} ms`, {
      code: 'connection-lost',
      data: { reason: why.code, ...(why.code === 'frame-too-large' ? { limitBytes: why.limitBytes } : {}) },
    });
    this.setState({ kind: 'backing-off', attempt: this.backoff.attempts, retryAt: Date.now() + delay, lost: why });
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.connect();
    }, delay);
  }

  /** Retrying cannot fix this: say why and wait for the user. */
  private fail(failure: ConnectionFailure): void {
    this.options.log.error(failureLogLine(failure), { code: 'connection-failed', data: { reason: failure.code } });
    this.setState({ kind: 'failed', failure });
    this.closeOnPurpose('giving up until something changes');
  }

  /** Ends the current connection on purpose: `closing` first (AEP-0003 §3.5.4), then the close handshake. */
  private closeOnPurpose(reason: string): void {
    this.connection?.session.closing(reason);
    this.endConnection()?.socket.close(1000, reason);
  }

  private report(message: string, note?: LogNote): void {
    this.options.log.warn(message, note);
    this.problems.fire({ message });
  }
}

function watchOnlyRefusal(commandId: string): SendOutcome {
  return { kind: 'cancelled', commandId, code: WATCH_ONLY };
}
