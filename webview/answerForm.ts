import * as l10n from '@vscode/l10n';
import type { Answer, FieldSpec } from '../src/aep/attention';
import type { AnswerPart } from '../src/aep/capture';
import { wordsReplyAccepted } from '../src/aep/answerCheck';
import { validateFormValues } from '../src/aep/formValidation';
import { secretAskingOfChecked, sendCheck } from '../src/answer/inlinePlan';
import { optionPassesForOurs, readAlike } from '../src/answer/ownItems';
import { fieldProblemText } from '../src/shared/problemWords';
import { fieldAsksForSecret, maskStoredText, requestAsksForSecret, setStoredSecretValues, wordsAskForSecret } from '../src/aep/secretAsking';
import type { SendingBlock } from '../src/aep/reachability';
import { agentItemWithId, withheldOptionLabel } from '../src/shared/withheldLabelWords';
import type { FieldDraft, PageRequest, WebviewState } from '../src/shared/webviewMessages';
import { answerSummary } from './answerSummary';
import { el } from './dom';
import { FieldList } from './fieldList';
import { createFieldWidget, type FieldWidget } from './fields';
import { choiceLabel } from './honestText';
import { ownWordsConfirmation, sendConfirmation, type SendHow } from './sendConfirmation';
import { button, isButton, isMultilineText, textControl, type Control } from './toolkit';
import { withoutReordering } from '../src/base/invisibleText';

/** `verbatim`: the user chose to send text the redaction pipeline would change as typed (capture `full`). */
type Sender = (answer: Answer, verbatim: boolean) => void;
type Draft = Omit<WebviewState, 'key'>;

/** A field's draft with its text through the stored masking; choice ids and booleans pass as they are. */
function maskedDraft(draft: FieldDraft): FieldDraft {
  const value = typeof draft.value === 'string' ? maskStoredText(draft.value) : draft.value;
  return { ...(value !== undefined ? { value } : {}), ...(draft.other !== undefined ? { other: maskStoredText(draft.other) } : {}) };
}

/**
 * The part of the page that answers: the form's fields, or option buttons and
 * a free-text reply, or (for an out-of-band request) the options as
 * information only. Validation is the protocol core's, inline as the user
 * types and again on send, with focus moved to the first problem.
 */
export class AnswerArea {
  readonly element: HTMLElement;
  /** The form's fields; undefined for a request that is not a form. */
  private fields: FieldList | undefined;
  private readonly buttons: Array<HTMLElement & { disabled: boolean }> = [];
  private reply: Control<string> | undefined;
  private readonly message: HTMLElement;
  private touched = new Set<string>();
  private closed = false;
  private busy = false;
  /** The agent does not take answers from editors (roster `not-accepting`): sending is off until the roster says otherwise. */
  private blocked = false;
  private blockedNote: HTMLElement | undefined;
  private readonly retryButton: HTMLElement & { disabled: boolean };
  private confirmation: HTMLElement | undefined;
  /** The last answer handed to the host (the redacted one, when that was chosen), for the read-only summary once it is accepted. */
  private lastSent: ({ answer: Answer } & SendHow) | undefined;
  private readonly changeListeners: Array<() => void> = [];
  private retryListener: (() => void) | undefined;
  /** A form's "Reply in words instead…": the reply box it opens, once opened. */
  private words: HTMLElement | undefined;

  /** `openSettings`: what "Open Settings" does where the request's content is withheld by this window's own setting. */
  constructor(private request: PageRequest, private readonly send: Sender, openSettings?: () => void) {
    // The draft kept with setState is masked with the same always-secret values as the answer.
    setStoredSecretValues(request.secretValues ?? []);
    this.retryButton = button(l10n.t('Send again (same answer)'), 'secondary', () => this.retryListener?.());
    this.retryButton.id = 'retry';
    this.retryButton.hidden = true;
    this.message = el('div', { class: 'outcome', id: 'outcome', role: 'status', 'aria-live': 'polite' });
    this.element = el('section', { class: 'answer', 'aria-label': l10n.t('Your answer') });
    if (request.problem && request.withheld) {
      // Nothing is wrong with the request: the host's words say who withheld its content, and what can still be done.
      const settings = request.withheld === 'own-ceiling' && openSettings ? [' ', button(l10n.t('Open Settings'), 'secondary', openSettings)] : [];
      this.element.append(el('p', { class: 'informational withheld', id: 'withheld', role: 'status' }, request.problem, ...settings));
      this.close();
    } else if (request.problem) {
      this.element.append(el('p', { class: 'problem', role: 'alert' }, l10n.t('This request cannot be shown: {0}', request.problem)));
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
      // Ctrl+Enter in the reply in words sends the reply, not the fields.
      if (this.words && event.target instanceof Node && this.words.contains(event.target)) this.sendText();
      else this.submitForm();
    });
    this.element.addEventListener('input', () => this.changed());
    // A confirmation lists what the answer held when it was shown; an edit makes that list stale.
    this.element.addEventListener('input', () => this.dismissConfirmation());
    this.element.addEventListener('change', () => this.changed());
  }

  /** Called whenever the user's unsent input changes (to keep it with `setState`). */
  onDidChangeDraft(listener: () => void): void {
    this.changeListeners.push(listener);
  }

  /** Masks with `values` from now on: what is previewed before sending, and the draft kept. */
  setSecretValues(values: readonly string[]): void {
    this.request = { ...this.request, secretValues: [...values] };
    setStoredSecretValues(values);
  }

  /**
   * The unsent input that may be kept with `setState`, which outlives a reload
   * on disk: never what is typed for a field that asks for a secret, nor the
   * reply to an authentication request, nor words to a form with a
   * secret-asking field (secretAsking.ts); other text with
   * what looks like a credential masked, as the answer history masks it.
   * Hiding the page loses those; a secret is not worth a copy on disk.
   */
  keptDraft(): Draft {
    const all = this.fields && this.request.fields.length > 0 ? this.fields.draft() : undefined;
    const fields = all
      ? Object.fromEntries(Object.entries(all).filter(([fieldId]) => !this.asksForSecret(fieldId)).map(([fieldId, draft]) => [fieldId, maskedDraft(draft)]))
      : undefined;
    const reply = this.wordsAreSecret() ? undefined : this.reply?.get();
    return { ...(fields ? { fields } : {}), ...(reply ? { reply: maskStoredText(reply) } : {}) };
  }

  restoreDraft(draft: Draft): void {
    if (draft.fields) this.fields?.restore(draft.fields);
    // A reply in words typed before (a hidden page, a reload, the quick input): its box opens again.
    if (draft.reply && this.request.renderKind === 'form' && this.wordsOffered() && this.request.answerableHere && !this.closed) this.openWords(false);
    if (draft.reply !== undefined) this.reply?.set(draft.reply);
  }

  /** After a timeout: offer to send the same command again. `undefined` withdraws the offer. */
  offerRetry(listener: (() => void) | undefined): void {
    this.retryListener = listener;
    this.retryButton.hidden = listener === undefined;
    this.retryButton.disabled = listener === undefined || this.closed || this.blocked;
  }

  /**
   * The answer was accepted: what was sent, read-only, once the request is
   * over. `kept` is an answer from the history (issue 16), with the host's note on it.
   */
  showSummary(kept?: { answer: Answer; note?: string | undefined }): void {
    const last = kept ?? this.lastSent;
    if (!last || this.element.querySelector('.summary')) return;
    this.element.append(answerSummary(this.request, last));
  }

  /** A page of the answer history (issue 16): nothing to answer with, only what was sent and what became of it. */
  keepOnlySummary(): void {
    // A class (form.css), not `hidden`: the stylesheet gives some of the controls a display of their own.
    this.element.classList.add('summary-only');
  }

  focusFirst(): void {
    const first = this.fields?.widgets[0];
    if (first) first.focus();
    else this.buttons[0]?.focus();
  }

  /** While an answer is on its way, nothing can be sent twice. */
  setBusy(busy: boolean): void {
    this.busy = busy;
    this.applyDisabled();
  }

  /**
   * The session's claimant does not declare `control.attention.respond`
   * (AEP-0004 §4.2: its `accepts` is authoritative), so an answer would only be
   * refused: sending is disabled and the page says why; the request stays
   * readable. Lifted when the roster changes. `setToken`: what "Set Hub Token"
   * does on a watch-only hub's note.
   */
  setBlocked(why: SendingBlock | undefined, setToken?: () => void): void {
    const blocked = why !== undefined;
    this.blocked = blocked;
    if (this.blockedNote && this.blockedNote.dataset['why'] !== why) this.removeBlockedNote();
    if (blocked && !this.closed && !this.blockedNote) {
      // First in the answer area, so it is read before the controls it disables.
      this.blockedNote = why === 'watch-only'
        ? el('p', { class: 'informational blocked', id: 'blocked', role: 'status' }, l10n.t('This hub is watch-only: set a token to answer.'), ' ', button(l10n.t('Set Hub Token'), 'secondary', () => setToken?.()))
        : el('p', { class: 'informational blocked', id: 'blocked', role: 'status' }, l10n.t('This agent does not take answers from editors, so nothing can be sent from here.'));
      this.blockedNote.dataset['why'] = why;
      this.element.prepend(this.blockedNote);
    } else if (!blocked) {
      this.removeBlockedNote();
    }
    if (blocked) this.dismissConfirmation();
    // An agent that takes no answers gets no reply box and no Send that could never work: the note says why instead.
    const refused = why === 'not-accepting';
    const replyBox = this.reply?.element.parentElement;
    if (replyBox) replyBox.hidden = refused;
    this.buttons.forEach((b) => (b.hidden = refused));
    this.applyDisabled();
    this.retryButton.disabled = this.retryListener === undefined || this.closed || this.blocked;
  }

  private removeBlockedNote(): void {
    this.blockedNote?.remove();
    this.blockedNote = undefined;
  }

  private applyDisabled(): void {
    const disabled = this.busy || this.closed || this.blocked;
    this.fields?.setDisabled(disabled);
    this.buttons.forEach((b) => (b.disabled = disabled));
    this.reply?.setDisabled(disabled);
  }

  showMessage(text: string, tone: 'info' | 'success' | 'error'): void {
    this.message.textContent = text;
    this.message.dataset['tone'] = tone;
  }

  markField(fieldId: string, message: string): void {
    const widget = this.fields?.widget(fieldId);
    if (!widget) return;
    widget.setError(message);
    widget.focus();
  }

  /** The request is over (resolved, timed out, expired, session ended): nothing more can be sent. */
  close(): void {
    if (!this.closed && this.lastSent) this.showSent(this.lastSent.answer);
    this.closed = true;
    this.removeBlockedNote();
    this.setBusy(true);
    this.offerRetry(undefined);
    this.dismissConfirmation();
  }

  private renderInformational(): void {
    const via = (this.request.respondVia ?? []).join(', ') || l10n.t('another channel');
    this.element.append(el('p', { class: 'informational' }, l10n.t('This request is answered outside VS Code (respond_via: {0}). It is shown here for information; nothing can be sent from this editor.', via)));
    if (this.request.options.length > 0) {
      const list = el('ul', { class: 'options-info', 'aria-label': l10n.t('Options offered elsewhere') });
      this.request.options.forEach((option, index) => list.append(el('li', {}, choiceLabel(option.label, index, option.id))));
      this.element.append(list);
    }
    this.closed = true;
  }

  private renderForm(): void {
    const singleString = this.request.fields.filter((f) => f.spec.type === 'string').length === 1;
    const fields = new FieldList(this.request.fields, (field, index) => {
      const widget = createFieldWidget(field, index, this.request.capture, singleString && this.request.fields.length <= 2, this.asksForSecret(field.spec.id), this.request.prompt.honesty);
      widget.onInput(() => {
        this.touched.add(field.spec.id);
        this.checkOne(widget);
      });
      return widget;
    });
    this.fields = fields;
    const form = fields.element;
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.submitForm();
    });
    const send = button(l10n.t('Send answer'), 'primary', () => this.submitForm());
    send.id = 'send';
    // Reached by Tab or pointer before every field is drawn: Shift+Tab back from here must meet them all.
    send.addEventListener('focus', () => fields.all());
    this.buttons.push(send);
    const actions = el('div', { class: 'actions' }, send, el('span', { class: 'shortcut' }, l10n.t('Enter')));
    if (this.wordsOffered()) {
      const inWords = button(l10n.t('Reply in Words Instead…'), 'secondary', () => this.openWords(true));
      inWords.id = 'reply-in-words';
      this.buttons.push(inWords);
      actions.append(inWords);
    }
    this.element.append(form, actions);
  }

  /** Whether this form may be answered in words alone: the protocol core's rule, as the host checks it (answerCheck.ts). */
  private wordsOffered(): boolean {
    return wordsReplyAccepted(this.specs());
  }

  /** Whether a reply typed here may be a secret: an `auth` request's, or words to a form with a secret-asking field (secretAsking.ts). */
  private wordsAreSecret(): boolean {
    return wordsAskForSecret(secretAskingOfChecked(this.request));
  }

  /**
   * A form answered in words instead of its fields (AEP-0002 §5.3: `text`
   * alone), offered only for a form without required fields: a reply box,
   * sent as any reply is, with the redaction pipeline's confirmation, drawn
   * and kept as a secret field is when one of the fields asks for a secret.
   */
  private openWords(focus: boolean): void {
    if (!this.words) {
      const label = el('label', { id: 'reply-label', class: 'field-label' }, l10n.t('Your reply in words, sent instead of the fields'));
      this.reply = textControl({ id: 'reply', labelId: 'reply-label', multiline: true, secret: this.wordsAreSecret(), placeholder: l10n.t('Type your answer') });
      const send = button(l10n.t('Send Reply'), 'secondary', () => this.sendText());
      send.id = 'send-words';
      this.buttons.push(send);
      this.words = el(
        'div',
        { class: 'field words', id: 'words' },
        label,
        this.reply.element,
        el('div', { class: 'actions' }, send, el('span', { class: 'shortcut' }, l10n.t('Ctrl+Enter'))),
      );
      this.element.querySelector('#reply-in-words')?.setAttribute('hidden', '');
      this.element.insertBefore(this.words, this.message);
    }
    if (focus) this.reply?.focus();
  }

  private renderReply(): void {
    const request = this.request;
    const hasOptions = request.options.length > 0;
    if (hasOptions) {
      const row = el('div', { class: 'options', role: 'group', 'aria-label': l10n.t('Answer with an option') });
      // Two options that read alike are told apart by their ids, as in the quick input (ownItems.ts readAlike).
      const alike = readAlike(request.options.map((option) => option.label.text));
      request.options.forEach((option, index) => {
        // A withheld label is a placeholder: the option is named by its place and id, in our words.
        const words = option.label.honesty === 'structural' ? undefined : option.label.text;
        // Words reading like one of our own (the registry, ownItems.ts) say whose they are, and are sent only after a second step.
        const mimic = optionPassesForOurs(words);
        // The id is the agent's too: drawn without the bidi controls that reorder it (src/base/invisibleText.ts).
        const shownId = withoutReordering(option.id);
        const label = words === undefined ? withheldOptionLabel(index + 1, shownId) : mimic || alike[index] ? agentItemWithId(words, shownId) : words;
        const b = button(label, index === 0 ? 'primary' : 'secondary', () => (mimic && words !== undefined ? this.confirmMimic(words, option.id, b) : this.sendOption(option.id)));
        b.dataset['option'] = option.id;
        this.buttons.push(b);
        row.append(b);
      });
      this.element.append(row);
    }
    const replyLabel = el('label', { id: 'reply-label', class: 'field-label' }, hasOptions ? l10n.t('Reason or reply (optional, sent as text)') : l10n.t('Your reply'));
    // An authentication request's reply may be a credential: drawn as dots, as a secret-asking field is.
    this.reply = textControl({ id: 'reply', labelId: 'reply-label', multiline: true, secret: requestAsksForSecret(request), placeholder: hasOptions ? l10n.t('Optional') : l10n.t('Type your answer') });
    this.element.append(el('div', { class: 'field' }, replyLabel, this.reply.element));
    const sendText = button(hasOptions ? l10n.t('Send reply only') : l10n.t('Send reply'), hasOptions ? 'secondary' : 'primary', () => this.sendText());
    sendText.id = 'send';
    this.buttons.push(sendText);
    this.element.append(el('div', { class: 'actions' }, sendText));
  }

  /** The fields as the host parsed them: the page validates with the spec the host will check against. */
  private specs(): FieldSpec[] {
    return this.request.fields.map((field) => field.spec);
  }

  private checkOne(widget: FieldWidget): void {
    const result = validateFormValues([widget.field.spec], widget.value() === undefined ? {} : { [widget.field.spec.id]: widget.value() });
    widget.setError(result.ok ? undefined : fieldProblemText(result.errors[0].problem));
  }

  private submitForm(): void {
    if (this.closed || this.blocked) return;
    const widgets = this.fields?.all() ?? [];
    const values: Record<string, unknown> = {};
    for (const widget of widgets) {
      const value = widget.value();
      if (value !== undefined) values[widget.field.spec.id] = value;
    }
    const result = validateFormValues(this.specs(), values);
    widgets.forEach((widget) => widget.setError(undefined));
    if (!result.ok) {
      for (const error of result.errors) widgets.find((w) => w.field.spec.id === error.fieldId)?.setError(fieldProblemText(error.problem));
      const first = widgets.find((w) => result.errors.some((e) => e.fieldId === w.field.spec.id));
      first?.focus();
      this.showMessage(result.errors.length === 1 ? l10n.t('One field needs attention before sending.') : l10n.t('{0} fields need attention before sending.', result.errors.length), 'error');
      return;
    }
    this.deliver({ values: result.values });
  }

  /** The page's form of the quick input's question (inlineFlow.ts confirmMimic): the agent's option, or back to the choices. */
  private confirmMimic(words: string, optionId: string, from: HTMLElement): void {
    if (this.closed || this.blocked) return;
    this.dismissConfirmation();
    const confirmation = ownWordsConfirmation(words, optionId, {
      send: () => this.sendOption(optionId),
      back: () => {
        this.dismissConfirmation();
        from.focus();
      },
    });
    this.confirmation = confirmation.element;
    this.element.append(confirmation.element);
    confirmation.focus.focus();
  }

  private sendOption(optionId: string): void {
    if (this.closed || this.blocked) return;
    const reason = this.reply?.get().trim();
    this.deliver(reason ? { option: optionId, text: reason } : { option: optionId });
  }

  private sendText(): void {
    if (this.closed || this.blocked) return;
    const text = this.reply?.get().trim();
    if (!text) {
      this.showMessage(l10n.t('Type a reply first.'), 'error');
      this.reply?.focus();
      return;
    }
    this.deliver({ text });
  }

  /**
   * Hands the answer to the host, after the AEP-0003 §9.4 pipeline has passed
   * its free text. Text the pipeline leaves unchanged goes as it is (capture
   * `redacted`: it passed). Otherwise the person sees exactly what would be
   * replaced and chooses: the redacted text, the text as typed (capture
   * `full`, kept verbatim in the session history), or editing. The host runs
   * the same pipeline again and refuses text it would change unless
   * `verbatim` was chosen. Requests of kind `auth` and fields named like a
   * secret are confirmed even when nothing would be replaced.
   */
  private deliver(answer: Answer): void {
    this.dismissConfirmation();
    const check = sendCheck(this.request, answer, { home: this.request.home, secretValues: this.request.secretValues });
    if (check.kind === 'send') {
      this.hand(answer, { verbatim: false, redacted: false });
      return;
    }
    const confirmation = sendConfirmation(this.request, answer, check, { send: (sent, how) => this.hand(sent, how), edit: (part) => this.editAnswer(part) });
    this.confirmation = confirmation.element;
    this.element.append(confirmation.element);
    confirmation.focus.focus();
  }

  private hand(answer: Answer, how: SendHow): void {
    this.dismissConfirmation();
    if (this.closed || this.blocked) return;
    this.lastSent = { answer, ...how };
    this.offerRetry(undefined);
    this.send(answer, how.verbatim);
  }

  /**
   * The controls show the answer that went out, part by part: once the
   * request is over, its disabled boxes must not read as if the text as typed
   * had been sent when the redacted text was. While it is open (a refusal,
   * say) they keep what was typed, to edit or to send as typed.
   */
  private showSent(answer: Answer): void {
    if (answer.text !== undefined) this.reply?.set(answer.text);
    for (const widget of this.fields?.all() ?? []) widget.showSent(answer.values?.[widget.field.spec.id]);
  }

  /** The protocol core's rule, as the quick input asks it (src/aep/secretAsking.ts). */
  private asksForSecret(fieldId: string): boolean {
    return fieldAsksForSecret(fieldId, this.request.fields.find((f) => f.spec.id === fieldId)?.label);
  }

  private dismissConfirmation(): void {
    this.confirmation?.remove();
    this.confirmation = undefined;
  }

  /** Back to the answer, at the part the pipeline would change. */
  private editAnswer(part: AnswerPart | undefined): void {
    this.dismissConfirmation();
    const widget = part?.kind === 'value' ? this.fields?.widget(part.fieldId) : undefined;
    if (widget) widget.focus();
    else if (part?.kind === 'text' && this.reply) this.reply.focus();
    else this.focusFirst();
  }

  private changed(): void {
    if (this.closed) return;
    this.changeListeners.forEach((listener) => listener());
  }
}
