// The inline answer's quick-input primitives over VS Code: the step loop's
// `QuickInputs` (inlineFlow.ts) as the long-lived QuickPick and InputBox
// that surfaces.ts creates and words.
import * as vscode from 'vscode';
import { OWN_ACTIONS } from '../../shared/ownActionWords';
import type { Listed } from '../../words/inlineWords';
import type { InputSpec, Leave, PickSpec, QuickInputs, StepEnd, StepView } from '../../app/answering/inlineFlow';
import {
  createStepInput, createStepPick, setInputProblem, showInputStep, showPickStep,
  type QuickStep, type ShownPickItem,
} from '../surfaces';

/** The button on every step. */
function openAsPageButton(): vscode.QuickInputButton {
  return { iconPath: new vscode.ThemeIcon('go-to-file'), tooltip: OWN_ACTIONS.openAsPageButton.words() };
}

/** A form's steps: answer in words instead of the fields. */
function wordsButton(): vscode.QuickInputButton {
  return { iconPath: new vscode.ThemeIcon('comment'), tooltip: OWN_ACTIONS.replyInWords.words() };
}

/** One flow's quick input, one step at a time. */
export class VscodeQuickInputs implements QuickInputs {
  /** Ends the step showing now, from outside it (the request closed, the keybinding). */
  private leaveCurrent: ((leave: Leave) => void) | undefined;
  private readonly pageButton = openAsPageButton();
  private readonly wordsButton = wordsButton();

  leave(leave: Leave): void {
    this.leaveCurrent?.(leave);
  }

  private view(view: StepView): QuickStep {
    return {
      title: view.title, step: view.step, totalSteps: view.totalSteps, placeholder: view.placeholder,
      buttons: [...(view.back ? [vscode.QuickInputButtons.Back] : []), ...(view.words ? [this.wordsButton] : []), this.pageButton],
    };
  }

  /** Back is VS Code's own button; ours are "Reply in words instead…" and "Open as page". */
  private buttonEnd(button: vscode.QuickInputButton): StepEnd<never> {
    if (button === vscode.QuickInputButtons.Back) return { kind: 'back' };
    return button === this.wordsButton ? { kind: 'words' } : { kind: 'page' };
  }

  /**
   * A text step. `check` runs as the person types (`accepting` false) and on
   * Enter (true); the message shows under the box, and Enter goes on only
   * without one. However the step ends, `keep` files the text in the draft.
   */
  input(view: StepView, spec: InputSpec): Promise<StepEnd<string>> {
    const input = createStepInput();
    showInputStep(input, { ...this.view(view), prompt: spec.prompt, value: spec.value, password: spec.password });
    setInputProblem(input, spec.problem);
    input.ignoreFocusOut = true;
    return this.settle<string>(input, (finish) => [
      input.onDidChangeValue((text) => setInputProblem(input, spec.check(text, false))),
      input.onDidAccept(() => {
        const problem = spec.check(input.value, true);
        setInputProblem(input, problem);
        if (problem === undefined) finish({ kind: 'next', value: input.value });
      }),
      input.onDidTriggerButton((button) => finish(this.buttonEnd(button))),
    ], () => spec.keep(input.value));
  }

  /**
   * A pick step. The item `active` names (or the first) is active, so Enter
   * answers with it; a multi-select takes its ticked items on Enter.
   */
  pick<V extends object>(view: StepView, items: ReadonlyArray<Listed<V>>, spec: PickSpec<V>): Promise<StepEnd<V[]>> {
    const quickPick = createStepPick<V>();
    quickPick.canSelectMany = spec.many === true;
    quickPick.ignoreFocusOut = true;
    quickPick.matchOnDescription = true;
    const show = (problem: string | undefined) => {
      // No validation line on a quick pick in this VS Code API: the problem heads the list.
      const shown = showPickStep(quickPick, { ...this.view(view), items: problem === undefined ? items : [{ separator: problem }, ...items] });
      const matching = (test: ((value: V) => boolean) | undefined) => (test ? shown.filter((item) => item.value !== undefined && test(item.value)) : []);
      const selected = matching(spec.selected);
      if (spec.many) quickPick.selectedItems = selected;
      const active = matching(spec.active)[0];
      if (active) quickPick.activeItems = [active];
    };
    show(spec.problem);
    // Separators carry no value; every item does.
    const values = (chosen: readonly ShownPickItem<V>[]) => chosen.flatMap((item) => (item.value === undefined ? [] : [item.value]));
    return this.settle<V[]>(quickPick, (finish) => [
      quickPick.onDidAccept(() => {
        const picked = values(spec.many ? quickPick.selectedItems : quickPick.activeItems.slice(0, 1));
        if (!spec.many && picked.length === 0) return;
        const problem = spec.check?.(picked);
        if (problem !== undefined) {
          show(problem);
          return;
        }
        finish({ kind: 'next', value: picked });
      }),
      quickPick.onDidTriggerButton((button) => finish(this.buttonEnd(button))),
    ], () => spec.keep?.(values(quickPick.selectedItems)));
  }

  /**
   * Shows `input` until the step ends: by its own events, by hiding
   * (Escape, focus taken by another quick input), or from outside
   * (`leave`). `keep` runs on every end (on "next" the caller may file the
   * value itself too), so nothing typed is lost.
   */
  private settle<T>(
    input: vscode.QuickInput,
    listen: (finish: (end: StepEnd<T>) => void) => vscode.Disposable[],
    keep: () => void,
  ): Promise<StepEnd<T>> {
    return new Promise<StepEnd<T>>((resolve) => {
      let done = false;
      const subscriptions: vscode.Disposable[] = [];
      const finish = (end: StepEnd<T>) => {
        if (done) return;
        done = true;
        keep();
        this.leaveCurrent = undefined;
        subscriptions.forEach((s) => s.dispose());
        input.dispose();
        resolve(end);
      };
      subscriptions.push(...listen(finish), input.onDidHide(() => finish({ kind: 'escape' })));
      this.leaveCurrent = (leave) => finish(leave);
      input.show();
    });
  }
}
