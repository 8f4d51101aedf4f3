import type { FieldSpec, SelectField } from './attention';
import type { FormValues } from './capture';

/**
 * What is wrong with one field's value, as a code with what the wording
 * needs; only the UI words it (src/shared/problemWords.ts), so the rule
 * lives here and the sentence in the person's language there.
 * `other`: the field also takes the person's own answer.
 */
export type FieldProblem =
  | { code: 'required' }
  | { code: 'required-unsupported'; declaredType: string }
  | { code: 'unsupported'; declaredType: string }
  | { code: 'not-text' }
  | { code: 'not-boolean' }
  | { code: 'not-number' }
  | { code: 'below-min'; min: number }
  | { code: 'above-max'; max: number }
  | { code: 'not-a-list' }
  | { code: 'repeated-choice' }
  | { code: 'unlisted-choices'; other: boolean }
  | { code: 'unlisted-choice'; other: boolean }
  /** A key of the answer that is no field of the form (`fieldId` is that key). */
  | { code: 'unknown-field' };

export type FieldProblemCode = FieldProblem['code'];

/** One problem with one field. */
export interface FieldError {
  fieldId: string;
  problem: FieldProblem;
}

export type FormCheck = { ok: true; values: FormValues } | { ok: false; errors: readonly [FieldError, ...FieldError[]] };

/** An unanswered field: absent, blank text, or no choice picked. */
export function isEmptyValue(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  return false;
}

function checkSelect(field: SelectField, value: unknown): FieldProblem | undefined {
  const isChoice = (item: unknown) => typeof item === 'string' && field.choices.some((c) => c.id === item);
  const isOther = (item: unknown) => field.other && typeof item === 'string' && item.trim() !== '';
  if (field.multi) {
    if (!Array.isArray(value)) return { code: 'not-a-list' };
    if (new Set(value).size !== value.length) return { code: 'repeated-choice' };
    if (!value.every((item) => isChoice(item) || isOther(item))) return { code: 'unlisted-choices', other: field.other };
    return undefined;
  }
  if (isChoice(value) || isOther(value)) return undefined;
  return { code: 'unlisted-choice', other: field.other };
}

/**
 * The emitter's own rules for one field's value (AEP-0006: a select value
 * must be a choice id unless `other` is true; plus the types of field_spec).
 * The value must already be non-empty; emptiness is `validateFormValues`'s call.
 */
export function checkFieldValue(field: FieldSpec, value: unknown): FieldProblem | undefined {
  switch (field.type) {
    case 'string':
      return typeof value === 'string' ? undefined : { code: 'not-text' };
    case 'boolean':
      return typeof value === 'boolean' ? undefined : { code: 'not-boolean' };
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) return { code: 'not-number' };
      if (field.min !== undefined && value < field.min) return { code: 'below-min', min: field.min };
      if (field.max !== undefined && value > field.max) return { code: 'above-max', max: field.max };
      return undefined;
    case 'select':
      return checkSelect(field, value);
    case 'unsupported':
      return { code: 'unsupported', declaredType: field.declaredType };
  }
}

/**
 * Validates a whole `answer.values` map before it is sent, so the person sees
 * the emitter's `invalid` nack inline instead (AEP-0006: required fields
 * covered, select values are choice ids unless `other`). Empty optional fields
 * are omitted from the result rather than sent as `""`; keys that are not
 * fields of the form are refused.
 */
export function validateFormValues(fields: readonly FieldSpec[], values: FormValues): FormCheck {
  const errors: FieldError[] = [];
  const out: FormValues = {};
  const known = new Set(fields.map((f) => f.id));
  for (const field of fields) {
    const value = Object.hasOwn(values, field.id) ? values[field.id] : undefined;
    if (isEmptyValue(value)) {
      if (field.required) {
        errors.push({
          fieldId: field.id,
          problem: field.type === 'unsupported' ? { code: 'required-unsupported', declaredType: field.declaredType } : { code: 'required' },
        });
      }
      continue;
    }
    const problem = checkFieldValue(field, value);
    if (problem) errors.push({ fieldId: field.id, problem });
    else out[field.id] = value;
  }
  for (const key of Object.keys(values)) {
    if (!known.has(key)) errors.push({ fieldId: key, problem: { code: 'unknown-field' } });
  }
  const [first, ...rest] = errors;
  return first ? { ok: false, errors: [first, ...rest] } : { ok: true, values: out };
}
