// A scripted person at the inline answer's quick input: the step loop's
// `QuickInputs` (src/app/answering/inlineFlow.ts) kept to the contract the VS Code
// one (quickInputs.ts) keeps: Enter goes on only while `check` finds nothing,
// a multi-select takes its ticked items, Back exists only where the step shows
// it, and `keep` runs however a step ends. Every step shown is recorded.
import type { InputSpec, Leave, PickSpec, QuickInputs, StepEnd, StepView } from '../../src/app/answering/inlineFlow';
import type { Listed } from '../../src/words/inlineWords';

/** What the person does at the step showing now. */
export type Move =
  /** A single pick: the item labelled exactly so is made active (as typing its words would), then Enter. */
  | { pick: string }
  /** A multi-select: exactly these items ticked, then Enter. */
  | { tick: string[] }
  /** Enter on what shows: the active item, the ticked items, the box as it is. */
  | { enter: true }
  /** The box's text replaced, then Enter unless `enter` is false. */
  | { type: string; enter?: boolean }
  | { back: true }
  /** The "Open as page" button. */
  | { page: true }
  /** A form step's "Reply in words instead…" button. */
  | { words: true }
  /** Escape: the quick input hides. */
  | { escape: true }
  /** Something outside the person happens while the step shows (the request closes); the step stays unless it ends. */
  | { meanwhile: () => void };

/** One step as it showed. `problems` are the messages it showed over its life, in order (the first one it opened with). */
export interface ShownStep {
  kind: 'pick' | 'input';
  view: StepView;
  /** A pick's rows, a separator as `---` followed by its text. */
  labels: string[];
  /** A pick's item active when it opened. */
  active?: string | undefined;
  /** An input's prompt, and the text it opened with. */
  prompt?: string | undefined;
  value?: string | undefined;
  password?: boolean | undefined;
  problems: string[];
}

export class ScriptedQuickInputs implements QuickInputs {
  readonly shown: ShownStep[] = [];
  private readonly moves: Move[];
  private current: ((leave: Leave) => void) | undefined;

  constructor(moves: readonly Move[]) {
    this.moves = [...moves];
  }

  /** Moves the flow did not reach. */
  get left(): number {
    return this.moves.length;
  }

  leave(leave: Leave): void {
    this.current?.(leave);
  }

  input(view: StepView, spec: InputSpec): Promise<StepEnd<string>> {
    const step: ShownStep = { kind: 'input', view, labels: [], prompt: spec.prompt, value: spec.value, password: spec.password, problems: spec.problem === undefined ? [] : [spec.problem] };
    let text = spec.value;
    const show = (problem: string | undefined) => {
      if (problem !== undefined) step.problems.push(problem);
    };
    return this.run<string>(step, () => spec.keep(text), (move, finish) => {
      if ('type' in move) {
        text = move.type;
        show(spec.check(text, false));
        if (move.enter === false) return;
      } else if (!('enter' in move)) {
        throw new Error(`an input step cannot take ${JSON.stringify(move)}`);
      }
      const problem = spec.check(text, true);
      show(problem);
      if (problem === undefined) finish({ kind: 'next', value: text });
    });
  }

  pick<V extends object>(view: StepView, items: ReadonlyArray<Listed<V>>, spec: PickSpec<V>): Promise<StepEnd<V[]>> {
    const rows = items.flatMap((item) => ('separator' in item ? [] : [item]));
    const labels = items.map((item) => ('separator' in item ? `---${item.separator}` : item.label));
    const first = rows.find((item) => spec.active?.(item.value) === true) ?? rows[0];
    let active = first;
    let ticked = spec.many ? rows.filter((item) => spec.selected?.(item.value) === true) : [];
    const step: ShownStep = { kind: 'pick', view, labels, active: first?.label, problems: spec.problem === undefined ? [] : [spec.problem] };
    const row = (label: string) => {
      const found = rows.find((item) => item.label === label);
      if (!found) throw new Error(`no item "${label}" among ${JSON.stringify(labels)}`);
      return found;
    };
    return this.run<V[]>(step, () => spec.keep?.(ticked.map((item) => item.value)), (move, finish) => {
      if ('pick' in move && !spec.many) active = row(move.pick);
      else if ('tick' in move && spec.many) ticked = move.tick.map(row);
      else if (!('enter' in move)) throw new Error(`a ${spec.many ? 'multi-select' : 'single'} pick cannot take ${JSON.stringify(move)}`);
      const picked = spec.many ? ticked.map((item) => item.value) : active ? [active.value] : [];
      if (!spec.many && picked.length === 0) return;
      const problem = spec.check?.(picked);
      if (problem !== undefined) {
        step.problems.push(problem);
        return;
      }
      finish({ kind: 'next', value: picked });
    });
  }

  /** Plays moves at `step` until it ends; the moves a step itself reads go to `act`. */
  private run<T>(step: ShownStep, keep: () => void, act: (move: Move, finish: (end: StepEnd<T>) => void) => void): Promise<StepEnd<T>> {
    this.shown.push(step);
    return new Promise<StepEnd<T>>((resolve, reject) => {
      let done = false;
      const finish = (end: StepEnd<T>) => {
        if (done) return;
        done = true;
        keep();
        this.current = undefined;
        resolve(end);
      };
      this.current = finish;
      try {
        while (!done) {
          const move = this.moves.shift();
          if (move === undefined) throw new Error(`no move left for step ${this.shown.length} (${step.kind}: ${step.view.placeholder ?? ''})`);
          if ('meanwhile' in move) move.meanwhile();
          else if ('back' in move) {
            if (!step.view.back) throw new Error(`step ${this.shown.length} shows no Back button`);
            finish({ kind: 'back' });
          } else if ('page' in move) finish({ kind: 'page' });
          else if ('words' in move) {
            if (!step.view.words) throw new Error(`step ${this.shown.length} offers no reply in words`);
            finish({ kind: 'words' });
          }
          else if ('escape' in move) finish({ kind: 'escape' });
          else act(move, finish);
        }
      } catch (error) {
        this.current = undefined;
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  }
}
