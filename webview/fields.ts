import * as l10n from '@vscode/l10n';
import { fieldValue } from '../src/answer/fieldDraft';
import { fieldHint } from '../src/shared/fieldWords';
import { OTHER_CHOICE_DRAFT as OTHER, type FieldDraft, type PageField, type PageText } from '../src/shared/webviewMessages';
import { el } from './dom';
import { choiceLabel, fieldLabel } from './honestText';
import { sentenceNodes, SLOTS } from './l10n';
import { checkboxControl, checkboxGroupControl, dropdownControl, radioControl, textControl, type ChoiceItem, type Control } from './toolkit';
import { readAlike } from '../src/answer/ownItems';

/** Few enough choices to show them all as radio buttons. */
const RADIO_LIMIT = 5;

/** One rendered field: its element, its current value (undefined when empty) and its error line. */
export interface FieldWidget {
  readonly field: PageField;
  readonly element: HTMLElement;
  value(): unknown;
  focus(): void;
  setError(message: string | undefined): void;
  setDisabled(disabled: boolean): void;
  onInput(listener: () => void): void;
  /** The raw input, unsent, for `setState` (so hiding the panel loses nothing); never kept for a secret-asking field. */
  draft(): FieldDraft;
  restore(draft: FieldDraft): void;
  /** The field's part of an answer that went out (its text redacted, say): what its controls show from then on. */
  showSent(value: unknown): void;
}

/**
 * `secret`: the field asks for a secret (src/aep/secretAsking.ts): what is typed is drawn as dots.
 * `uniform`: how the question's text is shown; the label is marked only where it is shown otherwise.
 */
export function createFieldWidget(field: PageField, index: number, capture: string, longText: boolean, secret: boolean, uniform: PageText['honesty']): FieldWidget {
  const spec = field.spec;
  const base = `field-${index}`;
  const labelId = `${base}-label`;
  const errorId = `${base}-error`;
  const hintText = fieldHint(spec);
  const hintId = hintText ? `${base}-hint` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ');
  const required = spec.required ? el('span', { class: 'required', 'aria-hidden': 'true', title: l10n.t('required') }, ' *') : undefined;
  const label = el('div', { class: 'field-label', id: labelId }, fieldLabel(field.label, index, spec.id, spec.type, capture, uniform), required);
  const error = el('div', { class: 'error', id: errorId, role: 'alert', hidden: '' });
  const container = el('div', { class: `field field-${spec.type}`, 'data-field': spec.id });
  container.append(label);
  if (hintText && hintId) container.append(el('div', { class: 'hint', id: hintId }, hintText));

  let control: Control<string> | Control<boolean> | Control<string[]> | undefined;
  let extra: Control<string> | undefined;
  const listeners: Array<() => void> = [];
  const fire = () => listeners.forEach((listener) => listener());

  // Two choices that read alike are told apart by their ids, as in the quick input (ownItems.ts readAlike).
  const alike = readAlike(field.choices.map((choice) => choice.label.text));
  const choices = field.choices.map<ChoiceItem>((choice, i) => ({ value: choice.id, label: choiceLabel(choice.label, i, choice.id, alike[i]) }));
  switch (spec.type) {
    case 'string': {
      const text = textControl({ id: base, labelId, describedBy, multiline: longText, required: spec.required, secret });
      control = text;
      break;
    }
    case 'number': {
      const text = textControl({ id: base, labelId, describedBy, numeric: true, required: spec.required });
      control = text;
      break;
    }
    case 'boolean': {
      const box = checkboxControl(base, el('span', {}, l10n.t('Yes')), describedBy);
      box.element.setAttribute('aria-labelledby', labelId);
      control = box;
      break;
    }
    case 'select': {
      const withOther = spec.other ? [...choices, { value: OTHER, label: el('span', {}, l10n.t('Other…')) }] : choices;
      if (spec.multi) {
        const group = checkboxGroupControl(base, labelId, withOther, describedBy);
        control = group;
      } else {
        const single = withOther.length <= RADIO_LIMIT + (spec.other ? 1 : 0)
          ? radioControl(base, labelId, withOther, describedBy)
          : dropdownControl(base, labelId, withOther, l10n.t('Choose…'), describedBy);
        control = single;
      }
      if (spec.other) {
        extra = textControl({ id: `${base}-other`, placeholder: l10n.t('Your own answer'), describedBy, secret });
        extra.element.setAttribute('aria-label', l10n.t('Your own answer'));
        extra.element.hidden = true;
        extra.onInput(fire);
        const picked = control;
        const own = extra;
        const otherChosen = (): boolean => {
          const value = picked.get();
          return Array.isArray(value) ? value.includes(OTHER) : value === OTHER;
        };
        // Shown and focused in the same event that chose "Other…", so no keystroke lands before the field exists.
        picked.onInput(() => {
          const showOther = otherChosen();
          own.element.hidden = !showOther;
          if (!showOther) return;
          own.focus();
          // The toolkit's radio group takes the focus back to the checked radio after this event: take it once more.
          setTimeout(() => {
            if (otherChosen()) own.focus();
          }, 0);
        });
        // A keystroke that still reaches the choices once "Other…" is chosen (the control took focus back) is the own answer's.
        picked.element.addEventListener('keydown', (event) => {
          if (event.key.length !== 1 || event.key === ' ' || event.ctrlKey || event.metaKey || event.altKey || !otherChosen()) return;
          event.preventDefault();
          own.element.hidden = false;
          own.set(own.get() + event.key);
          own.focus();
          fire();
        });
      }
      break;
    }
    case 'unsupported': {
      const declared = el('code', {}, spec.declaredType);
      container.append(
        el('p', { class: 'unsupported' }, ...(spec.required
          ? sentenceNodes(l10n.t('This extension cannot answer a field of type {0}. It is required, so this form cannot be sent from here.', ...SLOTS), declared)
          : sentenceNodes(l10n.t('This extension cannot answer a field of type {0}. It is optional and will be left out.', ...SLOTS), declared))),
      );
      break;
    }
  }
  if (control) {
    control.onInput(fire);
    container.append(control.element);
  }
  if (extra) container.append(extra.element);
  container.append(error);

  /** The raw input, as the controls hold it. */
  const draft = (): FieldDraft => {
    const raw: FieldDraft = {};
    if (control) raw.value = control.get();
    const other = extra?.get();
    if (other) raw.other = other;
    return raw;
  };

  return {
    field,
    element: container,
    // The quick input reads its drafts the same way (src/answer/fieldDraft.ts).
    value: () => (spec.type === 'unsupported' ? undefined : fieldValue(spec, draft())),
    focus: () => (control ? control.focus() : container.focus()),
    setError: (message) => {
      error.textContent = message ?? '';
      error.hidden = message === undefined;
      control?.element.setAttribute('aria-invalid', message === undefined ? 'false' : 'true');
      container.classList.toggle('invalid', message !== undefined);
    },
    setDisabled: (disabled) => {
      control?.setDisabled(disabled);
      extra?.setDisabled(disabled);
    },
    onInput: (listener) => listeners.push(listener),
    draft,
    showSent: (value) => {
      // Only free text is ever changed on its way out: a string field's text, a select's own answer.
      if (spec.type === 'string' && control) (control as Control<string>).set(typeof value === 'string' ? value : '');
      if (spec.type === 'select' && extra) {
        const own = (Array.isArray(value) ? (value as unknown[]) : [value]).find((one) => typeof one === 'string' && !spec.choices.some((c) => c.id === one));
        extra.set(typeof own === 'string' ? own : '');
      }
    },
    restore: (draft) => {
      if (control && draft.value !== undefined) restoreInto(control, draft.value);
      if (extra && draft.other !== undefined) extra.set(draft.other);
      if (extra) {
        const value = control?.get();
        extra.element.hidden = !(Array.isArray(value) ? value.includes(OTHER) : value === OTHER);
      }
    },
  };
}

/** Puts a saved value back into a control of the same shape; a value of another shape (an older draft) is ignored. */
function restoreInto(control: Control<string> | Control<boolean> | Control<string[]>, value: string | boolean | string[]): void {
  const current = control.get();
  if (typeof current === 'string' && typeof value === 'string') (control as Control<string>).set(value);
  else if (typeof current === 'boolean' && typeof value === 'boolean') (control as Control<boolean>).set(value);
  else if (Array.isArray(current) && Array.isArray(value)) (control as Control<string[]>).set(value);
}
