import type { HonestTextView } from '../src/shared/webviewMessages';
import { el, text } from './dom';

/**
 * How agent text is shown, so a placeholder never passes for the question
 * (AEP-0002 §5.3 `[metadata*]`, AEP-0006): at capture metadata a label is a
 * structural placeholder and is shown as withheld, with the id beside it.
 */

function tag(label: string, title: string): HTMLElement {
  return el('span', { class: 'tag', title }, label);
}

export function fieldLabel(label: HonestTextView, index: number, fieldId: string, type: string, capture: string): HTMLElement {
  if (label.honesty === 'structural') {
    return el(
      'span',
      { class: 'label structural' },
      el('span', { class: 'placeholder' }, `Question ${index + 1} · label withheld at capture `, el('code', {}, capture)),
      el('span', { class: 'meta' }, ' (field ', el('code', {}, fieldId), `, ${type})`),
    );
  }
  return el('span', { class: 'label agent-text' }, label.text, redactionTag(label));
}

export function choiceLabel(label: HonestTextView, index: number, choiceId: string): HTMLElement {
  if (label.honesty === 'structural') {
    return el('span', { class: 'structural' }, el('span', { class: 'placeholder' }, `Choice ${index + 1}`), el('span', { class: 'meta' }, ' (id ', el('code', {}, choiceId), ')'));
  }
  return el('span', { class: 'agent-text' }, label.text);
}

export function promptBlock(prompt: HonestTextView, capture: string): HTMLElement {
  if (prompt.honesty === 'structural') {
    return el(
      'div',
      { class: 'prompt structural', id: 'prompt' },
      el('p', { class: 'note' }, 'The agent withheld its own words at capture ', el('code', {}, capture), '. This summary was synthesized from metadata:'),
      el('blockquote', { class: 'agent-text' }, prompt.text),
    );
  }
  return el('div', { class: 'prompt', id: 'prompt' }, el('blockquote', { class: 'agent-text' }, prompt.text), redactionTag(prompt));
}

function redactionTag(label: HonestTextView): HTMLElement | undefined {
  return label.honesty === 'redacted' ? tag('redacted', 'This text passed the agent\'s redaction pipeline: secrets and personal data were replaced.') : undefined;
}

export { text };
