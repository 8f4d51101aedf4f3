// 6. Hostile input: the longest the extension host is blocked by one hostile
// message. Every entry of the oversize corpus (test/fixtures/hostile/
// oversize-events.json), deep nesting and the costliest shapes one frame can
// hold are handled as the client handles a frame, `parseWireMessage` then
// `Inbox.apply` in one synchronous call, against `JSON.parse` of the same text
// (what any reader of the socket pays). And `fieldNamedIn` on a megabyte of
// agent-authored detail against a 10 000-field form, against the
// one-RegExp-per-field code it replaced.
import { MAX_FRAME_BYTES } from '../src/client/hubClient';
import { parseWireMessage } from '../src/aep/frames';
import { Inbox } from '../src/inbox/inbox';
import { nestsDeeperThan, MAX_JSON_DEPTH } from '../src/base/json';
import { fieldNamedIn } from '../src/aep/nackField';
import { oversizeEvents } from '../test/support/oversizeEvents';
import { metric, type BenchmarkResult, type Target } from './report';
import { gc, median, now, type BenchContext } from './support';

export interface HostileOptions {
  /** Passes over every input, alternating ours and the baseline; the first is cold. */
  passes: number;
  /** Nesting levels of the deep inputs. */
  depth: number;
  /** Distinct members / strings of the in-frame shapes that are costliest to parse. */
  wide: number;
  /** Fields of the form `fieldNamedIn` looks in, and the length of the detail. */
  fields: number;
  detailChars: number;
  /** Timed `fieldNamedIn` calls per detail. */
  lookups: number;
  /** Timed calls of the replaced code (about a second each at full size). */
  oldLookups: number;
}

export function hostileOptions(quick: boolean): HostileOptions {
  return quick
    ? { passes: 3, depth: 10_000, wide: 6_000, fields: 1_000, detailChars: 100_000, lookups: 5, oldLookups: 3 }
    : { passes: 11, depth: 100_000, wide: 60_000, fields: 10_000, detailChars: 1_000_000, lookups: 21, oldLookups: 5 };
}

interface Input {
  name: string;
  /** As the client gets it: decoded from the frame's bytes (a flat string, like `Buffer#toString`'s). */
  text: string;
  bytes: number;
  /** Nested past MAX_JSON_DEPTH: must be refused before it is parsed. */
  deep: boolean;
}

function input(name: string, text: string, deep = false): Input {
  const bytes = Buffer.from(text, 'utf8');
  return { name, text: bytes.toString('utf8'), bytes: bytes.length, deep };
}

/** Besides the corpus: deep nesting, and the shapes that cost JSON.parse itself most while fitting one frame. */
function builtInputs(options: HostileOptions): Input[] {
  let id = 0;
  const envelope = (extra: string) =>
    `{${extra}"aep":"0.1","id":"H${++id}","type":"attention.requested","time":"t","source":"aep://h/agent/a","agent":"a","session":"s","seq":0,"data":{"kind":"input","prompt":"x"}}`;
  const depth = options.depth;
  const levels = depth.toLocaleString('en-US');
  const wide = options.wide.toLocaleString('en-US');
  const frameArrays = MAX_FRAME_BYTES / 2;
  return [
    input(`${levels}-deep arrays (as an event member)`, envelope(`"deep":${'['.repeat(depth)}${']'.repeat(depth)},`), true),
    input(`${levels}-deep objects (as an event member)`, envelope(`"deep":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)},`), true),
    input(`${frameArrays.toLocaleString('en-US')} nested arrays in 1 MiB (the most one frame holds)`, `${'['.repeat(frameArrays)}${']'.repeat(frameArrays)}`, true),
    input(
      `${wide} distinct data members`,
      envelope('').replace('"data":{', `"data":{${Array.from({ length: options.wide }, (_, i) => `"k${i}":"${i}"`).join(',')},`),
    ),
    input(`${wide} distinct strings in one member`, envelope(`"x":[${Array.from({ length: options.wide }, (_, i) => `"p${i}"`).join(',')}],`)),
  ];
}

/** One frame as the client handles it (src/client/hubClient.ts): parse, then apply, in one synchronous call. */
function handle(inbox: Inbox, text: string): string {
  const message = parseWireMessage(text);
  if (message.kind !== 'event') return message.kind;
  const outcome = inbox.apply(message.event);
  return outcome.applied ? 'applied' : outcome.reason;
}

function time(run: () => unknown): number {
  const t0 = now();
  run();
  return now() - t0;
}

interface Timings {
  ours: number[];
  parse: number[];
  outcome: string;
}

/**
 * `passes` passes over every input, largest first: one of ours (into a fresh Inbox, so
 * nothing is a duplicate), one of `JSON.parse`, a full collection before each so
 * neither inherits the other's heap or interned keys; which goes first alternates.
 */
function timeCorpus(inputs: readonly Input[], passes: number): Timings[] {
  const timings: Timings[] = inputs.map(() => ({ ours: [], parse: [], outcome: '' }));
  const oursPass = () => {
    const inbox = new Inbox();
    inputs.forEach((item, i) => {
      const entry = timings[i]!;
      const t0 = now();
      entry.outcome = handle(inbox, item.text);
      entry.ours.push(now() - t0);
    });
    inbox.dispose();
  };
  const parsePass = () => {
    inputs.forEach((item, i) => timings[i]!.parse.push(time(() => JSON.parse(item.text))));
  };
  for (let pass = 0; pass < passes; pass++) {
    const order = pass % 2 === 0 ? [oursPass, parsePass] : [parsePass, oursPass];
    for (const run of order) {
      gc();
      run();
    }
  }
  return timings;
}

/** The input whose median stall is longest, among those `which` keeps. */
function worstOf(inputs: readonly Input[], timings: readonly Timings[], which: (item: Input) => boolean): number {
  let worst = -1;
  inputs.forEach((item, i) => {
    if (which(item) && (worst < 0 || median(timings[i]!.ours) > median(timings[worst]!.ours))) worst = i;
  });
  if (worst < 0) throw new Error('no input to report');
  return worst;
}

/** value: our median; baseline: JSON.parse of the same text; detail: the spread of both. */
function stallMetric(name: string, item: Input, timing: Timings, options: { target?: Target; extra?: Record<string, number | string> } = {}) {
  return metric(name, 'ms', median(timing.ours), {
    baseline: { label: 'JSON.parse of the same text', value: median(timing.parse) },
    ...(options.target ? { target: options.target } : {}),
    detail: {
      input: item.name,
      bytes: item.bytes,
      outcome: timing.outcome,
      runs: timing.ours.length,
      cold: timing.ours[0] ?? NaN,
      min: Math.min(...timing.ours),
      max: Math.max(...timing.ours),
      baselineMin: Math.min(...timing.parse),
      baselineMax: Math.max(...timing.parse),
      ...options.extra,
    },
  });
}

/** The code `fieldNamedIn` replaced, kept here as its baseline: one RegExp per field id, each run over the whole detail. */
function oldFieldNamedIn(detail: string, fieldIds: readonly string[]): string | undefined {
  const named = fieldIds.filter((id) => new RegExp(`["'\`]${id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}["'\`]`).test(detail));
  return named.length === 1 ? named[0] : undefined;
}

export async function runHostile(ctx: BenchContext, options = hostileOptions(ctx.quick)): Promise<BenchmarkResult> {
  const started = now();
  const notes: string[] = [];

  // -- one message: the corpus, deep nesting, the costliest in-frame shapes ------------------
  const corpus = oversizeEvents().map((entry) => input(entry.name, entry.text));
  const inputs = [...corpus, ...builtInputs(options)].sort((a, b) => b.bytes - a.bytes);
  ctx.log(`hostile: ${inputs.length} inputs (${corpus.length} from the corpus), ${options.passes} passes`);
  const timings = timeCorpus(inputs, options.passes);
  for (const [i, item] of inputs.entries()) {
    if (item.deep && timings[i]!.outcome !== 'invalid') throw new Error(`${item.name} was not refused (${timings[i]!.outcome})`);
  }
  const fits = (item: Input) => item.bytes <= MAX_FRAME_BYTES;
  const worstAny = worstOf(inputs, timings, () => true);
  const worstFits = worstOf(inputs, timings, fits);
  const worstDeep = worstOf(inputs, timings, (item) => item.deep);
  const longestCall = Math.max(...timings.flatMap((t) => t.ours));
  const longestCallInput = inputs[timings.findIndex((t) => t.ours.includes(longestCall))]?.name ?? '';

  // Where the worst in-frame stall goes: the depth scan, the rest of parseWireMessage, Inbox.apply.
  const slowest = inputs[worstFits]!;
  const scan: number[] = [];
  const wire: number[] = [];
  const apply: number[] = [];
  for (let run = 0; run < options.passes; run++) {
    scan.push(time(() => nestsDeeperThan(slowest.text, MAX_JSON_DEPTH)));
    const t0 = now();
    const message = parseWireMessage(slowest.text);
    wire.push(now() - t0);
    if (message.kind === 'event') {
      const inbox = new Inbox();
      apply.push(time(() => inbox.apply(message.event)));
      inbox.dispose();
    }
  }
  const ranked = inputs
    .map((item, i) => ({ item, ours: median(timings[i]!.ours), parse: median(timings[i]!.parse) }))
    .filter(({ item }) => fits(item))
    .sort((a, b) => b.ours - a.ours)
    .slice(0, 3);
  notes.push(
    `${inputs.length} messages (${corpus.length} oversize-corpus events, deep nesting, ${options.wide.toLocaleString('en-US')}-member shapes), ` +
      `each parseWireMessage + Inbox.apply in one call, median of ${options.passes} passes (the first cold); ` +
      `messages over ${MAX_FRAME_BYTES.toLocaleString('en-US')} bytes never reach the parser over the socket (maxPayload)`,
  );
  notes.push(
    `slowest within one frame, ours / JSON.parse of the same text (ms): ` +
      ranked.map(({ item, ours, parse }) => `${item.name} ${ours.toFixed(1)} / ${parse.toFixed(1)}`).join('; '),
  );

  // -- fieldNamedIn: a long detail against a wide form ----------------------------------
  const fieldIds = Array.from({ length: options.fields }, (_, i) => `f${i}`);
  const last = fieldIds[fieldIds.length - 1]!;
  const details = {
    words: `${'word '.repeat(Math.floor(options.detailChars / 5))}field \`${last}\` is required`,
    quoteMarks: '"\'`'.repeat(Math.ceil(options.detailChars / 3)),
    everyFieldQuoted: fieldIds.map((id) => `\`${id}\``).join(' ').padEnd(options.detailChars, ' '),
  };
  const lookup = (detail: string) => Array.from({ length: options.lookups }, () => time(() => fieldNamedIn(detail, fieldIds)));
  const words = lookup(details.words);
  const quoteMarks = lookup(details.quoteMarks);
  const everyFieldQuoted = lookup(details.everyFieldQuoted);
  // The replaced code needs ~8 s a call on the quote marks at full size, so it is timed on the words only.
  let oldAnswer: string | undefined;
  const old = Array.from({ length: options.oldLookups }, () => time(() => (oldAnswer = oldFieldNamedIn(details.words, fieldIds))));
  const answer = fieldNamedIn(details.words, fieldIds);
  if (answer !== last || oldAnswer !== last) throw new Error(`fieldNamedIn answers ${String(answer)}, the replaced code ${String(oldAnswer)}; both should name ${last}`);
  ctx.log(`hostile: fieldNamedIn ${median(words).toFixed(2)} ms, the replaced code ${median(old).toFixed(0)} ms`);
  const chars = options.detailChars >= 1_000_000 ? `${options.detailChars / 1_000_000} MB` : `${options.detailChars / 1_000} kB`;

  return {
    id: 'hostile',
    title: 'Hostile input',
    durationMs: now() - started,
    notes,
    metrics: [
      stallMetric('worst stall, one message of any size (median)', inputs[worstAny]!, timings[worstAny]!, {
        extra: { longestCall, longestCallInput },
      }),
      stallMetric('worst stall, one message within a 1 MiB frame (median)', slowest, timings[worstFits]!, {
        extra: { depthScan: median(scan), parseWireMessage: median(wire), inboxApply: apply.length > 0 ? median(apply) : 'not an event' },
      }),
      // Refused before JSON.parse builds the tree (src/base/json.ts), so it should cost a small part of parsing it.
      stallMetric(`refusing nesting deeper than ${MAX_JSON_DEPTH} (worst median)`, inputs[worstDeep]!, timings[worstDeep]!, {
        target: { on: 'ratio', op: '<', limit: 0.1 },
      }),
      metric(`fieldNamedIn, ${chars} detail × ${options.fields.toLocaleString('en-US')} fields (median)`, 'ms', median(words), {
        baseline: { label: 'one RegExp per field (the replaced code)', value: median(old) },
        target: { on: 'ratio', op: '<', limit: 0.1 },
        detail: {
          runs: words.length,
          min: Math.min(...words),
          max: Math.max(...words),
          baselineRuns: old.length,
          baselineMin: Math.min(...old),
          baselineMax: Math.max(...old),
          quoteMarksMedian: median(quoteMarks),
          quoteMarksMax: Math.max(...quoteMarks),
          everyFieldQuotedMedian: median(everyFieldQuoted),
          everyFieldQuotedMax: Math.max(...everyFieldQuoted),
        },
      }),
    ],
  };
}
