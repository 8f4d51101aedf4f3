// The demo agent: a real AEP emitter peer over the WebSocket binding
// (AEP-0003 §3.5, §4). It says hello as a control-capable emitter, owns one
// session per scenario, raises attention requests on a schedule, answers
// commands through the pure `ControlTarget`, and on close dismisses what is
// still open and ends its sessions before hanging up.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import WebSocket from 'ws';
import { addressProblemText, hubEndpoint } from '../../../src/client/hubEndpoint';
import { DEFAULT_ACK_WINDOW_MS, RESPOND_TYPE } from '../../../src/aep/control';
import { AEP_VERSION } from '../../../src/aep/envelope';
import { parseWireMessage, type ErrorFrame, type OutboundHello } from '../../../src/aep/frames';
import { CANCEL_TYPE, ControlTarget, isCommandType, shown, type CommandDecision, type RequestSnapshot, type Step } from './controlTarget';
import { SCENARIOS, ScenarioCycle, loadFormVariants, type ScenarioName } from './scenarios';

export const AGENT_NAME = 'demo-agent';
export const DEFAULT_HUB = 'http://127.0.0.1:8787';

export interface AgentOptions {
  /** The hub's base URL; `{hub}/socket` is derived (http→ws, https→wss). Default `http://127.0.0.1:8787`. */
  hubUrl?: string;
  /** Sent only as `Authorization: Bearer`; never logged. */
  token?: string;
  /** Which scenarios to raise, in rotation; default all. */
  scenarios?: readonly ScenarioName[];
  /** Delay between two requests. Default 5 000 ms. */
  everyMs?: number;
  /** Raise this many requests, wait for them to close (at most `lingerMs`), then finish. Default: forever. */
  count?: number;
  /** The `expiring` scenario's lifetime. Default 5 000 ms. */
  expireMs?: number;
  /** The `oob` card's out-of-band answer comes after this long. Default 3 000 ms. */
  oobMs?: number;
  /** After the last of `count` requests, how long to wait for open ones before dismissing them. Default 120 000 ms. */
  lingerMs?: number;
  /** Declared as `capabilities.control.ack_window_ms`. Default 10 000 ms. */
  ackWindowMs?: number;
  /**
   * Each session also opens one run (`run.started`), and the agent declares
   * and takes `control.cancel` for it (AEP-0004 §5), e.g. for
   * `live.js --control-cancel`. Default off: answers only.
   */
  runs?: boolean;
  /**
   * Before each request, do some work in its session (read a file, run a
   * build that fails, edit: controlTarget.ts `work`), so "Before asking"
   * has something to show. Default on.
   */
  work?: boolean;
  /**
   * Where each scenario's rotation of variants starts (default 0): 2 makes the
   * `form` scenario's first request its first one at capture `metadata`, with
   * the work before it at `metadata` too.
   */
  firstVariant?: number;
  helloTimeoutMs?: number;
  allowInsecureRemote?: boolean;
  /** Where log lines go (one decision per line). Default `console.log`. */
  log?: (line: string) => void;
}

/** One command the agent received and what it did with it (controlTarget.ts `CommandDecision`). */
export type AgentDecision = CommandDecision & { commandId: string; commandType: string; subject?: string };

/** One round of work before asking: its tool events' session, capture and tool names, as emitted. */
export interface AgentWork {
  session: string;
  capture: string;
  tools: string[];
}

export type AgentExit =
  | { reason: 'completed' }
  | { reason: 'closed' }
  | { reason: 'connection-lost'; detail: string };

export interface RunningAgent {
  /** The sessions this agent owns (one per scenario), e.g. for `live.js --control-session`. */
  readonly sessions: string[];
  /** The run each session opened (empty unless `runs`), e.g. for `live.js --control-cancel`. */
  readonly runs: ReadonlyArray<{ session: string; run: string }>;
  /** `{hub}/socket`, as connected (never carries the token). */
  readonly socketUrl: string;
  /** What it raised, and what became of each. */
  requests(): RequestSnapshot[];
  /** Listens to log lines; returns the unsubscribe. */
  onLog(listener: (line: string) => void): () => void;
  /** What it decided about each command it received, in order: what a test compares (the log line words it for a person). */
  decisions(): ReadonlyArray<AgentDecision>;
  /** The work it did before each request (`work`), in order: the session, the capture its tool events went at, the tools' names. */
  worked(): ReadonlyArray<AgentWork>;
  /** Settles when the agent stops: `count` done, `close()` called, or the hub went away. Never rejects. */
  readonly done: Promise<AgentExit>;
  /** Dismisses open requests, ends every session, then closes the socket. Idempotent. */
  close(): Promise<void>;
}

/** Why the agent could not start, in one line (no token in it). */
export class AgentStartError extends Error {
  override readonly name = 'AgentStartError';
}

function describeHelloError(frame: ErrorFrame): string {
  const detail = frame.detail ? ` (${frame.detail})` : '';
  switch (frame.code) {
    case 'version-unsupported':
      return `the hub does not speak AEP ${AEP_VERSION}; it offers ${JSON.stringify(frame.versions ?? [])}${detail}`;
    case 'hello-required':
      return `the hub says hello-required: it did not take our hello as the first frame${detail}`;
    case 'unauthorized':
      return `the hub refused us as unauthorized${detail}; set AEP_TOKEN to the hub's token`;
    default:
      return `the hub refused the hello: ${frame.code}${detail}`;
  }
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) throw new AgentStartError(`${name} must be a positive number, got ${value}`);
  return value;
}

interface Connected {
  ws: WebSocket;
  socketUrl: string;
}

/** Opens `{hub}/socket`, sends our hello, and waits for the hub's. */
async function connect(socketUrl: string, token: string | undefined, hello: OutboundHello, timeoutMs: number): Promise<Connected> {
  const ws = new WebSocket(socketUrl, {
    ...(token !== undefined && token !== '' ? { headers: { authorization: `Bearer ${token}` } } : {}),
    handshakeTimeout: timeoutMs,
    maxPayload: 4 * 1024 * 1024,
  });
  return new Promise<Connected>((resolve, reject) => {
    let settled = false;
    let refusal: string | undefined;
    const fail = (message: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      ws.removeAllListeners();
      ws.on('error', () => undefined);
      ws.terminate();
      reject(new AgentStartError(message));
    };
    const timer = setTimeout(() => fail(`no hello from the hub at ${socketUrl} within ${timeoutMs} ms`), timeoutMs);
    ws.on('unexpected-response', (_request, response) => {
      const status = response.statusCode ?? 0;
      const sentToken = token !== undefined && token !== '';
      fail(
        status !== 401 && status !== 403
          ? `the hub at ${socketUrl} answered the WebSocket upgrade with HTTP ${status}`
          : sentToken
            ? `the hub at ${socketUrl} refused the token (HTTP ${status} unauthorized); set AEP_TOKEN to the hub's token`
            : `the hub at ${socketUrl} requires a token and none was given (HTTP ${status} unauthorized); set AEP_TOKEN to the hub's token`,
      );
    });
    ws.on('error', (error: Error) => fail(`cannot reach the hub at ${socketUrl}: ${error.message}`));
    ws.on('close', (code: number) => fail(refusal ?? `the hub at ${socketUrl} closed the connection before its hello (code ${code})`));
    ws.on('open', () => ws.send(JSON.stringify(hello)));
    ws.on('message', (data: WebSocket.RawData, isBinary: boolean) => {
      if (settled || isBinary) return;
      const message = parseWireMessage(data.toString());
      if (message.kind !== 'frame') return;
      const frame = message.frame;
      if (frame.type === 'error') {
        refusal = describeHelloError(frame);
        fail(refusal);
        return;
      }
      if (frame.type === 'ping') {
        ws.send(JSON.stringify({ type: 'pong', t: frame.t }));
        return;
      }
      if (frame.type !== 'hello') return;
      if (frame.versions.length !== 1 || frame.versions[0] !== AEP_VERSION) {
        fail(`the hub selected ${JSON.stringify(frame.versions)}; this agent speaks only AEP ${AEP_VERSION}`);
        return;
      }
      settled = true;
      clearTimeout(timer);
      ws.removeAllListeners();
      resolve({ ws, socketUrl });
    });
  });
}

/**
 * Connects, starts the sessions, and begins raising requests. Rejects with an
 * `AgentStartError` (one clear sentence) when the hub cannot be reached or
 * refuses the hello.
 */
export async function startAgent(options: AgentOptions = {}): Promise<RunningAgent> {
  const endpoint = hubEndpoint(options.hubUrl ?? DEFAULT_HUB, options.allowInsecureRemote ?? false);
  if (!endpoint.ok) throw new AgentStartError(addressProblemText(endpoint.problem));
  const scenarios = [...new Set(options.scenarios ?? SCENARIOS)];
  if (scenarios.length === 0) throw new AgentStartError('choose at least one scenario');
  const everyMs = positive('every', options.everyMs, 5_000);
  const expireMs = positive('expire-ms', options.expireMs, 5_000);
  const oobMs = positive('oob-ms', options.oobMs, 3_000);
  const lingerMs = positive('linger-ms', options.lingerMs, 120_000);
  const ackWindowMs = positive('ack window', options.ackWindowMs, DEFAULT_ACK_WINDOW_MS);
  const count = options.count === undefined ? undefined : positive('count', options.count, 1);
  if (count !== undefined && !Number.isInteger(count)) throw new AgentStartError(`count must be a whole number, got ${count}`);
  // Fixture-backed forms are read now, so a missing fixture fails the start, not the third request.
  if (scenarios.includes('form')) loadFormVariants();

  const decisions: AgentDecision[] = [];
  const worked: AgentWork[] = [];
  const listeners = new Set<(line: string) => void>();
  const sink = options.log ?? ((line: string) => console.log(line));
  const log = (message: string) => {
    const line = `${AGENT_NAME}: ${message}`;
    sink(line);
    for (const listener of listeners) listener(line);
  };

  const host = hostname();
  const runTag = `${Date.now().toString(36)}-${randomBytes(2).toString('hex')}`;
  const sessionOf = new Map<ScenarioName, string>(scenarios.map((scenario) => [scenario, `demo-${scenario}-${runTag}`]));
  const sessions = [...sessionOf.values()];
  const accepts = options.runs ? [RESPOND_TYPE, CANCEL_TYPE] : [RESPOND_TYPE];
  const target = new ControlTarget({ identity: { agent: AGENT_NAME, host, epoch: 0 }, sessions, accepts });
  const hello: OutboundHello = {
    type: 'hello',
    versions: [AEP_VERSION],
    role: 'emitter',
    identity: { agent: AGENT_NAME, instance: `${host}/${process.pid}` },
    capabilities: {
      emits: options.work === false ? ['session', 'attention', 'control'] : ['session', 'tool', 'attention', 'control'],
      capture: ['metadata', 'redacted'],
      control: { accepts, ack_window_ms: ackWindowMs },
    },
  };

  const { ws, socketUrl } = await connect(endpoint.value.socketUrl, options.token, hello, options.helloTimeoutMs ?? 10_000);
  log(`connected to ${socketUrl} as emitter (control: ${accepts.join(', ')}, ack window ${ackWindowMs} ms)`);

  const cycle = new ScenarioCycle(scenarios, { expireMs, oobMs }, options.firstVariant ?? 0);
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, run: () => void): void => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      run();
    }, ms);
    timers.add(timer);
  };
  let stopped = false;
  let raised = 0;
  let countReached = false;
  let finishing: Promise<void> | undefined;
  let resolveDone: (exit: AgentExit) => void = () => undefined;
  const done = new Promise<AgentExit>((resolve) => (resolveDone = resolve));

  const send = (step: Step) => {
    for (const line of step.log) log(line);
    for (const text of step.send) {
      if (ws.readyState === WebSocket.OPEN) ws.send(text);
      else log(`could not send ${text.length} characters: the socket is not open`);
    }
  };

  const maybeFinish = () => {
    if (countReached && !stopped && target.openRequests().length === 0) void finish({ reason: 'completed' });
  };

  const raiseNext = () => {
    if (stopped) return;
    const plan = cycle.next();
    const session = sessionOf.get(plan.scenario);
    if (session === undefined) return;
    if (options.work !== false) {
      const work = target.work(session, plan.capture, Date.now());
      const requested = work.emitted.map(({ event }) => event).filter((event) => event.type === 'tool.requested');
      const tools = requested.map((event) => String((event.data as { tool?: { name?: unknown } } | undefined)?.tool?.name));
      worked.push({ session, capture: String(requested[0]?.capture), tools });
      send(work);
    }
    const step = target.raise(session, plan, Date.now());
    send(step);
    raised++;
    const id = step.requestId;
    if (plan.expiresInMs !== undefined) later(plan.expiresInMs, () => afterTimer(target.expire(id, Date.now())));
    const oobDelay = target.outOfBandDelay(id);
    if (oobDelay !== undefined) later(oobDelay, () => afterTimer(target.answerOutOfBand(id, Date.now())));
    if (count !== undefined && raised >= count) {
      countReached = true;
      log(`raised all ${count} requests; waiting up to ${lingerMs} ms for the open ones to close`);
      later(lingerMs, () => void finish({ reason: 'completed' }));
      maybeFinish();
      return;
    }
    later(everyMs, raiseNext);
  };

  const afterTimer = (step: Step) => {
    if (stopped) return;
    send(step);
    maybeFinish();
  };

  /** Ends in order: open requests dismissed, sessions ended, `closing`, then the close handshake. */
  const finish = (exit: AgentExit): Promise<void> => {
    finishing ??= (async () => {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      if (ws.readyState === WebSocket.OPEN) {
        send(target.endAllSessions(Date.now()));
        ws.send(JSON.stringify({ type: 'closing', reason: exit.reason === 'completed' ? 'done' : 'shutdown', delivered: [] }));
        const closed = new Promise<void>((resolve) => ws.once('close', () => resolve()));
        ws.close(1000, exit.reason === 'completed' ? 'done' : 'shutdown');
        const cut = setTimeout(() => ws.terminate(), 2_000);
        await closed;
        clearTimeout(cut);
      }
      log(exit.reason === 'completed' ? `finished: ${raised} requests raised, sessions ended` : 'closed: sessions ended');
      resolveDone(exit);
    })();
    return finishing;
  };

  ws.on('message', (data: WebSocket.RawData, isBinary: boolean) => {
    if (isBinary) {
      log('ignored a binary frame (reserved in AEP 0.1)');
      return;
    }
    const message = parseWireMessage(data.toString());
    switch (message.kind) {
      case 'event': {
        const event = message.event;
        if (!isCommandType(event.type)) {
          log(`ignored ${shown(event.type)} ${shown(event.id)}: this agent only takes commands`);
          return;
        }
        if (stopped) return;
        const step = target.handle(event, Date.now());
        decisions.push({ ...step.decision, commandId: event.id, commandType: event.type, ...(event.subject === undefined ? {} : { subject: event.subject }) });
        send(step);
        maybeFinish();
        return;
      }
      case 'frame': {
        const frame = message.frame;
        if (frame.type === 'ping') {
          if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: 'pong', t: frame.t }));
        } else if (frame.type === 'error') {
          const about = frame.cause !== undefined ? ` about ${shown(frame.cause)}` : '';
          log(`hub error ${shown(frame.code)}${about}${frame.detail ? `: ${frame.detail}` : ''}`);
        } else if (frame.type === 'closing') {
          log(`the hub is closing${frame.reason ? ` (${frame.reason})` : ''}`);
        }
        return;
      }
      case 'unknown-frame':
        return;
      case 'invalid':
        log(`ignored an unreadable message from the hub: ${message.problem}`);
        return;
    }
  });
  ws.on('error', (error: Error) => log(`socket error: ${error.message}`));
  ws.on('close', (code: number, reason: Buffer) => {
    if (finishing) return;
    stopped = true;
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
    const detail = `connection to the hub lost (code ${code}${reason.length > 0 ? `, ${reason.toString()}` : ''})`;
    log(detail);
    finishing = Promise.resolve();
    resolveDone({ reason: 'connection-lost', detail });
  });

  send(target.startSessions(Date.now()));
  log(`sessions ${sessions.join(' ')} (pass one to live.js --control-session)`);
  const runs = options.runs ? sessions.map((session, index) => ({ session, run: `run-${index + 1}-${runTag}` })) : [];
  for (const { session, run } of runs) send(target.startRun(session, run, Date.now()));
  if (runs.length > 0) log(`runs ${runs.map(({ run }) => run).join(' ')} (pass its session's run to live.js --control-cancel)`);
  raiseNext();

  return {
    sessions,
    runs,
    socketUrl,
    requests: () => target.requests(),
    decisions: () => [...decisions],
    worked: () => [...worked],
    onLog(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    done,
    close: () => finish({ reason: 'closed' }),
  };
}
