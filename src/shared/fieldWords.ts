// What a form field expects, in words: one home for the request page's hint
// under a field and the quick input's prompt (issue 15). Translated on both
// sides, as timeText.ts is.
import * as l10n from '@vscode/l10n';
import type { FieldSpec } from '../aep/attention';

/** "A number from 1 to 10.", "Pick any.": the field's rule, or undefined when its type says it all. */
export function fieldHint(field: FieldSpec): string | undefined {
  if (field.type === 'number') {
    if (field.min !== undefined && field.max !== undefined) return l10n.t('A number from {0} to {1}.', field.min, field.max);
    if (field.min !== undefined) return l10n.t('A number of at least {0}.', field.min);
    if (field.max !== undefined) return l10n.t('A number of at most {0}.', field.max);
    return l10n.t('A number.');
  }
  if (field.type === 'select' && field.multi) return field.other ? l10n.t('Pick any, or add your own answer.') : l10n.t('Pick any.');
  if (field.type === 'select' && field.other) return l10n.t('Pick one, or give your own answer.');
  return undefined;
}
