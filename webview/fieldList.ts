import type { FieldDraft, PageField } from '../src/shared/webviewMessages';
import { el } from './dom';
import type { FieldWidget } from './fields';

/**
 * A first guess at how tall a drawn field is, to size the first batch before
 * anything can be measured; the first frame measures and tops the batch up
 * to a full screen.
 */
const FIELD_HEIGHT_GUESS_PX = 90;
/** Fields added per measurement while topping up the first screen: each measurement is a layout. */
const TOP_UP_STEP = 3;
/** The longest a slice of later fields holds the main thread, so a keystroke in a drawn field never waits long. */
const SLICE_MS = 8;
/** A slice runs within this long even on a page that is never idle. */
const SLICE_TIMEOUT_MS = 100;

/**
 * The form's fields, drawn a screenful first and the rest in slices when the
 * page is idle. Each toolkit control costs milliseconds to create, connect and
 * style, so drawing 200 of them at once kept the first field from taking
 * input for half a second.
 *
 * Fields are only ever appended, in the request's order, so the DOM and Tab
 * order are the request's, and drawing never moves focus. Whatever needs a
 * field not drawn yet draws it first (`all()`, `widget()`): sending validates
 * every field, and Tab out of the last drawn field draws the next one before
 * the browser moves focus. Drafts and the disabled state of fields not drawn
 * yet are kept here and applied when they are drawn.
 */
export class FieldList {
  readonly element: HTMLFormElement;
  private readonly drawn: FieldWidget[] = [];
  /** Saved input of fields not drawn yet. */
  private readonly saved = new Map<string, FieldDraft>();
  private disabled = false;
  private sliceScheduled = false;

  constructor(private readonly fields: readonly PageField[], private readonly draw: (field: PageField, index: number) => FieldWidget) {
    this.element = el('form', { class: 'fields', novalidate: '' });
    this.drawThrough(Math.max(1, Math.ceil(window.innerHeight / FIELD_HEIGHT_GUESS_PX)) - 1);
    if (!this.complete) {
      // A frame callback runs before that frame's style, layout and paint: the first frame shows a full screen.
      requestAnimationFrame(() => {
        this.fillViewport();
        this.scheduleSlice();
      });
    }
    this.element.addEventListener('keydown', (event) => {
      if (event.key !== 'Tab' || event.shiftKey || this.complete) return;
      const index = this.drawn.findIndex((widget) => event.target instanceof Node && widget.element.contains(event.target));
      if (index >= 0) this.drawThrough(index + 1);
    });
  }

  get complete(): boolean {
    return this.drawn.length === this.fields.length;
  }

  /** The fields drawn so far, in order. */
  get widgets(): readonly FieldWidget[] {
    return this.drawn;
  }

  /** Every field, drawing now the ones not drawn yet: for what must see the whole form. */
  all(): readonly FieldWidget[] {
    this.drawThrough(this.fields.length - 1);
    return this.drawn;
  }

  /** The field with this id, drawn now (with the ones before it) if it was not yet. */
  widget(fieldId: string): FieldWidget | undefined {
    const index = this.fields.findIndex((field) => field.spec.id === fieldId);
    if (index < 0) return undefined;
    this.drawThrough(index);
    return this.drawn[index];
  }

  /** The raw input of every field, drawn or not. */
  draft(): Record<string, FieldDraft> {
    const drafts: Record<string, FieldDraft> = {};
    for (const widget of this.drawn) drafts[widget.field.spec.id] = widget.draft();
    for (const [id, draft] of this.saved) drafts[id] = draft;
    return drafts;
  }

  restore(drafts: Readonly<Record<string, FieldDraft>>): void {
    this.fields.forEach((field, index) => {
      const draft = drafts[field.spec.id];
      if (!draft) return;
      const widget = this.drawn[index];
      if (widget) widget.restore(draft);
      else this.saved.set(field.spec.id, draft);
    });
  }

  setDisabled(disabled: boolean): void {
    this.disabled = disabled;
    this.drawn.forEach((widget) => widget.setDisabled(disabled));
  }

  private drawThrough(last: number): void {
    const end = Math.min(last, this.fields.length - 1);
    if (this.drawn.length > end) return;
    const start = this.drawn.length;
    const batch = document.createDocumentFragment();
    for (let index = start; index <= end; index++) {
      const widget = this.draw(this.fields[index]!, index);
      this.drawn.push(widget);
      batch.append(widget.element);
    }
    this.element.append(batch);
    // After appending: a toolkit control takes its value and state once it is connected.
    for (const widget of this.drawn.slice(start)) {
      const saved = this.saved.get(widget.field.spec.id);
      if (saved) {
        widget.restore(saved);
        this.saved.delete(widget.field.spec.id);
      }
      if (this.disabled) widget.setDisabled(true);
    }
  }

  private fillViewport(): void {
    if (!this.element.isConnected) return;
    while (!this.complete && (this.drawn.at(-1)?.element.getBoundingClientRect().bottom ?? 0) < window.innerHeight) {
      this.drawThrough(this.drawn.length - 1 + TOP_UP_STEP);
    }
  }

  private scheduleSlice(): void {
    if (this.complete || this.sliceScheduled) return;
    this.sliceScheduled = true;
    whenIdle((timeRemaining) => {
      this.sliceScheduled = false;
      // Replaced by a newer render of the page (or never shown): nothing left to draw for.
      if (!this.element.isConnected) return;
      const started = performance.now();
      do this.drawThrough(this.drawn.length);
      while (!this.complete && performance.now() - started < SLICE_MS && timeRemaining() > 0);
      this.scheduleSlice();
    });
  }
}

/** `requestIdleCallback` where the browser has it (Chromium: VS Code's webviews); a task elsewhere (Safari, for VS Code in a browser). */
function whenIdle(callback: (timeRemaining: () => number) => void): void {
  if (typeof requestIdleCallback === 'function') {
    requestIdleCallback((deadline) => callback(() => (deadline.didTimeout ? SLICE_MS : deadline.timeRemaining())), { timeout: SLICE_TIMEOUT_MS });
  } else {
    setTimeout(() => callback(() => SLICE_MS), 0);
  }
}
