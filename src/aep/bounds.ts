import type { AepEvent } from './envelope';
import { MAX_JSON_DEPTH } from '../base/json';
import { isRecord } from '../base/isRecord';

/**
 * What one event may hold once it is in the inbox. The hub's frame limit
 * bounds a single message; these bound what is kept of it, so that memory
 * and the persisted inbox grow with bytes the user can read rather than with
 * whatever an agent chose to send. Lengths are in UTF-16 code units
 * (JavaScript string length), sizes in characters of JSON text.
 */
export const EVENT_BOUNDS = {
  /** id, type, agent, session, subject, cause, run, step, time, traceparent: above it the event is refused. */
  envelopeString: 1_024,
  /** `source` is a URI that embeds agent and session (AEP-0001 §5.1), so it gets twice the room. */
  source: 2_048,
  prompt: 8_192,
  /** Option, field and choice labels; a request's kind and `expires_at`; an answer's option, `by` and `via`. */
  label: 1_024,
  /** `control.rejected` and hub `error` details, answer text, string answer values, any other string in data. */
  text: 8_192,
  /** Option, field and choice ids and field types: cutting one would change what an answer names, so above it the request is refused. */
  identifier: 1_024,
  options: 50,
  fields: 200,
  choicesPerField: 1_000,
  /** A whole request's data after its texts are cut; above it the request is refused. */
  request: 256 * 1_024,
  /** `attention.requested` context (only sent at capture `full`), dropped whole above it. */
  context: 16 * 1_024,
  /** Any other member of data (or of an answer, a field, a choice), dropped whole above it. */
  member: 16 * 1_024,
  /** Members of data beyond the ones this extension reads, and their summed size. */
  dataMembers: 64,
  dataSize: 64 * 1_024,
  /** Answer values (one per form field). */
  answerValues: 200,
  /** Extension attributes (AEP-0001 §5.4): how many, each one's size, and their summed size. */
  extensionAttributes: 32,
  extensionAttribute: 1_024,
  extensionSize: 8 * 1_024,
  /** Nesting of any kept value, counted from the event itself; matches what the wire parser accepts. */
  depth: MAX_JSON_DEPTH,
} as const;

/**
 * What is kept of an agent's recent actions, shown as "Before asking"
 * (src/inbox/recentActions.ts builds, src/shared/beforeAsking.ts checks).
 * Lengths in UTF-16 code units.
 */
export const ACTION_BOUNDS = {
  /** Summaries kept per session: the page shows 10, and up to this many on "show more". */
  perSession: 50,
  /** The most of an action's arguments kept, in characters of their JSON text; the rest is counted, not kept. */
  args: 1_000,
  /** Tool names, error types, rules, statuses, run reasons. */
  name: 120,
  /** An error message (shown at capture `redacted` and above). */
  message: 300,
} as const;

/** Who denied a tool (AEP-0002 `tool.denied` `by`, an enum); anything else an agent sends is shown as `other`. */
export const DENIED_BY = ['policy', 'user_setting', 'runtime'] as const;
export type DeniedBy = (typeof DENIED_BY)[number] | 'other';

/** Where a member-level drop is recorded; a valid extension attribute name (`[a-z0-9]{1,20}`, AEP-0001 §5.4) so it may sit on the envelope too. */
export const DROPPED_KEY = 'aepattentiondropped';

/**
 * Where a request refused for its structure keeps the reason. Such a request
 * is still shown, as one that cannot be answered here and why, so the person
 * the agent waits for learns of it (src/aep/attention.ts reads this key); its
 * other data is dropped so it holds no memory.
 */
export const UNSHOWABLE_KEY = 'aepattentionunshowable';

const ENVELOPE_STRINGS = ['id', 'type', 'agent', 'session', 'subject', 'cause', 'run', 'step', 'time', 'traceparent'] as const;
const ENVELOPE_KEYS: readonly string[] = ['aep', 'source', 'seq', 'epoch', 'severity', 'capture', 'data', ...ENVELOPE_STRINGS];
/** Room kept in a budget for the drop mark itself, so bounding an already bounded event changes nothing. */
const MARK_ROOM = 512;
/** Values inside data start at depth 3 (event, data, member) and a choice's members at 7. */
const MEMBER_DEPTH = EVENT_BOUNDS.depth - 8;

const count = (n: number) => n.toLocaleString('en-US');

/**
 * Cuts text longer than `cap` and says so in the text itself, so whoever
 * reads it knows it is not the whole. The result is at most `cap` long
 * (caps here are far longer than the mark), never splits a surrogate pair,
 * and is returned unchanged when it already fits: cutting is idempotent.
 */
export function capText(text: string, cap: number): string {
  if (text.length <= cap) return text;
  const mark = (shown: number) => `… [truncated by AEP Attention: ${count(text.length)} characters, first ${count(shown)} shown]`;
  let shown = Math.max(0, cap - mark(cap).length);
  const last = text.charCodeAt(shown - 1);
  if (last >= 0xd800 && last <= 0xdbff) shown--;
  // Joined, not `+`-concatenated: a slice can be a view into the whole original (V8 keeps
  // the 1 MB text alive for an 8 KB cut), and `join` copies into a new string. Measured by
  // test/load/memory.test.ts: 2 000 cut 1 MB prompts held 1.97 GB with `+`, 34 MB joined
  // (its flood without the persistence is 600 now: 582 MB with `+`).
  return [text.slice(0, shown), mark(shown)].join('');
}

/** A short, safe excerpt of an agent-chosen name for a sentence (a copy, like `capText`'s, never a view into the whole). */
export function clip(text: string, max = 80): string {
  if (text.length <= max) return text;
  const last = text.charCodeAt(max - 1);
  return [text.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max), '…'].join('');
}

/**
 * Why bounding did not keep an event as sent. `kept`: a request past what is
 * shown, reduced to UNSHOWABLE_KEY's reason and applied as one that cannot be
 * answered here (its person still learns of it); otherwise it is refused whole.
 */
export interface BoundRefusal {
  readonly problem: string;
  readonly kept: boolean;
}

/**
 * Bounds one event in place, once, where events enter the inbox (live,
 * replayed and restored alike), so what is stored and persisted is the
 * bounded event and every later reader (the control sender's ack included,
 * it holds the same object) sees that. Texts are cut with a visible mark;
 * oversized extra data is dropped with a mark. Returns why the event is not
 * kept as sent, when bounding it would change what it means: an envelope
 * identifier past its cap (refused whole), or a request whose structure
 * (options, fields, choices, ids) is past what this extension shows, which
 * must not be shown with parts silently missing (kept as one that cannot be
 * answered here). Never throws on a well-formed envelope. `from`: `stored`
 * for an event this extension saved itself, once bounded (it may hold
 * UNSHOWABLE_KEY's reason); `wire` for anything a hub sent.
 */
export function boundEvent(event: AepEvent, from: 'wire' | 'stored' = 'wire'): BoundRefusal | undefined {
  const refused = envelopeProblem(event);
  // Refused whole, whatever its data holds: an agent's own UNSHOWABLE_KEY must not make it look kept.
  if (refused !== undefined) return { problem: refused, kept: false };
  // UNSHOWABLE_KEY's reason is shown as ours ("cannot be rendered: …"), so only a stored event,
  // which this function bounded before saving it, may hold it: an agent's own is dropped, and
  // counted in the data's drop mark like any other, so that no agent words the reason its request is not shown.
  const reserved = from === 'wire' && isRecord(event.data) && Object.hasOwn(event.data, UNSHOWABLE_KEY);
  if (reserved) delete (event.data as Record<string, unknown>)[UNSHOWABLE_KEY];
  // The envelope itself cannot be replaced, so its extension attributes are bounded in place.
  boundMembers(event as Record<string, unknown>, ENVELOPE_KEYS, {
    count: EVENT_BOUNDS.extensionAttributes,
    size: EVENT_BOUNDS.extensionSize,
    member: EVENT_BOUNDS.extensionAttribute,
  }, 'in-place');
  const data = event.data;
  if (!isRecord(data)) return undefined;
  // The members read below, each listed once: a list, not a Set, as a Set per object bounded was a large part of what a flood allocated (issue 40).
  const handled: string[] = [];
  let problem: string | ((what: string) => string) | undefined;
  switch (event.type) {
    case 'attention.requested':
      problem = boundRequest(data, handled);
      break;
    case 'attention.answered':
      boundAnswered(data, handled);
      break;
    case 'control.rejected':
      if (typeof data['detail'] === 'string') {
        setOwn(data, 'detail', capText(data['detail'], EVENT_BOUNDS.text));
        handled.push('detail');
      }
      break;
  }
  if (problem !== undefined) return { problem: unshowable(event, data, problem), kept: true };
  const bounded = boundMembers(data, handled, { count: EVENT_BOUNDS.dataMembers, size: EVENT_BOUNDS.dataSize, member: EVENT_BOUNDS.member }, 'replaceable', reserved ? 1 : 0);
  if (bounded !== data) setOwn(event as Record<string, unknown>, 'data', bounded);
  if (event.type === 'attention.requested' && jsonSize(bounded, EVENT_BOUNDS.request, EVENT_BOUNDS.depth - 1) > EVENT_BOUNDS.request) {
    return { problem: unshowable(event, bounded, `it holds more than ${count(EVENT_BOUNDS.request)} characters even with its texts shortened, the most AEP Attention keeps for one request`), kept: true };
  }
  return undefined;
}

/**
 * A request past what this extension shows keeps only its kind, its (cut)
 * prompt and the reason, under UNSHOWABLE_KEY: it is applied as a request that
 * cannot be answered here, never with parts silently missing. Returns the
 * sentence for the log.
 */
function unshowable(event: AepEvent, data: Record<string, unknown>, reason: string | ((what: string) => string)): string {
  const what = data['kind'] === 'form' ? 'form' : 'request';
  const why = typeof reason === 'string' ? reason : reason(what);
  const stub: Record<string, unknown> = { [UNSHOWABLE_KEY]: why };
  if (typeof data['kind'] === 'string') stub['kind'] = data['kind'];
  if (typeof data['prompt'] === 'string') stub['prompt'] = data['prompt'];
  setOwn(event as Record<string, unknown>, 'data', stub);
  return requestRefusal(event, data, why);
}

function envelopeProblem(event: AepEvent): string | undefined {
  const record = event as Record<string, unknown>;
  const refuse = (key: string, length: number, cap: number) =>
    `refused an event from ${clip(String(event.agent), 64)} (${clip(String(event.type), 64)}): its \`${key}\` is ${count(length)} characters long, and AEP Attention accepts at most ${count(cap)}`;
  // AEP-0001 §12 gives these strings no length guarantee; the caps are a local
  // resource limit far above any real identifier, and a refusal is reported.
  if (typeof event.source === 'string' && event.source.length > EVENT_BOUNDS.source) return refuse('source', event.source.length, EVENT_BOUNDS.source);
  for (const key of ENVELOPE_STRINGS) {
    const value = record[key];
    if (typeof value === 'string' && value.length > EVENT_BOUNDS.envelopeString) return refuse(key, value.length, EVENT_BOUNDS.envelopeString);
  }
  return undefined;
}

// ---- attention.requested (AEP-0002 §5.3, AEP-0006) ------------------------------

/** Why a request cannot be shown, naming it. */
function requestRefusal(event: AepEvent, data: Record<string, unknown>, why: string): string {
  const what = data['kind'] === 'form' ? 'form' : 'request';
  return `${clip(event.agent)}'s ${what} ${clip(event.id)}${event.session !== undefined ? ` in session ${clip(event.session)}` : ''} cannot be shown here: ${why}`;
}

/** The parts of a request's data this extension reads; the rest, and the total, are bounded by the caller. */
function boundRequest(data: Record<string, unknown>, handled: string[]): string | ((what: string) => string) | undefined {
  const refuse = (reason: string | ((what: string) => string)) => reason;
  capMember(data, 'kind', EVENT_BOUNDS.label, handled);
  capMember(data, 'prompt', EVENT_BOUNDS.prompt, handled);
  const options = data['options'];
  if (Array.isArray(options)) {
    handled.push('options');
    if (options.length > EVENT_BOUNDS.options) {
      return refuse(`it has ${count(options.length)} options, and AEP Attention shows at most ${count(EVENT_BOUNDS.options)}`);
    }
    const problem = boundChoices(options, () => 'option');
    if (problem !== undefined) return refuse(problem);
  }
  const fields = data['fields'];
  if (Array.isArray(fields)) {
    handled.push('fields');
    if (fields.length > EVENT_BOUNDS.fields) {
      return refuse((what) => `this ${what} has ${count(fields.length)} fields, and AEP Attention shows at most ${count(EVENT_BOUNDS.fields)}`);
    }
    for (let index = 0; index < fields.length; index++) {
      const field: unknown = fields[index];
      if (!isRecord(field)) {
        fields[index] = boundLoose(field, EVENT_BOUNDS.member);
        continue;
      }
      const bounded = boundField(field);
      if (typeof bounded === 'string') return refuse(bounded);
      fields[index] = bounded;
    }
  }
  // What decides whether and how the request can be answered is never dropped for room.
  const expires = data['expires_at'];
  if (typeof expires === 'string') {
    setOwn(data, 'expires_at', capText(expires, EVENT_BOUNDS.label));
    handled.push('expires_at');
  }
  const respondVia = data['respond_via'];
  if (Array.isArray(respondVia)) {
    handled.push('respond_via');
    if (jsonSize(respondVia, EVENT_BOUNDS.label, 2) > EVENT_BOUNDS.label) {
      return refuse(`its \`respond_via\` is longer than the ${count(EVENT_BOUNDS.label)} characters AEP Attention accepts`);
    }
  }
  const context = data['context'];
  if (isRecord(context)) {
    handled.push('context');
    const size = jsonSize(context, EVENT_BOUNDS.context, MEMBER_DEPTH);
    if (size > EVENT_BOUNDS.context) setOwn(data, 'context', { [DROPPED_KEY]: droppedMark(size, EVENT_BOUNDS.context) });
  }
  return undefined;
}

const FIELD_IDS = ['id', 'type'];
const FIELD_FLAGS = ['required', 'multi', 'other'];
const FIELD_NUMBERS = ['min', 'max'];

/** The bounded field, or why the request is refused. */
function boundField(field: Record<string, unknown>): Record<string, unknown> | string {
  const handled: string[] = [];
  const id = field['id'];
  // Worded only for a refusal: most fields are never refused.
  const name = () => (typeof id === 'string' ? `field \`${clip(id, 40)}\`` : 'a field');
  for (const key of FIELD_IDS) {
    const value = field[key];
    if (typeof value !== 'string') continue;
    if (value.length > EVENT_BOUNDS.identifier) return identifierProblem(`${name()}'s ${key}`, value);
    handled.push(key);
  }
  capMember(field, 'label', EVENT_BOUNDS.label, handled);
  for (const key of FIELD_FLAGS) if (typeof field[key] === 'boolean') handled.push(key);
  for (const key of FIELD_NUMBERS) if (typeof field[key] === 'number') handled.push(key);
  const choices = field['choices'];
  if (Array.isArray(choices)) {
    handled.push('choices');
    if (choices.length > EVENT_BOUNDS.choicesPerField) {
      return `${name()} has ${count(choices.length)} choices, and AEP Attention shows at most ${count(EVENT_BOUNDS.choicesPerField)} per field`;
    }
    const problem = boundChoices(choices, () => `${name()}'s choice`);
    if (problem !== undefined) return problem;
  }
  return boundMembers(field, handled, { count: 16, size: 4 * 1_024, member: 1_024 });
}

/** Options (`[{id, label}]`) or a select field's choices, in place. */
function boundChoices(list: unknown[], what: () => string): string | undefined {
  for (let index = 0; index < list.length; index++) {
    const choice: unknown = list[index];
    if (!isRecord(choice)) {
      list[index] = boundLoose(choice, EVENT_BOUNDS.member);
      continue;
    }
    const handled: string[] = [];
    const id = choice['id'];
    if (typeof id === 'string') {
      if (id.length > EVENT_BOUNDS.identifier) return identifierProblem(`${what()} ${index + 1}'s id`, id);
      handled.push('id');
    }
    capMember(choice, 'label', EVENT_BOUNDS.label, handled);
    list[index] = boundMembers(choice, handled, { count: 8, size: 2 * 1_024, member: 1_024 });
  }
  return undefined;
}

function identifierProblem(what: string, value: string): string {
  return `${what} is ${count(value.length)} characters long, and AEP Attention accepts ids of at most ${count(EVENT_BOUNDS.identifier)}`;
}

// ---- attention.answered (AEP-0002 §7) --------------------------------------------

function boundAnswered(data: Record<string, unknown>, handled: string[]): void {
  const answer = data['answer'];
  if (isRecord(answer)) {
    handled.push('answer');
    const inner: string[] = [];
    capMember(answer, 'option', EVENT_BOUNDS.label, inner);
    capMember(answer, 'text', EVENT_BOUNDS.text, inner);
    const values = answer['values'];
    if (isRecord(values)) {
      inner.push('values');
      setOwn(answer, 'values', boundMembers(values, NONE_HANDLED, { count: EVENT_BOUNDS.answerValues, size: EVENT_BOUNDS.dataSize, member: EVENT_BOUNDS.member }));
    }
    setOwn(data, 'answer', boundMembers(answer, inner, { count: 8, size: 4 * 1_024, member: 1_024 }));
  }
  capMember(data, 'by', EVENT_BOUNDS.label, handled);
  capMember(data, 'via', EVENT_BOUNDS.label, handled);
}

/** A string member cut to `cap` in place and listed as handled; any other value is left to the caller. */
function capMember(target: Record<string, unknown>, key: string, cap: number, handled: string[]): void {
  const value = target[key];
  if (typeof value !== 'string') return;
  setOwn(target, key, capText(value, cap));
  handled.push(key);
}

/** Members a caller read itself and `boundMembers` leaves alone: a short list, each key in it once. */
type Handled = readonly string[];
const NONE_HANDLED: Handled = [];

// ---- any other data: cut, or dropped with a mark -----------------------------------

interface MemberLimits {
  /** Members kept, the drop mark included. */
  count: number;
  /** Their summed JSON size. */
  size: number;
  /** One member's JSON size; a larger one is replaced by a mark. */
  member: number;
}

/**
 * Bounds the members of `target` not in `handled`: strings are cut, larger
 * values replaced by a mark, and members past the count or the summed size
 * dropped, their number recorded under `DROPPED_KEY`. Returns `target`, or,
 * when members are dropped and the caller can put it in `target`'s place, a
 * copy without them: removing thousands of keys one `delete` at a time costs
 * more than building the few that are kept.
 */
function boundMembers(target: Record<string, unknown>, handled: Handled, limits: MemberLimits, mode: 'in-place' | 'replaceable' = 'replaceable', droppedBefore = 0): Record<string, unknown> {
  const existingMark = target[DROPPED_KEY];
  const keepMark = typeof existingMark === 'string' && existingMark.length <= 200;
  const all = Object.keys(target);
  let members = 0;
  for (const key of all) if (!skips(handled, keepMark, key)) members++;
  if (members === 0 && droppedBefore === 0) return target;
  const room = members + (keepMark || droppedBefore > 0 ? 1 : 0) > limits.count ? limits.count - 1 : limits.count;
  const full = limits.size - MARK_ROOM;
  // Counted, not listed, while everything fits (nearly always): the kept keys are listed below only when some are dropped,
  // from where the walk stopped and the members too large for the room left (issue 40: fewer objects per event).
  let keptCount = 0;
  let stoppedAt = all.length;
  let tooLarge: Set<string> | undefined;
  let used = 0;
  for (let index = 0; index < all.length; index++) {
    const key = all[index]!;
    if (keptCount >= room || used >= full) {
      stoppedAt = index;
      break;
    }
    if (skips(handled, keepMark, key)) continue;
    const before = target[key];
    const bounded = boundLoose(before, limits.member);
    const size = key.length + 4 + looseSize;
    if (used + size > full) {
      (tooLarge ??= new Set()).add(key);
      continue;
    }
    if (bounded !== before) setOwn(target, key, bounded);
    used += size;
    keptCount++;
  }
  if (keptCount === members && droppedBefore === 0) return target;
  const kept: string[] = [];
  for (let index = 0; index < stoppedAt; index++) {
    const key = all[index]!;
    if (!skips(handled, keepMark, key) && !tooLarge?.has(key)) kept.push(key);
  }
  const mark = `[${count(members - kept.length + droppedBefore)} more members dropped by AEP Attention]`;
  const keep = new Set(kept);
  if (mode === 'in-place') {
    for (const key of all) if (!skips(handled, keepMark, key) && !keep.has(key)) delete target[key];
    setOwn(target, DROPPED_KEY, mark);
    return target;
  }
  // Handled members first, then the kept ones: order carries no meaning in a JSON object.
  const copy: Record<string, unknown> = {};
  for (const key of handled) if (Object.hasOwn(target, key)) setOwn(copy, key, target[key]);
  for (const key of kept) setOwn(copy, key, target[key]);
  setOwn(copy, DROPPED_KEY, mark);
  return copy;
}

/**
 * A string cut to `cap` (at most the text cap); any other value kept when it
 * fits `cap`, else a mark in its place. The mark keeps the JSON type it
 * replaces (a string in an array, a member of an object), so a value the
 * schemas refused for its type is still refused, and one they accepted stays
 * of the type they read. Its JSON size is left in `looseSize`.
 */
function boundLoose(value: unknown, cap: number): unknown {
  if (typeof value === 'string') {
    const text = capText(value, Math.min(cap, EVENT_BOUNDS.text));
    looseSize = text.length + 2;
    return text;
  }
  const size = jsonSize(value, cap, MEMBER_DEPTH);
  if (size <= cap) {
    looseSize = size;
    return value;
  }
  const mark = droppedMark(size, cap);
  looseSize = mark.length + DROPPED_KEY.length + 8;
  return Array.isArray(value) ? [mark] : { [DROPPED_KEY]: mark };
}

/**
 * The JSON size of what `boundLoose` returned last, read right after the call:
 * a result object per member bounded was one more object per member of every
 * event (issue 40).
 */
let looseSize = 0;

/** Whether `boundMembers` leaves the member alone: read by the caller, or an earlier drop mark that is kept. */
function skips(handled: Handled, keepMark: boolean, key: string): boolean {
  return handled.includes(key) || (key === DROPPED_KEY && keepMark);
}

function droppedMark(size: number, cap: number): string {
  return size === TOO_DEEP
    ? `[dropped by AEP Attention: nested more than ${MEMBER_DEPTH} levels deep]`
    : `[dropped by AEP Attention: more than ${count(cap)} characters of JSON]`;
}

const TOO_DEEP = Number.POSITIVE_INFINITY;

/**
 * The length of `value` as JSON text, near enough (escapes not counted),
 * without building the text and without recursion. Stops as soon as the
 * size passes `limit` (the return is then just past it), and returns
 * `TOO_DEEP` for nesting past `maxDepth`, so its cost is bounded by `limit`.
 */
function jsonSize(root: unknown, limit: number, maxDepth: number): number {
  let size = 0;
  const values: unknown[] = [root];
  const depths: number[] = [1];
  while (values.length > 0) {
    const value = values.pop();
    const depth = depths.pop() ?? 1;
    if (typeof value === 'string') size += value.length + 2;
    else if (typeof value === 'number') size += 8;
    else if (typeof value === 'boolean') size += 5;
    else if (typeof value === 'object' && value !== null) {
      if (depth > maxDepth) return TOO_DEEP;
      if (Array.isArray(value)) {
        size += 2 + value.length;
        if (size > limit) return size;
        for (const item of value) {
          values.push(item);
          depths.push(depth + 1);
        }
      } else {
        const record = value as Record<string, unknown>;
        const keys = Object.keys(record);
        size += 2 + keys.length * 4;
        if (size > limit) return size;
        for (const key of keys) {
          size += key.length;
          values.push(record[key]);
          depths.push(depth + 1);
        }
      }
    } else size += 4;
    if (size > limit) return size;
  }
  return size;
}

/** Sets an own data property, even one named `__proto__` (plain assignment would call the prototype setter). */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (target[key] === value && Object.hasOwn(target, key)) return;
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}
