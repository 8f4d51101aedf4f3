import * as l10n from '@vscode/l10n';
import type { Answer } from '../src/aep/attention';
import type { AnswerPart, AnswerRedaction } from '../src/aep/capture';
import { credentialKinds } from '../src/aep/credentials';
import type { SendCheck, Sensitivity } from '../src/answer/inlinePlan';
import { OWN_ACTIONS } from '../src/shared/ownActionWords';
import type { PageRequest } from '../src/shared/webviewMessages';
import { credentialName } from '../src/shared/credentialNames';
import { el } from './dom';
import { sentenceNodes, SLOTS } from './l10n';
import { button } from './toolkit';
import { withoutReordering } from '../src/base/invisibleText';

// What the page asks before an answer leaves, when the core's sendCheck
// (src/answer/inlinePlan.ts) says it must: text the redaction pipeline would
// replace, or an answer that may be a credential although nothing would; and
// before an agent's option that reads like one of our buttons
// (src/answer/ownItems.ts optionPassesForOurs), as the quick input asks.

/** How the person chose to send: the answer as typed at capture `full` (`verbatim`), or the pipeline's redacted one. */
export interface SendHow {
  verbatim: boolean;
  redacted: boolean;
}

export interface ConfirmActions {
  send(answer: Answer, how: SendHow): void;
  /** Back to the answer, at the part the pipeline would change (undefined: its start). */
  edit(part: AnswerPart | undefined): void;
}

/** Longest original shown whole in the list of replacements; longer ones show their start and end. */
const SHOWN_CHARS = 200;
/** Most replacements listed; the rest are counted. */
const LISTED = 50;

function elided(original: string): string {
  if (original.length <= SHOWN_CHARS) return original;
  return l10n.t('{0}…{1} ({2} characters)', original.slice(0, 120), original.slice(-40), original.length);
}

/** A field named in a sentence: its label, or "Question 2 (db)" when the label was withheld. */
export function fieldName(request: PageRequest, fieldId: string): string {
  const index = request.fields.findIndex((f) => f.spec.id === fieldId);
  const field = request.fields[index];
  if (!field) return withoutReordering(fieldId);
  return field.label.honesty === 'structural' ? l10n.t('Question {0} ({1})', index + 1, withoutReordering(field.spec.id)) : field.label.text;
}

function partName(request: PageRequest, part: AnswerPart, answer: Answer): string {
  if (part.kind === 'text') return answer.option !== undefined ? l10n.t('Reason') : l10n.t('Reply');
  return fieldName(request, part.fieldId);
}

function sensitivityText(request: PageRequest, sensitive: Sensitivity): string {
  switch (sensitive.kind) {
    case 'auth':
      return l10n.t('This is an authentication request: what you type may be a credential.');
    case 'secret-field':
      return l10n.t('The field "{0}" asks for a secret.', fieldName(request, sensitive.fieldId));
    case 'secret-words':
      return l10n.t('The field "{0}" asks for a secret: your reply in words is kept as one.', fieldName(request, sensitive.fieldId));
  }
}

/** The confirmation to show for `check`, and the button that takes the focus. */
export function sendConfirmation(request: PageRequest, answer: Answer, check: Exclude<SendCheck, { kind: 'send' }>, actions: ConfirmActions): { element: HTMLElement; focus: HTMLElement } {
  const { children, focus } = check.kind === 'redaction'
    ? redactionChoice(request, answer, check.redaction, check.sensitive ? sensitivityText(request, check.sensitive) : undefined, actions)
    : sensitiveChoice(answer, sensitivityText(request, check.sensitive), actions);
  return { element: el('div', { class: 'confirm', role: 'alertdialog', 'aria-labelledby': 'confirm-text' }, ...children), focus };
}

/**
 * An agent's option whose words read like one of ours: clicked, it is not
 * sent until the person says it is the agent's option they mean. "Back"
 * takes the focus, so a second Enter or a double click does not send it.
 */
export function ownWordsConfirmation(words: string, optionId: string, actions: { send(): void; back(): void }): { element: HTMLElement; focus: HTMLElement } {
  const back = button(OWN_ACTIONS.backToChoices.words(), 'primary', () => actions.back());
  const send = button(OWN_ACTIONS.sendAgentsOption.words(), 'secondary', () => actions.send());
  back.id = 'confirm-back';
  send.id = 'confirm-send-option';
  const element = el(
    'div',
    { class: 'confirm', role: 'alertdialog', 'aria-labelledby': 'confirm-text' },
    el('p', { id: 'confirm-text' }, l10n.t('"{0}" is an option the agent offers, not an item of this editor. Send it?', words)),
    el('p', { class: 'note' }, l10n.t('Sends the option with id {0} to the agent.', optionId)),
    el('div', { class: 'actions' }, back, send),
  );
  return { element, focus: back };
}

function redactionChoice(request: PageRequest, answer: Answer, redaction: AnswerRedaction, sensitive: string | undefined, actions: ConfirmActions) {
  const replacements = redaction.changes.flatMap((change) => change.replacements.map((replacement) => ({ part: change.part, replacement })));
  const kinds = credentialKinds(replacements.map((r) => r.replacement));
  const intro = kinds.length > 0
    ? l10n.t('Your answer looks like it contains a credential ({0}).', kinds.map(credentialName).join(', '))
    : l10n.t('Your answer contains text that the redaction pipeline replaces before it leaves this editor.');
  const list = el('ul', { class: 'replacements', id: 'confirm-replacements', 'aria-label': l10n.t('What would be replaced') });
  for (const { part, replacement } of replacements.slice(0, LISTED)) {
    const kind = replacement.kind !== undefined && replacement.confident ? credentialName(replacement.kind) : undefined;
    const item = el('li', {}, ...sentenceNodes(l10n.t('{0}: {1} → {2}', ...SLOTS), partName(request, part, answer), el('code', { class: 'original' }, elided(replacement.original)), el('code', { class: 'replacement' }, replacement.replacement)));
    if (kind) item.append(' ', l10n.t('({0})', kind));
    list.append(item);
  }
  if (replacements.length > LISTED) list.append(el('li', {}, l10n.t('…and {0} more.', replacements.length - LISTED)));
  const redacted = button(l10n.t('Send redacted'), 'primary', () => actions.send(redaction.answer, { verbatim: false, redacted: true }));
  const verbatim = button(l10n.t('Send as typed'), 'secondary', () => actions.send(answer, { verbatim: true, redacted: false }));
  const edit = button(l10n.t('Edit answer'), 'secondary', () => actions.edit(redaction.changes[0]?.part));
  redacted.id = 'confirm-redacted';
  verbatim.id = 'confirm-verbatim';
  edit.id = 'confirm-edit';
  const children = [
    el('p', { id: 'confirm-text' }, `${intro} ${l10n.t('Answers are kept in the agent\'s session history and relayed by the hub. Before sending, the redaction pipeline would replace:')}`),
    list,
    sensitive ? el('p', {}, sensitive) : undefined,
    el('p', { class: 'note', id: 'confirm-verbatim-note' }, l10n.t('Send as typed sends your text unchanged, at capture full: it is kept verbatim in the agent\'s session history.')),
    el('div', { class: 'actions' }, redacted, verbatim, edit),
  ];
  return { children, focus: redacted };
}

function sensitiveChoice(answer: Answer, reason: string, actions: ConfirmActions) {
  const edit = button(l10n.t('Edit answer'), 'primary', () => actions.edit(undefined));
  const send = button(l10n.t('Send'), 'secondary', () => actions.send(answer, { verbatim: false, redacted: false }));
  edit.id = 'confirm-edit';
  send.id = 'confirm-send';
  const children = [
    el('p', { id: 'confirm-text' }, `${reason} ${l10n.t('The redaction pipeline finds nothing to replace, so your answer is sent as typed and kept in the agent\'s session history. Send it?')}`),
    el('div', { class: 'actions' }, edit, send),
  ];
  return { children, focus: edit };
}
