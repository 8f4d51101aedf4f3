// 2. Latency under load: an agent raises requests while background traffic
// flows through the hub (most of it filtered out there); each request is timed
// from the agent's send to the Inbox's change event. The baseline is the same
// path ending in a bare `ws` client that only JSON.parses, under the same load.
//
// The hub and the background emitter share one process (one core); the agent,
// the client under test and the clock are in this one, so send and receive
// times come from the same performance.now().
import WebSocket from 'ws';
import { HubClient } from '../src/client/hubClient';
import { silentLogger } from '../src/base/logger';
import { MemoryPositionStore } from '../test/support/memoryPositionStore';
import { SUBSCRIBED_TYPES } from '../src/client/userFilter';
import { Inbox } from '../src/inbox/inbox';
import { formRequest } from './events';
import { HubChild } from './hubChild';
import { metric, type BenchmarkResult } from './report';
import { now, percentile, sleep, waitFor, type BenchContext } from './support';

export interface LatencyOptions {
  /** Requests timed per client. */
  requests: number;
  /** Gap between two requests (open loop: the schedule does not wait for delivery). */
  intervalMs: number;
  /** Background events per second through the hub. */
  loadRate: number;
  /** Share of the background the client subscribes to; the rest the hub filters out. */
  deliveredShare: number;
}

export function latencyOptions(quick: boolean): LatencyOptions {
  return quick
    ? { requests: 40, intervalMs: 5, loadRate: 10_000, deliveredShare: 0.05 }
    : { requests: 1_000, intervalMs: 10, loadRate: 10_000, deliveredShare: 0.05 };
}

/** A minimal emitter: one session it owns, requests sent with their send time recorded. */
class BenchAgent {
  private seq = 0;
  readonly sentAt = new Map<string, number>();

  private constructor(private readonly ws: WebSocket, private readonly session: string) {}

  static async connect(hubUrl: string, session: string): Promise<BenchAgent> {
    const ws = new WebSocket(`${hubUrl.replace(/^http/, 'ws')}/socket`);
    await new Promise<void>((resolve, reject) => {
      ws.once('error', reject);
      ws.once('open', () => ws.send(JSON.stringify({ type: 'hello', versions: ['0.1'], role: 'emitter', identity: { agent: 'bench-agent', instance: session }, capabilities: {} })));
      ws.on('message', (data: Buffer) => {
        const frame = JSON.parse(data.toString('utf8')) as { type?: string; t?: unknown };
        if (frame.type === 'hello') resolve();
        else if (frame.type === 'ping') ws.send(JSON.stringify({ type: 'pong', t: frame.t }));
        else if (frame.type === 'error') reject(new Error(`agent refused: ${JSON.stringify(frame)}`));
      });
    });
    return new BenchAgent(ws, session);
  }

  raise(): string {
    const event = formRequest(this.session, this.seq++);
    const text = JSON.stringify(event);
    this.sentAt.set(event.id, now());
    this.ws.send(text);
    return event.id;
  }

  close(): void {
    this.ws.close();
  }
}

interface Consumer {
  /** Receive time per request id. */
  readonly seenAt: Map<string, number>;
  close(): void;
}

async function bareConsumer(hubUrl: string): Promise<Consumer> {
  const seenAt = new Map<string, number>();
  const ws = new WebSocket(`${hubUrl.replace(/^http/, 'ws')}/socket`);
  await new Promise<void>((resolve, reject) => {
    ws.once('error', reject);
    ws.once('open', () => ws.send(JSON.stringify({ type: 'hello', versions: ['0.1'], role: 'consumer', identity: { agent: 'bench-bare', instance: '1' }, capabilities: {} })));
    ws.on('message', (data: Buffer) => {
      const value = JSON.parse(data.toString('utf8')) as { type: string; id?: string; agent?: string; t?: unknown };
      if (value.type === 'attention.requested' && value.agent === 'bench-agent' && value.id) seenAt.set(value.id, now());
      else if (value.type === 'hello') ws.send(JSON.stringify({ type: 'subscribe', id: 'bare', filter: { type: [...SUBSCRIBED_TYPES] } }));
      else if (value.type === 'subscribed') resolve();
      else if (value.type === 'ping') ws.send(JSON.stringify({ type: 'pong', t: value.t }));
    });
  });
  return { seenAt, close: () => ws.terminate() };
}

async function ourConsumer(hubUrl: string): Promise<Consumer> {
  const seenAt = new Map<string, number>();
  const inbox = new Inbox();
  inbox.onDidChange((change) => {
    if (change.kind === 'added' && change.item.agent === 'bench-agent') seenAt.set(change.item.requestId, now());
  });
  // As the extension subscribes by default (aepAttention.beforeAsking): the agents' tool calls and runs too.
  // AEP_BENCH_BEFORE_ASKING=0 subscribes as with the setting off, to compare the two in one build.
  const beforeAsking = process.env['AEP_BENCH_BEFORE_ASKING'] !== '0';
  const client = new HubClient({ hubUrl, senderName: 'bench-editor', inbox, positions: new MemoryPositionStore(), log: silentLogger, beforeAsking });
  client.start();
  await waitFor(() => client.state.kind === 'connected', 'HubClient to connect', 10_000);
  return {
    seenAt,
    close: () => {
      client.dispose();
      inbox.dispose();
    },
  };
}

/** Raises `count` requests on a fixed schedule and returns each one's latency in ms. */
async function timeRequests(agent: BenchAgent, consumer: Consumer, count: number, intervalMs: number): Promise<{ latencies: number[]; lost: number }> {
  const ids: string[] = [];
  const started = now();
  for (let i = 0; i < count; i++) {
    // Open loop on an absolute schedule; a late timer does not shift the ones after it.
    const due = started + i * intervalMs;
    const wait = due - now();
    if (wait > 0) await sleep(wait);
    ids.push(agent.raise());
  }
  await waitFor(() => ids.every((id) => consumer.seenAt.has(id)), 'every request to arrive', 5_000).catch(() => undefined);
  const latencies: number[] = [];
  let lost = 0;
  for (const id of ids) {
    const seen = consumer.seenAt.get(id);
    const sent = agent.sentAt.get(id);
    if (seen === undefined || sent === undefined) lost++;
    else latencies.push(seen - sent);
  }
  return { latencies, lost };
}

export async function runLatency(ctx: BenchContext, options = latencyOptions(ctx.quick)): Promise<BenchmarkResult> {
  const started = now();
  const notes: string[] = [];
  const hub = await HubChild.start({ buffer: 1_000, maxSessions: 1_000 });
  let agent: BenchAgent | undefined;
  try {
    await hub.startLoad(options.loadRate, 50, options.deliveredShare, 'noise');
    agent = await BenchAgent.connect(hub.url, `latency-${Date.now().toString(36)}`);
    await sleep(ctx.quick ? 200 : 1_000);
    const bare: number[] = [];
    const ours: number[] = [];
    let lost = 0;
    // Two alternations (bare, ours, bare, ours) so drift in the load hits both alike.
    const halves = ctx.quick ? 1 : 2;
    for (let half = 0; half < halves; half++) {
      const count = Math.ceil(options.requests / halves);
      for (const kind of ['bare', 'ours'] as const) {
        const consumer = kind === 'bare' ? await bareConsumer(hub.url) : await ourConsumer(hub.url);
        try {
          await sleep(ctx.quick ? 100 : 500);
          const result = await timeRequests(agent, consumer, count, options.intervalMs);
          (kind === 'bare' ? bare : ours).push(...result.latencies);
          lost += result.lost;
          ctx.log(`latency: ${kind}: ${result.latencies.length} requests, p50 ${percentile(result.latencies, 50).toFixed(2)} ms, p99 ${percentile(result.latencies, 99).toFixed(2)} ms`);
        } finally {
          consumer.close();
        }
      }
    }
    const load = await hub.stopLoad();
    const achieved = load.sent / (load.elapsedMs / 1000);
    notes.push(
      `${ours.length} requests per client, one every ${options.intervalMs} ms, under ${Math.round(achieved)} background events/s ` +
        `(${Math.round(options.deliveredShare * 100)}% attention events; of the tool chatter, ${process.env['AEP_BENCH_CHATTER'] === 'actions' ? 'all' : 'tool.completed (a quarter)'} ` +
        'delivered to the client with "Before asking" on, the rest filtered out by the hub)',
    );
    if (lost > 0) notes.push(`${lost} requests never arrived`);
    return {
      id: 'latency',
      title: 'Latency under load',
      durationMs: now() - started,
      notes,
      metrics: [
        metric('send → inbox change p50', 'ms', percentile(ours, 50), { baseline: { label: 'bare ws', value: percentile(bare, 50) } }),
        metric('send → inbox change p99', 'ms', percentile(ours, 99), {
          baseline: { label: 'bare ws', value: percentile(bare, 99) },
          target: { on: 'value', op: '<', limit: 10 },
          detail: { max: Math.max(...ours), requests: ours.length, lost },
        }),
        metric('background load achieved', 'events/s', achieved, {
          // The hub's own process (hub + background emitter): its event-loop delay is part of every latency above.
          detail: { sent: load.sent, lateTicks: load.lateTicks, hubLoopDelayP99Ms: load.loopDelayP99Ms, hubCpuPercent: (load.cpuMs / load.elapsedMs) * 100 },
        }),
      ],
    };
  } finally {
    agent?.close();
    await hub.close();
  }
}
