// The local hub in a process of its own, driven over IPC by bench/hubChild.ts.
// On a two-core machine the hub and the client under test then each have a
// core, and the client's timings do not include the hub's work.
//
// It can also preload events (so a subscriber gets them as a replay flood) and
// run a background emitter at a fixed rate (the load under which latency is
// measured); both live here so they load the hub's core, not the client's.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import WebSocket from 'ws';
import { startHub, type RunningHub } from '../test/peers/hub/hub';
import { attentionFlood, BackgroundTraffic } from './events';
import type { HubRequest, HubReply } from './hubChild';

let hub: RunningHub | undefined;
type LoadResult = { sent: number; elapsedMs: number; lateTicks: number; loopDelayP99Ms: number; cpuMs: number };
let load: { stop(): Promise<LoadResult> } | undefined;

function reply(message: HubReply): void {
  process.send?.(message);
}

async function post(url: string, lines: string[]): Promise<void> {
  const response = await fetch(`${url}/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-ndjson', 'aep-version': '0.1' },
    body: `${lines.join('\n')}\n`,
  });
  const text = await response.text();
  if (response.status !== 202) throw new Error(`the hub refused a preload batch: HTTP ${response.status} ${text.slice(0, 300)}`);
}

async function preload(count: number, sessions: number, prefix: string): Promise<number> {
  if (!hub) throw new Error('no hub');
  const events = attentionFlood(count, sessions, prefix).map((event) => JSON.stringify(event));
  let bytes = 0;
  for (let i = 0; i < events.length; i += 1000) {
    const batch = events.slice(i, i + 1000);
    for (const line of batch) bytes += line.length;
    await post(hub.url, batch);
  }
  return bytes / events.length;
}

/** An emitter connection to our own hub sending `rate` events per second in 5 ms ticks. */
async function startLoad(rate: number, sessions: number, share: number, prefix: string): Promise<void> {
  if (!hub) throw new Error('no hub');
  const ws = new WebSocket(`${hub.url.replace(/^http/, 'ws')}/socket`);
  await new Promise<void>((resolve, reject) => {
    ws.once('error', reject);
    ws.once('open', () => {
      ws.send(JSON.stringify({ type: 'hello', versions: ['0.1'], role: 'emitter', identity: { agent: 'bench-noise', instance: 'load' }, capabilities: {} }));
    });
    ws.on('message', (data: Buffer) => {
      const frame = JSON.parse(data.toString('utf8')) as { type?: string; t?: unknown };
      if (frame.type === 'hello') resolve();
      else if (frame.type === 'ping') ws.send(JSON.stringify({ type: 'pong', t: frame.t }));
      else if (frame.type === 'error') reject(new Error(`load emitter refused: ${JSON.stringify(frame)}`));
    });
  });
  const traffic = new BackgroundTraffic(sessions, share, prefix);
  const TICK_MS = 5;
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  let sent = 0;
  let lateTicks = 0;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  // Open loop: each tick sends whatever the schedule says is due by now, so a late tick catches up.
  const tick = () => {
    if (stopped) return;
    const elapsed = performance.now() - started;
    const due = Math.floor((elapsed / 1000) * rate);
    if (due - sent > rate * (2 * TICK_MS) / 1000) lateTicks++;
    while (sent < due) {
      ws.send(JSON.stringify(traffic.next()));
      sent++;
    }
    timer = setTimeout(tick, TICK_MS);
  };
  tick();
  load = {
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      const elapsedMs = performance.now() - started;
      delay.disable();
      const cpu = process.cpuUsage(cpuBefore);
      ws.close();
      return { sent, elapsedMs, lateTicks, loopDelayP99Ms: delay.percentile(99) / 1e6, cpuMs: (cpu.user + cpu.system) / 1000 };
    },
  };
}

process.on('message', (raw: unknown) => {
  const request = raw as HubRequest;
  const run = async (): Promise<HubReply> => {
    switch (request.type) {
      case 'start':
        hub = await startHub({ ...request.config, port: 0, host: '127.0.0.1' });
        return { type: 'started', id: request.id, url: hub.url };
      case 'preload':
        return { type: 'preloaded', id: request.id, meanBytes: await preload(request.count, request.sessions, request.prefix) };
      case 'load-start':
        await startLoad(request.rate, request.sessions, request.share, request.prefix);
        return { type: 'load-started', id: request.id };
      case 'load-stop': {
        const result = load ? await load.stop() : { sent: 0, elapsedMs: 0, lateTicks: 0, loopDelayP99Ms: 0, cpuMs: 0 };
        load = undefined;
        return { type: 'load-stopped', id: request.id, ...result };
      }
      case 'close':
        await load?.stop();
        await hub?.close('benchmark over');
        return { type: 'closed', id: request.id };
    }
  };
  run().then(reply, (error: unknown) => reply({ type: 'error', id: request.id, message: error instanceof Error ? error.stack ?? error.message : String(error) }));
});

process.on('disconnect', () => process.exit(0));
reply({ type: 'alive', id: 0 });
