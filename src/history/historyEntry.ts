// One entry of the answer history: a request seen in this window, what was
// sent for it and how each send and the request ended. Everything here is
// written to `workspaceState`, so nothing the person typed at capture `full`
// and nothing that looks like a credential is kept as it was: answers, the
// prompt and the request event are masked before they are stored.
import * as z from 'zod/mini';
import { answerSchema, parseAttentionRequest, readAnswered, type Answer, type AttentionRequest, type FieldSpec } from '../aep/attention';
import type { SendOutcome } from '../client/controlSender';
import { freeTextParts, redactAnswer, type AnswerPart, type FreeTextPart } from '../aep/capture';
import { RESPOND_TYPE, type RespondCommand } from '../aep/control';
import { captureOf, envelopeSchema, nonEmpty, parseEnvelope, type AepEvent } from '../aep/envelope';
import type { AttentionItem } from '../inbox/inbox';
import { recordedAnswer, type RecordedVerdict, type SentAnswer } from '../inbox/recordedAnswer';
import { honestRequestText, TEXT_HONESTIES } from '../aep/labels';
import { CAPTURE_LEVELS, type CaptureLevel } from '../aep/levels';
import { redactValue, SECRET_MARK } from '../aep/redaction';
import { parsedOk, parsedProblem, type Parsed } from '../base/result';
import { maskStoredText, partAsksForSecret, secretAskingOf, storedMasking, type SecretAskingRequest } from '../aep/secretAsking';

/** What a free-text part sent at capture `full` is stored as: the person chose to send it as typed, so it is not kept. */
export const SENT_AS_TYPED_MARK = '[masked: sent as typed]';

const maskText = maskStoredText;

export function historyEntryId(hub: Pick<HubRef, 'id'>, itemKey: string): string {
  return `${hub.id} ${itemKey}`;
}

/** The string at one free-text part of an answer, if it is still one. */
function textAt(answer: Answer, part: AnswerPart): string | undefined {
  const value = part.kind === 'text' ? answer.text : answer.values?.[part.fieldId];
  const at = part.kind === 'value' && part.index !== undefined ? (Array.isArray(value) ? (value[part.index] as unknown) : undefined) : value;
  return typeof at === 'string' ? at : undefined;
}

function partKey(fieldId: string, index?: number): string {
  return index === undefined ? fieldId : `${fieldId}\u0000${index}`;
}

/**
 * A copy of the answer with each free-text part replaced by `replace`.
 * Values that are neither free text nor scalars (objects nobody's form
 * produces) go through the secret masking whole.
 */
function mapFreeText(answer: Answer, fields: readonly FieldSpec[], replace: (free: FreeTextPart) => string): Answer {
  const out: Answer = {};
  if (answer.option !== undefined) out.option = answer.option;
  const values = new Map<string, FreeTextPart>();
  for (const free of freeTextParts(answer, fields)) {
    if (free.part.kind === 'text') out.text = replace(free);
    else values.set(partKey(free.part.fieldId, free.part.index), free);
  }
  if (answer.values === undefined) return out;
  const item = (fieldId: string, value: unknown, index?: number): unknown => {
    const free = values.get(partKey(fieldId, index));
    if (free) return replace(free);
    return typeof value === 'object' && value !== null ? redactValue(value, storedMasking()) : value;
  };
  // fromEntries defines own properties: a `__proto__` field id stays a key.
  out.values = Object.fromEntries(
    Object.entries(answer.values).map(([fieldId, value]) => [
      fieldId,
      Array.isArray(value) ? value.map((v: unknown, i) => item(fieldId, v, i)) : item(fieldId, value),
    ]),
  );
  return out;
}

/** The request an answer was for, as the masking reads it: its kind and fields, labels tagged by its capture. */
export interface AnsweredFor {
  rule: SecretAskingRequest;
  fields: readonly FieldSpec[];
}

export function answeredFor(request: AttentionRequest | undefined, kind: string): AnsweredFor {
  if (request) return { rule: secretAskingOf(request), fields: request.fields };
  // Unreadable: no field is known by its label, and the kind is all there is.
  return { rule: { kind, renderKind: kind, fields: [] }, fields: [] };
}

/**
 * The answer as it may be stored. At capture `full` every free-text part is
 * replaced whole with `SENT_AS_TYPED_MARK`. Any text of an `auth` request's
 * answer, and of a field that asks for a secret (secretAsking.ts), goes whole
 * as `SECRET_MARK`. Otherwise the redaction pipeline runs over it
 * (`redactAnswer`: secrets, credential-named field ids whole). Choice ids,
 * numbers and booleans are structural and stay. `masked` counts the
 * free-text parts that changed. Masking what is already masked changes nothing.
 */
export function maskAnswer(answer: Answer, request: AnsweredFor, capture: CaptureLevel): { answer: Answer; masked: number } {
  const { fields } = request;
  // The always-secret values too: a value listed after the answer was built is still not kept.
  const redacted = capture === 'full' ? undefined : redactAnswer(answer, fields, storedMasking()).answer;
  let masked = 0;
  const out = mapFreeText(answer, fields, ({ part, text }) => {
    let kept: string;
    if (text === '') kept = text;
    else if (!redacted) kept = SENT_AS_TYPED_MARK;
    else if (partAsksForSecret(request.rule, part)) kept = SECRET_MARK;
    else kept = textAt(redacted, part) ?? SECRET_MARK;
    if (kept !== text) masked++;
    return kept;
  });
  return { answer: out, masked };
}

/** The request event with every string through the secret masking; its envelope still reads as one. */
function maskEvent(event: AepEvent): AepEvent {
  const masked = parseEnvelope(redactValue(event, storedMasking()));
  if (masked.ok) return masked.value;
  // Unreachable in practice (masking keeps non-empty strings non-empty); keep nothing rather than the original.
  return { aep: event.aep, id: SECRET_MARK, type: event.type, time: event.time, source: SECRET_MARK, agent: SECRET_MARK };
}

/** A new entry for an item, with no send and no outcome yet. */
export function newHistoryEntry(hub: HubRef, item: Readonly<AttentionItem>, at: number): HistoryEntry {
  const prompt = item.request
    ? honestRequestText(item.request).prompt
    : { text: item.problem?.message ?? '', honesty: 'structural' as const };
  return {
    id: historyEntryId(hub, item.key),
    hub: { id: hub.id, label: hub.label },
    itemKey: item.key,
    requestId: item.requestId,
    agent: item.agent,
    session: item.session,
    source: item.source,
    kind: item.request?.kind ?? 'unreadable',
    prompt: { text: maskText(prompt.text), honesty: prompt.honesty },
    sends: [],
    agentOutcomes: [],
    at,
    requestEvent: maskEvent(item.requestEvent),
  };
}

/** A send of `command` for this request, masked. */
export function newHistorySend(command: RespondCommand, request: AnsweredFor, at: number): HistorySend {
  const capture = captureOf(command);
  const { answer, masked } = maskAnswer(command.data.answer, request, capture);
  return {
    commandId: command.id,
    at,
    capture,
    answer,
    masked,
    command: { ...command, data: { answer } },
    outcomes: [],
  };
}

/** How a send ended, as the history keeps it. Free text an agent or hub wrote (`detail`) is masked. */
export function historyOutcome(outcome: SendOutcome, at: number): HistoryOutcome {
  const detail = (text: string | undefined) => (text === undefined ? {} : { detail: maskText(text) });
  switch (outcome.kind) {
    case 'accepted':
      return { kind: 'accepted', at };
    case 'rejected':
      return { kind: 'rejected', at, reason: outcome.reason, ...detail(outcome.detail) };
    case 'refused-by-hub':
      return { kind: 'refused-by-hub', at, code: outcome.code, ...detail(outcome.detail) };
    case 'timeout':
      return { kind: 'ack-timed-out', at, afterMs: outcome.afterMs };
    case 'cancelled':
      // The code, not words: the history shows "not delivered", and a code is no text to mask.
      return { kind: 'not-delivered', at, reason: outcome.code };
    case 'awaiting-ack':
      return { kind: 'awaiting-ack', at, sent: outcome.sent };
    case 'request-closed':
      return { kind: 'request-closed', at, sent: outcome.sent };
    case 'not-kept':
      return { kind: 'not-kept', at, sent: outcome.sent };
  }
}

/**
 * What the agent's side has said of an item so far: `answered` once an
 * answer was seen (here or elsewhere), then its terminal status. `now` dates
 * the answer; a close is dated by the item's `closedAt`.
 */
export function agentOutcomes(item: Readonly<AttentionItem>, now: number, sent: readonly SentAnswer[] = []): AgentOutcome[] {
  const out: AgentOutcome[] = [];
  const recorded = recordedAnswer(item, sent);
  if (item.answeredEvent !== undefined) {
    const data = readAnswered(item.answeredEvent);
    const by = data.ok ? data.value.by : undefined;
    const kept = recorded.answer && maskAnswer(recorded.answer, answeredFor(item.request, item.request?.kind ?? 'unreadable'), captureOf(item.answeredEvent)).answer;
    out.push({
      kind: 'answered', at: now,
      ...(by !== undefined ? { by: maskText(by) } : {}),
      ...(item.answeredVia !== undefined ? { via: maskText(item.answeredVia) } : {}),
      ...(recorded.verdict !== 'none' ? { verdict: recorded.verdict } : {}),
      ...(kept ? { recorded: kept } : {}),
    });
  }
  const closedAt = item.closedAt ?? now;
  switch (item.status) {
    case 'resolved':
      out.push({
        kind: 'resolved', at: closedAt, resolution: maskText(item.resolution ?? 'resolved'),
        ...(recorded.endedBy !== undefined ? { by: maskText(recorded.endedBy) } : {}),
      });
      break;
    case 'timed-out':
      out.push({ kind: 'timeout', at: closedAt });
      break;
    case 'session-ended':
      out.push({ kind: 'session-ended', at: closedAt });
      break;
    default:
      break;
  }
  return out;
}

/**
 * How a request with no send from here ended, or undefined while it is
 * pending. An answer seen from elsewhere is what ended it, unless the agent
 * then timed it out.
 */
export function endedWithoutAnswer(item: Readonly<Pick<AttentionItem, 'status' | 'answer'>>): EndedWithoutAnswer | undefined {
  switch (item.status) {
    case 'pending':
      return undefined;
    case 'answered':
      return 'answered-elsewhere';
    case 'resolved':
      return item.answer !== undefined ? 'answered-elsewhere' : 'resolved';
    case 'timed-out':
      return 'timed-out';
    case 'session-ended':
      return item.answer !== undefined ? 'answered-elsewhere' : 'session-ended';
  }
}

/**
 * The entry's sends as what was sent from here, for the record's verdict: kept across a window reload, where
 * this window's own memory of them is gone. A send the masking changed is marked, so its text is not compared.
 */
export function keptSends(entry: Readonly<HistoryEntry>): SentAnswer[] {
  return entry.sends.map((send) => ({ commandId: send.commandId, answer: send.answer, ...(send.masked > 0 ? { masked: true } : {}) }));
}

/** The text Copy as JSON puts on the clipboard: the masked command, as sent otherwise. */
export function commandJson(send: HistorySend): string {
  return JSON.stringify(send.command, null, 2);
}

// ---- the entry's shape: the schemas are the types ---------------------------
// The entry's types are inferred from these schemas (z.infer): a field added
// to an entry is added here, so what is written is what a reload reads back.

const at = z.number();
const text = z.string();
const detail = z.optional(z.string());
const KEPT_VERDICTS = ['as-sent', 'differs', 'unconfirmed', 'elsewhere'] as const satisfies ReadonlyArray<Exclude<RecordedVerdict, 'none'>>;
const outcomeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('accepted'), at }),
  z.object({ kind: z.literal('rejected'), at, reason: text, detail }),
  z.object({ kind: z.literal('refused-by-hub'), at, code: text, detail }),
  /** The command was not sent (SendOutcome `cancelled`). */
  z.object({ kind: z.literal('not-delivered'), at, reason: text }),
  /** No acknowledgement within the ack window (AEP-0004 §3); the agent's `attention.timeout` is `timeout`. Stored as `timed-out` before version 4. */
  z.object({ kind: z.literal('ack-timed-out'), at, afterMs: z.number() }),
  z.object({ kind: z.literal('awaiting-ack'), at, sent: z.boolean() }),
  z.object({ kind: z.literal('request-closed'), at, sent: z.boolean() }),
  /** Not sent again after a reload: it held text that is not kept across one (SendOutcome `not-kept`). */
  z.object({ kind: z.literal('not-kept'), at, sent: z.boolean() }),
  // What the agent's side then said (from the item's status):
  /**
   * `verdict`: the agent's record against what was sent from here (src/inbox/recordedAnswer.ts); `recorded`, masked,
   * is the answer it recorded when that is not ours as sent. Absent in entries an older version stored.
   */
  z.object({ kind: z.literal('answered'), at, by: z.optional(text), via: z.optional(text), verdict: z.optional(z.enum(KEPT_VERDICTS)), recorded: z.optional(answerSchema) }),
  /** `by`: whom the agent's `attention.resolved` is cause-linked to, when that is another emitter's event. */
  z.object({ kind: z.literal('resolved'), at, resolution: text, by: z.optional(text) }),
  z.object({ kind: z.literal('timeout'), at }),
  z.object({ kind: z.literal('session-ended'), at }),
]);
export type HistoryOutcome = z.infer<typeof outcomeSchema>;
export type AgentOutcome = Extract<HistoryOutcome, { kind: 'answered' | 'resolved' | 'timeout' | 'session-ended' }>;

const commandSchema = z.extend(envelopeSchema, {
  type: z.literal(RESPOND_TYPE),
  session: nonEmpty,
  subject: nonEmpty,
  cause: nonEmpty,
  data: z.object({ answer: answerSchema }),
});

const sendSchema = z.object({
  commandId: nonEmpty,
  at,
  capture: z.enum(CAPTURE_LEVELS),
  /** The answer as sent, masked (see `maskAnswer`). */
  answer: answerSchema,
  /** How many free-text parts of the answer were masked. */
  masked: z.number().check(z.int(), z.nonnegative()),
  /** The command as sent, with `data.answer` the masked answer: what Copy as JSON copies. */
  command: commandSchema,
  outcomes: z.array(outcomeSchema),
});
export type HistorySend = z.infer<typeof sendSchema>;

/** A hub the history was written for: its origin (`id`) and label. */
const hubRefSchema = z.object({ id: text, label: text });
export type HubRef = z.infer<typeof hubRefSchema>;

export const ENDED_WITHOUT_ANSWER = ['answered-elsewhere', 'resolved', 'timed-out', 'session-ended', 'dismissed'] as const;
export type EndedWithoutAnswer = (typeof ENDED_WITHOUT_ANSWER)[number];

/** One stored entry, as the answer history's storage slot reads it. */
export const historyEntrySchema = z.object({
  /** Stable: `${hub.id} ${item.key}`, one entry per request per hub (see `historyEntryId`). */
  id: nonEmpty,
  hub: hubRefSchema,
  itemKey: nonEmpty,
  requestId: nonEmpty,
  agent: text,
  session: text,
  source: text,
  /** `request.kind`, or `unreadable` when the request could not be read. */
  kind: text,
  /** Capture-aware, as `honestRequestText` gives it; credential-masked. */
  prompt: z.object({ text, honesty: z.enum(TEXT_HONESTIES) }),
  /** Empty when the request ended without an answer from here. */
  sends: z.array(sendSchema),
  /** Only when `sends` is empty. */
  ended: z.optional(z.enum(ENDED_WITHOUT_ANSWER)),
  /** answered / resolved / timeout / session-ended, once each. */
  agentOutcomes: z.array(outcomeSchema),
  /** Last activity (a send, or the end without one), for newest-first order. */
  at,
  /** The `attention.requested` event, every string credential-masked, so the page can show it read-only. */
  requestEvent: envelopeSchema,
});
/**
 * One request seen in this window, what was sent for it and how each send and the request ended.
 * The storage slot writes exactly this; a field it does not name is not in the type either.
 */
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

/**
 * Before version 4 an ack timeout was stored as `timed-out`, the word the
 * request's status uses for the agent's `attention.timeout`: read as
 * `ack-timed-out`. Only `kind` changes; what is not shaped as an entry is
 * left as it is, for the schema to refuse.
 */
export function renameAckTimeouts(raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null) return raw;
  const entry = raw as { sends?: unknown; agentOutcomes?: unknown };
  const renamed = (outcomes: unknown): unknown =>
    Array.isArray(outcomes)
      ? outcomes.map((outcome: unknown) =>
        typeof outcome === 'object' && outcome !== null && (outcome as { kind?: unknown }).kind === 'timed-out' ? { ...outcome, kind: 'ack-timed-out' } : outcome)
      : outcomes;
  return {
    ...raw,
    ...(Array.isArray(entry.sends)
      ? { sends: entry.sends.map((send: unknown) => (typeof send === 'object' && send !== null ? { ...send, outcomes: renamed((send as { outcomes?: unknown }).outcomes) } : send)) }
      : {}),
    ...('agentOutcomes' in entry ? { agentOutcomes: renamed(entry.agentOutcomes) } : {}),
  };
}

/**
 * An entry stored before the masking knew what it knows now (`auth` answers,
 * one-time codes, every secret-asking field): each send masked again, as a
 * new send is. True when that changed any.
 */
export function remaskEntry(entry: HistoryEntry): boolean {
  if (entry.sends.length === 0) return false;
  const parsed = parseAttentionRequest(entry.requestEvent);
  const request = answeredFor(parsed.ok ? parsed.value : undefined, entry.kind);
  let changed = false;
  for (const send of entry.sends) {
    const again = maskAnswer(send.answer, request, send.capture);
    // The command too: what Copy as JSON copies must not differ from what is shown.
    const command = maskAnswer(send.command.data.answer, request, send.capture);
    if (again.masked === 0 && command.masked === 0) continue;
    send.answer = again.answer;
    send.masked += again.masked;
    send.command = { ...send.command, data: { answer: command.answer } };
    changed = true;
  }
  return changed;
}

/**
 * What the schema cannot say of a stored entry (stored data is untrusted:
 * another version, a damaged file): its id and each send's command id must
 * agree. The entry, or why it is not one.
 */
export function checkHistoryEntry(entry: HistoryEntry): Parsed<HistoryEntry> {
  if (entry.id !== historyEntryId(entry.hub, entry.itemKey)) return parsedProblem('`id` is not the id of its hub and item');
  if (entry.sends.some((send) => send.command.id !== send.commandId)) return parsedProblem("a send's `commandId` is not its command's id");
  if (entry.sends.length > 0) delete entry.ended;
  return parsedOk(entry);
}
