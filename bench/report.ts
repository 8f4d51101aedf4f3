// The shape of a benchmark run (what `.bench/results.json` holds) and the
// table printed from it. Every timing carries a baseline measured in the same
// run and the ratio value ÷ baseline: CI machines are noisy, so the ratio is
// the figure to compare between runs; absolute values are context.
import * as os from 'node:os';

export const RESULTS_SCHEMA = 'aep-attention-bench/1';

export interface Target {
  /** Which figure the target applies to. */
  on: 'value' | 'ratio';
  op: '<' | '<=' | '>=';
  limit: number;
}

export interface Baseline {
  /** What the baseline is, in a few words ("bare ws client, JSON.parse only"). */
  label: string;
  value: number;
}

export interface Metric {
  /** Short name, unique within its benchmark. */
  metric: string;
  unit: string;
  value: number;
  baseline?: Baseline;
  /** value ÷ baseline.value. */
  ratio?: number;
  target?: Target;
  /** Set when there is a target. */
  pass?: boolean;
  /** Extra figures for context (spread, counts). */
  detail?: Record<string, number | string>;
}

export interface BenchmarkResult {
  id: BenchmarkId;
  title: string;
  durationMs: number;
  metrics: Metric[];
  notes: string[];
  /** Set when the benchmark failed; its metrics are whatever was measured before. */
  error?: string;
}

export const BENCHMARK_IDS = ['throughput', 'latency', 'scale', 'form-render', 'open-focused', 'footprint', 'hostile', 'catch-up'] as const;
export type BenchmarkId = (typeof BENCHMARK_IDS)[number];

export interface Machine {
  cpus: number;
  cpuModel: string;
  totalMemMB: number;
  node: string;
  platform: string;
}

export interface Results {
  schema: typeof RESULTS_SCHEMA;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  quick: boolean;
  machine: Machine;
  benchmarks: BenchmarkResult[];
  summary: { targets: number; passed: number; missed: number; failed: number };
}

export function machine(): Machine {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    totalMemMB: Math.round(os.totalmem() / 2 ** 20),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
  };
}

/** A metric with its ratio and pass/miss filled in. */
export function metric(
  name: string,
  unit: string,
  value: number,
  options: { baseline?: Baseline; target?: Target; detail?: Metric['detail'] } = {},
): Metric {
  const m: Metric = { metric: name, unit, value };
  if (options.baseline) {
    m.baseline = options.baseline;
    if (options.baseline.value > 0 && Number.isFinite(options.baseline.value)) m.ratio = value / options.baseline.value;
  }
  if (options.target) {
    m.target = options.target;
    const figure = options.target.on === 'ratio' ? m.ratio : value;
    m.pass = figure !== undefined && meets(figure, options.target);
  }
  if (options.detail) m.detail = options.detail;
  return m;
}

function meets(figure: number, target: Target): boolean {
  switch (target.op) {
    case '<':
      return figure < target.limit;
    case '<=':
      return figure <= target.limit;
    case '>=':
      return figure >= target.limit;
  }
}

export function summarize(benchmarks: BenchmarkResult[]): Results['summary'] {
  const withTargets = benchmarks.flatMap((b) => b.metrics).filter((m) => m.target);
  const passed = withTargets.filter((m) => m.pass).length;
  return { targets: withTargets.length, passed, missed: withTargets.length - passed, failed: benchmarks.filter((b) => b.error).length };
}

// ---- formatting -------------------------------------------------------------

/** A number to 3 significant figures, with thousands separators for big ones. */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  if (abs >= 1000) return Math.round(value).toLocaleString('en-US');
  if (abs >= 100) return value.toFixed(0);
  if (abs >= 10) return value.toFixed(1);
  if (abs >= 1) return value.toFixed(2);
  if (abs === 0) return '0';
  return value.toPrecision(2);
}

function withUnit(value: number, unit: string): string {
  return unit ? `${formatNumber(value)} ${unit}` : formatNumber(value);
}

export function formatTarget(m: Metric): string {
  if (!m.target) return '';
  const figure = m.target.on === 'ratio' ? 'ratio' : '';
  return `${figure ? `${figure} ` : ''}${m.target.op} ${m.target.on === 'ratio' ? formatNumber(m.target.limit) : withUnit(m.target.limit, m.unit)}`;
}

export const TABLE_HEADER = ['benchmark', 'metric', 'value', 'baseline', 'ratio', 'target', 'pass/miss'] as const;

export function tableRows(results: Pick<Results, 'benchmarks'>): string[][] {
  const rows: string[][] = [];
  for (const b of results.benchmarks) {
    if (b.error) rows.push([b.id, 'FAILED', b.error.split('\n')[0]?.slice(0, 100) ?? '', '', '', '', 'error']);
    for (const m of b.metrics) {
      rows.push([
        b.id,
        m.metric,
        withUnit(m.value, m.unit),
        m.baseline ? `${withUnit(m.baseline.value, m.unit)} (${m.baseline.label})` : '',
        m.ratio !== undefined ? formatNumber(m.ratio) : '',
        formatTarget(m),
        m.pass === undefined ? '' : m.pass ? 'pass' : 'MISS',
      ]);
    }
  }
  return rows;
}

/** A plain-text table for the terminal. */
export function formatTable(results: Pick<Results, 'benchmarks'>): string {
  const rows = [Array.from(TABLE_HEADER), ...tableRows(results)];
  const widths = TABLE_HEADER.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  const line = (row: string[]) => row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ').trimEnd();
  return [line(rows[0] ?? []), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)].join('\n');
}

/** The same table as Markdown, for BENCHMARKS.md. */
export function formatMarkdownTable(results: Pick<Results, 'benchmarks'>): string {
  const escape = (cell: string) => cell.replace(/\|/g, '\\|');
  const rows = tableRows(results);
  return [
    `| ${TABLE_HEADER.join(' | ')} |`,
    `|${TABLE_HEADER.map(() => '---').join('|')}|`,
    ...rows.map((row) => `| ${row.map(escape).join(' | ')} |`),
  ].join('\n');
}
