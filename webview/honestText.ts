import * as l10n from '@vscode/l10n';
import type { PageText } from '../src/shared/webviewMessages';
import { el } from './dom';
import { agentItemWithId, choiceIdNote, fieldIdNote, withheldChoiceLabel, withheldFieldLabel } from '../src/shared/withheldLabelWords';
import { sentenceNodes, slot, SLOTS } from './l10n';
import { withoutReordering } from '../src/base/invisibleText';

// How agent text is shown, so a placeholder never passes for the question
// (AEP-0002 §5.3 `[metadata*]`, AEP-0006): at capture metadata a label is a
// structural placeholder and is shown as withheld, with the id beside it.

function tag(label: string, title: string): HTMLElement {
  return el('span', { class: 'tag', title }, label);
}

/** `uniform`: how the question's own text is shown; a label shown the same way carries no mark of its own. */
export function fieldLabel(label: PageText, index: number, fieldId: string, type: string, capture: string, uniform: PageText['honesty']): HTMLElement {
  if (label.honesty === 'structural') {
    return el(
      'span',
      { class: 'label structural' },
      el('span', { class: 'placeholder' }, ...sentenceNodes(withheldFieldLabel(slot(0), slot(1)), index + 1, el('code', {}, capture))),
      el('span', { class: 'meta' }, ' ', ...sentenceNodes(fieldIdNote(slot(0), slot(1)), el('code', {}, withoutReordering(fieldId)), type)),
    );
  }
  return el('span', { class: 'label agent-text' }, label.text, label.honesty === uniform ? undefined : redactionTag(label));
}

/** `alike`: another choice reads the same (ownItems.ts readAlike): its id is said beside it. */
export function choiceLabel(label: PageText, index: number, choiceId: string, alike = false): HTMLElement {
  if (label.honesty === 'structural') {
    return el(
      'span',
      { class: 'structural' },
      el('span', { class: 'placeholder' }, withheldChoiceLabel(index + 1)),
      el('span', { class: 'meta' }, ' ', ...sentenceNodes(choiceIdNote(slot(0)), el('code', {}, withoutReordering(choiceId)))),
    );
  }
  return el('span', { class: 'agent-text' }, alike ? agentItemWithId(label.text, withoutReordering(choiceId)) : label.text);
}

export function promptBlock(prompt: PageText, capture: string): HTMLElement {
  if (prompt.honesty === 'structural') {
    return el(
      'div',
      { class: 'prompt structural', id: 'prompt' },
      el('p', { class: 'note' }, ...sentenceNodes(l10n.t('The agent withheld its own words at capture {0}. This summary was synthesized from metadata:', ...SLOTS), el('code', {}, capture))),
      el('h1', { class: 'agent-text' }, prompt.text),
    );
  }
  return el('div', { class: 'prompt', id: 'prompt' }, el('h1', { class: 'agent-text' }, prompt.text));
}

/** The request's capture, said once near the question in words (a field says it again only where it differs). */
export function captureMark(capture: string): HTMLElement {
  const words = capture === 'redacted'
    ? l10n.t('Answers are redacted before they are sent: secrets and personal data are replaced.')
    : capture === 'full'
      ? l10n.t('Answers are sent as typed.')
      : capture === 'metadata'
        ? l10n.t('The agent shows only structure: its own words are withheld.')
        : l10n.t('The agent keeps no text of this request.');
  return el('p', { class: 'capture-mark', id: 'capture-mark', 'data-capture': capture }, tag(capture, words), ' ', words);
}

function redactionTag(label: PageText): HTMLElement | undefined {
  return label.honesty === 'redacted' ? tag(l10n.t('redacted'), l10n.t('This text passed the agent\'s redaction pipeline: secrets and personal data were replaced.')) : undefined;
}
