// The parent's handle on bench/hubProcess.ts: forks it (compiling it first with
// esbuild when no compiled copy sits beside this bundle, as in the CI smoke,
// which runs from out/test), and talks to it over IPC.
import { fork, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { HubConfig } from '../test/peers/hub/config';
import { repoRoot } from './support';
import type { BuildOptions } from 'esbuild';
// The options bench/build.js builds with too: the peers' (bundle, node, cjs, packages external).
import benchBuildOptions from './esbuildOptions.json';

export type HubRequest =
  | { type: 'start'; id: number; config: Partial<Omit<HubConfig, 'log'>> }
  | { type: 'preload'; id: number; count: number; sessions: number; prefix: string }
  | { type: 'load-start'; id: number; rate: number; sessions: number; share: number; prefix: string }
  | { type: 'load-stop'; id: number }
  | { type: 'close'; id: number };

export type HubReply =
  | { type: 'alive'; id: 0 }
  | { type: 'started'; id: number; url: string }
  | { type: 'preloaded'; id: number; meanBytes: number }
  | { type: 'load-started'; id: number }
  | ({ type: 'load-stopped'; id: number } & LoadStats)
  | { type: 'closed'; id: number }
  | { type: 'error'; id: number; message: string };

/** What the background emitter did, and how the hub's process fared meanwhile. */
export interface LoadStats {
  sent: number;
  elapsedMs: number;
  lateTicks: number;
  /** p99 of the hub process's event-loop delay while the load ran. */
  loopDelayP99Ms: number;
  /** CPU time of the hub process (hub and emitter) while the load ran. */
  cpuMs: number;
}

type Body<T extends HubRequest['type']> = Omit<Extract<HubRequest, { type: T }>, 'id' | 'type'>;

let built: string | undefined;

/** The compiled hub process: beside this bundle (out/bench), else compiled now into out/bench. */
export function hubProcessScript(): string {
  const beside = path.join(__dirname, 'hubProcess.js');
  if (path.basename(__dirname) === 'bench' && fs.existsSync(beside)) return beside;
  if (built) return built;
  const root = repoRoot();
  const outfile = path.join(root, 'out', 'bench', 'hubProcess.js');
  // esbuild is a devDependency; the bench and the tests only run where devDependencies are installed.
  const esbuild = require('esbuild') as typeof import('esbuild');
  esbuild.buildSync({
    ...(benchBuildOptions as BuildOptions),
    entryPoints: [path.join(root, 'bench', 'hubProcess.ts')],
    outfile,
    absWorkingDir: root,
  });
  built = outfile;
  return outfile;
}


export class HubChild {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (reply: HubReply) => void; reject: (error: Error) => void }>();
  private exited = false;
  private stderr = '';

  private constructor(private readonly child: ChildProcess, readonly url: string) {}

  /** Forks a hub process and starts a hub in it. */
  static async start(config: Partial<Omit<HubConfig, 'log'>> = {}): Promise<HubChild> {
    const child = fork(hubProcessScript(), [], { stdio: ['ignore', 'inherit', 'pipe', 'ipc'], execArgv: [] });
    const handle = new HubChild(child, '');
    child.stderr?.on('data', (chunk: Buffer) => {
      handle.stderr = (handle.stderr + chunk.toString()).slice(-4000);
    });
    child.on('message', (message: HubReply) => {
      const waiter = handle.pending.get(message.id);
      if (!waiter) return;
      handle.pending.delete(message.id);
      if (message.type === 'error') waiter.reject(new Error(`hub process: ${message.message}`));
      else waiter.resolve(message);
    });
    child.on('exit', (code, signal) => {
      handle.exited = true;
      for (const waiter of handle.pending.values()) waiter.reject(new Error(`hub process exited (${code ?? signal}): ${handle.stderr}`));
      handle.pending.clear();
    });
    const started = await handle.request('start', { config });
    if (started.type !== 'started') throw new Error(`unexpected reply ${started.type}`);
    (handle as { url: string }).url = started.url;
    return handle;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  request<T extends HubRequest['type']>(type: T, body: Body<T>): Promise<HubReply> {
    if (this.exited) return Promise.reject(new Error(`hub process has exited: ${this.stderr}`));
    const id = this.nextId++;
    return new Promise<HubReply>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.child.send({ ...body, type, id } as HubRequest);
    });
  }

  /** Preloads `count` attention events; resolves with their mean size in bytes. */
  async preload(count: number, sessions: number, prefix: string): Promise<number> {
    const reply = await this.request('preload', { count, sessions, prefix });
    return reply.type === 'preloaded' ? reply.meanBytes : NaN;
  }

  async startLoad(rate: number, sessions: number, share: number, prefix: string): Promise<void> {
    await this.request('load-start', { rate, sessions, share, prefix });
  }

  async stopLoad(): Promise<LoadStats> {
    const reply = await this.request('load-stop', {});
    return reply.type === 'load-stopped' ? reply : { sent: 0, elapsedMs: 0, lateTicks: 0, loopDelayP99Ms: NaN, cpuMs: NaN };
  }

  /** Closes the hub and ends the process. */
  async close(): Promise<void> {
    if (this.exited) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    await Promise.race([this.request('close', {}).catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 3_000))]);
    this.child.disconnect();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 3_000);
    await exited;
    clearTimeout(timer);
  }
}
