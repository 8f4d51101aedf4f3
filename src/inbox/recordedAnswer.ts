// What became of a request, as the agent recorded it: the one rule the
// request page, the History and the quick input read. An accepted command is
// one the agent "will try" (AEP-0004 §1); `attention.answered` is what it
// applied (AEP-0002 §5.3: "The recorded `answer` always states what was
// actually applied"), and its `cause` names the command it answers (AEP-0004
// §6). So the record, not our ack, says whose answer ended the request.
import type { Answer, FieldSpec } from '../aep/attention';
import { canonicalJson } from '../base/json';
import { freeTextParts, type AnswerPart } from '../aep/capture';
import { captureOf } from '../aep/envelope';
import { redactText } from '../aep/redaction';
import { holdsRedactionMark } from '../aep/secretRules';
import type { AttentionItem } from './attentionItem';

/**
 * An answer sent from here: its command's id and the answer it carried. `masked`: the answer as the History
 * keeps it, whose free text may be masked (historyEntry.ts `maskAnswer`), so none of that text is compared.
 */
export interface SentAnswer {
  commandId: string;
  answer: Answer;
  masked?: boolean;
}

/**
 * What the agent recorded against what was sent from here: `none` recorded, ours `as-sent`, ours but it
 * `differs` (the answer, or the channel), ours with every part that can be compared the same but some text
 * that cannot (`unconfirmed`: withheld at capture `metadata`, redacted on the way, or masked in the History),
 * or someone else's (`elsewhere`). `answer`, `via`, `by` are the agent's record, given when it is not ours as
 * sent; `endedBy`: whom its `attention.resolved` is cause-linked to.
 */
export type RecordedVerdict = 'none' | 'as-sent' | 'differs' | 'unconfirmed' | 'elsewhere';
export interface RecordedAnswer {
  verdict: RecordedVerdict;
  answer?: Answer;
  via?: string;
  by?: string;
  endedBy?: string;
}

export type RecordedItem = Pick<AttentionItem, 'answer' | 'answeredEvent' | 'answeredVia' | 'answeredBy' | 'answeredCauses' | 'resolvedBy' | 'request'>;

/**
 * The agent's record against what was sent from here. A record whose cause
 * (or the ack it names) is none of our commands is someone else's answer,
 * also while ours was accepted or in flight; one without a cause is nobody's
 * we can name, so not ours either (AEP-0004 §7: a target cause-links its outcomes).
 * `keptBefore`: what the History kept of earlier sends (a window reload empties
 * `sent`), asked only when no command in `sent` is the record's cause.
 */
export function recordedAnswer(item: RecordedItem, sent: readonly SentAnswer[], keptBefore: () => readonly SentAnswer[] = () => []): RecordedAnswer {
  const endedBy = item.resolvedBy !== undefined ? { endedBy: item.resolvedBy } : {};
  const recorded = item.answer;
  if (recorded === undefined) return { verdict: 'none', ...endedBy };
  const causes = item.answeredCauses ?? [];
  const isCause = (one: SentAnswer) => causes.includes(one.commandId);
  // This window's own record is the answer as sent; the History's copy of the same command may be masked.
  const ours = causes.length === 0 ? undefined : (sent.find((one) => isCause(one) && !one.masked) ?? sent.find(isCause) ?? keptBefore().find(isCause));
  const told = {
    answer: recorded,
    ...(item.answeredVia !== undefined ? { via: item.answeredVia } : {}),
    ...(item.answeredBy !== undefined ? { by: item.answeredBy } : {}),
    ...endedBy,
  };
  if (!ours) return { verdict: 'elsewhere', ...told };
  // Ours went by control; a record of another channel is not ours as sent, even with the same answer.
  const viaDiffers = item.answeredVia !== undefined && item.answeredVia !== 'control';
  const withheld = item.answeredEvent !== undefined && captureOf(item.answeredEvent) === 'metadata';
  const compared = viaDiffers ? 'differs' : compareAnswers(ours, recorded, item.request?.fields ?? [], { withheld });
  if (compared === 'same') return { verdict: 'as-sent', ...endedBy };
  return { verdict: compared === 'differs' ? 'differs' : 'unconfirmed', ...told };
}

/** Whether the record is the answer sent: `same`, `differs`, or `unknown` when only text that cannot be compared could tell. */
export type Comparison = 'same' | 'differs' | 'unknown';

/**
 * The sent answer against the recorded one, part by part: the option and
 * every structural value must be equal; then each free-text part (the reply
 * `text`, string values, `other` text), since a reply in words is the answer.
 * A text part is unknown, never the same, when it cannot be compared: ours is
 * masked (`sent.masked`); the record withholds it (`withheld`: at capture
 * `metadata` free text is absent, AEP-0001 §8.2, a hop may down-level); or the
 * record's text was redacted on the way (ours with spans replaced by marks,
 * or ours after the §9.4 pipeline). Text the agent mapped to an option (AEP-0008)
 * shows as the option it applied: not what was sent.
 */
export function compareAnswers(sent: SentAnswer, recorded: Answer, fields: readonly FieldSpec[], record: { withheld: boolean }): Comparison {
  if (canonicalJson(decision(sent.answer, fields)) !== canonicalJson(decision(recorded, fields))) return 'differs';
  const ours = textsOf(sent.answer, fields);
  const theirs = textsOf(recorded, fields);
  let result: Comparison = 'same';
  for (const key of new Set([...ours.keys(), ...theirs.keys()])) {
    const mine = ours.get(key);
    const told = theirs.get(key);
    // Masking replaces text, never removes a part: a part only the record has was not sent.
    if (mine === undefined) return 'differs';
    if (sent.masked) result = 'unknown';
    else if (told === undefined) {
      if (!record.withheld) return 'differs';
      result = 'unknown';
    } else if (told !== mine) {
      if (!redactedOnTheWay(mine, told)) return 'differs';
      result = 'unknown';
    }
  }
  return result;
}

function textsOf(answer: Answer, fields: readonly FieldSpec[]): Map<string, string> {
  return new Map(freeTextParts(answer, fields).map(({ part, text }) => [partKey(part), text]));
}

function partKey(part: AnswerPart): string {
  return part.kind === 'text' ? 'text' : `value\u0000${part.fieldId}\u0000${part.index ?? ''}`;
}

/**
 * The record's text is ours through a redaction pipeline: ours as our
 * pipeline gives it, or ours with some spans replaced by marks (the agent's
 * pipeline may remove more than ours). A mark alone proves nothing: the
 * words around it must be ours, in order, or the agent could record any
 * answer beside a mark and have it pass as ours.
 */
function redactedOnTheWay(sent: string, recorded: string): boolean {
  const ourPipeline = redactText(sent).text;
  return ourPipeline === recorded || (holdsRedactionMark(recorded) && [sent, ourPipeline].some((ours) => marksReplaceSpansOf(ours, recorded)));
}

/** Any mark a pipeline writes, ours (`[REDACTED:secret]`) or another's kind. */
const ANY_MARK = /\[REDACTED:[^\]]*\]/gu;

/**
 * Whether `recorded` is `sent` with spans replaced by marks: the text before
 * the first mark starts it, the text after the last ends it, and the pieces
 * between appear in that order, none overlapping. Compared as the rest of
 * this rule compares words: exactly.
 */
function marksReplaceSpansOf(sent: string, recorded: string): boolean {
  const pieces = recorded.split(ANY_MARK);
  if (pieces.length < 2) return false;
  const first = pieces[0] ?? '';
  const last = pieces[pieces.length - 1] ?? '';
  if (!sent.startsWith(first) || !sent.endsWith(last) || first.length + last.length > sent.length) return false;
  let at = first.length;
  const end = sent.length - last.length;
  for (const piece of pieces.slice(1, -1)) {
    const found = sent.indexOf(piece, at);
    if (found < 0 || found + piece.length > end) return false;
    at = found + piece.length;
  }
  return true;
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
