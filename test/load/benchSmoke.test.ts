// The CI smoke of `npm run bench`: every benchmark in quick mode (a few
// seconds in all, no code-server), checked for shape only: each one ran and
// produced finite, positive figures, and the JSON says what the table says.
// Nothing here is timed: speed is reported by `npm run bench`, never asserted.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { markdownReport, parseCliArgs, writeResults } from '../../bench/cli';
import { BENCHMARK_IDS, formatTable, RESULTS_SCHEMA, type Metric, type Results } from '../../bench/report';
import { runSuite } from '../../bench/suite';

function assertPositive(value: unknown, what: string): void {
  assert.equal(typeof value, 'number', `${what} is a number`);
  assert.ok(Number.isFinite(value as number) && (value as number) > 0, `${what} is finite and positive (got ${String(value)})`);
}

function checkMetric(m: Metric, where: string): void {
  assert.ok(typeof m.metric === 'string' && m.metric.length > 0, `${where}: a metric name`);
  assert.equal(typeof m.unit, 'string', `${where}: a unit`);
  assertPositive(m.value, `${where}: value`);
  if (m.baseline) {
    assert.ok(m.baseline.label.length > 0, `${where}: baseline label`);
    assertPositive(m.baseline.value, `${where}: baseline`);
    assertPositive(m.ratio, `${where}: ratio`);
    assert.ok(Math.abs((m.ratio as number) - m.value / m.baseline.value) < 1e-9, `${where}: ratio is value ÷ baseline`);
  } else {
    assert.equal(m.ratio, undefined, `${where}: no ratio without a baseline`);
  }
  if (m.target) {
    assert.ok(['value', 'ratio'].includes(m.target.on) && ['<', '<=', '>='].includes(m.target.op), `${where}: target shape`);
    assertPositive(m.target.limit, `${where}: target limit`);
    assert.equal(typeof m.pass, 'boolean', `${where}: pass/miss decided`);
  } else {
    assert.equal(m.pass, undefined, `${where}: no pass/miss without a target`);
  }
}

test('npm run bench --quick: every benchmark runs and reports finite, positive figures', { timeout: 180_000 }, async (t) => {
  const lines: string[] = [];
  const results = await runSuite({ quick: true, log: (line) => lines.push(line) });
  t.diagnostic(`quick bench took ${Math.round(results.durationMs)} ms`);

  for (const b of results.benchmarks) assert.equal(b.error, undefined, `${b.id} failed:\n${b.error}\n${lines.join('\n')}`);
  assert.equal(results.schema, RESULTS_SCHEMA);
  assert.equal(results.quick, true);
  assert.deepEqual(results.benchmarks.map((b) => b.id), [...BENCHMARK_IDS], 'every benchmark, in order');
  assertPositive(results.durationMs, 'durationMs');
  assert.ok(!Number.isNaN(Date.parse(results.startedAt)) && !Number.isNaN(Date.parse(results.finishedAt)));
  assertPositive(results.machine.cpus, 'machine.cpus');
  assert.match(results.machine.node, /^v\d+/);

  for (const b of results.benchmarks) {
    assert.ok(b.metrics.length > 0, `${b.id} reported metrics`);
    assertPositive(b.durationMs, `${b.id} durationMs`);
    assert.ok(b.notes.every((note) => typeof note === 'string'));
    const names = b.metrics.map((m) => m.metric);
    assert.equal(new Set(names).size, names.length, `${b.id}: metric names are unique`);
    for (const m of b.metrics) checkMetric(m, `${b.id} / ${m.metric}`);
  }
  // The figures each benchmark exists for are there (not which way they fall).
  const metric = (id: string, name: RegExp) => results.benchmarks.find((b) => b.id === id)?.metrics.find((m) => name.test(m.metric));
  assert.ok(metric('throughput', /HubClient \+ Inbox/)?.baseline, 'throughput: ours against the bare client');
  assert.ok(metric('latency', /p99/)?.target, 'latency: p99 with its target');
  assert.ok(metric('scale', /dedupe keys/)?.target, 'scale: the dedupe bound');
  assert.ok(metric('scale', /one-request sessions/)?.baseline, 'scale: the session flood against an inbox that evicts nothing');
  assert.ok(metric('scale', /^status bar count/)?.baseline, 'scale: the status bar count against counting by listing');
  assert.ok(metric('form-render', /^50 fields/)?.target, 'form-render: 50 fields with its target');
  assert.ok(metric('footprint', /loaded at activation/)?.target, 'footprint: what activation loads, with its target');
  assert.ok(metric('hostile', /within a 1 MiB frame/)?.baseline, 'hostile: the worst in-frame stall against JSON.parse of the same text');
  assert.ok(metric('hostile', /^refusing nesting/)?.target, 'hostile: the depth refusal with its target');
  assert.ok(metric('hostile', /^fieldNamedIn/)?.target, 'hostile: fieldNamedIn against the replaced code, with its target');
  // Catch-up: the reconnect's replay timed against the first connection's, for each count of sessions held,
  // and what of it is new (the outage's own session) with its target. Each count has all four rows.
  const catchUp = results.benchmarks.find((b) => b.id === 'catch-up')?.metrics ?? [];
  const counts = new Set(catchUp.map((m) => /(\d[\d,]*) sessions held/.exec(m.metric)?.[1]));
  assert.ok(counts.size >= 1 && !counts.has(undefined), 'catch-up: every row names its count of sessions held');
  for (const n of counts) {
    assert.ok(metric('catch-up', new RegExp(`^reconnect, ${n} sessions held: replay applied`))?.baseline, `catch-up ${n}: the replay against the first connection`);
    assert.ok(metric('catch-up', new RegExp(`^reconnect, ${n} sessions held: missed request open`))?.baseline, `catch-up ${n}: the missed request`);
    assert.ok(metric('catch-up', new RegExp(`^events replayed per reconnect, ${n} sessions held`))?.baseline, `catch-up ${n}: the events replayed against those held`);
    assert.ok(metric('catch-up', new RegExp(`^new events applied on reconnect, ${n} sessions held`))?.target, `catch-up ${n}: what is new, with its target`);
  }

  const withTargets = results.benchmarks.flatMap((b) => b.metrics).filter((m) => m.target);
  assert.deepEqual(results.summary, {
    targets: withTargets.length,
    passed: withTargets.filter((m) => m.pass).length,
    missed: withTargets.filter((m) => !m.pass).length,
    failed: 0,
  });

  // The JSON on disk is the same run, and the table and report name every benchmark.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aep-bench-smoke-'));
  try {
    const out = path.join(dir, 'results.json');
    writeResults(results, out);
    const written = JSON.parse(fs.readFileSync(out, 'utf8')) as Results;
    assert.deepEqual(written, JSON.parse(JSON.stringify(results)));
    const markdown = fs.readFileSync(path.join(dir, 'results.md'), 'utf8');
    assert.equal(markdown, `${markdownReport(results)}\n`);
    const table = formatTable(results);
    for (const id of BENCHMARK_IDS) {
      assert.ok(table.includes(id), `the table names ${id}`);
      assert.ok(markdown.includes(`| ${id} |`), `the Markdown table names ${id}`);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('bench command line: --quick, AEP_BENCH_QUICK, --only, --out; anything else is refused', () => {
  assert.equal(parseCliArgs([], {}).quick, false);
  assert.equal(parseCliArgs(['--quick'], {}).quick, true);
  assert.equal(parseCliArgs([], { AEP_BENCH_QUICK: '1' }).quick, true);
  assert.match(parseCliArgs([], {}).out, /[/\\]\.bench[/\\]results\.json$/);
  assert.deepEqual(parseCliArgs(['--only=scale,latency'], {}).only, ['scale', 'latency']);
  assert.equal(parseCliArgs(['--out=/tmp/x.json'], {}).out, path.resolve('/tmp/x.json'));
  assert.throws(() => parseCliArgs(['--only=nope'], {}), /unknown benchmark nope/);
  assert.throws(() => parseCliArgs(['--fast'], {}), /unknown argument --fast/);
});
