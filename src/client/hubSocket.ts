import WebSocket from 'ws';
import type { LostReason } from './connectionFailure';

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
/**
 * A batch also ends once it has used this much of the extension host's time:
 * small events go 500 at a time, large ones (up to a 1 MiB frame each) one or
 * a few per turn, so other extensions keep running during a flood.
 */
const BATCH_BUDGET_MS = 8;
/**
 * Stop reading the socket at this many unprocessed messages, or this many
 * characters of them (frames may be up to 1 MiB each); read again below the
 * RESUME_AT pair. The hub then holds the rest (TCP flow control) instead of
 * this process growing a queue.
 */
const PAUSE_AT = 2_000;
const RESUME_AT = 500;
const PAUSE_AT_CHARS = 16 * 1024 * 1024;
const RESUME_AT_CHARS = 4 * 1024 * 1024;

export interface HubSocketOptions {
  url: string;
  /** Sent only as `Authorization: Bearer`, never in a URL or a log line. */
  token?: string;
  handshakeTimeoutMs: number;
  maxFrameBytes: number;
  /** Messages waiting to be handled before the socket gives up and the client resumes instead. */
  maxQueuedMessages: number;
}

/** What one socket reports to its owner. After `lost` or `unauthorized`, or once closed, it reports nothing more. */
export interface HubSocketEvents {
  open(): void;
  /** One text frame, handled off the socket callback in time-budgeted batches. */
  message(text: string): void;
  /** Something the hub sent could not be taken (a binary frame) or handling it threw. */
  problem(message: string): void;
  /**
   * The socket ended or failed. `behind`: messages the hub had sent were still
   * unhandled, as when a hub drops a consumer that falls behind (AEP-0003 §8.4).
   */
  lost(why: LostReason, behind: boolean): void;
  /** The hub refused the upgrade with 401 or 403: a token problem, not a network one. */
  unauthorized(status: number): void;
}

/**
 * One WebSocket to the hub (AEP-0003 §3.5), from connect to its end: the
 * inbound queue with backpressure, liveness (ping, and giving up on a
 * silent hub), and one way out (`drop` or `close`), after which it is inert.
 * A reconnect is a new HubSocket, so nothing of one connection leaks into
 * the next.
 */
export class HubSocket {
  private readonly socket: WebSocket;
  private queue: string[] = [];
  private queueHead = 0;
  /** Characters of the messages waiting in the queue, for backpressure by size. */
  private queuedChars = 0;
  private paused = false;
  private draining = false;
  private ended = false;
  private lastHeard = Date.now();
  private pingTimer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly options: HubSocketOptions,
    private readonly events: HubSocketEvents,
  ) {
    const headers: Record<string, string> = {};
    if (options.token) headers['authorization'] = `Bearer ${options.token}`;
    this.socket = new WebSocket(options.url, {
      headers,
      handshakeTimeout: options.handshakeTimeoutMs,
      maxPayload: options.maxFrameBytes,
      // No compression: a small deflated frame can inflate to far more than it
      // cost the sender (a compression bomb), and AEP needs none.
      perMessageDeflate: false,
    });
    const socket = this.socket;
    socket.on('unexpected-response', (_request, response) => {
      const status = response.statusCode ?? 0;
      response.resume();
      if (status === 401 || status === 403) {
        if (this.end()) events.unauthorized(status);
      } else {
        this.drop({ code: 'http-status', httpStatus: status });
      }
      socket.terminate();
    });
    socket.on('open', () => {
      if (this.ended) return;
      this.lastHeard = Date.now();
      events.open();
    });
    socket.on('message', (data: WebSocket.RawData, isBinary: boolean) => this.onRaw(data, isBinary));
    socket.on('error', (error: Error) => this.drop(lostFrom(error, options.maxFrameBytes)));
    socket.on('close', (code: number, reason: Buffer) => {
      // 1009 here comes from the hub: its limit, and a message of ours (an oversized frame
      // from the hub fails on our side first, as WS_ERR_UNSUPPORTED_MESSAGE_LENGTH).
      this.drop(code === 1009 ? { code: 'ours-too-large' } : { code: 'closed', wsCode: code, reason: reason.toString('utf8') });
    });
  }

  /** Writes one frame; false when the socket is not open (the caller keeps what it must). */
  send(text: string): boolean {
    if (this.ended || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(text);
    return true;
  }

  /**
   * Pings every `pingMs` and gives up once nothing at all has been heard for
   * `idleMs` (AEP-0003 §3.5.5: ping 30 s, give up after 90 s).
   */
  keepAlive(pingMs: number, idleMs: number): void {
    if (this.ended || this.pingTimer) return;
    this.pingTimer = setInterval(() => {
      if (Date.now() - this.lastHeard > idleMs) {
        this.drop({ code: 'silent', seconds: Math.round(idleMs / 1000) });
        return;
      }
      this.send(JSON.stringify({ type: 'ping', t: Date.now() }));
    }, pingMs);
  }

  /** Ends the connection as lost (reported once, with why); the caller reconnects. */
  drop(why: LostReason): void {
    const behind = this.paused || this.queue.length > this.queueHead;
    if (!this.end()) return;
    this.events.lost(why, behind);
    this.socket.terminate();
  }

  /** Ends the connection on purpose: nothing more is reported. */
  close(code: number, reason: string): void {
    if (!this.end()) return;
    if (this.socket.readyState === WebSocket.OPEN) this.socket.close(code, reason);
    else this.socket.terminate();
  }

  /** The one reset path: true the first time only. */
  private end(): boolean {
    if (this.ended) return false;
    this.ended = true;
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.pingTimer = undefined;
    this.queue = [];
    this.queueHead = 0;
    this.queuedChars = 0;
    this.paused = false;
    this.socket.removeAllListeners('message');
    this.socket.removeAllListeners('open');
    // Late errors from a socket being torn down are expected and say nothing new.
    this.socket.removeAllListeners('error');
    this.socket.on('error', () => undefined);
    return true;
  }

  private onRaw(data: WebSocket.RawData, isBinary: boolean): void {
    if (this.ended) return;
    this.lastHeard = Date.now();
    if (isBinary) {
      this.events.problem('the hub sent a binary frame, which AEP 0.1 reserves; it was ignored');
      return;
    }
    const text = Buffer.isBuffer(data)
      ? data.toString('utf8')
      : Array.isArray(data)
        ? Buffer.concat(data).toString('utf8')
        : Buffer.from(data).toString('utf8');
    this.queue.push(text);
    this.queuedChars += text.length;
    const queued = this.queue.length - this.queueHead;
    if ((queued >= PAUSE_AT || this.queuedChars >= PAUSE_AT_CHARS) && !this.paused) {
      this.paused = true;
      this.socket.pause();
    }
    if (queued > this.options.maxQueuedMessages) {
      // Falling behind: drop the connection and resume from what was applied, never grow or drop notice+ events.
      this.drop({ code: 'fell-behind', messages: queued });
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
    while (this.queueHead < end && !this.ended) {
      const text = this.queue[this.queueHead];
      // Let a handled message go at once: the queue's prefix is cut only now and then.
      this.queue[this.queueHead++] = '';
      if (text === undefined) continue;
      this.queuedChars -= text.length;
      try {
        this.events.message(text);
      } catch (error) {
        this.events.problem(`internal error while handling a hub message: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (performance.now() - started >= BATCH_BUDGET_MS) break;
    }
    if (this.ended) return;
    if (this.queueHead === this.queue.length) {
      this.queue = [];
      this.queueHead = 0;
    } else if (this.queueHead > 10_000) {
      this.queue = this.queue.slice(this.queueHead);
      this.queueHead = 0;
    }
    if (this.paused && this.queue.length - this.queueHead <= RESUME_AT && this.queuedChars <= RESUME_AT_CHARS) {
      this.paused = false;
      this.socket.resume();
    }
    if (this.queue.length > this.queueHead && !this.draining) {
      this.draining = true;
      setImmediate(() => this.drain());
    }
  }
}

function lostFrom(error: Error, frameLimit: number): LostReason {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ECONNREFUSED') return { code: 'nothing-listening' };
  if (code === 'ENOTFOUND') return { code: 'host-not-found' };
  if (code === 'ECONNRESET') return { code: 'reset' };
  if (code === 'ETIMEDOUT') return { code: 'timed-out' };
  if (code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') return { code: 'frame-too-large', limitBytes: frameLimit };
  return { code: 'socket-error', message: error.message };
}
