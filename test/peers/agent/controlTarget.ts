// The demo agent as a control-capable target (AEP-0004 §2–§7) and as the
// owner of the attention requests it raises (AEP-0002 §7, AEP-0006,
// AEP-0008) and of the runs it opens (which `control.cancel` ends, AEP-0004
// §5). Pure: no sockets, no timers. Every method takes `now` and returns the
// events to send (as their exact text) and the log lines to print, so the
// whole decision logic is unit-testable.
import * as z from 'zod/mini';
import { answerSchema, parseAttentionRequest, type Answer, type AttentionRequest } from '../../../src/aep/attention';
import { homedir } from 'node:os';
import { verbatimCapture } from '../../../src/aep/capture';
import { redactText } from '../../../src/aep/redaction';
import { ACCEPTED_TYPE, REJECTED_TYPE, RESPOND_TYPE, type RejectReason } from '../../../src/aep/control';
import { dedupeKey, parseEnvelope, type AepEvent } from '../../../src/aep/envelope';
import { validateFormValues, type FieldError } from '../../../src/aep/formValidation';
import { fieldProblemText } from '../../../src/shared/problemWords';
import { captureAtLeast, type CaptureLevel } from '../../../src/aep/levels';
import { describeZodError, safeParseEnglish } from '../../../src/base/result';
import { ulid } from '../../../src/base/ulid';
import { gateFormValues } from '../../support/valuesGating';
import type { RequestPlan, ScenarioName } from './scenarios';
import { SessionEmitter, type AgentIdentity, type Emitted } from './sessionEmitter';

export type RequestState = 'pending' | 'answered' | 'timed-out' | 'dismissed';

export const CANCEL_TYPE = 'control.cancel';

/** What the agent raised and what became of it, as `RunningAgent.requests()` reports it. */
export interface RequestSnapshot {
  id: string;
  session: string;
  scenario: ScenarioName;
  label: string;
  kind: string;
  capture: CaptureLevel;
  state: RequestState;
  raisedAt: number;
  closedAt?: number;
  expiresAt?: number;
  /** The answer as applied (values gated to the request's capture). */
  answer?: Answer;
  via?: 'control' | 'oob';
  by?: string;
  /** The command that answered it. */
  commandId?: string;
}

interface RequestRecord {
  snapshot: RequestSnapshot;
  parsed: AttentionRequest;
  plan: RequestPlan;
}

/** What one call produced: events to send, in order, and one log line per decision. */
export interface Step {
  /** Exact texts to send on the socket, in order (new events, or a recorded ack being resent). */
  send: string[];
  /** The new events among them (a resent ack is not new). */
  emitted: Emitted[];
  log: string[];
}

export type CommandDecision =
  | { kind: 'accepted'; requestId: string }
  /** `control.cancel` accepted: these runs were cancelled, each by one `run.cancelled`. */
  | { kind: 'cancelled'; runs: string[] }
  | { kind: 'rejected'; reason: RejectReason; detail: string }
  /** A redelivery: the recorded ack was resent byte-identically, nothing re-executed (AEP-0004 §3). */
  | { kind: 'replayed'; ackId: string }
  /** Nothing to acknowledge with: every session we could speak in has ended. */
  | { kind: 'dropped'; why: string };

export interface CommandStep extends Step {
  decision: CommandDecision;
}

export interface ControlTargetOptions {
  identity: AgentIdentity;
  /** The sessions this agent owns, in order; the first is its home session. */
  sessions: readonly string[];
  /** `hello.capabilities.control.accepts`: authoritative (AEP-0004 §4.2). */
  accepts?: readonly string[];
  newId?: (now: number) => string;
  /** Commands whose dedupe state (and recorded ack) is kept; oldest forgotten first. */
  dedupeLimit?: number;
}

/** A command on our socket: `control.*` (other than the two acks) or a vendor `x.{vendor}.control.*`. */
export function isCommandType(type: string): boolean {
  if (type === ACCEPTED_TYPE || type === REJECTED_TYPE) return false;
  return type.startsWith('control.') || /^x\.[a-z0-9_-]+\.control\./.test(type);
}

/** An untrusted string made safe for one log line or nack detail: short, and quoted unless plainly an id. */
export function shown(value: string): string {
  return /^[A-Za-z0-9._:@/-]{1,80}$/.test(value) ? value : JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
}

const respondDataSchema = z.object({ answer: answerSchema });
const cancelDataSchema = z.object({ scope: z.enum(['run', 'session']), reason: z.optional(z.string()) });

interface RunRecord {
  run: string;
  startedId: string;
  startedAt: number;
  live: boolean;
}

type Evaluation = { ok: true; answer: Answer; capture: CaptureLevel } | { ok: false; detail: string };

function fieldProblems(errors: readonly FieldError[]): string {
  return errors
    .map((error) =>
    {
      if (error.problem.code === 'required') return `field ${JSON.stringify(error.fieldId)} is required`;
      const message = fieldProblemText(error.problem);
      return `field ${JSON.stringify(error.fieldId)}: ${message.charAt(0).toLowerCase()}${message.slice(1).replace(/\.$/, '')}`;
    })
    .join('; ');
}

function describeAnswer(answer: Answer): string {
  const parts: string[] = [];
  if (answer.option !== undefined) parts.push(`option=${shown(answer.option)}`);
  if (answer.text !== undefined) parts.push(`text=${JSON.stringify(answer.text)}`);
  if (answer.values !== undefined) parts.push(`values=${JSON.stringify(answer.values)}`);
  return parts.join(' ') || '(empty answer)';
}

export class ControlTarget {
  private readonly sessions = new Map<string, SessionEmitter>();
  private readonly sessionOrder: string[];
  private readonly accepts: ReadonlySet<string>;
  private readonly newId: (now: number) => string;
  private readonly dedupeLimit: number;
  /** `(source, id)` → the exact text of the ack we decided (AEP-0004 §2.3, §3). */
  private readonly recordedAcks = new Map<string, { text: string; ackId: string }>();
  private readonly requestsById = new Map<string, RequestRecord>();
  /** session → run → record; a run reaches one terminal at most (AEP-0002 §2 rule 5). */
  private readonly runsBySession = new Map<string, Map<string, RunRecord>>();

  constructor(private readonly options: ControlTargetOptions) {
    if (options.sessions.length === 0) throw new Error('a target owns at least one session');
    this.sessionOrder = [...options.sessions];
    this.accepts = new Set(options.accepts ?? [RESPOND_TYPE]);
    this.newId = options.newId ?? ulid;
    this.dedupeLimit = options.dedupeLimit ?? 10_000;
  }

  get agent(): string {
    return this.options.identity.agent;
  }

  get ownedSessions(): string[] {
    return [...this.sessionOrder];
  }

  sourceOf(session: string): string | undefined {
    return this.sessions.get(session)?.source;
  }

  // ---- sessions -----------------------------------------------------------------

  /** `session.started` (seq 0) for every owned session. */
  startSessions(now: number): Step {
    const step = emptyStep();
    for (const session of this.sessionOrder) {
      if (this.sessions.has(session)) continue;
      const emitter = new SessionEmitter(session, this.options.identity, this.newId, now);
      this.sessions.set(session, emitter);
      push(step, emitter.emit('session.started', { capture: 'metadata', data: { client: { name: this.agent } } }, now));
      step.log.push(`started session ${session}`);
    }
    return step;
  }

  /** `run.started` for a new run of a live session; the run stays live until cancelled or the session ends. */
  startRun(session: string, run: string, now: number): Step {
    const emitter = this.liveSession(session);
    if (!emitter) throw new Error(`session ${session} is not a live session of ${this.agent}`);
    let runs = this.runsBySession.get(session);
    if (!runs) this.runsBySession.set(session, (runs = new Map()));
    if (runs.has(run)) throw new Error(`run ${run} of session ${session} was started before`);
    const started = emitter.emit('run.started', { run, capture: 'metadata', data: { trigger: 'user' } }, now);
    runs.set(run, { run, startedId: started.event.id, startedAt: now, live: true });
    return { send: [started.text], emitted: [started], log: [`started run ${run} in session ${session}`] };
  }

  /** The runs still live, per session, in start order. */
  liveRuns(): Array<{ session: string; run: string }> {
    return [...this.runsBySession].flatMap(([session, runs]) =>
      [...runs.values()].filter((record) => record.live).map((record) => ({ session, run: record.run })),
    );
  }

  /**
   * Closes the session's open requests (`attention.resolved{dismissed}`) and
   * live runs (`run.cancelled{shutdown}`), then `session.ended`: a session
   * never ends with a request still pending (AEP-0002 §7 rule 2).
   */
  endSession(session: string, now: number, reason: 'normal' | 'error' = 'normal'): Step {
    const step = emptyStep();
    const emitter = this.sessions.get(session);
    if (!emitter || emitter.ended) return step;
    for (const record of this.requestsById.values()) {
      if (record.snapshot.session === session && record.snapshot.state === 'pending') merge(step, this.dismiss(record.snapshot.id, now));
    }
    for (const record of this.runsBySession.get(session)?.values() ?? []) {
      if (!record.live) continue;
      // The terminal cause-links the run's start (AEP-0002 §2 rule 1).
      push(step, this.cancelRun(emitter, record, { by: 'shutdown', cause: record.startedId }, now));
      step.log.push(`cancelled run ${record.run} of session ${session}: the session is ending`);
    }
    push(step, emitter.emit('session.ended', { capture: 'metadata', data: { reason, duration_ms: Math.max(0, now - emitter.startedAt) } }, now));
    step.log.push(`ended session ${session}`);
    return step;
  }

  endAllSessions(now: number, reason: 'normal' | 'error' = 'normal'): Step {
    const step = emptyStep();
    for (const session of this.sessionOrder) merge(step, this.endSession(session, now, reason));
    return step;
  }

  // ---- work before asking ----------------------------------------------------------

  /**
   * What the agent does before it asks, as tool events (AEP-0002 §5.3): it
   * reads a file, runs a build that fails, and edits the file, each request
   * paired with its outcome by `call_id`; the edit reports tokens and cost.
   * At capture `redacted` the arguments go as `args_redacted` (they pass the
   * §9.4 pipeline as they are: no secret, no home path); at `metadata` only
   * the tools' names. Shown beside the request as "Before asking".
   */
  work(session: string, capture: CaptureLevel, now: number): Step {
    const emitter = this.liveSession(session);
    if (!emitter) throw new Error(`session ${session} is not a live session of ${this.agent}`);
    const level: CaptureLevel = captureAtLeast(capture, 'redacted') ? 'redacted' : 'metadata';
    const step = emptyStep();
    const call = (name: string, args: Record<string, unknown>, outcome: { type: string; data: Record<string, unknown> }) => {
      const callId = `call-${emitter.nextSeq}`;
      const tool = { name, call_id: callId };
      push(step, emitter.emit('tool.requested', { capture: level, data: { tool, ...(level === 'redacted' ? { args_redacted: args } : {}) } }, now));
      // An error's message is free text (redacted-gated): it goes only at `redacted`.
      const data = { ...outcome.data };
      if (level !== 'redacted' && typeof data['error'] === 'object' && data['error'] !== null) data['error'] = { type: (data['error'] as { type: string }).type };
      push(step, emitter.emit(outcome.type, { capture: level, data: { tool, ...data } }, now));
    };
    call('Read', { file_path: 'src/app.ts' }, { type: 'tool.completed', data: { duration_ms: 40 } });
    call('Bash', { command: 'npm run build' }, { type: 'tool.failed', data: { duration_ms: 3_200, error: { type: 'exit_1', message: 'tsc: 3 errors in src/app.ts' } } });
    call('Edit', { file_path: 'src/app.ts', old_string: 'const port = "8080"', new_string: 'const port = 8080' }, {
      type: 'tool.completed',
      data: { duration_ms: 15, 'gen_ai.usage.input_tokens': 1_850, 'gen_ai.usage.output_tokens': 240, cost: { currency: 'USD', total: 0.0123 } },
    });
    step.log.push(`worked in session ${session} before asking: read src/app.ts, ran npm run build (failed: exit_1), edited src/app.ts (capture ${level})`);
    return step;
  }

  // ---- raising and closing requests -------------------------------------------------

  /** Raises one `attention.requested` (severity `notice`, so no hub ever sheds it). */
  raise(session: string, plan: RequestPlan, now: number): Step & { requestId: string } {
    const emitter = this.liveSession(session);
    if (!emitter) throw new Error(`session ${session} is not a live session of ${this.agent}`);
    const expiresAt = plan.expiresInMs !== undefined ? now + plan.expiresInMs : undefined;
    const data = { ...plan.data, ...(expiresAt !== undefined ? { expires_at: new Date(expiresAt).toISOString() } : {}) };
    const emitted = emitter.emit('attention.requested', { severity: 'notice', capture: plan.capture, data }, now);
    const envelope = parseEnvelope(emitted.event);
    if (!envelope.ok) throw new Error(`scenario ${plan.label} builds a malformed event: ${envelope.problem}`);
    const parsed = parseAttentionRequest(envelope.value);
    if (!parsed.ok) throw new Error(`scenario ${plan.label} builds a request that cannot be rendered: ${parsed.problem.message}`);
    const snapshot: RequestSnapshot = {
      id: emitted.event.id, session, scenario: plan.scenario, label: plan.label, kind: parsed.value.kind,
      capture: plan.capture, state: 'pending', raisedAt: now,
      ...(expiresAt !== undefined ? { expiresAt } : {}),
    };
    this.requestsById.set(snapshot.id, { snapshot, parsed: parsed.value, plan });
    const notes = [`capture ${plan.capture}`];
    if (plan.expiresInMs !== undefined) notes.push(`expires in ${plan.expiresInMs} ms`);
    if (plan.outOfBand) notes.push('respond_via oob');
    return {
      send: [emitted.text], emitted: [emitted], requestId: snapshot.id,
      log: [`raised ${snapshot.id} ${plan.label} in session ${session} (${notes.join(', ')})`],
    };
  }

  /** `attention.timeout{after_ms}` for a request still pending at its `expires_at`. */
  expire(requestId: string, now: number): Step {
    const step = emptyStep();
    const record = this.requestsById.get(requestId);
    const emitter = record && this.liveSession(record.snapshot.session);
    if (!record || !emitter || record.snapshot.state !== 'pending') return step;
    const afterMs = Math.max(0, now - record.snapshot.raisedAt);
    push(step, emitter.emit('attention.timeout', { subject: requestId, cause: requestId, capture: 'metadata', data: { after_ms: afterMs } }, now));
    this.close(record, 'timed-out', now);
    step.log.push(`timeout ${requestId} (${record.plan.label}) after ${afterMs} ms`);
    return step;
  }

  /** The `oob` card's answer, given in the agent's "own UI": answered (via oob), then resolved. */
  answerOutOfBand(requestId: string, now: number): Step {
    const step = emptyStep();
    const record = this.requestsById.get(requestId);
    const emitter = record && this.liveSession(record.snapshot.session);
    const oob = record?.plan.outOfBand;
    if (!record || !emitter || !oob || record.snapshot.state !== 'pending') return step;
    const answered = emitter.emit(
      'attention.answered',
      { subject: requestId, cause: requestId, capture: verbatimCapture(oob.answer, record.parsed.fields), data: { answer: oob.answer, via: 'oob', by: oob.by } },
      now,
    );
    push(step, answered);
    push(step, this.resolved(emitter, record, answered.event.id, 'answered', now));
    this.close(record, 'answered', now, { answer: oob.answer, via: 'oob', by: oob.by });
    step.log.push(`answered ${requestId} out of band (${record.plan.label}) by ${oob.by}: ${describeAnswer(oob.answer)}`);
    return step;
  }

  /** `attention.resolved{dismissed}`: how the agent closes a request nobody answered. */
  dismiss(requestId: string, now: number): Step {
    const step = emptyStep();
    const record = this.requestsById.get(requestId);
    const emitter = record && this.liveSession(record.snapshot.session);
    if (!record || !emitter || record.snapshot.state !== 'pending') return step;
    push(step, this.resolved(emitter, record, requestId, 'dismissed', now));
    this.close(record, 'dismissed', now);
    step.log.push(`dismissed ${requestId} (${record.plan.label})`);
    return step;
  }

  requests(): RequestSnapshot[] {
    return [...this.requestsById.values()].map((record) => structuredClone(record.snapshot));
  }

  openRequests(): RequestSnapshot[] {
    return this.requests().filter((request) => request.state === 'pending');
  }

  /** Requests that carry an out-of-band answer plan, for the agent's timers. */
  outOfBandDelay(requestId: string): number | undefined {
    return this.requestsById.get(requestId)?.plan.outOfBand?.afterMs;
  }

  // ---- commands (AEP-0004) ------------------------------------------------------------

  /**
   * One decision per deduplicated command, acked within the window (here:
   * synchronously). A redelivery resends the recorded ack text unchanged.
   */
  handle(command: AepEvent, now: number): CommandStep {
    const key = dedupeKey(command);
    const recorded = this.recordedAcks.get(key);
    if (recorded) {
      return {
        send: [recorded.text], emitted: [], decision: { kind: 'replayed', ackId: recorded.ackId },
        log: [`re-acked ${shown(command.id)}: redelivery, recorded ack ${recorded.ackId} resent byte-identically`],
      };
    }

    const step = emptyStep();
    const owned = command.session !== undefined ? this.liveSession(command.session) : undefined;
    // A misrouted command still gets its one answer; it is spoken in a session we own,
    // never in a session we do not (that would be forging another emitter's history).
    const speaker = owned ?? this.homeSession();
    if (!speaker) {
      const why = 'every session of this agent has ended, so there is no session to acknowledge in';
      return { ...step, decision: { kind: 'dropped', why }, log: [`dropped ${shown(command.id)} (${shown(command.type)}): ${why}`] };
    }

    const reject = (reason: RejectReason, raw: string, extra: Step = emptyStep()): CommandStep => {
      // The detail quotes what the responder sent (`"password=…" is not a field`):
      // `capture: "redacted"` claims it passed the §9.4 pipeline, so it does.
      const detail = redactText(raw, { home: homedir() }).text;
      const ack = speaker.emit(REJECTED_TYPE, { cause: command.id, capture: 'redacted', data: { reason, detail } }, now);
      this.record(key, ack);
      merge(step, extra);
      push(step, ack);
      step.log.push(`rejected ${shown(command.id)} ${reason}: ${detail}`);
      return { ...step, decision: { kind: 'rejected', reason, detail } };
    };

    if (!this.accepts.has(command.type)) {
      return reject('unsupported', `${this.agent} accepts only ${[...this.accepts].join(', ')}; ${shown(command.type)} is not declared`);
    }
    if (command.session === undefined) return reject('invalid', 'the command names no session');
    if (!owned) {
      const ended = this.sessions.get(command.session)?.ended;
      return reject('invalid', ended ? `session ${shown(command.session)} has ended` : `session ${shown(command.session)} is not a session of ${this.agent}`);
    }
    if (command.type === CANCEL_TYPE) {
      const chosen = this.runsToCancel(command, command.session);
      if (!chosen.ok) return reject('invalid', chosen.detail);
      const ack = speaker.emit(ACCEPTED_TYPE, { cause: command.id, capture: 'metadata' }, now);
      this.record(key, ack);
      push(step, ack);
      // The outcome cause-links the command (AEP-0004 §6); the reason stays with the command (it is `redacted` text).
      for (const record of chosen.runs) push(step, this.cancelRun(owned, record, { by: 'control', cause: command.id }, now));
      const runs = chosen.runs.map((record) => record.run);
      step.log.push(`accepted ${shown(command.id)}: cancelled run${runs.length === 1 ? '' : 's'} ${runs.join(', ')} of session ${command.session} for ${shown(command.agent)}`);
      return { ...step, decision: { kind: 'cancelled', runs } };
    }
    if (command.subject === undefined) return reject('invalid', 'the command names no subject (the id of the attention.requested it answers)');

    const record = this.requestsById.get(command.subject);
    if (!record || record.snapshot.session !== command.session) return reject('invalid', `no pending request ${shown(command.subject)}`);
    const request = record.snapshot;
    if (request.state === 'pending' && request.expiresAt !== undefined && now >= request.expiresAt) {
      // Past `expires_at` but the timer has not fired yet: the timeout comes first.
      return reject('invalid', `no pending request ${request.id} (it expired)`, this.expire(request.id, now));
    }
    if (request.state !== 'pending') {
      const how = request.state === 'timed-out' ? 'it timed out' : request.state === 'dismissed' ? 'it was dismissed' : 'it was already answered';
      return reject('invalid', `no pending request ${request.id} (${how})`);
    }
    if (!record.parsed.answerableHere) {
      return reject('refused', `request ${request.id} is answered out of band (respond_via: ${JSON.stringify(record.parsed.respondVia ?? [])}), in the agent's own UI; control answers are not taken`);
    }

    const data = safeParseEnglish(respondDataSchema, command.data ?? {});
    if (!data.success) return reject('invalid', `malformed answer: ${describeZodError(data.error)}`);
    const evaluation = this.evaluate(record, data.data.answer);
    if (!evaluation.ok) return reject('invalid', evaluation.detail);

    // Accepted: the ack, then the outcome, cause-linked (AEP-0004 §6, AEP-0002 §7).
    const ack = speaker.emit(ACCEPTED_TYPE, { cause: command.id, capture: 'metadata' }, now);
    this.record(key, ack);
    push(step, ack);
    const answered = speaker.emit(
      'attention.answered',
      { subject: request.id, cause: command.id, capture: evaluation.capture, data: { answer: evaluation.answer, via: 'control', by: command.agent } },
      now,
    );
    push(step, answered);
    push(step, this.resolved(speaker, record, answered.event.id, 'answered', now));
    this.close(record, 'answered', now, { answer: evaluation.answer, via: 'control', by: command.agent, commandId: command.id });
    step.log.push(`accepted ${shown(command.id)} for ${request.id} (${record.plan.label}) ${describeAnswer(evaluation.answer)} by ${shown(command.agent)}`);
    return { ...step, decision: { kind: 'accepted', requestId: request.id } };
  }

  // ---- internals ------------------------------------------------------------------------

  /** `scope: "run"` names one live run in `run`; `scope: "session"` is every live run of the session. */
  private runsToCancel(command: AepEvent, session: string): { ok: true; runs: RunRecord[] } | { ok: false; detail: string } {
    const data = safeParseEnglish(cancelDataSchema, command.data ?? {});
    if (!data.success) return { ok: false, detail: `malformed cancel: ${describeZodError(data.error)}` };
    const runs = this.runsBySession.get(session) ?? new Map<string, RunRecord>();
    if (data.data.scope === 'session') {
      const live = [...runs.values()].filter((record) => record.live);
      return live.length > 0 ? { ok: true, runs: live } : { ok: false, detail: `session ${session} has no live run to cancel` };
    }
    if (command.run === undefined) return { ok: false, detail: 'scope "run" needs the command\'s `run` attribute naming the run' };
    const record = runs.get(command.run);
    if (!record) return { ok: false, detail: `session ${session} has no run ${shown(command.run)}` };
    // One terminal per run (AEP-0002 §2 rule 5): a second cancel is a new command, not a second run.cancelled.
    if (!record.live) return { ok: false, detail: `run ${shown(command.run)} has already been cancelled` };
    return { ok: true, runs: [record] };
  }

  private cancelRun(emitter: SessionEmitter, record: RunRecord, how: { by: 'control' | 'shutdown'; cause: string }, now: number): Emitted {
    record.live = false;
    return emitter.emit(
      'run.cancelled',
      { run: record.run, cause: how.cause, capture: 'metadata', data: { by: how.by, duration_ms: Math.max(0, now - record.startedAt) } },
      now,
    );
  }

  /** The answer rules per request shape; `answer` as applied, gated to the request's capture. */
  private evaluate(record: RequestRecord, answer: Answer): Evaluation {
    const request = record.parsed;
    const freeTextAllowed = captureAtLeast(request.capture, 'redacted');
    if (request.kind === 'form') {
      if (answer.option !== undefined) return { ok: false, detail: `option ${shown(answer.option)} is not an option of this request (a form offers none)` };
      // AEP-0006: a missing required field, or a select value that is no choice id without `other`, is `invalid`;
      // an answer without `values` leaves every field out, which only a form with no required field takes.
      const check = validateFormValues(request.fields, answer.values ?? {});
      if (!check.ok) return { ok: false, detail: fieldProblems(check.errors) };
      if (answer.values === undefined) {
        const text = answer.text?.trim();
        if (!text) return { ok: false, detail: 'a form is answered with answer.values (field id → value), or text' };
        if (!freeTextAllowed) return { ok: false, detail: 'this request is at capture metadata and cannot carry a text answer' };
        return { ok: true, answer: { text }, capture: verbatimCapture({ text }, request.fields) };
      }
      const applied: Answer = { values: gateFormValues(request.fields, check.values, request.capture) };
      if (answer.text !== undefined && answer.text.trim() !== '' && freeTextAllowed) applied.text = answer.text;
      return { ok: true, answer: applied, capture: verbatimCapture(applied, request.fields) };
    }
    if (answer.values !== undefined) return { ok: false, detail: `answer.values answers only a form; this ${request.kind} request takes ${request.options.length > 0 ? 'an option or text' : 'text'}` };

    const text = answer.text?.trim();
    if (request.options.length > 0) {
      const ids = request.options.map((option) => option.id);
      if (answer.option !== undefined) {
        if (!ids.includes(answer.option)) return { ok: false, detail: `option ${shown(answer.option)} is not one of ${ids.join(', ')}` };
        const applied: Answer = { option: answer.option };
        if (text && freeTextAllowed) applied.text = text;
        return { ok: true, answer: applied, capture: verbatimCapture(applied, request.fields) };
      }
      if (!text) return { ok: false, detail: `answer with an option (${ids.join(', ')}) or text` };
      // AEP-0008: text naming an option (its id, or exactly one label; trimmed, any case) is that option.
      const lowered = text.toLowerCase();
      const byId = request.options.filter((option) => option.id.toLowerCase() === lowered);
      const byLabel = request.options.filter((option) => option.label.trim().toLowerCase() === lowered);
      const named = byId.length === 1 ? byId[0] : byLabel.length === 1 ? byLabel[0] : undefined;
      if (named) return { ok: true, answer: { option: named.id }, capture: 'metadata' };
      // Unmatched text never grants: the refusing option applies, the text is its reason.
      const refusing = record.plan.refusingOption;
      if (refusing !== undefined) {
        const applied: Answer = { option: refusing };
        if (freeTextAllowed) applied.text = text;
        return { ok: true, answer: applied, capture: verbatimCapture(applied, request.fields) };
      }
      if (request.kind === 'permission') return { ok: false, detail: `text does not name an option (${ids.join(', ')})` };
      return freeTextAllowed ? { ok: true, answer: { text }, capture: verbatimCapture({ text }, request.fields) } : { ok: false, detail: 'answer with an option id' };
    }
    if (answer.option !== undefined) return { ok: false, detail: `this ${request.kind} request has no options; answer with text (option ${shown(answer.option)} is not one)` };
    if (!text) return { ok: false, detail: 'answer.text is missing or empty' };
    if (!freeTextAllowed) return { ok: false, detail: 'this request is at capture metadata and cannot carry a text answer' };
    return { ok: true, answer: { text: answer.text ?? text }, capture: verbatimCapture({ text: answer.text ?? text }, request.fields) };
  }

  private resolved(emitter: SessionEmitter, record: RequestRecord, cause: string, resolution: 'answered' | 'dismissed', now: number): Emitted {
    return emitter.emit(
      'attention.resolved',
      { subject: record.snapshot.id, cause, capture: 'metadata', data: { resolution, latency_ms: Math.max(0, now - record.snapshot.raisedAt) } },
      now,
    );
  }

  private close(record: RequestRecord, state: RequestState, now: number, answer?: { answer: Answer; via: 'control' | 'oob'; by: string; commandId?: string }): void {
    const snapshot = record.snapshot;
    snapshot.state = state;
    snapshot.closedAt = now;
    if (answer) {
      snapshot.answer = answer.answer;
      snapshot.via = answer.via;
      snapshot.by = answer.by;
      if (answer.commandId !== undefined) snapshot.commandId = answer.commandId;
    }
  }

  private record(key: string, ack: Emitted): void {
    this.recordedAcks.set(key, { text: ack.text, ackId: ack.event.id });
    while (this.recordedAcks.size > this.dedupeLimit) {
      const oldest = this.recordedAcks.keys().next();
      if (oldest.done) break;
      this.recordedAcks.delete(oldest.value);
    }
  }

  private liveSession(session: string): SessionEmitter | undefined {
    const emitter = this.sessions.get(session);
    return emitter && !emitter.ended ? emitter : undefined;
  }

  private homeSession(): SessionEmitter | undefined {
    for (const session of this.sessionOrder) {
      const emitter = this.liveSession(session);
      if (emitter) return emitter;
    }
    return undefined;
  }
}

function emptyStep(): Step {
  return { send: [], emitted: [], log: [] };
}

function push(step: Step, emitted: Emitted): void {
  step.send.push(emitted.text);
  step.emitted.push(emitted);
}

function merge(into: Step, from: Step): void {
  into.send.push(...from.send);
  into.emitted.push(...from.emitted);
  into.log.push(...from.log);
}
