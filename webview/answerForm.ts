import { credentialIn, freeTexts, type CredentialKind } from '../src/aep/credentials';
import { validateFormValues } from '../src/aep/formValidation';
import type { AnswerMessage, RequestView, WebviewState } from '../src/shared/webviewMessages';
import { el } from './dom';
import { createFieldWidget, toFieldSpec, type FieldWidget } from './fields';
import { choiceLabel } from './honestText';
import { t } from './l10n';
import { button, isButton, isMultilineText, textControl, type Control } from './toolkit';

type Sender = (answer: AnswerMessage) => void;
type Draft = Omit<WebviewState, 'key'>;

/** The protocol core names the kind of credential it found in English; the page says it in the user's language. */
function credentialName(kind: CredentialKind): string {
  switch (kind) {
    case 'private key': return t('private key');
    case 'AWS access key': return t('AWS access key');
    case 'bearer token': return t('bearer token');
    case 'password or key assignment': return t('password or key assignment');
    case 'JSON Web Token': return t('JSON Web Token');
  }
}

/**
 * The part of the page that answers: the form's fields, or option buttons and
 * a free-text reply, or (for an out-of-band request) the options as
 * information only. Validation is the protocol core's, inline as the user
 * types and again on send, with focus moved to the first problem.
 */
export class AnswerArea {
  readonly element: HTMLElement;
  private readonly widgets: FieldWidget[] = [];
  private readonly buttons: Array<HTMLElement & { disabled: boolean }> = [];
  private reply: Control<string> | undefined;
  private readonly message: HTMLElement;
  private touched = new Set<string>();
  private closed = false;
  private readonly retryButton: HTMLElement & { disabled: boolean };
  private confirmation: HTMLElement | undefined;
  /** The last answer handed to the host, for the read-only summary once it is accepted. */
  private lastSent: AnswerMessage | undefined;
  private readonly changeListeners: Array<() => void> = [];
  private retryListener: (() => void) | undefined;

  constructor(private readonly request: RequestView, private readonly send: Sender) {
    this.retryButton = button(t('Send again (same answer)'), 'secondary', () => this.retryListener?.());
    this.retryButton.id = 'retry';
    this.retryButton.hidden = true;
    this.message = el('div', { class: 'outcome', id: 'outcome', role: 'status', 'aria-live': 'polite' });
    this.element = el('section', { class: 'answer', 'aria-label': t('Your answer') });
    if (request.problem) {
      this.element.append(el('p', { class: 'problem', role: 'alert' }, t('This request cannot be shown: {0}', request.problem)));
      this.close();
    } else if (!request.answerableHere) {
      this.renderInformational();
    } else if (request.renderKind === 'form') {
      this.renderForm();
    } else {
      this.renderReply();
    }
    this.element.append(this.message);
    if (!this.closed) this.element.append(this.retryButton);
    // Enter submits a form; inside a text area (where Enter is a new line) Ctrl+Enter does.
    this.element.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter' || request.renderKind !== 'form') return;
      if (isButton(event.target) || (isMultilineText(event.target) && !(event.ctrlKey || event.metaKey))) return;
      event.preventDefault();
      this.submitForm();
    });
    this.element.addEventListener('input', () => this.changed());
    this.element.addEventListener('change', () => this.changed());
  }

  /** Called whenever the user's unsent input changes (to keep it with `setState`). */
  onDidChangeDraft(listener: () => void): void {
    this.changeListeners.push(listener);
  }

  draft(): Draft {
    const fields: NonNullable<Draft['fields']> = {};
    for (const widget of this.widgets) fields[widget.field.id] = widget.draft();
    const reply = this.reply?.get();
    return { ...(this.widgets.length > 0 ? { fields } : {}), ...(reply ? { reply } : {}) };
  }

  restoreDraft(draft: Draft): void {
    for (const widget of this.widgets) {
      const saved = draft.fields?.[widget.field.id];
      if (saved) widget.restore(saved);
    }
    if (draft.reply !== undefined) this.reply?.set(draft.reply);
  }

  /** After a timeout: offer to send the same command again. `undefined` withdraws the offer. */
  offerRetry(listener: (() => void) | undefined): void {
    this.retryListener = listener;
    this.retryButton.hidden = listener === undefined;
    this.retryButton.disabled = listener === undefined || this.closed;
  }

  /** The answer was accepted: what was sent, read-only, once the request is over. */
  showSummary(): void {
    const sent = this.lastSent;
    if (!sent || this.element.querySelector('.summary')) return;
    const list = el('dl', {});
    const row = (term: string, value: string) => list.append(el('dt', {}, term), el('dd', {}, value));
    if (sent.option !== undefined) {
      const index = this.request.options.findIndex((o) => o.id === sent.option);
      const option = this.request.options[index];
      row(t('Option'), option && option.label.honesty !== 'structural' ? option.label.text : t('Option {0} ({1})', index + 1, sent.option));
    }
    if (sent.text !== undefined) row(sent.option !== undefined ? t('Reason') : t('Reply'), sent.text);
    this.request.fields.forEach((field, index) => {
      const value = sent.values?.[field.id];
      if (value === undefined) return;
      const term = field.label.honesty === 'structural' ? t('Question {0} ({1})', index + 1, field.id) : field.label.text;
      const shown = (one: unknown): string => {
        if (typeof one === 'boolean') return one ? t('Yes') : t('No');
        const choice = field.choices?.find((c) => c.id === one);
        if (choice) return choice.label.honesty === 'structural' ? t('Choice {0}', choice.id) : choice.label.text;
        return String(one);
      };
      row(term, Array.isArray(value) ? value.map(shown).join(', ') : shown(value));
    });
    this.element.append(el('section', { class: 'summary', 'aria-label': t('What you sent') }, el('h3', {}, t('What you sent')), list));
  }

  focusFirst(): void {
    (this.widgets[0] ?? undefined)?.focus();
    if (this.widgets.length === 0) this.buttons[0]?.focus();
  }

  /** While an answer is on its way, nothing can be sent twice. */
  setBusy(busy: boolean): void {
    const disabled = busy || this.closed;
    this.widgets.forEach((widget) => widget.setDisabled(disabled));
    this.buttons.forEach((b) => (b.disabled = disabled));
    this.reply?.setDisabled(disabled);
  }

  showMessage(text: string, tone: 'info' | 'success' | 'error'): void {
    this.message.textContent = text;
    this.message.dataset['tone'] = tone;
  }

  markField(fieldId: string, message: string): void {
    const widget = this.widgets.find((w) => w.field.id === fieldId);
    if (!widget) return;
    widget.setError(message);
    widget.focus();
  }

  /** The request is over (resolved, timed out, expired, session ended): nothing more can be sent. */
  close(): void {
    this.closed = true;
    this.setBusy(true);
    this.offerRetry(undefined);
    this.confirmation?.remove();
    this.confirmation = undefined;
  }

  private renderInformational(): void {
    const via = (this.request.respondVia ?? []).join(', ') || t('another channel');
    this.element.append(el('p', { class: 'informational' }, t('This request is answered outside VS Code (respond_via: {0}). It is shown here for information; nothing can be sent from this editor.', via)));
    if (this.request.options.length > 0) {
      const list = el('ul', { class: 'options-info', 'aria-label': t('Options offered elsewhere') });
      this.request.options.forEach((option, index) => list.append(el('li', {}, choiceLabel(option.label, index, option.id))));
      this.element.append(list);
    }
    this.closed = true;
  }

  private renderForm(): void {
    const form = el('form', { class: 'fields', novalidate: '' });
    const singleString = this.request.fields.filter((f) => f.type === 'string').length === 1;
    this.request.fields.forEach((field, index) => {
      const widget = createFieldWidget(field, index, this.request.capture, singleString && this.request.fields.length <= 2);
      widget.onInput(() => {
        this.touched.add(field.id);
        this.checkOne(widget);
      });
      this.widgets.push(widget);
      form.append(widget.element);
    });
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.submitForm();
    });
    const send = button(t('Send answer'), 'primary', () => this.submitForm());
    send.id = 'send';
    this.buttons.push(send);
    this.element.append(form, el('div', { class: 'actions' }, send, el('span', { class: 'shortcut' }, t('Enter'))));
  }

  private renderReply(): void {
    const request = this.request;
    const hasOptions = request.options.length > 0;
    if (hasOptions) {
      const row = el('div', { class: 'options', role: 'group', 'aria-label': t('Answer with an option') });
      request.options.forEach((option, index) => {
        const label = option.label.honesty === 'structural' ? t('Option {0} ({1})', index + 1, option.id) : option.label.text;
        const b = button(label, index === 0 ? 'primary' : 'secondary', () => this.sendOption(option.id));
        b.dataset['option'] = option.id;
        this.buttons.push(b);
        row.append(b);
      });
      this.element.append(row);
    }
    const replyLabel = el('label', { id: 'reply-label', class: 'field-label' }, hasOptions ? t('Reason or reply (optional, sent as text)') : t('Your reply'));
    this.reply = textControl({ id: 'reply', labelId: 'reply-label', multiline: true, placeholder: hasOptions ? t('Optional') : t('Type your answer') });
    this.element.append(el('div', { class: 'field' }, replyLabel, this.reply.element));
    const sendText = button(hasOptions ? t('Send reply only') : t('Send reply'), hasOptions ? 'secondary' : 'primary', () => this.sendText());
    sendText.id = 'send';
    this.buttons.push(sendText);
    this.element.append(el('div', { class: 'actions' }, sendText));
  }

  private checkOne(widget: FieldWidget): void {
    const result = validateFormValues([toFieldSpec(widget.field)], widget.value() === undefined ? {} : { [widget.field.id]: widget.value() });
    widget.setError(result.ok ? undefined : result.errors[0]?.message);
  }

  private submitForm(): void {
    if (this.closed) return;
    const values: Record<string, unknown> = {};
    for (const widget of this.widgets) {
      const value = widget.value();
      if (value !== undefined) values[widget.field.id] = value;
    }
    const result = validateFormValues(this.request.fields.map(toFieldSpec), values);
    this.widgets.forEach((widget) => widget.setError(undefined));
    if (!result.ok) {
      for (const error of result.errors) this.widgets.find((w) => w.field.id === error.fieldId)?.setError(error.message);
      const first = this.widgets.find((w) => result.errors.some((e) => e.fieldId === w.field.id));
      first?.focus();
      this.showMessage(result.errors.length === 1 ? t('One field needs attention before sending.') : t('{0} fields need attention before sending.', result.errors.length), 'error');
      return;
    }
    this.deliver({ values: result.values });
  }

  private sendOption(optionId: string): void {
    if (this.closed) return;
    const reason = this.reply?.get().trim();
    this.deliver(reason ? { option: optionId, text: reason } : { option: optionId });
  }

  private sendText(): void {
    if (this.closed) return;
    const text = this.reply?.get().trim();
    if (!text) {
      this.showMessage(t('Type a reply first.'), 'error');
      this.reply?.focus();
      return;
    }
    this.deliver({ text });
  }

  /**
   * Hands the answer to the host, after asking when free text in it looks
   * like a credential: answers are kept in the session's history and
   * relayed to whoever watches it (AEP-0003 §9.4 lists what adapters must
   * redact; a person should not send that by accident).
   */
  private deliver(answer: AnswerMessage, confirmed = false): void {
    const credential = confirmed ? undefined : freeTexts(answer).map(credentialIn).find((kind) => kind !== undefined);
    if (!credential) {
      this.confirmation?.remove();
      this.confirmation = undefined;
      this.lastSent = answer;
      this.offerRetry(undefined);
      this.send(answer);
      return;
    }
    this.confirmation?.remove();
    const edit = button(t('Edit answer'), 'primary', () => {
      this.confirmation?.remove();
      this.confirmation = undefined;
      this.focusFirst();
    });
    const sendAnyway = button(t('Send anyway'), 'secondary', () => this.deliver(answer, true));
    edit.id = 'confirm-edit';
    sendAnyway.id = 'confirm-send';
    this.confirmation = el(
      'div',
      { class: 'confirm', role: 'alertdialog', 'aria-labelledby': 'confirm-text' },
      el('p', { id: 'confirm-text' }, t('Your answer looks like it contains a credential ({0}). Answers are kept in the agent\'s session history and relayed by the hub. Send it anyway?', credentialName(credential))),
      el('div', { class: 'actions' }, edit, sendAnyway),
    );
    this.element.append(this.confirmation);
    edit.focus();
  }

  private changed(): void {
    if (this.closed) return;
    this.changeListeners.forEach((listener) => listener());
  }
}
