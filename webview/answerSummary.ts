import * as l10n from '@vscode/l10n';
import type { Answer } from '../src/aep/attention';
import type { PageRequest } from '../src/shared/webviewMessages';
import { el } from './dom';
import type { SendHow } from './sendConfirmation';

/** What was sent: the answer that went out from this page and how, or an answer kept in the history with the host's note on it. */
export type SentAnswer = { answer: Answer } & (SendHow | { note?: string | undefined });

/** The answer that was sent, read-only, part by part, with how it was sent. */
export function answerSummary(request: PageRequest, last: SentAnswer): HTMLElement {
  const sent = last.answer;
  const list = el('dl', {});
  const row = (term: string, value: string) => list.append(el('dt', {}, term), el('dd', {}, value));
  if (sent.option !== undefined) {
    const index = request.options.findIndex((o) => o.id === sent.option);
    const option = request.options[index];
    row(l10n.t('Option'), option && option.label.honesty !== 'structural' ? option.label.text : l10n.t('Option {0} ({1})', index + 1, sent.option));
  }
  if (sent.text !== undefined) row(sent.option !== undefined ? l10n.t('Reason') : l10n.t('Reply'), sent.text);
  request.fields.forEach((field, index) => {
    const value = sent.values?.[field.spec.id];
    if (value === undefined) return;
    const term = field.label.honesty === 'structural' ? l10n.t('Question {0} ({1})', index + 1, field.spec.id) : field.label.text;
    const shown = (one: unknown): string => {
      if (typeof one === 'boolean') return one ? l10n.t('Yes') : l10n.t('No');
      const choice = field.choices.find((c) => c.id === one);
      if (choice) return choice.label.honesty === 'structural' ? l10n.t('Choice {0}', choice.id) : choice.label.text;
      return String(one);
    };
    row(term, Array.isArray(value) ? value.map(shown).join(', ') : shown(value));
  });
  const how = 'note' in last ? last.note : 'verbatim' in last && last.verbatim
    ? l10n.t('Sent as typed, at capture full: kept verbatim in the agent\'s session history.')
    : 'redacted' in last && last.redacted ? l10n.t('Sent redacted: the redaction pipeline replaced parts of your answer, as listed before sending.') : undefined;
  return el('section', { class: 'summary', 'aria-label': l10n.t('What you sent') }, el('h3', {}, l10n.t('What you sent')), list, how ? el('p', { class: 'note' }, how) : undefined);
}
