// A form field's answer from its raw input (a draft, as the page's controls
// hold it and the quick input keeps it): one reading for both, so what the
// page would send and what the quick input sends cannot differ.
import type { BooleanField, NumberField, SelectField, StringField } from '../aep/attention';
import { OTHER_CHOICE_DRAFT, type FieldDraft } from '../shared/webviewMessages';

/** A field either side can answer (a type from a newer revision cannot be). */
export type SimpleField = StringField | NumberField | BooleanField | SelectField;

/**
 * A field's value from its draft: the one reading of the request page's
 * controls (webview/fields.ts reads each control's draft with it) and of the
 * quick input's steps: blank text and no choice are empty (undefined); a
 * number that does not parse stays text, so the check says "Enter a number.";
 * an unchecked box is `false`; "Other…" gives its trimmed text.
 */
export function fieldValue(field: SimpleField, draft: FieldDraft | undefined): unknown {
  const value = draft?.value;
  switch (field.type) {
    case 'string':
      return typeof value === 'string' && value.trim() !== '' ? value : undefined;
    case 'number': {
      const raw = typeof value === 'string' ? value.trim() : '';
      if (raw === '') return undefined;
      const number = Number(raw);
      return Number.isFinite(number) ? number : raw;
    }
    case 'boolean':
      return typeof value === 'boolean' ? value : false;
    case 'select': {
      const other = draft?.other?.trim();
      if (field.multi) {
        if (!Array.isArray(value)) return undefined;
        const picked = value.filter((item) => item !== OTHER_CHOICE_DRAFT);
        if (value.includes(OTHER_CHOICE_DRAFT) && other) picked.push(other);
        return picked.length === 0 ? undefined : picked;
      }
      if (typeof value !== 'string' || value === '') return undefined;
      if (value === OTHER_CHOICE_DRAFT) return other || undefined;
      return value;
    }
  }
}
