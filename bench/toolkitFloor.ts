// The toolkit's own floor for the form benchmark (bench/formRender.ts, issue 40):
// a page that registers the same @vscode/webview-ui-toolkit components as the
// request page and, on `init`, draws the same components for the same fields
// (a text field per text or number field, a checkbox per yes/no, radios or a
// dropdown per choice, checkboxes per multiple choice, a hidden text field
// beside an "other", one button), all at once, with a plain label each, and
// focuses the first: no logic of ours (no checks, no drafts, no slices, no
// warm-up). Bundled by formRender.ts with esbuild when it runs; never shipped.
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

provideVSCodeDesignSystem().register(
  vsCodeButton(), vsCodeCheckbox(), vsCodeDropdown(), vsCodeOption(), vsCodeRadio(), vsCodeRadioGroup(), vsCodeTextArea(), vsCodeTextField(),
);

/** As the request page: few enough choices are radios, more a dropdown. */
const RADIO_LIMIT = 5;

interface FloorField {
  id: string;
  type: string;
  label: { text: string };
  multi?: boolean;
  other?: boolean;
  choices?: Array<{ id: string; label: { text: string } }>;
}

function element(tag: string, attributes: Record<string, string> = {}, text?: string): HTMLElement {
  const made = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) made.setAttribute(name, value);
  if (text !== undefined) made.textContent = text;
  return made;
}

function draw(fields: FloorField[]): void {
  const form = element('div', { class: 'fields' });
  let first: HTMLElement | undefined;
  fields.forEach((field, index) => {
    const base = `field-${index}`;
    const container = element('div', { class: `field field-${field.type}`, 'data-field': field.id });
    container.append(element('label', { class: 'field-label', id: `${base}-label` }, field.label.text));
    let control: HTMLElement;
    if (field.type === 'boolean') {
      control = element('vscode-checkbox', { id: base }, 'Yes');
    } else if (field.type === 'select') {
      const items = (field.choices ?? []).map((choice) => ({ value: choice.id, text: choice.label.text }));
      if (field.other) items.push({ value: 'other', text: 'Other…' });
      if (field.multi) {
        control = element('div', { role: 'group', id: base, class: 'checkbox-group' });
        items.forEach((item, n) => control.append(element('vscode-checkbox', { id: `${base}--${n}` }, item.text)));
      } else if (items.length <= RADIO_LIMIT + (field.other ? 1 : 0)) {
        control = element('vscode-radio-group', { id: base, orientation: 'vertical', 'aria-labelledby': `${base}-label` });
        for (const item of items) control.append(element('vscode-radio', { value: item.value }, item.text));
      } else {
        control = element('vscode-dropdown', { id: base, 'aria-labelledby': `${base}-label` });
        control.append(element('vscode-option', { value: '' }, 'Choose…'));
        for (const item of items) control.append(element('vscode-option', { value: item.value }, item.text));
      }
    } else {
      control = element('vscode-text-field', { id: base, 'aria-labelledby': `${base}-label` });
    }
    container.append(control);
    if (field.type === 'select' && field.other) {
      const other = element('vscode-text-field', { id: `${base}-other` });
      other.hidden = true;
      container.append(other);
    }
    form.append(container);
    // The first control as the request page focuses it: a group's first box or radio.
    first ??= control.querySelector<HTMLElement>('vscode-checkbox, vscode-radio') ?? control;
  });
  const send = element('vscode-button', { appearance: 'primary', id: 'send' }, 'Send answer');
  document.getElementById('app')?.replaceChildren(form, send);
  first?.focus();
}

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const message = event.data as { type?: string; request?: { fields?: Array<{ spec: FloorField; label: { text: string }; choices?: FloorField['choices'] }> } } | null;
  if (message?.type !== 'init') return;
  draw((message.request?.fields ?? []).map((field) => ({ ...field.spec, label: field.label, ...(field.choices ? { choices: field.choices } : {}) })));
});
