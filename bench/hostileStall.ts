// The longest the extension host is blocked by one hostile message: each
// oversize corpus entry (largest first) and 100 000-deep nesting timed as the
// client handles one frame, `parseWireMessage` then `Inbox.apply`, in one
// synchronous call; and `fieldNamedIn` on a 1 MB detail against a
// 10 000-field form, beside the one-RegExp-per-field code it replaced.
// Not part of `npm run bench` (no targets, nothing asserted). Run:
//   npx esbuild bench/hostileStall.ts --bundle --platform=node --format=cjs --target=node20 --packages=external --outdir=out/stall && node out/stall/hostileStall.js
import { performance } from 'node:perf_hooks';
import { parseWireMessage } from '../src/aep/frames';
import { MAX_FRAME_BYTES } from '../src/aep/client/hubClient';
import { Inbox } from '../src/aep/inbox/inbox';
import { nestsDeeperThan } from '../src/aep/json';
import { fieldNamedIn } from '../src/aep/nackField';
import { oversizeEvents } from '../test/support/oversizeEvents';

interface Input {
  name: string;
  text: string;
}

function deepInputs(): Input[] {
  let id = 0;
  const envelope = (extra: string) =>
    `{${extra}"aep":"0.1","id":"D${++id}","type":"attention.requested","time":"t","source":"aep://h/agent/a","agent":"a","session":"s","seq":0,"data":{"kind":"input","prompt":"x"}}`;
  return [
    { name: '100 000-deep arrays (1e5 levels, as an event member)', text: envelope(`"deep":${'['.repeat(100_000)}${']'.repeat(100_000)},`) },
    { name: '100 000-deep objects (as an event member)', text: envelope(`"deep":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)},`) },
    { name: '524 288 nested arrays in 1 MiB (the most one frame holds)', text: `${'['.repeat(524_288)}${']'.repeat(524_288)}` },
    // The costliest shapes for JSON.parse itself that still fit one frame: one object of many distinct keys, one array of many distinct strings.
    { name: '60 000 distinct data members in one frame', text: envelope('').replace('"data":{', `"data":{${Array.from({ length: 60_000 }, (_, i) => `"k${i}":"${i}"`).join(',')},`) },
    { name: '100 000 distinct strings in one data member, one frame', text: envelope(`"x":[${Array.from({ length: 100_000 }, (_, i) => `"p${i}"`).join(',')}],`) },
  ];
}

/** One frame as the client handles it: parse, then apply; the time of that one synchronous call. */
function timeOne(inbox: Inbox, input: Input): { ms: number; outcome: string } {
  const start = performance.now();
  const message = parseWireMessage(input.text);
  const outcome = message.kind === 'event' ? inbox.apply(message.event) : undefined;
  const ms = performance.now() - start;
  const said = message.kind !== 'event' ? message.kind : outcome?.applied ? 'applied' : `not applied (${outcome?.reason ?? ''})`;
  return { ms, outcome: said };
}

function regexReference(detail: string, fieldIds: readonly string[]): string | undefined {
  const named = fieldIds.filter((id) => new RegExp(`["'\`]${id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}["'\`]`).test(detail));
  return named.length === 1 ? named[0] : undefined;
}

function timed<T>(run: () => T): { ms: number; value: T } {
  const start = performance.now();
  const value = run();
  return { ms: performance.now() - start, value };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function main(): void {
  const inputs: Input[] = [...oversizeEvents(), ...deepInputs()].sort((a, b) => b.text.length - a.text.length);
  const passes = 5;
  const perInput = new Map<string, { ms: number[]; outcome: string; chars: number }>();
  for (let pass = 0; pass < passes; pass++) {
    const inbox = new Inbox();
    for (const input of inputs) {
      const { ms, outcome } = timeOne(inbox, input);
      const entry = perInput.get(input.name) ?? { ms: [], outcome, chars: input.text.length };
      entry.ms.push(ms);
      perInput.set(input.name, entry);
    }
  }
  console.log(`parseWireMessage + Inbox.apply, one synchronous call per input, ${inputs.length} inputs, largest first; ${passes} passes (pass 1 is cold)`);
  console.log(`cold ms | worst ms | median ms | UTF-8 bytes | outcome | input ("*": larger than the ${MAX_FRAME_BYTES}-byte frame limit, so never parsed when it comes over the socket)`);
  const worst = { cold: { ms: 0, name: '' }, any: { ms: 0, name: '' }, coldFits: { ms: 0, name: '' }, anyFits: { ms: 0, name: '' } };
  for (const input of inputs) {
    const entry = perInput.get(input.name);
    if (!entry) continue;
    const bytes = Buffer.byteLength(input.text);
    const fits = bytes <= MAX_FRAME_BYTES;
    const cold = entry.ms[0] ?? 0;
    const most = Math.max(...entry.ms);
    if (cold > worst.cold.ms) worst.cold = { ms: cold, name: input.name };
    if (most > worst.any.ms) worst.any = { ms: most, name: input.name };
    if (fits && cold > worst.coldFits.ms) worst.coldFits = { ms: cold, name: input.name };
    if (fits && most > worst.anyFits.ms) worst.anyFits = { ms: most, name: input.name };
    console.log(`${cold.toFixed(2).padStart(7)} | ${most.toFixed(2).padStart(8)} | ${median(entry.ms).toFixed(2).padStart(9)} | ${String(bytes).padStart(10)}${fits ? ' ' : '*'} | ${entry.outcome} | ${input.name}`);
  }
  console.log(`worst single call, every input:           cold ${worst.cold.ms.toFixed(2)} ms (${worst.cold.name}); any pass ${worst.any.ms.toFixed(2)} ms (${worst.any.name})`);
  console.log(`worst single call, inputs within one frame: cold ${worst.coldFits.ms.toFixed(2)} ms (${worst.coldFits.name}); any pass ${worst.anyFits.ms.toFixed(2)} ms (${worst.anyFits.name})`);

  // Where the time of the worst frames goes: JSON.parse alone (what any reader pays), the depth scan, the rest.
  const fitting = inputs.filter((input) => Buffer.byteLength(input.text) <= MAX_FRAME_BYTES);
  const slowest = [...fitting].sort((a, b) => median(perInput.get(b.name)?.ms ?? []) - median(perInput.get(a.name)?.ms ?? [])).slice(0, 4);
  console.log('breakdown of the slowest inputs within one frame (median of 5 ms): JSON.parse alone | depth scan | parseWireMessage | Inbox.apply');
  for (const input of slowest) {
    const parse: number[] = [];
    const scan: number[] = [];
    const wire: number[] = [];
    const apply: number[] = [];
    for (let run = 0; run < 5; run++) {
      parse.push(timed(() => JSON.parse(input.text)).ms);
      scan.push(timed(() => nestsDeeperThan(input.text, 64)).ms);
      const message = timed(() => parseWireMessage(input.text));
      wire.push(message.ms);
      const event = message.value;
      if (event.kind === 'event') apply.push(timed(() => new Inbox().apply(event.event)).ms);
    }
    console.log(`  ${median(parse).toFixed(2)} | ${median(scan).toFixed(2)} | ${median(wire).toFixed(2)} | ${apply.length > 0 ? median(apply).toFixed(2) : '-'} | ${input.name}`);
  }

  const oneMiBFrame = JSON.stringify({ s: 'x'.repeat(1_048_560) });
  const scan = Array.from({ length: 20 }, () => timed(() => nestsDeeperThan(oneMiBFrame, 64)).ms);
  console.log(`depth scan of a 1 MiB string frame: median ${median(scan).toFixed(2)} ms, worst ${Math.max(...scan).toFixed(2)} ms`);
  const brackets = '[1,'.repeat(349_000);
  const scanStructure = Array.from({ length: 20 }, () => timed(() => nestsDeeperThan(brackets, 64)).ms);
  console.log(`depth scan of 1 MiB of structure (refused at level 65): median ${median(scanStructure).toFixed(3)} ms`);

  const fieldIds = Array.from({ length: 10_000 }, (_, i) => `f${i}`);
  const details: Input[] = [
    { name: '1 MB of words, `f9999` quoted at the end', text: `${'word '.repeat(200_000)}field \`f9999\` is required` },
    { name: '1 MB of quote marks', text: '"\'`'.repeat(350_000) },
    { name: 'every field quoted, padded to 1 MB', text: fieldIds.map((id) => `\`${id}\``).join(' ').padEnd(1_000_000, ' ') },
  ];
  console.log('fieldNamedIn, 10 000 fields:');
  for (const detail of details) {
    const runs = Array.from({ length: 10 }, () => timed(() => fieldNamedIn(detail.text, fieldIds)));
    const ms = runs.map((run) => run.ms);
    console.log(`  ${detail.name} (${detail.text.length} chars): first ${ms[0]?.toFixed(2)} ms, median ${median(ms).toFixed(2)} ms, worst ${Math.max(...ms).toFixed(2)} ms → ${String(runs[0]?.value)}`);
  }
  const old = timed(() => regexReference(details[0]?.text ?? '', fieldIds));
  console.log(`  the replaced one-RegExp-per-field code, first detail: ${old.ms.toFixed(0)} ms → ${String(old.value)}`);
}

main();
