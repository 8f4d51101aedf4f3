// What a form field expects, in words: one home for the request page's hint
// under a field and the quick input's prompt (issue 15). Each side passes its
// own `t` (see timeText.ts); the English messages here are the bundle keys.
import type { FieldSpec } from '../aep/attention';
import type { Translate } from './timeText';

/** "A number from 1 to 10.", "Pick any.": the field's rule, or undefined when its type says it all. */
export function fieldHint(t: Translate, field: FieldSpec): string | undefined {
  if (field.type === 'number') {
    if (field.min !== undefined && field.max !== undefined) return t('A number from {0} to {1}.', field.min, field.max);
    if (field.min !== undefined) return t('A number of at least {0}.', field.min);
    if (field.max !== undefined) return t('A number of at most {0}.', field.max);
    return t('A number.');
  }
  if (field.type === 'select' && field.multi) return field.other ? t('Pick any, or add your own answer.') : t('Pick any.');
  if (field.type === 'select' && field.other) return t('Pick one, or give your own answer.');
  return undefined;
}
