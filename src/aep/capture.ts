import type { Answer, FieldSpec, SelectField } from './attention';
import { captureAtLeast, type CaptureLevel } from './levels';

/** A form answer: field id → value (AEP-0006 `answer.values`). */
export type FormValues = Record<string, unknown>;

function isChoiceId(field: SelectField, value: unknown): boolean {
  return typeof value === 'string' && field.choices.some((choice) => choice.id === value);
}

/** True when a select value (single or multi) names only choice ids, i.e. is structural. */
export function isClosedSelectValue(field: SelectField, value: unknown): boolean {
  const items = Array.isArray(value) ? value : [value];
  return items.every((item) => isChoiceId(field, item));
}

function indexFields(fields: readonly FieldSpec[]): Map<string, FieldSpec> {
  return new Map(fields.map((field) => [field.id, field]));
}

/**
 * Type-dependent gating of `answer.values` (AEP-0006, "values" gating rule):
 * number, boolean and closed-select values are structural and survive at
 * `metadata`; string values and `other` free text are user-authored and need
 * `redacted` or more. Keys without a matching field are dropped. At `none`
 * the envelope-level drop of `data` is the caller's job, so structural values
 * still pass here (capture-gating case "none ceiling …").
 */
export function gateFormValues(fields: readonly FieldSpec[], values: FormValues, ceiling: CaptureLevel): FormValues {
  const freeTextAllowed = captureAtLeast(ceiling, 'redacted');
  const byId = indexFields(fields);
  const out: FormValues = {};
  for (const [key, value] of Object.entries(values)) {
    const field = byId.get(key);
    if (!field) continue;
    if (field.type === 'number' || field.type === 'boolean') out[key] = value;
    else if (field.type === 'select' && isClosedSelectValue(field, value)) out[key] = value;
    else if (freeTextAllowed) out[key] = value;
  }
  return out;
}

/** True when any value of the answer is user-authored free text. */
export function valuesCarryFreeText(fields: readonly FieldSpec[], values: FormValues): boolean {
  const byId = indexFields(fields);
  return Object.entries(values).some(([key, value]) => {
    const field = byId.get(key);
    if (!field) return typeof value === 'string';
    if (field.type === 'number' || field.type === 'boolean') return false;
    if (field.type === 'select') return !isClosedSelectValue(field, value);
    return true;
  });
}

/**
 * The `capture` a `control.attention.respond` must declare (AEP-0004 §5,
 * AEP-0006): `redacted` when it carries any free text (`text`, a string
 * field's value, an `other` answer), otherwise `metadata`.
 */
export function commandCapture(answer: Answer, fields: readonly FieldSpec[]): CaptureLevel {
  if (answer.text !== undefined) return 'redacted';
  if (answer.values && valuesCarryFreeText(fields, answer.values)) return 'redacted';
  return 'metadata';
}
