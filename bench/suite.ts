// Runs the benchmarks in order, each one isolated from the others' failures,
// and assembles the results; the CLI (bench/cli.ts) prints and writes them.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCatchUp } from './catchUp';
import { runFootprint } from './footprint';
import { runFormRender } from './formRender';
import { runHostile } from './hostile';
import { runLatency } from './latency';
import { runOpenFocused } from './openFocused';
import { BENCHMARK_IDS, machine, RESULTS_SCHEMA, summarize, type BenchmarkId, type BenchmarkResult, type Results } from './report';
import { runScale } from './scale';
import { keepBytecode, now, type BenchContext } from './support';
import { runThroughput } from './throughput';

const TITLES: Record<BenchmarkId, string> = {
  throughput: 'Pipeline throughput',
  latency: 'Latency under load',
  scale: 'Scale',
  'form-render': 'Form render',
  'open-focused': 'Open → focused',
  footprint: 'Footprint',
  hostile: 'Hostile input',
  'catch-up': 'Catch-up after a reconnect',
};

const RUNNERS: Record<BenchmarkId, (ctx: BenchContext) => Promise<BenchmarkResult>> = {
  throughput: runThroughput,
  latency: runLatency,
  scale: runScale,
  'form-render': runFormRender,
  'open-focused': runOpenFocused,
  footprint: runFootprint,
  hostile: runHostile,
  'catch-up': runCatchUp,
};

export interface SuiteOptions {
  quick: boolean;
  /** Run only these (default: all, in order). */
  only?: readonly BenchmarkId[];
  log?: (line: string) => void;
}

export async function runSuite(options: SuiteOptions): Promise<Results> {
  keepBytecode();
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const startedAt = new Date();
  const started = now();
  const tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aep-bench-'));
  const benchmarks: BenchmarkResult[] = [];
  try {
    for (const id of BENCHMARK_IDS) {
      if (options.only && !options.only.includes(id)) continue;
      const t0 = now();
      log(`-- ${id}${options.quick ? ' (quick)' : ''}`);
      try {
        const result = await RUNNERS[id]({ quick: options.quick, log, tmpDir });
        benchmarks.push(result);
        log(`-- ${id} done in ${((now() - t0) / 1000).toFixed(1)} s`);
      } catch (error) {
        const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
        log(`-- ${id} FAILED: ${message}`);
        benchmarks.push({ id, title: TITLES[id], durationMs: now() - t0, metrics: [], notes: [], error: message });
      }
    }
  } finally {
    fs.rmSync(tmpDir, { recursive: true, force: true });
  }
  return {
    schema: RESULTS_SCHEMA,
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    durationMs: now() - started,
    quick: options.quick,
    machine: machine(),
    benchmarks,
    summary: summarize(benchmarks),
  };
}
