import type { FieldSpec, SelectField } from './attention';
import type { FormValues } from './capture';

/** One problem with one field, worded for the person filling in the form. */
export interface FieldError {
  fieldId: string;
  message: string;
}

export type FormCheck = { ok: true; values: FormValues } | { ok: false; errors: FieldError[] };

/** An unanswered field: absent, blank text, or no choice picked. */
export function isEmptyValue(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  return false;
}

function checkSelect(field: SelectField, value: unknown): string | undefined {
  const isChoice = (item: unknown) => typeof item === 'string' && field.choices.some((c) => c.id === item);
  const isOther = (item: unknown) => field.other && typeof item === 'string' && item.trim() !== '';
  if (field.multi) {
    if (!Array.isArray(value)) return 'Choose from the list.';
    if (new Set(value).size !== value.length) return 'Each choice can be picked only once.';
    if (!value.every((item) => isChoice(item) || isOther(item))) {
      return field.other ? 'Pick listed choices, or type your own answer.' : 'Pick only the listed choices.';
    }
    return undefined;
  }
  if (isChoice(value) || isOther(value)) return undefined;
  return field.other ? 'Pick a listed choice, or type your own answer.' : 'Pick one of the listed choices.';
}

/**
 * The emitter's own rules for one field's value (AEP-0006: a select value
 * must be a choice id unless `other` is true; plus the types of field_spec).
 * The value must already be non-empty; emptiness is `validateFormValues`'s call.
 */
export function checkFieldValue(field: FieldSpec, value: unknown): string | undefined {
  switch (field.type) {
    case 'string':
      return typeof value === 'string' ? undefined : 'Enter text.';
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'Choose yes or no.';
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'Enter a number.';
      if (field.min !== undefined && value < field.min) return `Enter a number of at least ${field.min}.`;
      if (field.max !== undefined && value > field.max) return `Enter a number of at most ${field.max}.`;
      return undefined;
    case 'select':
      return checkSelect(field, value);
    case 'unsupported':
      return `This extension cannot answer a field of type "${field.declaredType}".`;
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
          message:
            field.type === 'unsupported'
              ? `This required field has a type this extension cannot answer ("${field.declaredType}").`
              : 'This field is required.',
        });
      }
      continue;
    }
    const problem = checkFieldValue(field, value);
    if (problem) errors.push({ fieldId: field.id, message: problem });
    else out[field.id] = value;
  }
  for (const key of Object.keys(values)) {
    if (!known.has(key)) errors.push({ fieldId: key, message: `"${key}" is not a field of this form.` });
  }
  return errors.length === 0 ? { ok: true, values: out } : { ok: false, errors };
}
