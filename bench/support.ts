import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';

/** What every benchmark is given. */
export interface BenchContext {
  /** Shrink everything to a few seconds and skip code-server (the CI smoke). */
  quick: boolean;
  /** Progress lines (stderr); results go through the returned metrics. */
  log(line: string): void;
  /** A scratch folder, removed after the run. */
  tmpDir: string;
}

/** The repository root: the nearest folder above this file holding package.json and bench/. */
export function repoRoot(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'bench'))) return dir;
    if (path.dirname(dir) === dir) return process.cwd();
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export const now = () => performance.now();

/** Sorted copy. */
function sorted(values: readonly number[]): number[] {
  return [...values].sort((a, b) => a - b);
}

/** The p-th percentile (0–100), nearest-rank on the sorted values. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const s = sorted(values);
  const rank = Math.ceil((p / 100) * s.length);
  return s[Math.min(s.length - 1, Math.max(0, rank - 1))] ?? NaN;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const s = sorted(values);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? (s[mid] ?? NaN) : ((s[mid - 1] ?? NaN) + (s[mid] ?? NaN)) / 2;
}

export function mean(values: readonly number[]): number {
  return values.length === 0 ? NaN : values.reduce((sum, v) => sum + v, 0) / values.length;
}

let gcFunction: (() => void) | undefined;

/**
 * V8 drops the bytecode of functions unused for a few collections: after the earlier benchmarks, each
 * collection a heap figure forces can free some, and a figure taken across them came out negative. The
 * suite runs without it from its start, every benchmark alike (footprint's own processes aside).
 */
export function keepBytecode(): void {
  v8.setFlagsFromString('--no-flush-bytecode');
}

/** A full garbage collection, without needing `node --expose-gc`. */
export function gc(): void {
  if (!gcFunction) {
    const exposed = (globalThis as { gc?: () => void }).gc;
    if (exposed) gcFunction = exposed;
    else {
      v8.setFlagsFromString('--expose-gc');
      gcFunction = vm.runInNewContext('gc') as () => void;
    }
  }
  gcFunction();
}

/** Heap used after a full collection (twice: weak references and finalizers settle on the second). */
export function settledHeap(): number {
  // Until two collections in a row free no more than 64 KB (at most eight): one collection can leave what the next frees.
  gc();
  let heap = process.memoryUsage().heapUsed;
  for (let i = 0; i < 8; i++) {
    gc();
    const next = process.memoryUsage().heapUsed;
    if (Math.abs(heap - next) < 64 * 1024) return next;
    heap = next;
  }
  return heap;
}

/**
 * settledHeap once what the earlier benchmarks left to the event loop has run: their sockets' and child
 * process's handles closing free what they held only in a later turn, so a baseline taken in the same turn
 * as the previous benchmark's end could be freed under the figure measured against it (the quick suite's
 * heap of 1,000 pending came out at -0.42 to -0.68 MB after throughput and latency: here, 2 of 4 runs).
 * Turns until a turn changes the settled heap by less than 64 KB (at most eight).
 */
export async function quietHeap(): Promise<number> {
  let heap = settledHeap();
  for (let i = 0; i < 8; i++) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    const next = settledHeap();
    if (Math.abs(heap - next) < 64 * 1024) return next;
    heap = next;
  }
  return heap;
}

export const MB = 2 ** 20;
export const KB = 1024;

/** Resolves `condition` polled every `everyMs`, or rejects after `timeoutMs` saying what was awaited. */
export async function waitFor(condition: () => boolean, what: string, timeoutMs: number, everyMs = 5): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

/** The 1 / 5 / 15 min load average, for the notes: other work on the machine moves the absolute figures. */
export function loadAverage(): string {
  return os.loadavg().map((value) => value.toFixed(2)).join(' / ');
}
