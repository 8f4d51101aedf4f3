import { hostname } from 'node:os';
import WebSocket from 'ws';
import type { Answer, AttentionRequest } from '../attention';
import type { CaptureChoice } from '../capture';
import { ACCEPTED_TYPE, buildRespondCommand, REJECTED_TYPE, type SenderIdentity } from '../control';
import { Emitter, type Subscription } from '../emitter';
import { matchesFilter, type AttrFilter } from '../attrMatch';
import { AEP_VERSION, epochOf, type AepEvent } from '../envelope';
import { comparePositions } from '../inbox/position';
import { parseWireMessage, type Capabilities, type ErrorFrame, type HelloFrame, type InboundFrame, type OutboundFrame, type ResumePosition, type SubscribeFrame } from '../frames';
import { isOpenStatus, type Inbox } from '../inbox/inbox';
import type { CaptureLevel } from '../levels';
import { Backoff } from './backoff';
import type { StoredCommand, UnsettledCommands } from './commandStore';
import { ControlSender, type SendOutcome } from './controlSender';
import { hubEndpoint, type HubEndpoint } from './hubEndpoint';
import type { Logger } from './logger';
import type { PositionStore } from './positionStore';
import { DEFAULT_FROM_LIMIT, degradeAfterRefusal, planResume, type ResumePlan } from './resumePlan';
import { RosterView } from './rosterView';
import { ackSubscriptionFilter, subscriptionFilter } from './userFilter';

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
  | { kind: 'backing-off'; attempt: number; retryAt: number; lastError: string }
  /** Retrying cannot help until something changes (token, URL, version, filter); `retryNow` still tries. */
  | { kind: 'failed'; reason: string };

export interface HubClientOptions {
  hubUrl: string;
  /** Sent only as `Authorization: Bearer`, never in a URL or a log line. */
  token?: string;
  allowInsecureRemote?: boolean;
  /** The user's attr-match filter; ANDed with the types the extension needs. */
  filter?: unknown;
  captureCeiling?: CaptureLevel;
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

/**
 * How this connection resumes when it is not the whole story, as a code the
 * UI words (the log has the English): the person should know, without
 * reading the log, that requests raised while away may be missing.
 */
export type ResumeNotice =
  /** The hub offers no replay of everything: sessions begun while away are missed. */
  | { code: 'no-replay-all' }
  /** The hub takes fewer positions than were saved: only `resumed` of `saved` sessions resume. */
  | { code: 'left-out'; resumed: number; saved: number }
  /** The hub dropped this many replays of everything in a row: resuming from positions for now. */
  | { code: 'replay-all-cut-short'; connections: number }
  /** The hub refused the subscription (`hubCode`); the client asked again for less. */
  | { code: 'subscription-refused'; hubCode: string };

/**
 * The largest frame read from the hub. AEP 0.1 gives a hub no way to
 * advertise a frame limit (the hello capabilities of AEP-0003 §4 are emits,
 * capture, control, replay, filters, experimental, and roster in §4.1), so
 * this is a local bound: far above any event this extension shows once
 * bounded (src/aep/bounds.ts), small enough that one frame cannot cost the
 * editor real memory. A larger frame closes the socket (WebSocket 1009).
 */
export const MAX_FRAME_BYTES = 1024 * 1024;

const PROCESS_BATCH = 500;
/** Replays of everything cut short in a row before resuming from positions instead (see `replayAllCutShort`). */
const REPLAY_ALL_TRIES = 3;
/**
 * A batch also ends once it has used this much of the extension host's time:
 * small events go 500 at a time, large ones (up to a 1 MiB frame each) one or
 * a few per turn, so other extensions keep running during a flood.
 */
const BATCH_BUDGET_MS = 8;
/**
 * Stop reading the socket at this many unprocessed messages, or this many
 * characters of them (frames may be up to 1 MiB each); read again below the
 * RESUME_AT pair.
 */
const PAUSE_AT = 2_000;
const RESUME_AT = 500;
const PAUSE_AT_CHARS = 16 * 1024 * 1024;
const RESUME_AT_CHARS = 4 * 1024 * 1024;

/**
 * One long-lived WebSocket to the hub (AEP-0003 §3.5): hello, one
 * subscription resumed from persisted positions, liveness, reconnect with
 * backoff, the roster, and the control sender. Everything it receives goes
 * through the inbox, which dedupes before anything else sees it.
 */
export class HubClient {
  private readonly endpoint: HubEndpoint | undefined;
  private readonly configProblem: string | undefined;
  private readonly backoff: Backoff;
  private readonly sender: ControlSender;
  private readonly roster: RosterView;
  private readonly identity: SenderIdentity;
  private readonly instance: string;

  private socket: WebSocket | undefined;
  private hubHello: HelloFrame | undefined;
  private subscriptionId: string | undefined;
  private subscriptionCount = 0;
  /** The main subscription as sent (its filter and capture). */
  private subscription: SubscribeFrame | undefined;
  /**
   * The subscription that carries the acks of our commands whatever the
   * user's filter drops (userFilter.ts `ackSubscriptionFilter`); undefined
   * on a connection that needs none.
   */
  private ackSubscriptionId: string | undefined;
  /** This connection's main subscription is confirmed. */
  private mainConfirmed = false;
  /** The ack subscription is confirmed, refused (and said so), or not needed. */
  private acksSettled = false;
  /** Positions one `from` may name, lowered by each `limit-exceeded` (see resumePlan.ts); kept across reconnects. */
  private fromLimit = DEFAULT_FROM_LIMIT;
  /** The hub refused `from: "all"` although it advertised it: not asked again by this client. */
  private replayAllRefused = false;
  /** Said once per client: without replay-all, sessions begun while away are missed (warnNoReplayAll). */
  private missWarned = false;
  /**
   * Connections in a row that asked for everything the hub holds and were lost
   * early (within `stableMs`) or while behind on what the hub had sent. A hub
   * may legally drop a consumer that falls behind (AEP-0003 §8.4); one that
   * does so during every replay of everything would keep this client
   * replaying from the start forever, so after REPLAY_ALL_TRIES such losses
   * in a row it resumes from positions (which always advance) until a
   * connection lasts `stableMs`. Two quick network drops stay under it.
   */
  private replayAllCutShort = 0;
  /** When this connection's replay of everything was asked for; undefined when it resumed otherwise. */
  private replayAllAskedAt: number | undefined;
  /**
   * Where each session stood when this client was built from saved state (a
   * window reload): the earlier window applied everything up to there, and its
   * saved inbox holds what of it is still open. A replay of everything brings
   * those events again; a request among them that the earlier window saw
   * closed must not reopen here because the replay was cut before its close.
   */
  private readonly appliedBefore = new Map<string, ResumePosition>();
  /** Drops the positions of sessions the inbox forgets. */
  private readonly forgetting: Subscription;
  private rosterRequest = 0;
  private stateValue: ClientState = { kind: 'idle' };
  private readonly counters = { eventsApplied: 0, duplicatesDropped: 0, connections: 0, commandsSettled: 0 };
  private lastHeard = 0;
  private queue: string[] = [];
  private queueHead = 0;
  /** Characters of the messages waiting in the queue, for backpressure by size. */
  private queuedChars = 0;
  private paused = false;
  private draining = false;
  private disposed = false;
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private pingTimer: ReturnType<typeof setInterval> | undefined;
  private deadlineTimer: ReturnType<typeof setInterval> | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private rosterTimer: ReturnType<typeof setTimeout> | undefined;

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
    this.sender = new ControlSender(options.log, options.commands);
    if (options.commands) {
      // Closed only when the inbox knows it closed: an unknown request is the agent's to nack.
      const isOpen = (command: { subject: string; target: { session: string; source: string } }) => {
        const item = options.inbox.findRequest(command.target.session, command.subject, command.target.source);
        return item === undefined || isOpenStatus(item.status);
      };
      this.sender.restore(isOpen, (outcome, command) => options.onRestoredOutcome?.(outcome, command));
    }
    this.roster = new RosterView(options.log);
    this.instance = `${hostname()}/${process.pid}`;
    this.identity = { agent: options.senderName, source: `aep://${encodeURIComponent(hostname())}/agent/${encodeURIComponent(options.senderName)}` };

    this.forgetting = options.inbox.onDidForgetSession((session) => options.positions.forget?.(session));
    for (const position of options.positions.load()) this.appliedBefore.set(position.session, position);

    const endpoint = hubEndpoint(options.hubUrl, options.allowInsecureRemote ?? false);
    const filter = subscriptionFilter(options.filter);
    if (!endpoint.ok) this.configProblem = endpoint.problem;
    else if (!filter.ok) this.configProblem = filter.problem;
    else this.endpoint = endpoint.value;
  }

  get state(): ClientState {
    return this.stateValue;
  }

  private get frameLimit(): number {
    return this.options.maxFrameBytes ?? MAX_FRAME_BYTES;
  }

  /** The capabilities the hub declared in its hello, while connected. */
  get hubCapabilities(): Capabilities | undefined {
    return this.hubHello?.capabilities;
  }

  /** Counts since the client started, for diagnostics and benchmarks. */
  get stats(): Readonly<{ eventsApplied: number; duplicatesDropped: number; connections: number; commandsSettled: number }> {
    return { ...this.counters };
  }

  get pendingCommands(): number {
    return this.sender.pendingCount;
  }

  reachability(session: string) {
    return this.roster.reachability(session);
  }

  start(): void {
    if (this.disposed || this.stateValue.kind !== 'idle') return;
    this.deadlineTimer = setInterval(() => this.options.inbox.noteDeadlinesPassed(), 1_000);
    this.deadlineTimer.unref?.();
    this.connect();
  }

  /** The user asked, or the network came back: skip the wait (a final failure is retried too). */
  retryNow(): void {
    if (this.disposed) return;
    if (this.stateValue.kind === 'backing-off' || this.stateValue.kind === 'failed' || this.stateValue.kind === 'idle') {
      if (this.retryTimer) clearTimeout(this.retryTimer);
      this.retryTimer = undefined;
      this.backoff.reset();
      if (!this.deadlineTimer) this.start();
      else this.connect();
    }
  }

  /**
   * Answers a request. Resolves once the command is settled: accepted,
   * rejected, refused by the hub, or timed out. The request itself leaves
   * the inbox only when the agent resolves it.
   */
  respond(request: Pick<AttentionRequest, 'id' | 'session' | 'source' | 'fields'>, answer: Answer, choice: CaptureChoice = {}): Promise<SendOutcome> {
    const built = buildRespondCommand(request, answer, this.identity, Date.now(), choice);
    // Text the redaction pipeline would change goes only as the sender chose (AEP-0004 §5): never labelled `redacted`.
    if (!built.ok) return Promise.resolve({ kind: 'cancelled', commandId: '', reason: built.refusal.message });
    const command = built.command;
    return this.sender.send(command, this.roster.ackWindowFor(request.session), { session: request.session, source: request.source });
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
    this.forgetting.dispose();
    this.sender.dispose();
    this.clearConnectionTimers();
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.deadlineTimer) clearInterval(this.deadlineTimer);
    for (const timer of this.timers) clearTimeout(timer);
    this.closeSocket(1000, 'client disposed');
    this.setState({ kind: 'idle' });
    for (const emitter of [this.stateChanges, this.gaps, this.problems, this.rosterChanges, this.resumeNotices]) emitter.dispose();
  }

  // ---- connection lifecycle ----------------------------------------------------

  private setState(state: ClientState): void {
    this.stateValue = state;
    this.stateChanges.fire(state);
  }

  private connect(): void {
    if (this.disposed) return;
    if (!this.endpoint) {
      this.fail(this.configProblem ?? 'no hub configured');
      return;
    }
    this.closeSocket(1000, 'reconnecting');
    this.setState({ kind: 'connecting', attempt: this.backoff.attempts + 1 });
    const headers: Record<string, string> = {};
    if (this.options.token) headers['authorization'] = `Bearer ${this.options.token}`;
    const socket = new WebSocket(this.endpoint.socketUrl, {
      headers,
      handshakeTimeout: this.options.helloTimeoutMs ?? 10_000,
      maxPayload: this.frameLimit,
      // No compression: a small deflated frame can inflate to far more than it
      // cost the sender (a compression bomb), and AEP needs none.
      perMessageDeflate: false,
    });
    this.socket = socket;
    this.options.log.info(`connecting to ${this.endpoint.origin}`);

    socket.on('unexpected-response', (_request, response) => {
      const status = response.statusCode ?? 0;
      response.resume();
      if (status === 401 || status === 403) {
        this.fail(
          this.options.token
            ? `the hub refused the token (HTTP ${status}). Set the right one with "AEP Attention: Set Hub Token"`
            : `the hub requires a token (HTTP ${status}). Set it with "AEP Attention: Set Hub Token"`,
        );
      } else {
        this.lost(socket, `the hub answered HTTP ${status} instead of opening the socket`);
      }
      socket.terminate();
    });
    socket.on('open', () => this.onOpen(socket));
    socket.on('message', (data: WebSocket.RawData, isBinary: boolean) => this.onRaw(socket, data, isBinary));
    socket.on('error', (error: Error) => this.lost(socket, describeSocketError(error, this.frameLimit)));
    socket.on('close', (code: number, reason: Buffer) => {
      const why = reason.toString('utf8');
      // 1009 here comes from the hub: its limit, and a message of ours (an oversized frame
      // from the hub fails on our side first, as WS_ERR_UNSUPPORTED_MESSAGE_LENGTH above).
      this.lost(
        socket,
        code === 1009
          ? 'the hub closed the connection because a message from this client was larger than it accepts (WebSocket 1009); a very long answer may need to be shorter'
          : `the connection closed (${code}${why ? `: ${why}` : ''})`,
      );
    });
  }

  private onOpen(socket: WebSocket): void {
    if (socket !== this.socket) return;
    this.lastHeard = Date.now();
    socket.send(
      JSON.stringify({
        type: 'hello', versions: [AEP_VERSION], role: 'both',
        identity: { agent: this.options.senderName, instance: this.instance }, capabilities: {},
      }),
    );
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (socket === this.socket && !this.hubHello) {
        this.lost(socket, 'the hub did not answer hello');
        socket.terminate();
      }
    }, this.options.helloTimeoutMs ?? 10_000);
    this.timers.add(timer);
  }

  /** A socket ended or failed: back off and reconnect (unless a final failure was already recorded). */
  private lost(socket: WebSocket, why: string): void {
    if (socket !== this.socket || this.disposed) return;
    if (this.replayAllAskedAt !== undefined) {
      // Cut short: lost while still behind on what the hub had sent, as a slow-consumer drop is,
      // or before the connection had lasted `stableMs`.
      const behind = this.paused || this.queue.length > this.queueHead;
      const early = Date.now() - this.replayAllAskedAt < (this.options.stableMs ?? 10_000);
      this.replayAllCutShort = behind || early ? this.replayAllCutShort + 1 : 0;
      this.replayAllAskedAt = undefined;
    }
    this.socket = undefined;
    this.hubHello = undefined;
    this.subscriptionId = undefined;
    this.queue = [];
    this.queueHead = 0;
    this.queuedChars = 0;
    this.paused = false;
    this.clearConnectionTimers();
    this.sender.disconnected();
    socket.removeAllListeners('message');
    if (this.stateValue.kind === 'failed') return;
    const delay = this.backoff.next();
    this.options.log.warn(`${why}; retrying in ${delay} ms`);
    this.setState({ kind: 'backing-off', attempt: this.backoff.attempts, retryAt: Date.now() + delay, lastError: why });
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.connect();
    }, delay);
  }

  /** Retrying cannot fix this: say why and wait for the user. */
  private fail(reason: string): void {
    this.options.log.error(reason);
    this.setState({ kind: 'failed', reason });
    const socket = this.socket;
    this.socket = undefined;
    this.hubHello = undefined;
    this.clearConnectionTimers();
    this.sender.disconnected();
    socket?.terminate();
  }

  private closeSocket(code: number, reason: string): void {
    const socket = this.socket;
    this.socket = undefined;
    this.queue = [];
    this.queueHead = 0;
    this.queuedChars = 0;
    this.paused = false;
    this.hubHello = undefined;
    this.clearConnectionTimers();
    this.sender.disconnected();
    if (socket) {
      socket.removeAllListeners();
      socket.on('error', () => undefined);
      if (socket.readyState === WebSocket.OPEN) socket.close(code, reason);
      else socket.terminate();
    }
  }

  private clearConnectionTimers(): void {
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.pingTimer = undefined;
    if (this.rosterTimer) clearTimeout(this.rosterTimer);
    this.rosterTimer = undefined;
  }

  private send(frame: OutboundFrame): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(frame));
  }

  // ---- inbound -------------------------------------------------------------------

  private onRaw(socket: WebSocket, data: WebSocket.RawData, isBinary: boolean): void {
    if (socket !== this.socket) return;
    this.lastHeard = Date.now();
    if (isBinary) {
      this.report('the hub sent a binary frame, which AEP 0.1 reserves; it was ignored');
      return;
    }
    const text = Buffer.isBuffer(data)
      ? data.toString('utf8')
      : Array.isArray(data)
        ? Buffer.concat(data).toString('utf8')
        : Buffer.from(data).toString('utf8');
    // Process in batches off the socket callback so a large replay never blocks the host for long.
    this.queue.push(text);
    this.queuedChars += text.length;
    const queued = this.queue.length - this.queueHead;
    // Backpressure: stop reading the socket while far behind, so the hub holds the rest
    // (TCP flow control) instead of this process growing a queue.
    if ((queued >= PAUSE_AT || this.queuedChars >= PAUSE_AT_CHARS) && !this.paused) {
      this.paused = true;
      socket.pause();
    }
    if (queued > (this.options.maxQueuedMessages ?? 20_000)) {
      // Falling behind: drop the connection and resume from what was applied, never grow or drop notice+ events.
      this.lost(socket, `fell ${this.queue.length} messages behind the hub; reconnecting to resume`);
      socket.terminate();
      return;
    }
    if (!this.draining) {
      this.draining = true;
      setImmediate(() => this.drain());
    }
  }

  private drain(): void {
    this.draining = false;
    const end = Math.min(this.queue.length, this.queueHead + PROCESS_BATCH);
    const started = performance.now();
    while (this.queueHead < end) {
      const text = this.queue[this.queueHead];
      // Let a processed message go at once: the queue's prefix is cut only now and then.
      this.queue[this.queueHead++] = '';
      if (text === undefined) continue;
      this.queuedChars -= text.length;
      try {
        this.onText(text);
      } catch (error) {
        this.report(`internal error while handling a hub message: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (performance.now() - started >= BATCH_BUDGET_MS) break;
    }
    // Drop the processed prefix now and then rather than shifting the array every batch.
    if (this.queueHead === this.queue.length) {
      this.queue = [];
      this.queueHead = 0;
    } else if (this.queueHead > 10_000) {
      this.queue = this.queue.slice(this.queueHead);
      this.queueHead = 0;
    }
    if (this.paused && this.queue.length - this.queueHead <= RESUME_AT && this.queuedChars <= RESUME_AT_CHARS) {
      this.paused = false;
      this.socket?.resume();
    }
    if (this.queue.length > this.queueHead && !this.draining) {
      this.draining = true;
      setImmediate(() => this.drain());
    }
  }

  private onText(text: string): void {
    const message = parseWireMessage(text);
    switch (message.kind) {
      case 'event':
        this.onEvent(message.event);
        return;
      case 'frame':
        this.onFrame(message.frame);
        return;
      case 'unknown-frame':
        this.options.log.debug(`ignored a frame of unknown type "${message.type}"`);
        return;
      case 'invalid':
        this.report(`the hub sent something unreadable: ${message.problem}`);
        return;
    }
  }

  /**
   * A sequenced event at or below where its session stood when this client was
   * built from saved state. Acks are let through: a resent command's target
   * re-emits its recorded ack at the same position (AEP-0004 §3), and only
   * the ack settles the command.
   */
  private seenByEarlierWindow(event: AepEvent): boolean {
    if (event.seq === undefined || event.session === undefined || event.type === ACCEPTED_TYPE || event.type === REJECTED_TYPE) return false;
    const before = this.appliedBefore.get(event.session);
    return before !== undefined && comparePositions({ epoch: epochOf(event), seq: event.seq }, before) <= 0;
  }

  private onEvent(event: AepEvent): void {
    if (!this.hubHello) {
      this.report(`the hub sent an event (${event.type}) before its hello; it was ignored`);
      return;
    }
    if (this.arrivedForAcksOnly(event)) {
      if (this.sender.onAck(event)) this.counters.commandsSettled++;
      return;
    }
    if (this.seenByEarlierWindow(event)) {
      this.counters.duplicatesDropped++;
      return;
    }
    const outcome = this.options.inbox.apply(event);
    if (!outcome.applied) {
      if (outcome.reason === 'refused') this.report(outcome.problem);
      else this.counters.duplicatesDropped++;
      return;
    }
    this.counters.eventsApplied++;
    if (outcome.problem) this.report(outcome.problem);
    if (event.session !== undefined && event.type === 'session.ended' && event.seq !== undefined) {
      // An ended session has nothing left to resume: its position would only take a `from` slot.
      this.options.positions.forget?.(event.session);
    } else if (outcome.positionAdvanced && event.session !== undefined && event.type !== 'control.accepted' && event.type !== 'control.rejected') {
      // Acks may arrive on the ack subscription ahead of the main subscription's replay of
      // their session: saving a position from one could skip the events still being replayed.
      // The session's next event on the main subscription saves it instead.
      const position = this.options.inbox.positionFor(event.session);
      if (position) this.options.positions.record(position);
    }
    if (event.type === 'control.accepted' || event.type === 'control.rejected') {
      if (this.sender.onAck(event)) this.counters.commandsSettled++;
    }
    else if (event.type === 'session.started' || event.type === 'session.ended') this.scheduleRoster();
  }

  private onFrame(frame: InboundFrame): void {
    if (frame.type === 'hello') {
      this.onHello(frame);
      return;
    }
    if (!this.hubHello && frame.type !== 'error') {
      this.report(`the hub sent a ${frame.type} frame before its hello; it was ignored`);
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
        this.options.log.warn(`the hub no longer holds session ${frame.session} from where this client left off; older requests may be missing`);
        this.gaps.fire({ session: frame.session, earliest: frame.earliest });
        return;
      case 'closing':
        this.options.log.info(`the hub is closing the connection${frame.reason ? ` (${frame.reason})` : ''}`);
        return;
      case 'ping':
        this.send({ type: 'pong', t: frame.t });
        return;
      case 'roster':
        // The reply echoes the request's id (AEP-0003 §4.1 rule 2). Only the latest request's
        // reply is a snapshot worth holding: an earlier one is older, and an id never asked for
        // is not an answer at all.
        if (frame.id !== this.rosterId(this.rosterRequest)) {
          this.options.log.info(`ignored a roster frame with id ${JSON.stringify(frame.id.slice(0, 80))}: the last roster this client asked for is ${this.rosterId(this.rosterRequest)}`);
          return;
        }
        this.roster.update(frame.entries);
        this.rosterChanges.fire();
        return;
      case 'pong':
      case 'unsubscribed':
        return;
    }
  }

  private onHello(frame: HelloFrame): void {
    if (this.hubHello) return;
    if (!frame.versions.includes(AEP_VERSION)) {
      this.fail(`the hub answered with AEP ${frame.versions.join(', ')}, but this extension speaks ${AEP_VERSION}`);
      return;
    }
    this.hubHello = frame;
    const filter = subscriptionFilter(this.options.filter);
    if (!filter.ok) {
      this.fail(filter.problem);
      return;
    }
    this.subscribeToAcks(filter.value);
    this.subscriptionId = `attention-${++this.subscriptionCount}`;
    const subscribe: SubscribeFrame = { type: 'subscribe', id: this.subscriptionId, filter: { ...filter.value } };
    if (this.options.captureCeiling) subscribe.capture = this.options.captureCeiling;
    // Every connection asks for everything the hub holds when it can, since saved positions name
    // no session begun while this client was away; else the most recent positions that fit (resumePlan.ts).
    const saved = this.options.positions.load();
    const plan = this.planFrom(saved);
    if (plan.from !== undefined) subscribe.from = plan.from;
    this.replayAllAskedAt = plan.from === 'all' ? Date.now() : undefined;
    this.subscription = subscribe;
    this.send(subscribe);
    this.awaitSubscribed();
    this.options.log.info(`hello from the hub; subscribing${describeFrom(plan.from)}`);
    this.reportLeftOut(plan, saved.length);
    this.warnNoReplayAll(saved.length);
  }

  /**
   * A second subscription for the acks of our commands (AEP-0003 §6.5:
   * several per connection, disjunction as several subscriptions), live only:
   * no command of this connection is written before it is confirmed, and a
   * command resent after a reconnect is re-acked (AEP-0004 §2.3). Sent before
   * the main one, so its confirmation does not wait behind the main replay.
   */
  private subscribeToAcks(main: AttrFilter): void {
    this.mainConfirmed = false;
    const filter = ackSubscriptionFilter(main);
    this.acksSettled = filter === undefined;
    this.ackSubscriptionId = undefined;
    if (filter === undefined) return;
    const id = `acks-${++this.subscriptionCount}`;
    this.ackSubscriptionId = id;
    const subscribe: SubscribeFrame = { type: 'subscribe', id, filter };
    // The user's ceiling holds for every subscription: it is what may reach this editor.
    if (this.options.captureCeiling) subscribe.capture = this.options.captureCeiling;
    this.send(subscribe);
  }

  /** `connected` once both subscriptions are answered: a command written earlier could have its ack pass unseen. */
  private onSubscriptionConfirmed(id: string): void {
    if (id === this.subscriptionId) this.mainConfirmed = true;
    else if (id === this.ackSubscriptionId) this.acksSettled = true;
    else return;
    this.connectOnceSubscribed();
  }

  private connectOnceSubscribed(): void {
    if (this.mainConfirmed && this.acksSettled && this.stateValue.kind !== 'connected') this.onSubscribed();
  }

  /**
   * The hub refused the ack subscription (a refusal leaves the connection and
   * the main subscription alone, AEP-0003 §6.5). Retrying would meet the same
   * limit or authorisation, so carry on as a connection whose acks come
   * through the main subscription only, and say what that costs.
   */
  private onAckSubscriptionRefused(frame: ErrorFrame): void {
    this.report(
      `the hub refused the subscription for the acknowledgements of your answers (${frame.code})${frame.detail ? `: ${frame.detail}` : ''}. ` +
        'An acknowledgement now arrives only if aepAttention.filter lets it through, so an answer the agent took may be reported as timed out; ' +
        'remove aepAttention.filter, or ask the hub\'s operator about its subscription limits',
    );
    this.ackSubscriptionId = undefined;
    this.acksSettled = true;
    this.connectOnceSubscribed();
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

  /** The hub advertised replay-all (AEP-0003 §5) and has not refused it. */
  private get replaysAll(): boolean {
    return this.hubHello?.capabilities?.replay?.all === true && !this.replayAllRefused;
  }

  private planFrom(saved: readonly ResumePosition[]): ResumePlan {
    const cutOff = this.replaysAll && this.replayAllCutShort >= REPLAY_ALL_TRIES;
    if (cutOff) {
      this.report(
        `the hub dropped the last ${this.replayAllCutShort} connections while replaying everything it holds (it may drop consumers that fall behind); ` +
          'resuming from where this client left off instead, so a request raised meanwhile in a session it had not seen may be missed. ' +
          'Replay of everything is tried again once a connection lasts',
      );
      this.resumeNotices.fire({ code: 'replay-all-cut-short', connections: this.replayAllCutShort });
    }
    return planResume({ saved, replayAll: this.replaysAll && !cutOff, limit: this.fromLimit });
  }

  /**
   * Without replay-all a resume names only the sessions this client has seen
   * (AEP-0003 §7), and nothing in the protocol lists the others (the roster
   * holds live duplex claimants only, §4.1 rule 3): a request raised while
   * this client was away, in a session it had not seen, never arrives. Said
   * once per client, when there was an absence to resume from.
   */
  private warnNoReplayAll(saved: number): void {
    if (this.replaysAll || this.missWarned || (saved === 0 && this.counters.connections === 0)) return;
    this.missWarned = true;
    this.report(
      'this hub offers no replay of everything it holds (AEP-0003 §5 replay-all): a request raised while this client was disconnected, in a session it had not seen before, is missed; such a session shows only what it sends from now on',
    );
    this.resumeNotices.fire({ code: 'no-replay-all' });
  }

  private reportLeftOut(plan: ResumePlan, saved: number): void {
    if (plan.leftOut === 0) return;
    this.report(
      `resuming ${saved - plan.leftOut} of ${saved} sessions from where this client left off (the hub takes no more, and offers no replay of everything it holds); the other ${plan.leftOut} show only what they send from now on`,
    );
    this.resumeNotices.fire({ code: 'left-out', resumed: saved - plan.leftOut, saved });
  }

  /**
   * The hub refused the main subscription. The refusal leaves the connection
   * open (AEP-0003 §6.5), so ask again for less (resumePlan.ts
   * `degradeAfterRefusal`); once even a subscription without `from` is
   * refused, reconnect with backoff. Never a final failure: a hub's limits
   * and authorisations change without the settings changing.
   */
  private onMainSubscriptionRefused(frame: ErrorFrame): void {
    const socket = this.socket;
    const previous = this.subscription;
    const why = `the hub refused the subscription (${frame.code})${frame.detail ? `: ${frame.detail}` : ''}`;
    const next = previous && degradeAfterRefusal(previous.from, { limit: this.fromLimit, replayAll: !this.replayAllRefused });
    if (!socket || !previous || !next) {
      if (socket) {
        this.report(why);
        this.lost(socket, why);
        socket.terminate();
      }
      return;
    }
    this.fromLimit = next.limit;
    this.replayAllRefused = !next.replayAll;
    const saved = this.options.positions.load();
    const plan = this.planFrom(saved);
    this.subscriptionId = `attention-${++this.subscriptionCount}`;
    const subscribe: SubscribeFrame = { ...previous, id: this.subscriptionId };
    delete subscribe.from;
    if (plan.from !== undefined) subscribe.from = plan.from;
    this.report(`${why}; subscribing again${describeFrom(plan.from) || ' without replay (live events only)'}`);
    this.resumeNotices.fire({ code: 'subscription-refused', hubCode: frame.code });
    this.subscription = subscribe;
    this.send(subscribe);
    this.reportLeftOut(plan, saved.length);
    this.warnNoReplayAll(saved.length);
  }

  /**
   * The subscription must be confirmed (`subscribed`, AEP-0003 §4) before the
   * client counts as connected. A hub that accepted the connection and said
   * hello but never confirms would otherwise leave the user looking at
   * "connecting" forever with nothing to act on.
   */
  private awaitSubscribed(): void {
    const socket = this.socket;
    if (!socket) return;
    const timeoutMs = this.options.subscribeTimeoutMs ?? this.options.helloTimeoutMs ?? 10_000;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (socket !== this.socket || this.stateValue.kind === 'connected' || this.stateValue.kind === 'failed') return;
      this.lost(
        socket,
        `the hub accepted the connection but never confirmed the subscription within ${describeDuration(timeoutMs)}; check that the hub is an AEP 0.1 hub and look at its log`,
      );
      socket.terminate();
    }, timeoutMs);
    this.timers.add(timer);
  }

  private onSubscribed(): void {
    const socket = this.socket;
    if (!socket || !this.endpoint) return;
    this.counters.connections++;
    this.setState({ kind: 'connected', since: Date.now(), hub: this.endpoint.origin });
    this.sender.connected((text) => {
      if (this.socket !== socket || socket.readyState !== WebSocket.OPEN) return false;
      socket.send(text);
      return true;
    });
    const pingMs = this.options.pingMs ?? 30_000;
    const idleMs = this.options.idleMs ?? 90_000;
    this.pingTimer = setInterval(() => {
      if (Date.now() - this.lastHeard > idleMs) {
        this.lost(socket, `the hub has been silent for more than ${Math.round(idleMs / 1000)} s`);
        socket.terminate();
        return;
      }
      this.send({ type: 'ping', t: Date.now() });
    }, pingMs);
    const stable = setTimeout(() => {
      this.timers.delete(stable);
      if (this.socket === socket && this.stateValue.kind === 'connected') {
        this.backoff.reset();
        // A connection that resumed from positions after replays were cut short has lasted:
        // the next reconnect asks for everything again.
        if (this.replayAllAskedAt === undefined) this.replayAllCutShort = 0;
      }
    }, this.options.stableMs ?? 10_000);
    this.timers.add(stable);
    if (this.hubHello?.capabilities?.roster) this.requestRoster();
    else {
      this.roster.update(null);
      this.rosterChanges.fire();
    }
  }

  private onErrorFrame(frame: ErrorFrame): void {
    if (this.sender.onErrorFrame(frame)) {
      this.counters.commandsSettled++;
      return;
    }
    if (frame.code === 'version-unsupported') {
      this.fail(`the hub does not speak AEP ${AEP_VERSION}${frame.versions ? ` (it speaks ${frame.versions.join(', ')})` : ''}`);
      return;
    }
    if (frame.code === 'hello-required') {
      this.fail('the hub says it never received this client\'s hello; this is a protocol mismatch between the extension and the hub');
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
    this.report(`the hub reported ${frame.code}${frame.detail ? `: ${frame.detail}` : ''}`);
  }

  private scheduleRoster(): void {
    if (!this.hubHello?.capabilities?.roster || this.rosterTimer) return;
    this.rosterTimer = setTimeout(() => {
      this.rosterTimer = undefined;
      this.requestRoster();
    }, 250);
  }

  private requestRoster(): void {
    this.send({ type: 'roster', id: this.rosterId(++this.rosterRequest) });
  }

  private rosterId(request: number): string {
    return `roster-${request}`;
  }

  private report(message: string): void {
    this.options.log.warn(message);
    this.problems.fire({ message });
  }
}

/** How a subscription resumes, for the log: "" when it asks for no replay. */
function describeFrom(from: SubscribeFrame['from']): string {
  if (from === 'all') return ' with replay of everything held';
  return from && from.length > 0 ? ` from ${from.length} saved position${from.length === 1 ? '' : 's'}` : '';
}

/** "10 s", "1.5 s", "300 ms": how long, for a sentence. */
function describeDuration(ms: number): string {
  return ms < 1_000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}

function describeSocketError(error: Error, frameLimit: number): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ECONNREFUSED') return 'nothing is listening at the hub address (connection refused)';
  if (code === 'ENOTFOUND') return 'the hub host name does not resolve';
  if (code === 'ECONNRESET') return 'the connection was reset';
  if (code === 'ETIMEDOUT') return 'the connection timed out';
  if (code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') {
    return `the hub sent a message larger than ${describeFrameLimit(frameLimit)}, the most AEP Attention accepts, so the connection was closed (WebSocket 1009). If this repeats after reconnecting, an agent is sending events that large and needs to send smaller ones`;
  }
  return error.message;
}

function describeFrameLimit(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}
