// What became of a request, as the agent recorded it: the one rule the
// request page, the History and the quick input read. An accepted command is
// one the agent "will try" (AEP-0004 §1); `attention.answered` is what it
// applied (AEP-0002 §5.3: "The recorded `answer` always states what was
// actually applied"), and its `cause` names the command it answers (AEP-0004
// §6). So the record, not our ack, says whose answer ended the request.
import type { Answer, FieldSpec } from '../aep/attention';
import { canonicalJson } from '../base/json';
import { freeTextParts } from '../aep/capture';
import type { AttentionItem } from './attentionItem';

/** An answer sent from this window: its command's id and the answer it carried (or as the history keeps it, masked). */
export interface SentAnswer {
  commandId: string;
  answer: Answer;
}

/**
 * What the agent recorded against what was sent from here: `none` recorded, ours `as-sent`, ours but it
 * `differs` (the answer, or the channel), or someone else's (`elsewhere`). `answer`, `via`, `by` are the
 * agent's record, given when it is not ours as sent; `endedBy`: whom its `attention.resolved` is cause-linked to.
 */
export type RecordedVerdict = 'none' | 'as-sent' | 'differs' | 'elsewhere';
export interface RecordedAnswer {
  verdict: RecordedVerdict;
  answer?: Answer;
  via?: string;
  by?: string;
  endedBy?: string;
}

export type RecordedItem = Pick<AttentionItem, 'answer' | 'answeredVia' | 'answeredBy' | 'answeredCauses' | 'resolvedBy' | 'request'>;

/**
 * The agent's record against what was sent from here. A record whose cause
 * (or the ack it names) is none of our commands is someone else's answer,
 * also while ours was accepted or in flight; one without a cause is nobody's
 * we can name, so not ours either (AEP-0004 §7: a target cause-links its outcomes).
 */
export function recordedAnswer(item: RecordedItem, sent: readonly SentAnswer[]): RecordedAnswer {
  const endedBy = item.resolvedBy !== undefined ? { endedBy: item.resolvedBy } : {};
  const recorded = item.answer;
  if (recorded === undefined) return { verdict: 'none', ...endedBy };
  const causes = item.answeredCauses ?? [];
  const ours = sent.find((one) => causes.includes(one.commandId));
  const told = {
    answer: recorded,
    ...(item.answeredVia !== undefined ? { via: item.answeredVia } : {}),
    ...(item.answeredBy !== undefined ? { by: item.answeredBy } : {}),
    ...endedBy,
  };
  if (!ours) return { verdict: 'elsewhere', ...told };
  // Ours went by control; a record of another channel is not ours as sent, even with the same answer.
  const viaDiffers = item.answeredVia !== undefined && item.answeredVia !== 'control';
  const fields = item.request?.fields ?? [];
  if (viaDiffers || !sameDecision(ours.answer, recorded, fields)) return { verdict: 'differs', ...told };
  return { verdict: 'as-sent', ...endedBy };
}

/**
 * Whether two answers make the same decision: the option, and every value
 * but free text. Free text is left out: a hop may down-level it (AEP-0001
 * §8.2), the agent records it redacted, and the history keeps ours masked;
 * text an agent mapped to an option shows as the option it applied (AEP-0008).
 */
export function sameDecision(a: Answer, b: Answer, fields: readonly FieldSpec[]): boolean {
  return canonicalJson(decision(a, fields)) === canonicalJson(decision(b, fields));
}

function decision(answer: Answer, fields: readonly FieldSpec[]): unknown {
  const free = new Set<string>();
  for (const { part } of freeTextParts(answer, fields)) if (part.kind === 'value') free.add(`${part.fieldId}\u0000${part.index ?? ''}`);
  const kept: Array<[string, unknown]> = [];
  for (const [fieldId, value] of Object.entries(answer.values ?? {})) {
    if (Array.isArray(value)) kept.push([fieldId, value.map((one: unknown, index) => (free.has(`${fieldId}\u0000${index}`) ? null : one))]);
    else if (!free.has(`${fieldId}\u0000`)) kept.push([fieldId, value]);
  }
  // fromEntries defines own properties: a `__proto__` field id stays a key.
  return { option: answer.option ?? null, values: Object.fromEntries(kept) };
}
