import type { FieldSpec, SelectField } from '../../src/aep/attention';
import type { FormValues } from '../../src/aep/capture';
import { captureAtLeast, type CaptureLevel } from '../../src/aep/levels';

// The emitter's side of AEP-0006 values gating: the extension only reads
// `answer.values` and never gates them, so the rule lives here for the demo
// agent (test/peers/agent/controlTarget.ts), which must gate what it emits, and for
// the vendored capture-gating corpus (test/fixtures/aep/capture-gating).

/** True when a select value (single or multi) names only choice ids, i.e. is structural. */
function isClosedSelectValue(field: SelectField, value: unknown): boolean {
  const items = Array.isArray(value) ? value : [value];
  return items.every((item) => typeof item === 'string' && field.choices.some((choice) => choice.id === item));
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
  const byId = new Map(fields.map((field) => [field.id, field]));
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
