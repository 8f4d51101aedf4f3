// 3. Scale: the Inbox holding many pending requests over many sessions (heap
// used, the time to apply one more event, the time to list the inbox sorted),
// and the dedupe memory after a long run. Runs the reducer directly: the
// events are parsed through the same envelope parser the client uses, then
// applied, so the figures are the reducer's, not the socket's.
import { parseEnvelope, type AepEvent } from '../src/aep/envelope';
import { silentLogger } from '../src/base/logger';
import { AnswerHistory } from '../src/history/answerHistory';
import { Inbox, type AttentionItem } from '../src/inbox/inbox';
import { countVisible } from '../src/app/hubs/attentionStore';
import { MemoryMemento } from '../test/support/memoryMemento';
import { formRequest, ownerEvent, type EnvelopeBase } from './events';
import { metric, type BenchmarkResult } from './report';
import { gc, MB, median, now, percentile, quietHeap, settledHeap, type BenchContext } from './support';

export interface ScaleOptions {
  pending: number;
  sessions: number;
  /** Single applies timed, on the loaded inbox and on an empty one. */
  probes: number;
  /** Sorted listings timed. */
  listings: number;
  /** Events applied to check the dedupe bound. */
  longRun: number;
  /** The Inbox's dedupe window (its default is 50 000). */
  dedupeCapacity: number;
  /** Sessions of the flood, one request each, past `floodMaxSessions`. */
  floodSessions: number;
  /** The Inbox's session bound for the flood (its default is 5 000). */
  floodMaxSessions: number;
  /** Requests of the flood dismissed by the user when the status bar counts. */
  floodDismissed: number;
  /** Open requests timed out at once, with the answer history recording. */
  floodTimeouts: number;
}

const DEFAULT_DEDUPE_CAPACITY = 50_000;
const DEFAULT_MAX_SESSIONS = 5_000;
/** Events kept per session timeline (the Inbox's default, set explicitly here). */
const TIMELINE_LIMIT = 200;

export function scaleOptions(quick: boolean): ScaleOptions {
  return quick
    ? { pending: 1_000, sessions: 100, probes: 200, listings: 5, longRun: 60_000, dedupeCapacity: 5_000, floodSessions: 6_000, floodMaxSessions: 500, floodDismissed: 100, floodTimeouts: 1_000 }
    : {
        pending: 10_000, sessions: 1_000, probes: 2_000, listings: 30, longRun: 1_000_000, dedupeCapacity: DEFAULT_DEDUPE_CAPACITY,
        floodSessions: 60_000, floodMaxSessions: DEFAULT_MAX_SESSIONS, floodDismissed: 1_000, floodTimeouts: 10_000,
      };
}

/** As the client gets it: fresh objects from JSON text, through the envelope parser. */
function parsed(raw: EnvelopeBase): AepEvent {
  const result = parseEnvelope(JSON.parse(JSON.stringify(raw)));
  if (!result.ok) throw new Error(`bench event refused: ${result.problem}`);
  return result.value;
}

/** `count` form requests spread round-robin over `sessions` sessions, as parsed events. */
function pendingRequests(count: number, sessions: number, prefix: string, agents = 10): { events: AepEvent[]; nextSeq: number[] } {
  const nextSeq = new Array<number>(sessions).fill(0);
  const events: AepEvent[] = [];
  for (let i = 0; i < count; i++) {
    const s = i % sessions;
    events.push(parsed(formRequest(`${prefix}-${s}`, nextSeq[s]!++, `agent-${s % agents}`)));
  }
  return { events, nextSeq };
}

/** The listing the UI does ("answer next"): open requests, oldest first. */
function listSorted(inbox: Inbox): Array<Readonly<AttentionItem>> {
  return inbox.open().sort((a, b) => a.receivedAt - b.receivedAt);
}

/**
 * The session flood: one open request in each of `sessions` sessions, applied
 * to an inbox bounded at `maxSessions` (every session past the bound holds a
 * request, so none can be forgotten) and, as the baseline, to one whose bound
 * is above the count (nothing to evict). Each after a full collection, in
 * turn, three times; the fastest of each is kept (a collection of the other's garbage
 * landing in one run is not what is measured). Returns both times in ms, and
 * the last bounded inbox, still holding the flood, for the count below.
 */
function sessionFlood(sessions: number, maxSessions: number, tick: () => number): { bounded: number; unbounded: number; tracked: number; open: number; flooded: Inbox } {
  // maxOpen and maxBytes above what the flood needs so every request is held: the worst case for eviction.
  const events = Array.from({ length: sessions }, (_, i) => parsed(formRequest(`flood-${i}`, 0, `agent-${i % 10}`)));
  let flooded: Inbox | undefined;
  // Only the last bounded run's inbox is kept, and only once every run is done: no run shares the heap with another's inbox.
  const run = (bound: number, keep: boolean) => {
    gc();
    const inbox = new Inbox({ now: tick, maxSessions: bound, maxOpen: 2 * sessions, maxBytes: 2 ** 40, dedupeCapacity: 2 * sessions });
    const t0 = now();
    for (const event of events) inbox.apply(event);
    const ms = now() - t0;
    if (keep) flooded = inbox;
    else inbox.dispose();
    return ms;
  };
  const unbounded: number[] = [];
  const bounded: number[] = [];
  const rounds = 3;
  for (let round = 0; round < rounds; round++) {
    unbounded.push(run(2 * sessions, false));
    bounded.push(run(maxSessions, round === rounds - 1));
  }
  const stats = flooded?.stats();
  if (!flooded || stats?.open !== sessions) throw new Error(`flood: expected ${sessions} open requests, the inbox holds ${stats?.open}`);
  return { bounded: Math.min(...bounded), unbounded: Math.min(...unbounded), tracked: stats.sessions, open: stats.open, flooded };
}

/**
 * A mass timeout: `count` open requests, each open a while, all timed out by
 * their agent; closed on an inbox the answer history watches (every change
 * noted, as src/app/historyRecorder.ts does; each becomes a "timed out"
 * entry until the bound drops it) and on one nobody watches. Fastest of 3.
 */
function massTimeout(count: number): { recorded: number; unwatched: number; entries: number } {
  const requests = Array.from({ length: count }, (_, i) => parsed(formRequest(`timeout-${i}`, 0, `agent-${i % 10}`)));
  const timeouts = requests.map((request) => parsed(ownerEvent('attention.timeout', request.session ?? '', 1, { subject: request.id, cause: request.id }, request.agent)));
  let entries = 0;
  const run = (watched: boolean) => {
    gc();
    let clock = 0;
    const inbox = new Inbox({ hub: 'http://127.0.0.1:8787', now: () => clock, maxOpen: 2 * count, maxBytes: 2 ** 40, dedupeCapacity: 4 * count });
    const history = new AnswerHistory(new MemoryMemento(), silentLogger, { now: () => clock });
    const hub = { id: 'http://127.0.0.1:8787', label: 'bench' };
    if (watched) inbox.onDidChange((change) => history.noteItem(hub, change.item));
    for (const request of requests) inbox.apply(request);
    clock += 60_000;
    const t0 = now();
    for (const timeout of timeouts) inbox.apply(timeout);
    // Reading the history makes the entries it keeps (the History view reads it within 50 ms): timed too.
    if (watched) entries = history.entries().length;
    const ms = now() - t0;
    history.dispose();
    inbox.dispose();
    return ms;
  };
  const recorded: number[] = [];
  const unwatched: number[] = [];
  for (let round = 0; round < 3; round++) {
    unwatched.push(run(false));
    recorded.push(run(true));
  }
  return { recorded: Math.min(...recorded), unwatched: Math.min(...unwatched), entries };
}

/** Counting by listing, as `visibleItems().length` would: O(open). */
function listedCount(inbox: Inbox, hidden: ReadonlySet<string>): number {
  return inbox.open().filter((item) => !hidden.has(item.key)).length;
}

/**
 * The status bar's count on the flooded inbox, with `dismissed` of its
 * requests dismissed: `visibleCount` timed `calls` times, counting by listing
 * `listings` times, each in µs. Both must give the same number.
 */
function statusCount(inbox: Inbox, dismissed: number, calls: number, listings: number): { count: number[]; listed: number[]; visible: number } {
  const open = inbox.open();
  const step = Math.max(1, Math.floor(open.length / dismissed));
  const hidden = new Set(open.filter((_, i) => i % step === 0).slice(0, dismissed).map((item) => item.key));
  const visible = countVisible(inbox, hidden);
  if (visible !== listedCount(inbox, hidden) || visible !== open.length - hidden.size) {
    throw new Error(`status count: countVisible ${visible}, listing ${listedCount(inbox, hidden)}, expected ${open.length - hidden.size}`);
  }
  const time = (count: () => number) => {
    const t0 = process.hrtime.bigint();
    if (count() !== visible) throw new Error('status count changed');
    return Number(process.hrtime.bigint() - t0) / 1000;
  };
  const count = Array.from({ length: calls }, () => time(() => countVisible(inbox, hidden)));
  const listed = Array.from({ length: listings }, () => time(() => listedCount(inbox, hidden)));
  return { count, listed, visible };
}

/** Times `apply` of each event, one by one, in microseconds. */
function timeApplies(inbox: Inbox, events: AepEvent[]): number[] {
  const times: number[] = [];
  for (const event of events) {
    const t0 = process.hrtime.bigint();
    inbox.apply(event);
    times.push(Number(process.hrtime.bigint() - t0) / 1000);
  }
  return times;
}

export async function runScale(ctx: BenchContext, options = scaleOptions(ctx.quick)): Promise<BenchmarkResult> {
  const started = now();
  const notes: string[] = [];
  // The receivedAt clock: one tick per request so the listing has a real order to sort.
  let clock = 1_700_000_000_000;
  const tick = () => clock++;

  // Warm the reducer's code paths on a throwaway inbox so neither side below pays for JIT.
  {
    const warm = new Inbox({ now: tick });
    for (const event of pendingRequests(3_000, 50, 'warm').events) warm.apply(event);
    listSorted(warm);
    // Released before the baseline below: a warm inbox still holding its timers would be freed mid-measure.
    warm.dispose();
  }

  // -- heap: the requests as parsed events alone, then the inbox holding them --------
  const heap0 = await quietHeap();
  const { events, nextSeq } = pendingRequests(options.pending, options.sessions, 'scale');
  const heapEvents = settledHeap() - heap0;
  const inbox = new Inbox({ now: tick, dedupeCapacity: options.dedupeCapacity });
  for (const event of events) inbox.apply(event);
  const heapInbox = settledHeap() - heap0;
  const stats = inbox.stats();
  if (stats.open !== options.pending) throw new Error(`expected ${options.pending} open requests, the inbox holds ${stats.open}`);
  ctx.log(`scale: ${stats.open} pending over ${stats.sessions} sessions: ${(heapInbox / MB).toFixed(1)} MB (events alone ${(heapEvents / MB).toFixed(1)} MB)`);

  // -- the sorted listing, against sorting the same items held in a plain array -------
  const plain = [...inbox.open()];
  const listInbox: number[] = [];
  const listPlain: number[] = [];
  for (let i = 0; i < options.listings; i++) {
    let t0 = now();
    const listed = listSorted(inbox);
    listInbox.push(now() - t0);
    t0 = now();
    const copy = [...plain].sort((a, b) => a.receivedAt - b.receivedAt);
    listPlain.push(now() - t0);
    if (listed.length !== copy.length) throw new Error('listing lengths differ');
  }

  // -- one more event: on the loaded inbox, and on an empty one (the baseline) ----------
  const probesLoaded = Array.from({ length: options.probes }, (_, i) => {
    const s = i % options.sessions;
    return parsed(formRequest(`scale-${s}`, nextSeq[s]!++, `agent-${s % 10}`));
  });
  const probesEmpty = Array.from({ length: options.probes }, (_, i) => parsed(formRequest(`empty-${i % options.sessions}`, Math.floor(i / options.sessions))));
  const empty = new Inbox({ now: tick, dedupeCapacity: options.dedupeCapacity });
  const applyEmpty = timeApplies(empty, probesEmpty);
  const applyLoaded = timeApplies(inbox, probesLoaded);

  // -- dedupe bound: a long run of distinct events ----------------------------------
  const heapLong0 = settledHeap();
  const longRun = new Inbox({ now: tick, dedupeCapacity: options.dedupeCapacity, timelineLimit: TIMELINE_LIMIT });
  const longSessions = options.sessions;
  const seqs = new Array<number>(longSessions).fill(0);
  /** Applies `n` more distinct events; returns the time taken in ms. */
  const apply = (n: number) => {
    const t0 = now();
    for (let i = 0; i < n; i++) {
      const s = i % longSessions;
      const seq = seqs[s]!++;
      // Built as the parser would leave it; the parser's cost is not what this measures.
      longRun.apply(ownerEvent('tool.completed', `long-${s}`, seq, { severity: 'debug', data: { tool: 'bash', ok: true } }, 'bench-agent', `${s}-${seq}`) as AepEvent);
    }
    return now() - t0;
  };
  const window = options.dedupeCapacity;
  // The second half of the window's filling is the baseline (warm, not yet evicting); the
  // rest, timed once every bounded structure is full, is the steady state of a long session.
  apply(window / 2);
  const filling = apply(window / 2) / (window / 2);
  // Heap is compared once every bounded structure is full: the dedupe window, and each session's timeline.
  const fill = Math.min(Math.floor(options.longRun / 2), Math.max(2 * window, longSessions * TIMELINE_LIMIT + window));
  apply(fill - window);
  const heapAtBound = settledHeap();
  const keysAtBound = longRun.stats().dedupeKeys;
  const longMs = apply(options.longRun - fill);
  const full = longMs / (options.longRun - fill);
  const heapAfter = settledHeap();
  const longStats = longRun.stats();
  ctx.log(`scale: ${options.longRun} events: ${longStats.dedupeKeys} dedupe keys (bound ${options.dedupeCapacity}), heap ${((heapAfter - heapLong0) / MB).toFixed(1)} MB`);
  notes.push(
    `${options.pending} pending form requests (4 fields) over ${options.sessions} sessions and 10 agents; ${options.listings} listings of them; ` +
      `then ${options.probes} single applies timed on each inbox; dedupe window ${options.dedupeCapacity}`,
  );
  notes.push(`long run: ${options.longRun} distinct events over ${longSessions} sessions at ${Math.round((options.longRun - fill) / (longMs / 1000))} events/s (reducer alone)`);

  // Keep both inboxes reachable until every heap figure has been taken.
  void inbox.stats();
  void empty.stats();

  // -- a flood of one-request sessions past the session bound ------------------------
  const flood = sessionFlood(options.floodSessions, options.floodMaxSessions, tick);
  ctx.log(`scale: ${options.floodSessions} one-request sessions in ${flood.bounded.toFixed(0)} ms (unbounded ${flood.unbounded.toFixed(0)} ms)`);
  const counted = statusCount(flood.flooded, options.floodDismissed, 1_000, 20);
  flood.flooded.dispose();
  notes.push(
    `session flood: ${options.floodSessions} sessions with one open request each, applied to an inbox bounded at ${options.floodMaxSessions} sessions ` +
      `(maxOpen above the count, so every session is held); baseline: the same events on an inbox whose bound is above the count; fastest of 3 runs each`,
  );
  notes.push(
    `status bar count: AttentionStore.visibleCount (countVisible, src/app/hubs/attentionStore.ts) on the flooded inbox with ${options.floodDismissed} ` +
      `of its requests dismissed, median of 1 000 calls; baseline: counting by listing (visibleItems().length), median of 20`,
  );
  // -- a mass timeout, with the answer history recording each end --------------------
  const timedOut = massTimeout(options.floodTimeouts);
  ctx.log(`scale: ${options.floodTimeouts} requests timed out in ${timedOut.recorded.toFixed(0)} ms with the answer history (${timedOut.unwatched.toFixed(0)} ms without)`);
  notes.push(
    `mass timeout: ${options.floodTimeouts} open requests, each open a minute, all timed out by their agents; with the answer history noting every change ` +
      `(each a "timed out" entry until its bound drops it); baseline: the same on an inbox nobody watches; fastest of 3 runs each`,
  );
  return {
    id: 'scale',
    title: 'Scale',
    durationMs: now() - started,
    notes,
    metrics: [
      metric(`heap, ${options.pending.toLocaleString('en-US')} pending in ${options.sessions.toLocaleString('en-US')} sessions`, 'MB', heapInbox / MB, {
        baseline: { label: 'the parsed events alone', value: heapEvents / MB },
      }),
      metric('apply one more event (median)', 'µs', median(applyLoaded), {
        baseline: { label: 'on an empty inbox', value: median(applyEmpty) },
        detail: { p99Loaded: percentile(applyLoaded, 99), p99Empty: percentile(applyEmpty, 99) },
      }),
      metric('list open requests sorted (median)', 'ms', median(listInbox), {
        baseline: { label: 'sort of a plain array', value: median(listPlain) },
        detail: { items: plain.length },
      }),
      metric(`dedupe keys after ${options.longRun.toLocaleString('en-US')} events`, 'keys', longStats.dedupeKeys, {
        target: { on: 'value', op: '<=', limit: options.dedupeCapacity },
        detail: { keysAtBound },
      }),
      metric('apply, dedupe window full (mean)', 'µs', full * 1000, {
        baseline: { label: 'while the window fills', value: filling * 1000 },
      }),
      metric(`heap after ${options.longRun.toLocaleString('en-US')} events`, 'MB', (heapAfter - heapLong0) / MB, {
        baseline: { label: `after ${fill.toLocaleString('en-US')}`, value: (heapAtBound - heapLong0) / MB },
        detail: { timelineEvents: longStats.timelineEvents, sessions: longStats.sessions },
      }),
      metric(`apply ${options.floodSessions.toLocaleString('en-US')} one-request sessions, bound ${options.floodMaxSessions.toLocaleString('en-US')}`, 'ms', flood.bounded, {
        baseline: { label: 'no session bound reached', value: flood.unbounded },
        detail: { sessionsTracked: flood.tracked, open: flood.open },
      }),
      metric(`time out ${options.floodTimeouts.toLocaleString('en-US')} open requests, answer history recording`, 'ms', timedOut.recorded, {
        baseline: { label: 'no answer history', value: timedOut.unwatched },
        detail: { historyEntries: timedOut.entries },
      }),
      metric(
        `status bar count, ${flood.open.toLocaleString('en-US')} open, ${options.floodDismissed.toLocaleString('en-US')} dismissed (median)`, 'µs', median(counted.count),
        {
          baseline: { label: 'counting by listing (visibleItems().length)', value: median(counted.listed) },
          detail: { visible: counted.visible, p99: percentile(counted.count, 99), baselineMax: Math.max(...counted.listed) },
        },
      ),
    ],
  };
}
