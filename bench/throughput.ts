// 1. Pipeline throughput: a flood of attention events from the local hub to
// (a) a bare `ws` client that only JSON.parses, and (b) HubClient + Inbox
// (validation, dedupe, the reducer). The hub runs in its own process with the
// events preloaded, and each client subscribes with `from: "all"`, so the hub
// sends its buffer as fast as the socket takes it: the hub is not the
// bottleneck, and the figure is what each consumer can absorb.
import WebSocket from 'ws';
import { HubClient } from '../src/client/hubClient';
import { silentLogger } from '../src/base/logger';
import { MemoryPositionStore } from '../test/support/memoryPositionStore';
import { SUBSCRIBED_TYPES } from '../src/client/userFilter';
import { CountingInbox } from './countingInbox';
import { HubChild } from './hubChild';
import { metric, type BenchmarkResult } from './report';
import { median, now, type BenchContext } from './support';

export interface ThroughputOptions {
  events: number;
  sessions: number;
  /** Rounds per client, alternating bare and ours; the median round is reported. */
  rounds: number;
}

export function throughputOptions(quick: boolean): ThroughputOptions {
  return quick ? { events: 6_000, sessions: 20, rounds: 1 } : { events: 100_000, sessions: 100, rounds: 5 };
}

/** (a): connect, hello, subscribe from "all" with the extension's filter, JSON.parse every frame, count events. */
export async function bareClient(hubUrl: string, expected: number, timeoutMs: number): Promise<{ ms: number; events: number }> {
  const started = now();
  const ws = new WebSocket(`${hubUrl.replace(/^http/, 'ws')}/socket`, { maxPayload: 4 * 1024 * 1024 });
  let events = 0;
  try {
    const ms = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`bare client got ${events} of ${expected} events in ${timeoutMs} ms`)), timeoutMs);
      ws.on('error', reject);
      ws.on('open', () => {
        ws.send(JSON.stringify({ type: 'hello', versions: ['0.1'], role: 'consumer', identity: { agent: 'bench-bare', instance: '1' }, capabilities: {} }));
      });
      ws.on('message', (data: Buffer) => {
        const value = JSON.parse(data.toString('utf8')) as { type: string };
        if (value.type.includes('.')) {
          if (++events === expected) {
            clearTimeout(timer);
            resolve(now() - started);
          }
        } else if (value.type === 'hello') {
          ws.send(JSON.stringify({ type: 'subscribe', id: 'bare', filter: { type: [...SUBSCRIBED_TYPES] }, from: 'all' }));
        }
      });
    });
    return { ms, events };
  } finally {
    ws.terminate();
  }
}

/** Room for every event a hub holds (a replay flood can be queued whole). */
const ROOMY_QUEUE = 1_000_000;

/**
 * (b): the extension's own client, built as the VS Code layer builds it (no logging). `maxQueuedMessages`
 * is raised to hold a whole flood (ROOMY_QUEUE) when `roomy`: with the default (20 000) the client gives up on the
 * connection once it falls that far behind, and the run measures the reconnect instead of the pipeline.
 * Resolves when the inbox has been handed `expected` events, or when nothing arrived for `stallMs`.
 */
export async function ourClient(
  hubUrl: string,
  expected: number,
  options: { timeoutMs: number; roomy: boolean; stallMs?: number },
): Promise<{ ms: number; events: number; applied: number; problems: number; connections: number; stalled: boolean }> {
  const inbox = new CountingInbox();
  let problems = 0;
  const client = new HubClient({
    hubUrl, senderName: 'bench-editor', inbox, positions: new MemoryPositionStore(), log: silentLogger,
    // As the extension subscribes by default (aepAttention.beforeAsking).
    beforeAsking: true,
    ...(options.roomy ? { maxQueuedMessages: ROOMY_QUEUE } : {}),
  });
  client.onDidReportProblem(() => problems++);
  const started = now();
  let stalled = false;
  let timer: ReturnType<typeof setInterval> | undefined;
  try {
    client.start();
    let lastCount = -1;
    let lastChange = now();
    await Promise.race([
      inbox.whenHanded(expected),
      new Promise<void>((resolve, reject) => {
        timer = setInterval(() => {
          if (inbox.handed !== lastCount) {
            lastCount = inbox.handed;
            lastChange = now();
          } else if (options.stallMs !== undefined && now() - lastChange > options.stallMs) {
            stalled = true;
            resolve();
          }
          if (now() - started > options.timeoutMs) {
            reject(new Error(`HubClient got ${inbox.handed} of ${expected} events in ${options.timeoutMs} ms (state ${client.state.kind}, ${client.stats.connections} connections)`));
          }
        }, 50);
      }),
    ]);
    const ms = now() - started;
    return { ms, events: inbox.handed, applied: client.stats.eventsApplied, problems, connections: client.stats.connections, stalled };
  } finally {
    clearInterval(timer);
    client.dispose();
    inbox.dispose();
  }
}

export async function runThroughput(ctx: BenchContext, options = throughputOptions(ctx.quick)): Promise<BenchmarkResult> {
  const started = now();
  const notes: string[] = [];
  const hub = await HubChild.start({ buffer: 10_000, maxSessions: 1_000, slowConsumerBytes: 2 ** 31 });
  try {
    const meanBytes = await hub.preload(options.events, options.sessions, 'flood');
    ctx.log(`throughput: hub preloaded ${options.events} events (${Math.round(meanBytes)} bytes each)`);
    const timeoutMs = ctx.quick ? 30_000 : 180_000;
    // One untimed round each first: JIT warm-up of both paths.
    await bareClient(hub.url, Math.min(options.events, 5_000), timeoutMs);
    await ourClient(hub.url, Math.min(options.events, 5_000), { timeoutMs, roomy: true });
    const bare: number[] = [];
    const ours: number[] = [];
    let problems = 0;
    for (let round = 0; round < options.rounds; round++) {
      const a = await bareClient(hub.url, options.events, timeoutMs);
      bare.push(a.events / (a.ms / 1000));
      const b = await ourClient(hub.url, options.events, { timeoutMs, roomy: true });
      ours.push(b.events / (b.ms / 1000));
      problems += b.problems;
      ctx.log(`throughput: round ${round + 1}: bare ${Math.round(bare.at(-1)!)} events/s, HubClient+Inbox ${Math.round(ours.at(-1)!)} events/s`);
    }
    if (problems > 0) notes.push(`HubClient reported ${problems} problems during the flood`);
    // The same flood with the client's defaults: does all of it reach the inbox?
    const defaults = await ourClient(hub.url, options.events, { timeoutMs, roomy: false, stallMs: 3_000 });
    ctx.log(`throughput: default settings: ${defaults.events} of ${options.events} events reached the inbox over ${defaults.connections} connections`);
    if (defaults.events < options.events) {
      notes.push(
        defaults.connections > 1
          ? `with the default maxQueuedMessages (20 000) the client fell behind, dropped the connection and resumed from the positions it had: ` +
              `${options.events - defaults.events} events, of sessions it had not seen yet, never reached the inbox`
          : `with default settings ${options.events - defaults.events} events never reached the inbox`,
      );
    }
    const a = median(bare);
    const b = median(ours);
    notes.push(
      `${options.events} events (mean ${Math.round(meanBytes)} bytes) over ${options.sessions} sessions, median of ${options.rounds} rounds; ` +
        `hub in its own process, replaying its buffer (from: "all"); (b) with maxQueuedMessages ${ROOMY_QUEUE.toLocaleString('en-US')} so it never drops the connection`,
    );
    return {
      id: 'throughput',
      title: 'Pipeline throughput',
      durationMs: now() - started,
      notes,
      metrics: [
        metric('bare ws + JSON.parse', 'events/s', a, { detail: { rounds: bare.length, min: Math.min(...bare), max: Math.max(...bare) } }),
        metric('HubClient + Inbox (b/a)', 'events/s', b, {
          baseline: { label: 'bare ws', value: a },
          target: { on: 'ratio', op: '>=', limit: 0.7 },
          detail: { rounds: ours.length, min: Math.min(...ours), max: Math.max(...ours), maxQueuedMessages: ROOMY_QUEUE },
        }),
        metric('events reaching the inbox, default settings', 'events', defaults.events, {
          target: { on: 'value', op: '>=', limit: options.events },
          detail: { connections: defaults.connections, stalled: defaults.stalled ? 'yes' : 'no' },
        }),
      ],
    };
  } finally {
    await hub.close();
  }
}
