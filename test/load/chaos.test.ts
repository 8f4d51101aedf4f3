// A chaos run of the hub client over real loopback sockets (issue 13): a flood
// of events across many sessions, attention requests among them, answers in
// flight, the connection between the client and the hub severed at seeded
// random points and right after answers are sent, and a window reload in the
// middle. Once the client has caught up, three things must hold: no request
// lost or left open after it closed, no request twice in the inbox, no command
// executed twice (the same command id is resent after a drop, never a new one:
// AEP-0004 §2.3).
//
// Sizes come from the environment for a longer run by hand, e.g.
//   CHAOS_SECONDS=60 CHAOS_RATE=10000 CHAOS_SEVERS=600 node --test out/test/load/chaos.test.js
// (also CHAOS_MIN_ANSWERS, CHAOS_SESSIONS, CHAOS_TARGETS, CHAOS_TARGET_SESSIONS, CHAOS_REQUEST_EVERY,
// CHAOS_RELOADS, CHAOS_SEED, CHAOS_SLOW_CONSUMER_BYTES). A failing run prints, per
// request, which window applied its events and the position saved at the reload.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import WebSocket from 'ws';
import type { Answer } from '../../src/aep/attention';
import type { SendOutcome } from '../../src/client/controlSender';
import { HubClient } from '../../src/client/hubClient';
import { RESPOND_TYPE } from '../../src/aep/control';
import { AEP_VERSION, parseEnvelope } from '../../src/aep/envelope';
import { Inbox, isOpenStatus } from '../../src/inbox/inbox';
import { WorkspacePersistence } from '../../src/app/hubs/persistence';
import { ControlTarget, isCommandType, type Step } from '../peers/agent/controlTarget';
import { planFor } from '../peers/agent/scenarios';
import { startHub } from '../peers/hub/hub';
import type { AepEvent } from '../../src/aep/envelope';
import { freshSession, makeEvent, makeRequest, postEvents, sourceFor } from '../support/events';
import { MemoryMemento } from '../support/memoryMemento';
import type { LogCode } from '../../src/base/logger';
import { RecordingLogger } from '../support/recordingLogger';
import { TcpProxy } from '../support/tcpProxy';
import { waitUntil } from '../support/waitUntil';

const TOKEN = 'chaos-token';

function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number, got ${JSON.stringify(raw)}`);
  return value;
}

const SECONDS = envNumber('CHAOS_SECONDS', 10);
/** Events per second the HTTP emitters aim for (the rate reached is measured and reported). */
const RATE = envNumber('CHAOS_RATE', 10_000);
const SEVERS = Math.round(envNumber('CHAOS_SEVERS', 100));
const HTTP_SESSIONS = Math.round(envNumber('CHAOS_SESSIONS', 48));
const TARGETS = Math.round(envNumber('CHAOS_TARGETS', 4));
const SESSIONS_PER_TARGET = Math.round(envNumber('CHAOS_TARGET_SESSIONS', 4));
/** One attention request in this many flood events. */
const REQUEST_EVERY = Math.round(envNumber('CHAOS_REQUEST_EVERY', 100));
const RELOADS = Math.round(envNumber('CHAOS_RELOADS', 1));
const SEED = Math.round(envNumber('CHAOS_SEED', 0xc4a05));
const BATCH = 1_000; // the local hub's maxBatch
/**
 * Answers the run sends at least. On a busy machine the client falls seconds behind the
 * flood and sees few of the agents' requests while it runs (4 answers in a CI run beside
 * another load file, 134 alone), so answering goes on after the flood until this many.
 */
const MIN_ANSWERS = Math.round(envNumber('CHAOS_MIN_ANSWERS', 24));
/** After every this many answers sent, the line is cut at once: answers in flight at a drop, however fast the machine. */
const SEVER_EVERY_ANSWERS = 8;
/** How long answering may go on after the flood to reach MIN_ANSWERS. */
const ANSWER_DEADLINE_MS = 30_000;
/** The local hub's slow-consumer threshold (test/peers/hub/config.ts, default 8 MiB): lower it to make the hub shed and disconnect often. */
const SLOW_CONSUMER_BYTES = Math.round(envNumber('CHAOS_SLOW_CONSUMER_BYTES', 8 * 1024 * 1024));

/** mulberry32, as in test/unit/hostile.test.ts: a run's choices come from its seed (its timing does not). */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sequenced events one inbox applied a second time (and how many of them were requests): a replay its dedupe no longer remembered. */
const reapplied = { count: 0, requests: 0 };

/** One "window": persistence over the shared memento, an inbox restored from it, a client (as commandPersistence.test.ts). */
function openWindow(memento: MemoryMemento, proxy: TcpProxy, onOutcome: (outcome: SendOutcome) => void, applied: Map<string, Set<number>>) {
  const log = new RecordingLogger();
  const persistence = new WorkspacePersistence(memento, proxy.url, log);
  const inbox = new Inbox();
  {
    // Every sequenced event this window's inbox took, to show which ones a failing run never got.
    const apply = inbox.apply.bind(inbox);
    const mine = new Set<string>();
    inbox.apply = (event, receivedAt) => {
      const outcome = apply(event, receivedAt);
      if (outcome.applied && event.session !== undefined && event.seq !== undefined) {
        // The same sequenced event applied twice by one inbox: its dedupe memory ran out.
        const key = `${event.source}\u0000${event.session}\u0000${event.seq}`;
        if (mine.has(key)) {
          reapplied.count++;
          if (event.type === 'attention.requested') reapplied.requests++;
        } else mine.add(key);
        const seqs = applied.get(event.session) ?? new Set<number>();
        seqs.add(event.seq);
        applied.set(event.session, seqs);
      }
      return outcome;
    };
  }
  persistence.restoreInto(inbox);
  const changes = inbox.onDidChange(() => persistence.inboxChanged());
  const client = new HubClient({
    hubUrl: proxy.url, token: TOKEN, senderName: 'chaos-editor', inbox, positions: persistence, log,
    commands: persistence.commands, onRestoredOutcome: (outcome) => onOutcome(outcome),
    backoffBaseMs: 20, backoffCapMs: 250,
  });
  client.start();
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    client.dispose();
    persistence.dispose();
    changes.dispose();
    inbox.dispose();
  };
  return { client, inbox, persistence, log, close };
}
type Window = ReturnType<typeof openWindow>;

/**
 * The demo agent's control logic (test/peers/agent/controlTarget.ts) on its own
 * socket straight to the hub: it raises requests, acks each command once and
 * resends its recorded ack on a redelivery. Every execution (an accepted
 * command) is recorded here, by command id and by request.
 */
class ChaosTarget {
  readonly executions = new Map<string, number>();
  readonly executedForRequest = new Map<string, string[]>();
  readonly lastSeq = new Map<string, number>();
  /** The source of each session's events. */
  readonly sources = new Map<string, string>();
  redeliveries = 0;
  private constructor(
    readonly control: ControlTarget,
    private readonly ws: WebSocket,
  ) {}

  static async start(hubUrl: string, agent: string, sessions: string[]): Promise<ChaosTarget> {
    const ws = new WebSocket(`${hubUrl.replace(/^http/, 'ws')}/socket`, { headers: { authorization: `Bearer ${TOKEN}` } });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    const helloed = new Promise<void>((resolve) => {
      ws.once('message', () => resolve());
    });
    ws.send(JSON.stringify({
      type: 'hello', versions: [AEP_VERSION], role: 'emitter', identity: { agent, instance: 'chaos' },
      capabilities: { emits: ['session', 'attention', 'control'], control: { accepts: [RESPOND_TYPE], ack_window_ms: 60_000 } },
    }));
    await helloed;
    const control = new ControlTarget({ identity: { agent, host: 'chaos-host', epoch: 0 }, sessions, accepts: [RESPOND_TYPE] });
    const target = new ChaosTarget(control, ws);
    ws.on('message', (data: Buffer) => target.onMessage(data.toString('utf8')));
    target.send(control.startSessions(Date.now()));
    return target;
  }

  send(step: Step): void {
    for (const emitted of step.emitted) {
      this.lastSeq.set(emitted.event.session, emitted.event.seq);
      this.sources.set(emitted.event.session, emitted.event.source);
    }
    for (const text of step.send) this.ws.send(text);
  }

  raise(session: string, index: number): string {
    const step = this.control.raise(session, planFor(index % 2 === 0 ? 'permission' : 'input', index, { expireMs: 60_000, oobMs: 60_000 }), Date.now());
    this.send(step);
    return step.requestId;
  }

  private onMessage(text: string): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return;
    }
    const envelope = parseEnvelope(value);
    if (!envelope.ok || !isCommandType(envelope.value.type)) return;
    const step = this.control.handle(envelope.value, Date.now());
    if (step.decision.kind === 'accepted') {
      const id = envelope.value.id;
      this.executions.set(id, (this.executions.get(id) ?? 0) + 1);
      const list = this.executedForRequest.get(step.decision.requestId) ?? [];
      list.push(id);
      this.executedForRequest.set(step.decision.requestId, list);
    } else if (step.decision.kind === 'replayed') {
      this.redeliveries++;
    }
    this.send(step);
  }

  close(): void {
    this.ws.terminate();
  }
}

/** A session of an HTTP emitter: its own seq, the requests it raised and which of those it closed. */
interface HttpSession {
  session: string;
  agent: string;
  seq: number;
  open: string[];
}

describe('chaos: a flood, answers in flight, a severed connection and a reload', () => {
  test(`${SECONDS} s at ${RATE} events/s, ${SEVERS} severs, ${RELOADS} reload(s): nothing lost, nothing twice`, { timeout: SECONDS * 1_000 + ANSWER_DEADLINE_MS + 90_000 }, async (t) => {
    const random = prng(SEED);
    const hubLog: string[] = [];
    const hub = await startHub({ port: 0, token: TOKEN, slowConsumerBytes: SLOW_CONSUMER_BYTES, log: (line) => hubLog.push(line) });
    const proxy = await TcpProxy.start(hub.port);
    const memento = new MemoryMemento();
    const targets: ChaosTarget[] = [];
    /** Sequenced events each window's inbox applied, by session: evidence when a run fails. */
    const appliedPerWindow: Array<Map<string, Set<number>>> = [];
    const appliedBy = (index: number) => {
      const map = new Map<string, Set<number>>();
      appliedPerWindow[index] = map;
      return map;
    };
    const windows: Window[] = [];
    /** How each command settled, as the client reported it (the last word per command id). */
    const outcomes = new Map<string, SendOutcome>();
    const onOutcome = (outcome: SendOutcome) => {
      if (outcome.commandId === '') return;
      if (outcome.kind !== 'awaiting-ack' || !outcomes.has(outcome.commandId)) outcomes.set(outcome.commandId, outcome);
    };
    try {
      // ---- emitters -------------------------------------------------------------
      const httpSessions: HttpSession[] = Array.from({ length: HTTP_SESSIONS }, (_, i) => ({
        session: freshSession(`chaos-http${i}`), agent: `http-agent-${i % 6}`, seq: 0, open: [],
      }));
      /** HTTP-raised requests: requestId → its session, and whether its emitter closed it. */
      const httpRequests = new Map<string, { session: HttpSession; closed: boolean; seq: number; closedSeq?: number }>();
      for (let i = 0; i < TARGETS; i++) {
        const sessions = Array.from({ length: SESSIONS_PER_TARGET }, () => freshSession(`chaos-t${i}`));
        targets.push(await ChaosTarget.start(hub.url, `chaos-target-${i}`, sessions));
      }
      const started = await postEvents(hub.url, TOKEN, httpSessions.map((s) => makeEvent('session.started', s.session, s.seq++, {}, s.agent)));
      assert.equal(started.status, 202, JSON.stringify(started.body));

      windows.push(openWindow(memento, proxy, onOutcome, appliedBy(windows.length)));
      const current = () => windows[windows.length - 1]!;
      await waitUntil(() => current().client.isConnected, 'the first connection', 30_000);

      const durationMs = SECONDS * 1_000;
      const floodStart = Date.now();
      let flooding = true;
      let posted = 0;
      let refusedBatches = 0;

      /** One NDJSON batch: heartbeats, requests, and the emitters closing some of their own. */
      const nextBatch = (size: number): AepEvent[] => {
        const events: AepEvent[] = [];
        for (let i = 0; i < size; i++) {
          const s = httpSessions[Math.floor(random() * httpSessions.length)]!;
          const roll = random();
          if (roll < 1 / REQUEST_EVERY) {
            const seq = s.seq++;
            const event = makeRequest(s.session, seq, { kind: 'input', prompt: `chaos question ${posted + i}`, respond_via: ['oob'] }, { severity: 'notice', capture: 'redacted' }, s.agent);
            httpRequests.set(event.id, { session: s, closed: false, seq });
            s.open.push(event.id);
            events.push(event);
          } else if (roll < 1.6 / REQUEST_EVERY && s.open.length > 0) {
            // The emitter closes one of its own (as an agent does when answered elsewhere).
            const id = s.open.splice(Math.floor(random() * s.open.length), 1)[0]!;
            const record = httpRequests.get(id)!;
            record.closed = true;
            record.closedSeq = s.seq;
            events.push(makeEvent('attention.resolved', s.session, s.seq++, { subject: id, capture: 'metadata', data: { resolution: 'dismissed' } }, s.agent));
          } else {
            events.push(makeEvent('session.heartbeat', s.session, s.seq++, { capture: 'metadata', data: { n: posted + i } }, s.agent));
          }
        }
        return events;
      };

      const flood = (async () => {
        while (Date.now() - floodStart < durationMs) {
          const due = Math.floor(((Date.now() - floodStart) / 1_000) * RATE) - posted;
          if (due <= 0) {
            // Pacing, not a wait for a result: the flood posts RATE events a second.
            await sleep(5);
            continue;
          }
          const size = Math.min(BATCH, due);
          const response = await postEvents(hub.url, TOKEN, nextBatch(size));
          if (response.status !== 202) refusedBatches++;
          posted += size;
        }
      })();

      // ---- control-target requests, and the client answering while the flood runs ----
      const targetRequests: Array<{ target: ChaosTarget; requestId: string; session: string }> = [];
      const answered = new Set<string>();
      let raisedByTargets = 0;
      let dismissedByTargets = 0;
      /** Cuts made right after an answer was sent, on top of the SEVERS scheduled ones. */
      let answerSevers = 0;
      let floodEnded = Number.POSITIVE_INFINITY;
      const cut = () => {
        const block = random() < 0.5;
        proxy.sever(block);
        if (block) {
          const outage = Math.floor(random() * 200);
          setTimeout(() => proxy.restore(), outage);
        }
      };
      const requestsAndAnswers = (async () => {
        // The agents raise requests while the flood runs; answering goes on until MIN_ANSWERS (or the deadline: the check below fails in words).
        while (flooding || (answered.size < MIN_ANSWERS && Date.now() - floodEnded < ANSWER_DEADLINE_MS)) {
          for (const target of flooding ? targets : []) {
            const sessions = target.control.ownedSessions;
            const session = sessions[Math.floor(random() * sessions.length)]!;
            targetRequests.push({ target, requestId: target.raise(session, raisedByTargets++), session });
            // Now and then the agent closes one itself, possibly while an answer is in flight.
            if (random() < 0.1) {
              const pending = target.control.openRequests();
              const victim = pending[Math.floor(random() * pending.length)];
              if (victim) {
                target.send(target.control.dismiss(victim.id, Date.now()));
                dismissedByTargets++;
              }
            }
          }
          const window = current();
          for (const item of window.inbox.open()) {
            if (!item.request || !item.request.answerableHere || answered.has(item.key) || random() < 0.4) continue;
            answered.add(item.key);
            const answer: Answer = item.request.options.length > 0 ? { option: item.request.options[0]!.id } : { text: 'chaos answer' };
            void window.client.respond(item.request, answer).then(onOutcome);
            if (answered.size % SEVER_EVERY_ANSWERS === 0) {
              cut();
              answerSevers++;
            }
          }
          // Pacing: the answerer looks at the open requests 25 times a second, as a person clicking fast.
          await sleep(40);
        }
      })();

      // ---- severs at seeded random points, and the reload half-way ----------------
      const severAt = Array.from({ length: SEVERS }, () => random() * durationMs).sort((a, b) => a - b);
      const reloadAt = Array.from({ length: RELOADS }, (_, i) => ((i + 1) * durationMs) / (RELOADS + 1));
      let severs = 0;
      let reloads = 0;
      let reloadPositions: Array<{ session: string; seq: number }> = [];
      const chaos = (async () => {
        while (severs < severAt.length || reloads < reloadAt.length) {
          const elapsed = Date.now() - floodStart;
          if (reloads < reloadAt.length && reloadAt[reloads]! <= elapsed) {
            current().close(); // the window reloads: the old client's answers in flight settle as awaiting-ack
            reloadPositions = current().persistence.load().map((p) => ({ ...p }));
            windows.push(openWindow(memento, proxy, onOutcome, appliedBy(windows.length)));
            reloads++;
          }
          if (severs < severAt.length && severAt[severs]! <= elapsed) {
            cut();
            severs++;
          }
          // The chaos clock's tick: severs and reloads fall due at seeded points in real time.
          await sleep(2);
        }
      })();

      try {
        await flood;
      } finally {
        // Also when the flood fails: the answering loop would go on to the test's timeout.
        floodEnded = Date.now();
        flooding = false;
      }
      const floodMs = floodEnded - floodStart;
      await Promise.all([chaos, requestsAndAnswers]);
      const answeredAfterFloodMs = Date.now() - floodEnded;
      proxy.restore();

      // ---- catch up: every session's last event applied, every command settled ----
      const window = current();
      const httpSeq = (s: HttpSession) => window.inbox.positionOf(sourceFor(s.session, s.agent), s.session)?.seq ?? -1;
      const caughtUp = () => {
        for (const s of httpSessions) if (httpSeq(s) !== s.seq - 1) return false;
        for (const target of targets) {
          for (const [session, seq] of target.lastSeq) if ((window.inbox.positionOf(target.sources.get(session) ?? '', session)?.seq ?? -1) !== seq) return false;
        }
        return true;
      };
      const behind = () => {
        const late = httpSessions.filter((s) => httpSeq(s) !== s.seq - 1);
        // Where each late session stands, and whether the hub took every batch: what tells a lost event from a refused one.
        const where = late.slice(0, 5).map((s) => `${s.session} at ${httpSeq(s)} of ${s.seq - 1}`).join(', ');
        return `${late.length} HTTP sessions behind (${where}); ${refusedBatches} batches refused; ${severs} severs, ${reloads} reload(s); ` +
          `state ${JSON.stringify(window.client.state)}; pending commands ${window.client.stats.pendingCommands}; ` +
          `${window.log.lines.filter((line) => /gap|lost|slow|exhaust|resum|replay/.test(line)).slice(-5).join(' | ')} | ${window.log.lines.slice(-5).join(' | ')}`;
      };
      const catchUpStart = Date.now();
      for (;;) {
        await waitUntil(() => window.client.isConnected && window.client.stats.pendingCommands === 0 && caughtUp(), 'the client to catch up', 30_000, behind);
        // Acks just settled may have made the agents emit more; settle once more and check nothing moved.
        await sleep(200);
        if (window.client.stats.pendingCommands === 0 && caughtUp()) break;
      }
      const catchUpMs = Date.now() - catchUpStart;

      // ---- (a) requests lost (or left open after their emitter closed them) -----------
      const lost: string[] = [];
      const staleOpen: string[] = [];
      const isOpenInInbox = (session: string, requestId: string, source?: string) => {
        const item = window.inbox.findRequest(session, requestId, source);
        return item !== undefined && isOpenStatus(item.status);
      };
      for (const [id, { session, closed }] of httpRequests) {
        const open = isOpenInInbox(session.session, id);
        if (!closed && !open) lost.push(id);
        if (closed && open) staleOpen.push(id);
      }
      for (const target of targets) {
        for (const request of target.control.requests()) {
          const open = isOpenInInbox(request.session, request.id, target.control.sourceOf(request.session));
          if (request.state === 'pending' && !open) lost.push(request.id);
          if (request.state !== 'pending' && open) staleOpen.push(request.id);
        }
      }

      // ---- (b) the same (source, request id) twice in the inbox ---------------------
      const seen = new Map<string, number>();
      for (const item of window.inbox.open()) {
        const key = `${item.source}\u0000${item.requestId}`;
        seen.set(key, (seen.get(key) ?? 0) + 1);
      }
      const duplicates = [...seen.values()].filter((count) => count > 1).length;

      // ---- (c) commands executed twice; accepted answers not executed exactly once -------
      let executedTwice = 0;
      let requestsExecutedTwice = 0;
      const executions = new Map<string, number>();
      let redeliveries = 0;
      for (const target of targets) {
        redeliveries += target.redeliveries;
        for (const [id, count] of target.executions) {
          executions.set(id, (executions.get(id) ?? 0) + count);
          if (count > 1) executedTwice++;
        }
        for (const ids of target.executedForRequest.values()) if (ids.length > 1) requestsExecutedTwice++;
      }
      const accepted = [...outcomes.values()].filter((outcome) => outcome.kind === 'accepted');
      const acceptedNotOnce = accepted.filter((outcome) => executions.get(outcome.commandId) !== 1).map((o) => o.commandId);
      // Left awaiting an ack by a closed window and not taken over by the next (its store keeps the newest 64, commandStore.ts).
      const unsettled = [...outcomes.values()].filter((outcome) => outcome.kind === 'awaiting-ack');
      const unsettledExecuted = unsettled.filter((outcome) => executions.has(outcome.commandId)).length;
      const byKind = new Map<string, number>();
      for (const outcome of outcomes.values()) byKind.set(outcome.kind, (byKind.get(outcome.kind) ?? 0) + 1);

      const countLines = (code: LogCode) => windows.reduce((sum, w) => sum + w.log.find({ code }).length, 0);
      const totalMs = Date.now() - floodStart;
      const stats = window.client.stats;
      t.diagnostic(`seed ${SEED}; flood ${posted} events in ${floodMs} ms = ${Math.round((posted / floodMs) * 1_000)} events/s (aimed ${RATE}); ${refusedBatches} batches refused`);
      t.diagnostic(`${HTTP_SESSIONS} HTTP sessions + ${TARGETS}×${SESSIONS_PER_TARGET} control-target sessions; ${httpRequests.size} HTTP requests (${[...httpRequests.values()].filter((r) => r.closed).length} closed by their emitter), ${raisedByTargets} target requests (${dismissedByTargets} dismissed by the agent)`);
      t.diagnostic(`${severs} severs, ${reloads} reload(s), ${proxy.connections} proxied connections; answers sent ${answered.size} (answering went on ${answeredAfterFloodMs} ms after the flood), ${answerSevers} cuts right after an answer, outcomes ${JSON.stringify(Object.fromEntries(byKind))}; ${redeliveries} redeliveries re-acked; ${unsettled.length} answers never settled after the reload (${unsettledExecuted} of them executed by their agent; ${countLines('answer-evicted')} left out of the reload by the store's bound, ${countLines('command-dropped')} dropped as no longer open)`);
      const rejections = [...outcomes.values()].flatMap((outcome) => (outcome.kind === 'rejected' ? [`${outcome.reason}: ${outcome.detail ?? ''}`] : []));
      if (rejections.length > 0) t.diagnostic(`rejected: ${rejections.slice(0, 8).join(' | ')}`);
      t.diagnostic(`last client: ${stats.eventsApplied} events applied, ${stats.duplicatesDropped} duplicates dropped, ${stats.connections} connections; catch-up ${catchUpMs} ms; run ${totalMs} ms; connections the hub dropped as a slow consumer ${new Set(hubLog.filter((line) => line.includes('slow consumer'))).size}; events applied twice by one inbox ${reapplied.count} (${reapplied.requests} requests)`);
      t.diagnostic(`(a) lost ${lost.length}, left open after closing ${staleOpen.length}; (b) duplicates ${duplicates}; (c) commands executed twice ${executedTwice}, requests executed twice ${requestsExecutedTwice}, accepted but not executed exactly once ${acceptedNotOnce.length}`);

      for (const id of [...lost, ...staleOpen]) {
        const http = httpRequests.get(id);
        const owner = http ? `HTTP session ${http.session.session}` : `target ${JSON.stringify(targets.flatMap((x) => x.control.requests()).find((r) => r.id === id))}`;
        const item = window.inbox.open().find((candidate) => candidate.requestId === id);
        const inLogs = windows.flatMap((w, i) => w.log.lines.filter((line) => line.includes(id)).map((line) => `window ${i}: ${line}`));
        if (http) {
          const missing: number[] = [];
          for (let seq = 0; seq < http.session.seq; seq++) if (!appliedPerWindow.some((map) => map.get(http.session.session)?.has(seq))) missing.push(seq);
          t.diagnostic(`  session ${http.session.session}: ${missing.length} seqs never applied: ${missing.slice(0, 40).join(',')}`);
          const where = (seq: number | undefined) => appliedPerWindow.map((map, i) => (seq !== undefined && map.get(http.session.session)?.has(seq) ? `w${i}` : '')).join('') || 'none';
          t.diagnostic(`  requested seq ${http.seq} applied by ${where(http.seq)}; resolved seq ${http.closedSeq} applied by ${where(http.closedSeq)}; saved position ${JSON.stringify(reloadPositions.find((p) => p.session === http.session.session))}`);
        }
        t.diagnostic(`request ${id}: ${owner}; inbox status ${item?.status ?? 'absent'}; applied ${item ? item.receivedAt - Date.parse(String(item.requestEvent.time)) : '?'} ms after it was raised; position ${JSON.stringify(item ? window.inbox.positionOf(item.source, item.session)?.seq : undefined)}; ${inLogs.join(' | ')}`);
      }
      if (lost.length + staleOpen.length > 0) {
        windows.forEach((w, i) => t.diagnostic(`window ${i}: ${w.log.lines.filter((line) => /clos|subscrib|lost|slow|gap|exhaust|dropped|connect/.test(line)).slice(-12).join(' | ')}`));
      }
      assert.ok(answered.size >= MIN_ANSWERS, `${answered.size} answers sent, fewer than ${MIN_ANSWERS}, ${ANSWER_DEADLINE_MS} ms after the flood`);
      assert.ok(accepted.length > 0, 'some answers were accepted');
      assert.equal(severs, SEVERS);
      assert.deepEqual(lost, [], 'requests lost');
      assert.deepEqual(staleOpen, [], 'requests closed by their emitter but open in the inbox');
      assert.equal(duplicates, 0, 'the same request twice in the inbox');
      assert.equal(executedTwice, 0, 'a command executed twice');
      assert.equal(requestsExecutedTwice, 0, 'a request answered by two executed commands');
      assert.deepEqual(acceptedNotOnce, [], 'accepted answers not executed exactly once');
    } finally {
      for (const window of windows) window.close();
      for (const target of targets) target.close();
      await proxy.close();
      await hub.close();
    }
  });
});
