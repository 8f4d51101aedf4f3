import type { Answer, FieldSpec, SelectField } from './attention';
import type { CaptureLevel } from './levels';
import { dropsValue, redactText, SECRET_MARK, type Redaction, type RedactionOptions, type Replacement } from './redaction';
import { looksLikeSecret } from './secretRules';

/** A form answer: field id → value (AEP-0006 `answer.values`). */
export type FormValues = Record<string, unknown>;

function isChoiceId(field: SelectField, value: unknown): boolean {
  return typeof value === 'string' && field.choices.some((choice) => choice.id === value);
}

function indexFields(fields: readonly FieldSpec[]): Map<string, FieldSpec> {
  return new Map(fields.map((field) => [field.id, field]));
}

// ---- free text and the redaction pipeline (AEP-0004 §5, AEP-0003 §9.4) -------

/** Where a piece of free text sits in an answer: the reply `text`, or a value (an item of an array value). */
export type AnswerPart = { kind: 'text' } | { kind: 'value'; fieldId: string; index?: number };

export interface FreeTextPart {
  part: AnswerPart;
  text: string;
}

/** The strings of a value that are user-authored: all of a string field's, the non-choice ones of a select (`other`). */
function freeStrings(field: FieldSpec | undefined, value: unknown): Array<{ text: string; index?: number }> {
  if (field && (field.type === 'number' || field.type === 'boolean')) return [];
  const free = (item: unknown): item is string => typeof item === 'string' && !(field?.type === 'select' && isChoiceId(field, item));
  if (Array.isArray(value)) return value.flatMap((item, index) => (free(item) ? [{ text: item, index }] : []));
  return free(value) ? [{ text: value }] : [];
}

/** Every piece of user-authored text in an answer (AEP-0006 values gating): what the pipeline must pass. */
export function freeTextParts(answer: Answer, fields: readonly FieldSpec[]): FreeTextPart[] {
  const parts: FreeTextPart[] = [];
  if (answer.text !== undefined) parts.push({ part: { kind: 'text' }, text: answer.text });
  const byId = indexFields(fields);
  for (const [fieldId, value] of Object.entries(answer.values ?? {})) {
    for (const { text, index } of freeStrings(byId.get(fieldId), value)) {
      parts.push({ part: index === undefined ? { kind: 'value', fieldId } : { kind: 'value', fieldId, index }, text });
    }
  }
  return parts;
}

/** One free-text part the pipeline changes: what it was, what it becomes, and each replacement. */
export interface PartChange {
  part: AnswerPart;
  original: string;
  redacted: string;
  replacements: Replacement[];
}

export interface AnswerRedaction {
  /** The answer with every free-text part redacted: what "Send redacted" sends. */
  answer: Answer;
  /** The parts the pipeline changes; empty when the answer passes as it is. */
  changes: PartChange[];
}

/**
 * Runs every free-text part of an answer through the §9.4 pipeline. A value
 * under a credential-named field id (`password`, `api_key`) goes whole, as
 * the pipeline does for credential-named keys; structural values pass.
 */
export function redactAnswer(answer: Answer, fields: readonly FieldSpec[], options: RedactionOptions = {}): AnswerRedaction {
  const changes: PartChange[] = [];
  const redactPart = ({ part, text }: FreeTextPart): string => {
    let redacted: Redaction;
    if (part.kind === 'value' && dropsValue(part.fieldId, text)) {
      redacted = { text: SECRET_MARK, replacements: [{ rule: 'secret', start: 0, end: text.length, original: text, replacement: SECRET_MARK, kind: 'field named like a credential', confident: looksLikeSecret(text, 6) }] };
    } else redacted = redactText(text, options);
    if (redacted.replacements.length > 0) changes.push({ part, original: text, redacted: redacted.text, replacements: redacted.replacements });
    return redacted.text;
  };
  const out: Answer = { ...answer };
  const values: FormValues | undefined = answer.values ? { ...answer.values } : undefined;
  for (const free of freeTextParts(answer, fields)) {
    const text = redactPart(free);
    if (free.part.kind === 'text') out.text = text;
    else if (values) {
      const { fieldId, index } = free.part;
      const current = values[fieldId];
      // defineProperty: a field id is agent-authored, and `__proto__` must stay a key.
      const set = (value: unknown) => Object.defineProperty(values, fieldId, { value, enumerable: true, writable: true, configurable: true });
      if (index === undefined) set(text);
      else if (Array.isArray(current)) set(current.map((item: unknown, i) => (i === index ? text : item)));
    }
  }
  if (values) out.values = values;
  return { answer: changes.length > 0 ? out : answer, changes };
}

/**
 * The capture an answer sent exactly as it is declares (AEP-0004 §5,
 * AEP-0001 §8.2): `metadata` with no free text, `redacted` when the pipeline
 * changes none of its free text (the text passed as it is), `full` when it
 * would change some.
 */
export function verbatimCapture(answer: Answer, fields: readonly FieldSpec[], options: RedactionOptions = {}): CaptureLevel {
  if (freeTextParts(answer, fields).length === 0) return 'metadata';
  return redactAnswer(answer, fields, options).changes.length === 0 ? 'redacted' : 'full';
}

/** What the sender chose, and how to run the pipeline. */
export interface CaptureChoice {
  /** Send the text as typed, at capture `full`, although the pipeline would change it. */
  verbatim?: boolean | undefined;
  redaction?: RedactionOptions | undefined;
}

declare const decided: unique symbol;
/** A capture `commandCapture` decided for one answer; only it makes one, so a command cannot carry a capture nobody decided. */
export type DecidedCapture = { readonly ok: true; readonly capture: CaptureLevel; readonly [decided]: true };

/**
 * The capture to declare, or a refusal: the pipeline would change free text
 * nobody chose to send verbatim. The refusal carries the answer redacted, what
 * "Send redacted" sends, so a preview offers exactly what was decided.
 */
export type CaptureDecision = DecidedCapture | { ok: false; changes: PartChange[]; redacted: Answer };

function decide(capture: CaptureLevel): DecidedCapture {
  return { ok: true, capture } as DecidedCapture;
}

/**
 * The capture an answer declares, decided once (AEP-0004 §5, AEP-0003 §9.4):
 * the page and the quick input preview with it, the answer pipeline sends with it.
 */
export function decideCapture(answer: Answer, request: { readonly fields: readonly FieldSpec[] }, choice: CaptureChoice = {}): CaptureDecision {
  return commandCapture(answer, request.fields, choice);
}

/**
 * The `capture` a `control.attention.respond` must declare. `redacted` is a
 * provenance claim (AEP-0002 §5.1 rule 2): it is only ever returned when the
 * pipeline changes none of the free-text parts. Text the pipeline would
 * change goes at `full` when the sender chose `verbatim`, and is refused
 * otherwise: the caller sends the redacted answer instead, or asks.
 */
export function commandCapture(answer: Answer, fields: readonly FieldSpec[], choice: CaptureChoice = {}): CaptureDecision {
  if (freeTextParts(answer, fields).length === 0) return decide('metadata');
  const { answer: redacted, changes } = redactAnswer(answer, fields, choice.redaction);
  if (changes.length === 0) return decide('redacted');
  return choice.verbatim ? decide('full') : { ok: false, changes, redacted };
}
