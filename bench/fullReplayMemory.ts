// What a full duplicate replay at the reference relay's limits costs the
// inbox (issue 39 item 3): 500 sessions of 10 000 events each (AEP_BUFFER and
// AEP_MAX_SESSIONS defaults), one in ten an answered request, applied once and
// then replayed whole, as on a reconnect with replay-all. Prints the heap after
// each pass and how many requests the replay announced again (it must be 0).
// Not part of `npm run bench` (minutes at full size); how to run it is in
// BENCHMARKS.md, "Full duplicate replay at the relay's limits". SESSIONS and
// PER_SESSION shrink it. FILTERED=1 delivers, both times, only the types the
// client subscribes to (as the hub's filter does): every session then has a gap
// at each progress event, the shape that folds runs into the floor.
import type { AepEvent } from '../src/aep/envelope';
import { Inbox } from '../src/inbox/inbox';

const SESSIONS = Number(process.env['SESSIONS'] ?? 500);
const PER_SESSION = Number(process.env['PER_SESSION'] ?? 10_000);
const FILTERED = process.env['FILTERED'] === '1';
const TIME = '2026-07-03T10:00:00.000Z';

/** What the hub's type filter lets through to this client (`SUBSCRIBED_TYPES`): here, the requests and their resolutions. */
function delivered(seq: number): boolean {
  return !FILTERED || seq % 10 === 1 || seq % 10 === 2;
}

function eventAt(session: number, seq: number): AepEvent {
  const name = `session-${session}`;
  const base = { aep: '0.1', time: TIME, source: `aep://bench/agent/a${session % 20}/session/${name}`, agent: `a${session % 20}`, session: name, seq };
  const id = `${name}-${seq}`;
  // Seq 10k+1 asks, 10k+2 resolves it; the rest is progress.
  if (seq % 10 === 1) return { ...base, id, type: 'attention.requested', severity: 'notice', data: { kind: 'input', prompt: `Question ${seq}` } } as AepEvent;
  if (seq % 10 === 2) return { ...base, id, type: 'attention.resolved', subject: `${name}-${seq - 1}`, cause: `${name}-${seq - 1}`, data: { resolution: 'answered' } } as AepEvent;
  return { ...base, id, type: 'progress.status', data: { message: `step ${seq}` } } as AepEvent;
}

function heapMb(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return Math.round((process.memoryUsage().heapUsed / 1024 / 1024) * 10) / 10;
}

const inbox = new Inbox({ maxBytes: 256 * 1024 * 1024 });
let announced = 0;
inbox.onDidChange((change) => {
  if (change.kind === 'added') announced++;
});
const baseline = heapMb();
// Sessions interleaved as a hub fans out live traffic; the replay comes session by session, as the relay serves it.
let started = Date.now();
for (let seq = 1; seq <= PER_SESSION; seq++) for (let s = 0; s < SESSIONS; s++) if (delivered(seq)) inbox.apply(eventAt(s, seq));
const firstMs = Date.now() - started;
const afterFirst = heapMb();
const announcedFirst = announced;
announced = 0;
let duplicates = 0;
started = Date.now();
for (let s = 0; s < SESSIONS; s++) for (let seq = 1; seq <= PER_SESSION; seq++) if (delivered(seq) && !inbox.apply(eventAt(s, seq)).applied) duplicates++;
const replayMs = Date.now() - started;
const afterReplay = heapMb();
console.log(JSON.stringify({
  sessions: SESSIONS, perSession: PER_SESSION, filtered: FILTERED, events: SESSIONS * PER_SESSION,
  delivered: SESSIONS * Array.from({ length: PER_SESSION }, (_, i) => i + 1).filter(delivered).length,
  heapMb: { baseline, afterFirst, afterReplay, inboxHeld: Math.round((afterReplay - baseline) * 10) / 10 },
  firstPass: { ms: firstMs, announced: announcedFirst },
  replay: { ms: replayMs, duplicates, announcedAgain: announced, open: inbox.openCount },
  stats: inbox.stats(),
}, null, 1));
