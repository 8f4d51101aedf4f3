// `npm run bench [-- --quick] [-- --only=throughput,scale] [-- --out=FILE]`
//
// Prints the table (stdout) and writes the same figures as JSON to
// .bench/results.json (git-ignored), with the Markdown table beside it in
// .bench/results.md. Progress goes to stderr. A missed target does not fail
// the run (speed is reported, not asserted); a benchmark that could not run
// does (exit code 1).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BENCHMARK_IDS, formatMarkdownTable, formatNumber, formatTable, type BenchmarkId, type Results } from './report';
import { runSuite } from './suite';
import { repoRoot } from './support';

export interface CliOptions {
  quick: boolean;
  only?: BenchmarkId[];
  out: string;
}

export function parseCliArgs(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): CliOptions {
  const options: CliOptions = {
    quick: env['AEP_BENCH_QUICK'] === '1',
    out: path.join(repoRoot(), '.bench', 'results.json'),
  };
  for (const arg of argv) {
    if (arg === '--quick') options.quick = true;
    else if (arg.startsWith('--only=')) {
      const ids = arg.slice('--only='.length).split(',').filter(Boolean);
      const unknown = ids.filter((id) => !(BENCHMARK_IDS as readonly string[]).includes(id));
      if (unknown.length > 0) throw new Error(`unknown benchmark ${unknown.join(', ')}; known: ${BENCHMARK_IDS.join(', ')}`);
      options.only = ids as BenchmarkId[];
    } else if (arg.startsWith('--out=')) options.out = path.resolve(arg.slice('--out='.length));
    else throw new Error(`unknown argument ${arg}; use --quick, --only=${BENCHMARK_IDS.join(',')}, --out=FILE`);
  }
  return options;
}

/** Writes results.json and, beside it, results.md (the table, the notes). */
export function writeResults(results: Results, out: string): void {
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  fs.writeFileSync(out.replace(/\.json$/, '') + '.md', `${markdownReport(results)}\n`);
}

export function markdownReport(results: Results): string {
  const lines = [
    `Run ${results.startedAt}${results.quick ? ' (quick)' : ''}: ${results.machine.cpus} × ${results.machine.cpuModel}, ` +
      `${results.machine.totalMemMB} MB, Node ${results.machine.node}, ${results.machine.platform}; total ${formatNumber(results.durationMs / 1000)} s.`,
    '',
    formatMarkdownTable(results),
    '',
  ];
  for (const b of results.benchmarks) {
    for (const note of b.notes) lines.push(`- ${b.id}: ${note}`);
    if (b.error) lines.push(`- ${b.id}: FAILED: ${b.error.split('\n')[0]}`);
  }
  return lines.join('\n');
}

export async function cli(argv: readonly string[]): Promise<number> {
  let options: CliOptions;
  try {
    options = parseCliArgs(argv);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  const results = await runSuite({ quick: options.quick, ...(options.only ? { only: options.only } : {}) });
  writeResults(results, options.out);
  const { summary } = results;
  process.stdout.write(`\n${formatTable(results)}\n\n`);
  for (const b of results.benchmarks) for (const note of b.notes) process.stdout.write(`${b.id}: ${note}\n`);
  process.stdout.write(
    `\n${summary.passed}/${summary.targets} targets met${summary.missed ? `, ${summary.missed} missed` : ''}` +
      `${summary.failed ? `, ${summary.failed} benchmarks FAILED` : ''}; total ${(results.durationMs / 1000).toFixed(1)} s; ` +
      `written to ${path.relative(process.cwd(), options.out) || options.out}\n`,
  );
  return summary.failed > 0 ? 1 : 0;
}
