// 7. Catch-up: what a reconnect to a hub that offers replay-all costs. Every
// connection to such a hub asks for everything it holds (resumePlan.ts) and
// the inbox drops what it already had, so a reconnect pays for the whole
// replay. With N sessions held (test/support/heldSessions.ts, the load
// test/load/catchUpCost.test.ts checks), a client that has applied
// them all is severed by a proxy, one request is raised meanwhile in a session
// it never saw, and it reconnects: the replay's events, bytes and time, what of
// it is new, and when the missed request is in the inbox. The baseline is the
// same client's first connection to the same hub: the same replay, all new.
import { HubClient } from '../src/client/hubClient';
import { silentLogger } from '../src/base/logger';
import { MemoryPositionStore } from '../test/support/memoryPositionStore';
import { heldSessions, outageRequest, postAll } from '../test/support/heldSessions';
import { TcpProxy } from '../test/support/tcpProxy';
import { CountingInbox } from './countingInbox';
import { HubChild } from './hubChild';
import { metric, type BenchmarkResult, type Metric } from './report';
import { loadAverage, median, now, sleep, waitFor, type BenchContext } from './support';

export interface CatchUpOptions {
  /**
   * Sessions the hub holds, one measurement each; below 1 000, the local
   * hub's bound (test/peers/hub/config.ts `maxSessions`), so the new session fits.
   */
  sessionCounts: number[];
  /** Requests per session that were answered and resolved (one more stays open). */
  answered: number;
  /** Rounds per count, each on a fresh hub; medians are reported. */
  rounds: number;
}

export function catchUpOptions(quick: boolean): CatchUpOptions {
  return quick ? { sessionCounts: [30, 100], answered: 3, rounds: 1 } : { sessionCounts: [300, 999], answered: 3, rounds: 5 };
}

/** The bench's own loopback hub; sent only as the bearer header, never logged. */
const TOKEN = 'bench-catch-up-token';
const TIMEOUT_MS = 60_000;
/** After the expected count, how long to wait for events that should not come. */
const SETTLE_MS = 100;

interface Round {
  /** From the first `connecting` to the whole replay handed to the inbox. */
  firstMs: number;
  /** From the reconnect's `connecting` (or the restore, if later) to the whole replay handed to the inbox. */
  reconnectMs: number;
  /** From the same start to the missed request applied. */
  missedMs: number;
  replayed: number;
  newApplied: number;
  duplicates: number;
  expected: number;
  eventsHeld: number;
  bytesFirst: number;
  bytesReplay: number;
  connections: number;
}

async function measureRound(sessions: number, answered: number, prefix: string): Promise<Round> {
  const hub = await HubChild.start({ token: TOKEN });
  const inbox = new CountingInbox();
  let proxy: TcpProxy | undefined;
  let client: HubClient | undefined;
  try {
    proxy = await TcpProxy.start(Number(new URL(hub.url).port));
    const held = heldSessions(sessions, answered, prefix);
    await postAll(hub.url, TOKEN, held.events);
    client = new HubClient({
      hubUrl: proxy.url, token: TOKEN, senderName: 'bench-editor', inbox, positions: new MemoryPositionStore(), log: silentLogger,
      // Short backoff so the outage ends quickly; the clock starts at the attempt that succeeds, not at the wait.
      backoffBaseMs: 20, backoffCapMs: 100,
    });
    const c = client;
    const describe = () => `handed ${inbox.handed}, ${JSON.stringify(c.stats)}, state ${c.state.kind}`;
    const within = async (promise: Promise<void>, what: string) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      try {
        await Promise.race([promise, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`catch-up: timed out waiting for ${what}: ${describe()}`)), TIMEOUT_MS)))]);
      } finally {
        clearTimeout(timer);
      }
    };
    let connectingAt = now();
    client.onDidChangeState((state) => {
      if (state.kind === 'connecting') connectingAt = now();
    });

    // The baseline: the first connection, whose replay is all new.
    client.start();
    await within(inbox.whenHanded(held.subscribed), 'the first replay');
    const firstMs = now() - connectingAt;
    if (inbox.openCount !== sessions) throw new Error(`catch-up: ${inbox.openCount} requests open after the first replay, expected ${sessions}`);
    const bytesFirst = proxy.bytesDownstream;

    proxy.sever();
    await waitFor(() => c.state.kind === 'backing-off', 'the drop', TIMEOUT_MS);
    const missed = outageRequest(`${prefix}new`);
    await postAll(hub.url, TOKEN, missed.events);
    inbox.watch(missed.requestId);
    const handedBefore = inbox.handed;
    const statsBefore = c.stats;
    const bytesBefore = proxy.bytesDownstream;
    const expected = held.subscribed + missed.events.length;

    const restoredAt = now();
    proxy.restore();
    await within(inbox.whenHanded(handedBefore + expected), 'the replay after the reconnect');
    const doneAt = now();
    const startedAt = Math.max(connectingAt, restoredAt);
    await sleep(SETTLE_MS);

    const appliedAt = inbox.appliedAt(missed.requestId);
    const missedOpen = inbox.open().filter((item) => item.requestId === missed.requestId).length;
    if (appliedAt === undefined || missedOpen !== 1) throw new Error(`catch-up: the request raised during the outage is open ${missedOpen} times, expected once: ${describe()}`);
    if (inbox.openCount !== sessions + 1) throw new Error(`catch-up: ${inbox.openCount} requests open after the reconnect, expected ${sessions + 1}`);
    return {
      firstMs,
      reconnectMs: doneAt - startedAt,
      missedMs: appliedAt - startedAt,
      replayed: inbox.handed - handedBefore,
      newApplied: c.stats.eventsApplied - statsBefore.eventsApplied,
      duplicates: c.stats.duplicatesDropped - statsBefore.duplicatesDropped,
      expected,
      eventsHeld: held.events.length + missed.events.length,
      bytesFirst,
      bytesReplay: proxy.bytesDownstream - bytesBefore,
      connections: c.stats.connections - statsBefore.connections,
    };
  } finally {
    client?.dispose();
    inbox.dispose();
    await proxy?.close();
    await hub.close();
  }
}

function metricsFor(sessions: number, rounds: Round[]): Metric[] {
  const pick = (f: (r: Round) => number) => rounds.map(f);
  const first = pick((r) => r.firstMs);
  const reconnect = pick((r) => r.reconnectMs);
  const missed = pick((r) => r.missedMs);
  const baseline = { label: 'first connection: the same replay, all new', value: median(first) };
  const n = sessions.toLocaleString('en-US');
  const spread = (values: number[]) => ({ runs: values.length, min: Math.min(...values), max: Math.max(...values) });
  return [
    metric(`reconnect, ${n} sessions held: replay applied (median)`, 'ms', median(reconnect), {
      baseline,
      detail: { ...spread(reconnect), baselineMin: Math.min(...first), baselineMax: Math.max(...first), eventsHeld: rounds[0]?.eventsHeld ?? 0 },
    }),
    metric(`reconnect, ${n} sessions held: missed request open (median)`, 'ms', median(missed), { baseline, detail: spread(missed) }),
    metric(`events replayed per reconnect, ${n} sessions held`, 'events', median(pick((r) => r.replayed)), {
      baseline: { label: 'held under the subscription filter', value: rounds[0]?.expected ?? NaN },
      detail: {
        bytesReplayed: median(pick((r) => r.bytesReplay)), bytesFirstConnection: median(pick((r) => r.bytesFirst)),
        duplicatesDropped: median(pick((r) => r.duplicates)), connections: Math.max(...pick((r) => r.connections)),
      },
    }),
    // The outage's own session (session.started and its request) is all that is new.
    metric(`new events applied on reconnect, ${n} sessions held (worst)`, 'events', Math.max(...pick((r) => r.newApplied)), {
      target: { on: 'value', op: '<=', limit: 2 },
    }),
  ];
}

export async function runCatchUp(ctx: BenchContext, options = catchUpOptions(ctx.quick)): Promise<BenchmarkResult> {
  const started = now();
  const loadBefore = loadAverage();
  // One untimed round first: JIT warm-up of the client, the inbox and the proxy.
  await measureRound(Math.min(50, ...options.sessionCounts), options.answered, 'warm');
  const byCount = new Map<number, Round[]>(options.sessionCounts.map((n) => [n, []]));
  // Counts interleaved round by round, so a burst of load elsewhere on the machine does not land on one count only.
  for (let r = 0; r < options.rounds; r++) {
    for (const sessions of options.sessionCounts) {
      const round = await measureRound(sessions, options.answered, `r${r}n${sessions}`);
      byCount.get(sessions)?.push(round);
      ctx.log(
        `catch-up: ${sessions} sessions, round ${r + 1}: first connection ${round.firstMs.toFixed(0)} ms, reconnect ${round.reconnectMs.toFixed(0)} ms ` +
          `(${round.replayed} events, ${round.newApplied} new, ${(round.bytesReplay / 1e6).toFixed(2)} MB), missed request at ${round.missedMs.toFixed(0)} ms`,
      );
    }
  }
  const notes = [
    `each session: session.started, 10 tool events (held by the hub, outside the subscription), ${options.answered} requests requested → answered → resolved, ` +
      `one open request; the hub (test/peers/hub, its own process, default bounds) behind a TCP proxy in this process; ` +
      `${options.rounds} round${options.rounds === 1 ? '' : 's'} per count, each on a fresh hub, after one warm-up round; the clock starts at the connection attempt that succeeds`,
    `load average (1/5/15 min) ${loadBefore} before, ${loadAverage()} after`,
  ];
  return {
    id: 'catch-up',
    title: 'Catch-up after a reconnect',
    durationMs: now() - started,
    notes,
    metrics: options.sessionCounts.flatMap((sessions) => metricsFor(sessions, byCount.get(sessions) ?? [])),
  };
}
