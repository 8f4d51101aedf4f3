// The only module that touches @vscode/webview-ui-toolkit. The toolkit is
// deprecated upstream; swapping it for another component set (or plain
// elements) must touch this file alone. Everything else builds controls
// through the small `Control` interface below.
import {
  provideVSCodeDesignSystem,
  vsCodeButton,
  vsCodeCheckbox,
  vsCodeDropdown,
  vsCodeOption,
  vsCodeRadio,
  vsCodeRadioGroup,
  vsCodeTextArea,
  vsCodeTextField,
} from '@vscode/webview-ui-toolkit';
import { WARM_MEASURE } from './pageTimings';

/** Defines the components (once: main.ts calls this as the page loads). */
export function registerComponents(): void {
  provideVSCodeDesignSystem().register(
    vsCodeButton(), vsCodeCheckbox(), vsCodeDropdown(), vsCodeOption(), vsCodeRadio(), vsCodeRadioGroup(), vsCodeTextArea(), vsCodeTextField(),
  );
}

/**
 * Warms the components as soon as the current script has run (after main.ts
 * has posted `ready`), while the page waits for `init`. A page that draws its
 * first render at once does without: that render pays the first-use costs
 * once, and a warm-up after it would only hold up the page.
 */
export function warmComponentsSoon(): void {
  // A microtask runs before any message task, so `init` never finds the page half-warmed.
  queueMicrotask(warmComponents);
}

/**
 * The toolkit's first-use costs (compiling each component's template, building
 * its style sheets, resolving the design tokens into the document, the
 * browser's first style pass over them) used to land on the first form's
 * render: most of a 4-field form's time to interactive. Drawing one of every
 * control off screen, once, pays them while nothing is waiting.
 */
function warmComponents(): void {
  const started = performance.now();
  const host = document.createElement('div');
  host.className = 'warm-up';
  host.setAttribute('aria-hidden', 'true');
  host.inert = true;
  // Text too: the first line laid out in each of the toolkit's fonts costs the browser a font lookup.
  const label = () => {
    const span = document.createElement('span');
    span.textContent = 'Aa';
    return span;
  };
  const items = [{ value: 'a', label: label() }, { value: 'b', label: label() }];
  host.append(
    textControl({ id: 'warm-text', placeholder: 'Aa' }).element,
    textControl({ id: 'warm-area', multiline: true }).element,
    checkboxControl('warm-check', label()).element,
    radioControl('warm-radio', 'warm-text', items).element,
    dropdownControl('warm-dropdown', 'warm-text', items, 'Aa').element,
    button('Aa', 'primary', () => undefined),
    button('Aa', 'secondary', () => undefined),
  );
  document.body.append(host);
  host.getBoundingClientRect();
  host.remove();
  performance.measure(WARM_MEASURE, { start: started });
}

/** Where Enter means "new line" rather than "send": inside a multi-line text control. */
export function isMultilineText(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && target.tagName.toLowerCase() === 'vscode-text-area';
}

/** Enter on a button presses that button; it must not also send the form. */
export function isButton(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && target.tagName.toLowerCase() === 'vscode-button';
}

/** A form control, whatever component set draws it. */
export interface Control<T> {
  readonly element: HTMLElement;
  get(): T;
  set(value: T): void;
  onInput(listener: () => void): void;
  focus(): void;
  setDisabled(disabled: boolean): void;
}

type ValueElement = HTMLElement & { value: string; disabled: boolean };
type CheckElement = HTMLElement & { checked: boolean; disabled: boolean };

function labelled(element: HTMLElement, id: string, labelId: string | undefined, describedBy: string | undefined): void {
  element.id = id;
  if (labelId) element.setAttribute('aria-labelledby', labelId);
  if (describedBy) element.setAttribute('aria-describedby', describedBy);
}

export interface TextOptions {
  id: string;
  labelId?: string;
  describedBy?: string;
  placeholder?: string;
  multiline?: boolean;
  numeric?: boolean;
  required?: boolean;
  /** What is typed is a secret: drawn as dots, single-line (a text area cannot hide its text). */
  secret?: boolean;
}

export function textControl(options: TextOptions): Control<string> {
  const element = document.createElement(options.multiline && !options.secret ? 'vscode-text-area' : 'vscode-text-field') as ValueElement;
  if (options.secret) element.setAttribute('type', 'password');
  labelled(element, options.id, options.labelId, options.describedBy);
  if (options.placeholder) element.setAttribute('placeholder', options.placeholder);
  if (options.multiline && !options.secret) element.setAttribute('rows', '3');
  if (options.numeric) element.setAttribute('inputmode', 'decimal');
  if (options.required) element.setAttribute('aria-required', 'true');
  return {
    element,
    get: () => element.value ?? '',
    set: (value) => (element.value = value),
    onInput: (listener) => element.addEventListener('input', listener),
    focus: () => element.focus(),
    setDisabled: (disabled) => (element.disabled = disabled),
  };
}

export function checkboxControl(id: string, label: Node, describedBy?: string): Control<boolean> {
  const element = document.createElement('vscode-checkbox') as CheckElement;
  labelled(element, id, undefined, describedBy);
  element.append(label);
  return {
    element,
    get: () => element.checked === true,
    set: (value) => (element.checked = value),
    onInput: (listener) => element.addEventListener('change', listener),
    focus: () => element.focus(),
    setDisabled: (disabled) => (element.disabled = disabled),
  };
}

export interface ChoiceItem {
  value: string;
  label: Node;
}

/** One of few choices: a radio group. */
export function radioControl(id: string, labelId: string, items: readonly ChoiceItem[], describedBy?: string): Control<string> {
  const group = document.createElement('vscode-radio-group') as ValueElement;
  labelled(group, id, labelId, describedBy);
  group.setAttribute('orientation', 'vertical');
  const radios = items.map((item) => {
    const radio = document.createElement('vscode-radio') as ValueElement & { checked: boolean };
    radio.setAttribute('value', item.value);
    radio.dataset['value'] = item.value;
    radio.append(item.label);
    group.append(radio);
    return radio;
  });
  return {
    element: group,
    get: () => radios.find((radio) => radio.checked)?.dataset['value'] ?? '',
    set: (value) => {
      radios.forEach((radio) => (radio.checked = radio.dataset['value'] === value));
      // The group unchecks every radio that is not its own value when it first sees them
      // (on slotchange, after this returns): a value set on a page just drawn must be the group's too.
      group.value = value;
    },
    onInput: (listener) => group.addEventListener('change', listener),
    focus: () => (radios.find((radio) => radio.checked) ?? radios[0])?.focus(),
    setDisabled: (disabled) => {
      group.disabled = disabled;
      radios.forEach((radio) => (radio.disabled = disabled));
    },
  };
}

/** One of many choices: a dropdown, with an empty first entry meaning "not chosen". */
export function dropdownControl(id: string, labelId: string, items: readonly ChoiceItem[], emptyLabel: string, describedBy?: string): Control<string> {
  const dropdown = document.createElement('vscode-dropdown') as ValueElement;
  labelled(dropdown, id, labelId, describedBy);
  const empty = document.createElement('vscode-option') as ValueElement;
  empty.setAttribute('value', '');
  empty.textContent = emptyLabel;
  dropdown.append(empty);
  for (const item of items) {
    const option = document.createElement('vscode-option');
    option.setAttribute('value', item.value);
    option.dataset['value'] = item.value;
    option.append(item.label);
    dropdown.append(option);
  }
  return {
    element: dropdown,
    get: () => dropdown.value ?? '',
    set: (value) => (dropdown.value = value),
    onInput: (listener) => dropdown.addEventListener('change', listener),
    focus: () => dropdown.focus(),
    setDisabled: (disabled) => (dropdown.disabled = disabled),
  };
}

/** Several of the choices: a group of checkboxes. */
export function checkboxGroupControl(id: string, labelId: string, items: readonly ChoiceItem[], describedBy?: string): Control<string[]> {
  const group = document.createElement('div');
  group.setAttribute('role', 'group');
  labelled(group, id, labelId, describedBy);
  group.className = 'checkbox-group';
  const boxes = items.map((item, index) => {
    const box = checkboxControl(`${id}--${index}`, item.label);
    box.element.dataset['value'] = item.value;
    group.append(box.element);
    return box;
  });
  return {
    element: group,
    get: () => boxes.filter((box) => box.get()).map((box) => box.element.dataset['value'] ?? ''),
    set: (values) => boxes.forEach((box) => box.set(values.includes(box.element.dataset['value'] ?? ''))),
    onInput: (listener) => boxes.forEach((box) => box.onInput(listener)),
    focus: () => boxes[0]?.focus(),
    setDisabled: (disabled) => boxes.forEach((box) => box.setDisabled(disabled)),
  };
}

export function button(label: string, appearance: 'primary' | 'secondary', onClick: () => void): HTMLElement & { disabled: boolean } {
  const element = document.createElement('vscode-button') as HTMLElement & { disabled: boolean };
  element.setAttribute('appearance', appearance);
  element.textContent = label;
  element.addEventListener('click', () => {
    if (!element.disabled) onClick();
  });
  return element;
}
