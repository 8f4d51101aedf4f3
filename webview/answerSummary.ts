import * as l10n from '@vscode/l10n';
import type { Answer } from '../src/aep/attention';
import type { PageRecorded, PageRequest } from '../src/shared/webviewMessages';
import { agentItemWithId, withheldChoiceLabel, withheldOptionLabel } from '../src/shared/withheldLabelWords';
import { el } from './dom';
import type { SendHow } from './sendConfirmation';
import { withoutReordering } from '../src/base/invisibleText';
import { readAlike } from '../src/answer/ownItems';

/** What was sent: the answer that went out from this page and how, or an answer kept in the history with the host's note on it. */
export type SentAnswer = { answer: Answer } & (SendHow | { note?: string | undefined });

/** The answer that was sent, read-only, part by part, with how it was sent. */
export function answerSummary(request: PageRequest, last: SentAnswer): HTMLElement {
  const list = answerRows(request, last.answer);
  const how = 'note' in last ? last.note : 'verbatim' in last && last.verbatim
    ? l10n.t('Sent as typed, at capture full: kept verbatim in the agent\'s session history.')
    : 'redacted' in last && last.redacted ? l10n.t('Sent redacted: the redaction pipeline replaced parts of your answer, as listed before sending.') : undefined;
  return el('section', { class: 'summary', 'aria-label': l10n.t('What you sent') }, el('h3', {}, l10n.t('What you sent')), list, how ? el('p', { class: 'note' }, how) : undefined);
}

/**
 * The answer the agent recorded (AEP-0002 §5.3: what it applied) when it is not the one sent from here:
 * the agent's words, as text, with the channel and responder it names.
 */
export function recordedBlock(request: PageRequest, recorded: PageRecorded): HTMLElement {
  const list = answerRows(request, recorded.answer ?? {});
  if (recorded.via !== undefined) {
    list.append(el('dt', {}, l10n.t('Through')), el('dd', {}, recorded.via === 'oob' ? l10n.t('the agent\'s own interface (out of band)')
      : recorded.via === 'control' ? l10n.t('a control command') : recorded.via));
  }
  if (recorded.by !== undefined) list.append(el('dt', {}, l10n.t('By')), el('dd', {}, recorded.by));
  const note = recorded.verdict === 'differs' ? l10n.t('The agent recorded this for your answer; it is not what you sent.')
    : recorded.verdict === 'unconfirmed' ? l10n.t('The agent recorded this for your answer. Its text is withheld, redacted or masked here, so it cannot be checked against what you sent; everything else matches.')
    : l10n.t('Recorded for an answer that was not sent from here.');
  return el('section', { class: 'recorded', 'aria-label': l10n.t('What the agent recorded') }, el('h3', {}, l10n.t('What the agent recorded')), list, el('p', { class: 'note' }, note));
}

function answerRows(request: PageRequest, sent: Answer): HTMLElement {
  const list = el('dl', {});
  // Ids and values are the agent's: drawn without the bidi controls that reorder them (src/base/invisibleText.ts).
  const row = (term: string, value: string) => list.append(el('dt', {}, withoutReordering(term)), el('dd', {}, withoutReordering(value)));
  // Named as the page's buttons and choices name them: one that reads like another with its id (ownItems.ts readAlike).
  const named = (label: string, id: string, alike: boolean | undefined) => (alike ? agentItemWithId(label, id) : label);
  if (sent.option !== undefined) {
    const index = request.options.findIndex((o) => o.id === sent.option);
    const option = request.options[index];
    // An agent's record may name an option the request never offered.
    row(l10n.t('Option'), option && option.label.honesty !== 'structural' ? named(option.label.text, option.id, readAlike(request.options.map((o) => o.label.text))[index])
      : option ? withheldOptionLabel(index + 1, sent.option) : l10n.t('{0} (not one of the options offered)', sent.option));
  }
  if (sent.text !== undefined) row(sent.option !== undefined ? l10n.t('Reason') : l10n.t('Reply'), sent.text);
  request.fields.forEach((field, index) => {
    const value = sent.values?.[field.spec.id];
    if (value === undefined) return;
    const term = field.label.honesty === 'structural' ? l10n.t('Question {0} ({1})', index + 1, field.spec.id) : field.label.text;
    const alike = readAlike(field.choices.map((c) => c.label.text));
    const shown = (one: unknown): string => {
      if (typeof one === 'boolean') return one ? l10n.t('Yes') : l10n.t('No');
      const at = field.choices.findIndex((c) => c.id === one);
      const choice = field.choices[at];
      if (choice) return choice.label.honesty === 'structural' ? withheldChoiceLabel(choice.id) : named(choice.label.text, choice.id, alike[at]);
      return String(one);
    };
    row(term, Array.isArray(value) ? value.map(shown).join(', ') : shown(value));
  });
  return list;
}
