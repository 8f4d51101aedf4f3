import { ACTION_BOUNDS, DENIED_BY, type DeniedBy } from '../aep/bounds';
import { captureOf, epochOf, sourceOfSessionKey, type AepEvent } from '../aep/envelope';
import { captureAtLeast, underCeiling, type CaptureLevel } from '../aep/levels';
import { redactText } from '../aep/redaction';
import { approximateBytes } from '../base/byteSize';
import { CONTROL_CHARS, FORMAT_CHARS, TAG_CHARS } from '../base/invisibleText';
import { maxPosition, type Position } from './position';
import { isRecord } from '../base/isRecord';

// What an agent did just before it asked: a bounded summary of each of its
// session's tool calls and runs (AEP-0002 §5.2–§5.3: `tool.*`, `run.*`),
// built once here under the capture rules, so every surface shows the same
// thing and none of them re-decides what may be shown. The agent's text in a
// summary (tool name, arguments, error) is hostile: it is kept plain and
// bounded, with control and bidi characters written as visible escapes.

/**
 * The event types summarised here; the subscription asks for exactly these
 * while "Before asking" is on (src/client/userFilter.ts): not `tool.*` and
 * `run.*`, since the step and cancel types are not shown and would only cost throughput.
 */
export const ACTION_TYPES = ['tool.requested', 'tool.completed', 'tool.failed', 'tool.denied', 'run.started', 'run.finished', 'run.failed'] as const;
const ACTION_TYPE_SET: ReadonlySet<string> = new Set(ACTION_TYPES);

export function isActionType(type: string): boolean {
  return ACTION_TYPE_SET.has(type);
}

export const ACTIONS_PER_SESSION = ACTION_BOUNDS.perSession;
/**
 * Sessions with no open request whose summaries are kept (the most recently
 * active ones): a request can only show what was kept before it arrived. A
 * session with an open request keeps its summaries until the last one closes.
 */
export const QUIET_SESSIONS = 64;
export const ARGS_MAX_CHARS = ACTION_BOUNDS.args;
export const NAME_MAX_CHARS = ACTION_BOUNDS.name;
export const MESSAGE_MAX_CHARS = ACTION_BOUNDS.message;

/**
 * The characters no surface shows as such (src/base/invisibleText.ts), and
 * `\r`, are written as `\uXXXX` (`\u{XXXXX}` past the BMP): they stay
 * visible text, and cannot reorder or hide what is around them.
 */
const UNSAFE = new RegExp(`[${CONTROL_CHARS}\\r${FORMAT_CHARS}${TAG_CHARS}]`, 'gu');

function escaped(c: string): string {
  const code = c.codePointAt(0) ?? 0;
  return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Agent text made plain: unsafe characters escaped visibly, lone surrogates replaced. */
export function plainAgentText(text: string): string {
  return text.replace(LONE_SURROGATE, '\ufffd').replace(UNSAFE, escaped);
}

/** Agent text made plain (plainAgentText), then bounded: the escapes count towards `max`, each unsafe character taking six or nine. */
export function plainHead(text: string, max: number): string {
  return headCopy(plainAgentText(headCopy(text, max)), max);
}

/** The first `max` UTF-16 units, never splitting a surrogate pair, as a copy (never a view into a large original). */
function headCopy(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return [text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max)].join('');
}

function bounded(text: string, max: number): string {
  const plain = plainAgentText(headCopy(text, max + 8));
  return plain.length <= max ? plain : `${headCopy(plain, max - 1)}…`;
}

/**
 * What may be shown of an action's free text (arguments, an error message):
 * - `level`: the event's capture (or the person's ceiling) is below what the
 *   field needs: only structure is shown, and the page says so;
 * - `none`: the level allows it, and the agent sent none;
 * - `text`: `redacted` (passed the redaction pipeline) or `verbatim` (capture
 *   `full`); `chars` is the whole text's length, `text` at most ARGS_MAX_CHARS of it.
 */
export type ShownText =
  | { shown: 'level' }
  | { shown: 'none' }
  /** An outcome arrived whose request was not seen here: what it was called with is not known. */
  | { shown: 'unseen' }
  | { shown: 'text'; honesty: 'redacted' | 'verbatim'; text: string; chars: number };

export type ActionOutcome =
  /** A tool requested (not yet completed) or a run started (not yet finished). */
  | { state: 'running' }
  | { state: 'done'; durationMs?: number; status?: string }
  | { state: 'failed'; durationMs?: number; errorType?: string; reason?: string; message?: ShownText }
  | { state: 'denied'; by: DeniedBy; rule?: string };

export interface ActionSummary {
  kind: 'tool' | 'run';
  /** The id of the event that opened the summary. */
  readonly id: string;
  /** The tool's name (plain, bounded); empty for a run. */
  name: string;
  callId?: string;
  run?: string;
  /** When it happened, by the event's `time` (display only) but no later than its arrival here, or, unreadable, its arrival. Milliseconds. */
  at: number;
  /** When it arrived here (ms): what "before the request" is decided by when either has no position. */
  arrived: number;
  /** Its place in the session's order, when it has one (AEP-0001 §7.3): what "before the request" is decided by. */
  position?: Position;
  /** The capture the arguments were read at: the event's, at most the person's ceiling. */
  capture: CaptureLevel;
  args: ShownText;
  outcome: ActionOutcome;
}

/** Tokens and cost the agent reported for the session's current run (AEP-0002 §5.2 `usage`, `cost`). */
export interface RunUsage {
  run?: string;
  inputTokens?: number;
  outputTokens?: number;
  cost?: { currency: string; total: number };
}

/** The run's usage after one action event, and where the events it was summed from lie (SessionActions.usageAt). */
export interface UsageStep {
  readonly usage: Readonly<RunUsage> | undefined;
  readonly usageAt: Readonly<{ position?: Position; arrived: number }>;
}

/** What the store holds for one session, as readers see it. */
export interface SessionActions {
  /** Oldest first. */
  readonly actions: readonly Readonly<ActionSummary>[];
  readonly usage: Readonly<RunUsage> | undefined;
  /** When this window first heard of the session's actions (what it saw live, or replayed). */
  readonly since: number;
  /** Whether it saw the session start (`session.started`): nothing before `since` then was missed. */
  readonly sawStart: boolean;
  /** Summaries dropped for the per-session bound (the oldest). */
  readonly dropped: number;
  /** The latest place in the session's order, and the latest arrival, of the events `usage` was summed from: whether it is from before a request. */
  readonly usageAt: Readonly<{ position?: Position; arrived: number }> | undefined;
  /**
   * `usage` and `usageAt` after each of the last action events that changed
   * them, oldest first (as many as summaries are kept per session): the run's
   * usage as of a request is the last of these from before it.
   */
  readonly usageSteps?: readonly UsageStep[];
  /** The person's capture ceiling now (Inbox.recentActions): what was kept under a higher one is shown under this one. */
  readonly ceiling?: CaptureLevel;
}

// ---- one event → its part of a summary (pure) -------------------------------------

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** A count or a duration the agent sent: a whole number that stays exact (a safe integer), else none. */
function wholeNumber(value: unknown): number | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return undefined;
  const whole = Math.floor(value);
  return Number.isSafeInteger(whole) ? whole : undefined;
}

/** The level an event's content is read at: its own capture, never above the person's ceiling (AEP-0001 §8.2: a hop only down-levels). */
export function readLevel(event: Pick<AepEvent, 'capture'>, ceiling: CaptureLevel | undefined): CaptureLevel {
  return underCeiling(captureOf(event), ceiling);
}

/**
 * The JSON text of a value, at most `max` characters of it, and its whole
 * length (near enough: escapes inside strings of the unkept part are not
 * counted). Without building the whole text: a 1 MB argument costs its walk, not its copy.
 */
function jsonHead(root: unknown, max: number): { text: string; chars: number } {
  const parts: string[] = [];
  let kept = 0;
  let chars = 0;
  const emit = (piece: string): void => {
    chars += piece.length;
    if (kept >= max) return;
    const room = max - kept;
    const part = piece.length <= room ? piece : headCopy(piece, room);
    parts.push(part);
    kept += part.length;
  };
  const emitString = (value: string): void => {
    if (kept >= max) {
      chars += value.length + 2;
      return;
    }
    // Only the part that can still be kept is escaped: the rest is counted.
    const shown = headCopy(value, max - kept + 1);
    const escaped = JSON.stringify(shown);
    emit(shown.length === value.length ? escaped : escaped.slice(0, -1));
    if (shown.length < value.length) chars += value.length - shown.length + 1;
  };
  // Iterative: agent JSON can nest deeper than recursion should follow.
  const stack: Array<{ kind: 'value'; value: unknown } | { kind: 'text'; text: string }> = [{ kind: 'value', value: root }];
  while (stack.length > 0) {
    const top = stack.pop();
    if (top === undefined) break;
    if (top.kind === 'text') {
      emit(top.text);
      continue;
    }
    const value = top.value;
    if (typeof value === 'string') emitString(value);
    else if (typeof value === 'number' || typeof value === 'boolean') emit(String(value));
    else if (value === null || value === undefined) emit('null');
    else if (Array.isArray(value)) {
      emit('[');
      stack.push({ kind: 'text', text: ']' });
      for (let i = value.length - 1; i >= 0; i--) {
        stack.push({ kind: 'value', value: value[i] });
        if (i > 0) stack.push({ kind: 'text', text: ',' });
      }
    } else if (typeof value === 'object') {
      emit('{');
      stack.push({ kind: 'text', text: '}' });
      const keys = Object.keys(value);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i] ?? '';
        stack.push({ kind: 'value', value: (value as Record<string, unknown>)[key] });
        stack.push({ kind: 'text', text: `${JSON.stringify(key)}:` });
        if (i > 0) stack.push({ kind: 'text', text: ',' });
      }
    } else emit('null');
  }
  return { text: parts.join(''), chars };
}

/** Room left for the redaction pipeline to see past the kept part, so a secret cut at the edge is still recognised whole. */
const REDACT_LOOKAHEAD = 256;

/**
 * A free-text field gated at `redacted` (`args_redacted`, `error.message`)
 * and, for arguments, its `full` twin (`args`), read at `level`:
 * - below `redacted`: `level` (an emitter that sent one anyway claimed less
 *   than it carries: it is not shown either);
 * - `redacted`: the redacted field. Whoever redacted it (the agent, or at
 *   capture `full` perhaps no one: AEP-0002 §5.1 rule 2), it passes our own
 *   AEP-0003 §9.4 pipeline here before it may be called redacted (rule 3);
 * - `full`: the verbatim field, else the redacted one (through the pipeline as above).
 */
export function shownText(level: CaptureLevel, redactedValue: unknown, fullValue: unknown): ShownText {
  if (!captureAtLeast(level, 'redacted')) return { shown: 'level' };
  const verbatim = level === 'full' && fullValue !== undefined;
  const value = verbatim ? fullValue : redactedValue;
  if (value === undefined) return { shown: 'none' };
  const read = typeof value === 'string' ? { text: headCopy(value, ARGS_MAX_CHARS + REDACT_LOOKAHEAD), chars: value.length } : jsonHead(value, ARGS_MAX_CHARS + REDACT_LOOKAHEAD);
  let text = read.text;
  let chars = read.chars;
  // Whatever is called redacted passes our own AEP-0003 §9.4 pipeline, the agent's `args_redacted` included (rule 3):
  // the floor here; the person's always-secret values and home are applied when shown (beforeAskingContent.ts).
  const mustRedact = !verbatim;
  if (mustRedact) {
    const redacted = redactText(text).text;
    chars += redacted.length - text.length;
    text = redacted;
  }
  // Bounded after the escapes: each unsafe character becomes six or nine visible ones, counted in the whole length too.
  const plain = plainAgentText(text);
  chars += plain.length - text.length;
  text = headCopy(plain, ARGS_MAX_CHARS);
  const honesty = verbatim ? 'verbatim' : 'redacted';
  return { shown: 'text', honesty, text, chars: Math.max(chars, text.length) };
}

/** The event's `time`, never later than its arrival here (an agent's clock ahead would read "0 s ago"), else its arrival. */
function eventTime(event: AepEvent, arrival: number): number {
  const parsed = Date.parse(event.time);
  return Number.isFinite(parsed) ? Math.min(parsed, arrival) : arrival;
}

function positionOf(event: AepEvent): Position | undefined {
  return event.seq === undefined ? undefined : { epoch: epochOf(event), seq: event.seq };
}

function toolRef(data: Record<string, unknown>): { name: string; callId?: string } {
  const tool = isRecord(data['tool']) ? data['tool'] : {};
  const name = str(tool['name']);
  const callId = str(tool['call_id']);
  return { name: bounded(name ?? '?', NAME_MAX_CHARS), ...(callId !== undefined ? { callId: headCopy(callId, REF_MAX_CHARS) } : {}) };
}

/** `by` is an enum: a value outside it is the agent's free text, never shown (it could read as ours). */
function deniedBy(value: unknown): DeniedBy {
  return (DENIED_BY as readonly unknown[]).includes(value) ? (value as DeniedBy) : 'other';
}

/** A tool's or a run's outcome from its closing event, read at `level`. */
export function outcomeOf(event: AepEvent, level: CaptureLevel): ActionOutcome {
  const data = isRecord(event.data) ? event.data : {};
  const durationMs = wholeNumber(data['duration_ms']);
  const duration = durationMs === undefined ? {} : { durationMs };
  switch (event.type) {
    case 'tool.completed':
    case 'run.finished': {
      const status = str(data['status']);
      return { state: 'done', ...duration, ...(status !== undefined ? { status: bounded(status, NAME_MAX_CHARS) } : {}) };
    }
    case 'tool.failed':
    case 'run.failed': {
      const error = isRecord(data['error']) ? data['error'] : {};
      const errorType = str(error['type']);
      const reason = str(data['reason']);
      const message = error['message'] === undefined ? undefined : shownText(level, str(error['message']), undefined);
      return {
        state: 'failed',
        ...duration,
        ...(errorType !== undefined ? { errorType: bounded(errorType, NAME_MAX_CHARS) } : {}),
        ...(reason !== undefined ? { reason: bounded(reason, NAME_MAX_CHARS) } : {}),
        ...(message !== undefined ? { message: message.shown === 'text' ? { ...message, text: bounded(message.text, MESSAGE_MAX_CHARS) } : message } : {}),
      };
    }
    case 'tool.denied': {
      const rule = str(data['rule']);
      return { state: 'denied', by: deniedBy(data['by']), ...(rule !== undefined ? { rule: bounded(rule, NAME_MAX_CHARS) } : {}) };
    }
    default:
      return { state: 'running' };
  }
}

/**
 * The summary an event opens (`tool.requested`, `run.started`, or a closing
 * event whose opening was not seen), under the capture rules: at `metadata`
 * the tool's name and nothing of its arguments; at `redacted` its
 * `args_redacted`; at `full` its `args`, verbatim. `ceiling`: the person's
 * capture ceiling (aepAttention.captureCeiling), which applies here as everywhere.
 */
export function summarize(event: AepEvent, ceiling: CaptureLevel | undefined, arrival: number): ActionSummary | undefined {
  if (!isActionType(event.type)) return undefined;
  const data = isRecord(event.data) ? event.data : {};
  const level = readLevel(event, ceiling);
  const kind = event.type.startsWith('tool.') ? 'tool' : 'run';
  const ref = kind === 'tool' ? toolRef(data) : { name: '' };
  const position = positionOf(event);
  const opening = event.type === 'tool.requested' || event.type === 'run.started';
  return {
    kind,
    id: event.id,
    name: ref.name,
    ...('callId' in ref && ref.callId !== undefined ? { callId: ref.callId } : {}),
    ...(event.run !== undefined ? { run: headCopy(event.run, REF_MAX_CHARS) } : {}),
    at: eventTime(event, arrival),
    arrived: arrival,
    ...(position ? { position } : {}),
    capture: level,
    // A closing event seen without its request carries no arguments: they were not seen.
    args: event.type === 'tool.requested' ? shownText(level, data['args_redacted'], data['args']) : opening ? { shown: 'none' } : { shown: 'unseen' },
    outcome: opening ? { state: 'running' } : outcomeOf(event, level),
  };
}

/** The usage and cost an event reports (AEP-0002 §5.2), when it reports any. */
export function usageOf(event: AepEvent): Omit<RunUsage, 'run'> | undefined {
  if (!isRecord(event.data)) return undefined;
  const data = event.data;
  const inputTokens = wholeNumber(data['gen_ai.usage.input_tokens']);
  const outputTokens = wholeNumber(data['gen_ai.usage.output_tokens']);
  const rawCost = isRecord(data['cost']) ? data['cost'] : undefined;
  const currency = rawCost ? str(rawCost['currency']) : undefined;
  const total = rawCost && typeof rawCost['total'] === 'number' && Number.isFinite(rawCost['total']) && rawCost['total'] >= 0 ? rawCost['total'] : undefined;
  const cost = currency !== undefined && /^[A-Z]{3}$/.test(currency) && total !== undefined ? { currency, total } : undefined;
  if (inputTokens === undefined && outputTokens === undefined && cost === undefined) return undefined;
  return { ...(inputTokens !== undefined ? { inputTokens } : {}), ...(outputTokens !== undefined ? { outputTokens } : {}), ...(cost ? { cost } : {}) };
}

/**
 * The run's usage so far after `event`: a new run starts from what its
 * `run.started` says; a tool's completion adds its own; `run.finished` and
 * `run.failed` state the run's whole figures, which replace the sum. Amounts
 * in another currency than the sum's are not added (no conversion is ours to make).
 */
export function nextUsage(current: RunUsage | undefined, event: AepEvent): RunUsage | undefined {
  const reported = usageOf(event);
  const sameRun = current !== undefined && current.run === event.run;
  // The same run keeps the one copy of its id it has (up to 1 024 characters): not each event's own.
  const run = sameRun ? current.run : event.run;
  if (event.type === 'run.started') return { ...(run !== undefined ? { run } : {}), ...(reported ?? {}) };
  if (reported === undefined) return current;
  if (event.type === 'run.finished' || event.type === 'run.failed' || !sameRun) {
    const base = sameRun ? current : undefined;
    return { ...(base ?? {}), ...(run !== undefined ? { run } : {}), ...reported };
  }
  // A sum that no longer stays exact (past a safe integer, or an infinite cost) is not shown: no figure is better than a wrong one.
  const add = (a: number | undefined, b: number | undefined) => {
    const sum = a === undefined ? b : b === undefined ? a : a + b;
    return sum !== undefined && Number.isSafeInteger(sum) ? sum : undefined;
  };
  const inputTokens = add(current.inputTokens, reported.inputTokens);
  const outputTokens = add(current.outputTokens, reported.outputTokens);
  let cost = current.cost;
  if (reported.cost) cost = !cost ? reported.cost : cost.currency === reported.cost.currency ? { currency: cost.currency, total: cost.total + reported.cost.total } : cost;
  if (cost && !Number.isFinite(cost.total)) cost = undefined;
  return { ...(run !== undefined ? { run } : {}), ...(inputTokens !== undefined ? { inputTokens } : {}), ...(outputTokens !== undefined ? { outputTokens } : {}), ...(cost ? { cost } : {}) };
}

// ---- the bounded store ----------------------------------------------------------------

/** Heap one kept summary costs beyond its strings: the object, its maps' entries. */
const ENTRY_BYTES = 160;

/** Heap one kept usage step costs: the step, its usage and position objects (a currency code at most), beyond its run's id. */
const USAGE_STEP_BYTES = 200;

/** Heap of a run id that usage steps hold: once per run, as the steps of one run share one copy (nextUsage). */
function runBytes(step: UsageStep | undefined): number {
  const run = step?.usage?.run;
  return run === undefined ? 0 : approximateBytes(run);
}

/** Whether two steps hold one run's id (one copy, counted once). */
function sameRunId(a: UsageStep | undefined, b: UsageStep | undefined): boolean {
  return a?.usage?.run === b?.usage?.run;
}

/** Event ids remembered per session, so a repeat past the inbox's dedupe window changes nothing. */
const SEEN_PER_SESSION = 4 * ACTIONS_PER_SESSION;

interface Ring {
  actions: ActionSummary[];
  /** The ids of the last SEEN_PER_SESSION action events taken, oldest first. */
  seen: Set<string>;
  /** Open summaries by `call_id` (tools) or `run` (runs), and by opening event id (for `cause`). */
  byRef: Map<string, ActionSummary>;
  /**
   * Outcomes that came before their request (a replay out of order, or a
   * request this window never saw), by the key their request pairs on: the
   * request, if it comes, completes this summary instead of opening another.
   * Only summaries still in `actions`, so at most one entry each.
   */
  closedFirst: Map<string, ActionSummary>;
  /** The key each `closedFirst` summary waits under, to drop it with its summary. */
  closedKey: Map<ActionSummary, string>;
  bytes: Map<ActionSummary, number>;
  total: number;
  usage: RunUsage | undefined;
  usageAt: { position?: Position; arrived: number } | undefined;
  /** Oldest first, at most the per-session bound (SessionActions.usageSteps). */
  usageSteps: UsageStep[];
  since: number;
  sawStart: boolean;
  dropped: number;
}

/** The longest call or run id kept: the same cut for a request's keys and an outcome's, so they still pair. */
const REF_MAX_CHARS = 1_024;

function refKeys(summary: ActionSummary): string[] {
  const keys = [`id:${summary.id}`];
  if (summary.kind === 'tool' && summary.callId !== undefined) keys.push(`call:${summary.callId}`);
  if (summary.kind === 'run' && summary.run !== undefined) keys.push(`run:${summary.run}`);
  return keys;
}

/**
 * The key an outcome pairs with its request on (one of the request's
 * `refKeys`): a tool's `call_id`, a run's `run`, else its `cause` (the
 * request's id); none when it carries neither.
 */
function closingKey(event: AepEvent): string | undefined {
  const data = isRecord(event.data) ? event.data : {};
  if (event.type.startsWith('tool.')) {
    const tool = isRecord(data['tool']) ? data['tool'] : {};
    const callId = str(tool['call_id']);
    if (callId !== undefined) return `call:${headCopy(callId, REF_MAX_CHARS)}`;
  } else if (event.run !== undefined) return `run:${headCopy(event.run, REF_MAX_CHARS)}`;
  return event.cause === undefined ? undefined : `id:${event.cause}`;
}

/**
 * Per session (the inbox's `(source, session)` key), the last
 * ACTIONS_PER_SESSION summaries, a tool's request paired with its outcome
 * by `call_id` (else by `cause`, the request's id), a run's start with its
 * end by `run`. Sessions holding an open request keep theirs until the last
 * one closes (`hold` / `release`); at most QUIET_SESSIONS others are kept,
 * the least recently active forgotten first. `bytes` is kept current for the
 * inbox's memory budget, which may take back quiet sessions' summaries first,
 * then the others (`dropQuiet`, `dropHeld`).
 */
export class RecentActions {
  private readonly rings = new Map<string, Ring>();
  /** Sessions with no open request, least recently active first (a touch re-inserts at the end). */
  private readonly quiet = new Set<string>();
  private readonly held = new Set<string>();
  private heldBytes = 0;

  constructor(
    private readonly onBytesChanged: (delta: number) => void = () => undefined,
    private readonly limits: { perSession: number; quietSessions: number } = { perSession: ACTIONS_PER_SESSION, quietSessions: QUIET_SESSIONS },
  ) {}

  get bytes(): number {
    return this.heldBytes;
  }

  get sessions(): number {
    return this.rings.size;
  }

  /**
   * Takes one applied event of session `key`: an action event (summarised
   * under `ceiling`), or `session.started` (nothing of the session was
   * missed before it). `arrival`: now, for a `time` that cannot be read.
   */
  note(key: string, event: AepEvent, ceiling: CaptureLevel | undefined, arrival: number): void {
    if (event.type === 'session.started') {
      const ring = this.ring(key, arrival);
      if (ring.actions.length === 0 && ring.dropped === 0) ring.sawStart = true;
      return;
    }
    if (!isActionType(event.type)) return;
    const ring = this.ring(key, arrival);
    if (ring.seen.has(event.id)) return;
    ring.seen.add(event.id);
    if (ring.seen.size > SEEN_PER_SESSION) ring.seen.delete(ring.seen.values().next().value ?? '');
    const usage = nextUsage(ring.usage, event);
    if (usage !== ring.usage) {
      const position = positionOf(event);
      const at = ring.usageAt;
      ring.usageAt = { arrived: Math.max(at?.arrived ?? arrival, arrival), ...(position || at?.position ? { position: position ? maxPosition(at?.position, position) : at?.position } : {}) };
      const step = { usage, usageAt: ring.usageAt };
      const previous = ring.usageSteps.at(-1);
      ring.usageSteps.push(step);
      this.change(ring, USAGE_STEP_BYTES + (sameRunId(previous, step) ? 0 : runBytes(step)));
      if (ring.usageSteps.length > this.limits.perSession) {
        const oldest = ring.usageSteps.shift();
        // Its run's id stays counted while the next step holds it.
        this.change(ring, -USAGE_STEP_BYTES - (sameRunId(oldest, ring.usageSteps[0]) ? 0 : runBytes(oldest)));
      }
    }
    ring.usage = usage;
    const opening = event.type === 'tool.requested' || event.type === 'run.started';
    const pairKey = opening ? undefined : closingKey(event);
    if (pairKey !== undefined) {
      const open = ring.byRef.get(pairKey);
      if (open) {
        open.outcome = outcomeOf(event, readLevel(event, ceiling));
        for (const ref of refKeys(open)) if (ring.byRef.get(ref) === open) ring.byRef.delete(ref);
        this.remeasure(ring, open);
        return;
      }
    }
    const summary = summarize(event, ceiling, arrival);
    if (summary === undefined) return;
    if (opening && this.completeClosedFirst(ring, summary)) return;
    ring.actions.push(summary);
    if (opening) for (const ref of refKeys(summary)) ring.byRef.set(ref, summary);
    else if (pairKey !== undefined && !ring.closedFirst.has(pairKey)) {
      ring.closedFirst.set(pairKey, summary);
      ring.closedKey.set(summary, pairKey);
    }
    this.remeasure(ring, summary);
    while (ring.actions.length > this.limits.perSession) {
      const oldest = ring.actions.shift();
      if (oldest === undefined) break;
      ring.dropped++;
      for (const ref of refKeys(oldest)) if (ring.byRef.get(ref) === oldest) ring.byRef.delete(ref);
      this.unwait(ring, oldest);
      this.change(ring, -(ring.bytes.get(oldest) ?? 0));
      ring.bytes.delete(oldest);
    }
  }

  /** How many pairing keys session `key` holds: at most a few per kept summary, whatever the order of its events. */
  pairingKeys(key: string): number {
    const ring = this.rings.get(key);
    return ring === undefined ? 0 : ring.byRef.size + ring.closedFirst.size + ring.closedKey.size;
  }

  /** Session `key` now holds an open request: its summaries stay until `release`. */
  hold(key: string): void {
    this.quiet.delete(key);
    this.held.add(key);
  }

  /** Session `key` holds no open request any more: it counts among the quiet ones again. */
  release(key: string): void {
    if (!this.held.delete(key)) return;
    if (this.rings.has(key)) this.quiet.add(key);
    this.evictQuiet();
  }

  /** What the store holds for `key`, or undefined. */
  of(key: string): SessionActions | undefined {
    const ring = this.rings.get(key);
    if (ring === undefined) return undefined;
    const { actions, usage, usageAt, usageSteps, since, sawStart, dropped } = ring;
    return { actions, usage, usageAt, usageSteps, since, sawStart, dropped };
  }

  forget(key: string): void {
    const ring = this.rings.get(key);
    this.quiet.delete(key);
    if (!ring) return;
    this.rings.delete(key);
    this.change(ring, -ring.total);
  }

  /** Forgets every quiet session's summaries (memory budget); returns how many sessions. */
  dropQuiet(): number {
    const keys = [...this.quiet];
    for (const key of keys) this.forget(key);
    return keys.length;
  }

  /** Forgets the summaries of sessions holding open requests too (memory budget, last resort); returns how many sessions. */
  dropHeld(): number {
    let dropped = 0;
    for (const key of this.held) {
      if (!this.rings.has(key)) continue;
      this.forget(key);
      dropped++;
    }
    return dropped;
  }

  clear(): void {
    for (const key of [...this.rings.keys()]) this.forget(key);
  }

  private ring(key: string, arrival: number): Ring {
    let ring = this.rings.get(key);
    if (!ring) {
      ring = { actions: [], seen: new Set(), byRef: new Map(), closedFirst: new Map(), closedKey: new Map(), bytes: new Map(), total: 0, usage: undefined, usageAt: undefined, usageSteps: [], since: arrival, sawStart: false, dropped: 0 };
      this.rings.set(key, ring);
      if (!this.held.has(key)) {
        this.quiet.add(key);
        this.evictQuiet();
      }
    } else if (this.quiet.has(key)) {
      // Most recently active last.
      this.quiet.delete(key);
      this.quiet.add(key);
    }
    return ring;
  }

  private evictQuiet(): void {
    while (this.quiet.size > this.limits.quietSessions) {
      const victim = this.fairVictim();
      if (victim === undefined) break;
      this.forget(victim);
    }
  }

  /**
   * The least recently active quiet session of the emitter that holds the
   * most of them: an agent that opens sessions by the hundred takes back its
   * own, never another agent's history (which its next request would then
   * show as "earlier steps are not available").
   */
  private fairVictim(): string | undefined {
    const counts = new Map<string, number>();
    for (const key of this.quiet) {
      const source = sourceOfSessionKey(key);
      counts.set(source, (counts.get(source) ?? 0) + 1);
    }
    let most = 0;
    for (const count of counts.values()) most = Math.max(most, count);
    for (const key of this.quiet) if (counts.get(sourceOfSessionKey(key)) === most) return key;
    return undefined;
  }

  /**
   * A request whose outcome came first: the outcome's summary takes what the
   * request says (name, arguments, time, place in the session) and keeps its
   * outcome, in the outcome's place. No row is left "running", none doubled.
   */
  private completeClosedFirst(ring: Ring, request: ActionSummary): boolean {
    let closed: ActionSummary | undefined;
    for (const ref of refKeys(request)) {
      const candidate = ring.closedFirst.get(ref);
      if (candidate !== undefined && candidate.kind === request.kind) {
        closed = candidate;
        break;
      }
    }
    if (closed === undefined) return false;
    const index = ring.actions.indexOf(closed);
    if (index < 0) return false;
    const merged: ActionSummary = { ...request, outcome: closed.outcome };
    ring.actions[index] = merged;
    this.unwait(ring, closed);
    this.change(ring, -(ring.bytes.get(closed) ?? 0));
    ring.bytes.delete(closed);
    this.remeasure(ring, merged);
    return true;
  }

  private unwait(ring: Ring, summary: ActionSummary): void {
    const key = ring.closedKey.get(summary);
    if (key === undefined) return;
    ring.closedKey.delete(summary);
    if (ring.closedFirst.get(key) === summary) ring.closedFirst.delete(key);
  }

  private remeasure(ring: Ring, summary: ActionSummary): void {
    const bytes = ENTRY_BYTES + approximateBytes(summary);
    const before = ring.bytes.get(summary) ?? 0;
    ring.bytes.set(summary, bytes);
    this.change(ring, bytes - before);
  }

  private change(ring: Ring, delta: number): void {
    if (delta === 0) return;
    ring.total += delta;
    this.heldBytes += delta;
    this.onBytesChanged(delta);
  }
}
