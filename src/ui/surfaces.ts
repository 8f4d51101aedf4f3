import * as vscode from 'vscode';
import { codiconName, forSurface } from '../words/untrustedText';
import { ToastBudget } from '../base/toastBudget';
import type { PickItem } from '../words/pickItem';

// The only module that hands text to the VS Code surfaces that interpret
// markup: notifications (show*Message), quick picks, tree items, the status
// bar, MarkdownStrings and webview panel titles. Every string it is handed is
// made inert for its surface (untrustedText.ts), whoever wrote it: the
// extension's own sentences carry agent and hub text. Our own icons go in
// separately, as codicon names. test/unit/surfaces.test.ts holds every other
// file to this.

export type NoticeSeverity = 'info' | 'warning' | 'error';

/** A notification button: the title shown, the value returned when it is chosen. */
export interface Choice<T> {
  readonly title: string;
  readonly value: T;
}

/** A modal question with one button that goes ahead (Cancel is VS Code's own): true when the person chose it. */
export async function confirm(message: string, action: string): Promise<boolean> {
  const button = forSurface('notificationButton', action);
  const picked = await vscode.window.showWarningMessage(forSurface('notificationMessage', message), { modal: true }, button);
  return picked === button;
}

/** Every notification this extension shows, counted against VS Code's toast limit (see ToastBudget). */
export const toastBudget = new ToastBudget();

/**
 * A notification, never modal. Resolves to the value of the button chosen, by
 * identity (two buttons may read alike); buttons whose title sanitises to
 * nothing are left out.
 */
export async function notify<T>(severity: NoticeSeverity, message: string, choices: ReadonlyArray<Choice<T>> = []): Promise<T | undefined> {
  toastBudget.note(Date.now());
  const items = choices
    .map((choice) => ({ title: forSurface('notificationButton', choice.title), value: choice.value }))
    .filter((item) => item.title !== '');
  const text = forSurface('notificationMessage', message);
  const picked =
    severity === 'error'
      ? await vscode.window.showErrorMessage(text, ...items)
      : severity === 'warning'
        ? await vscode.window.showWarningMessage(text, ...items)
        : await vscode.window.showInformationMessage(text, ...items);
  return picked?.value;
}

/** An item's text made inert for a quick pick row (label, description and detail render `$(icon)` syntax). */
function shownItem<T>(item: PickItem<T>): vscode.QuickPickItem & { readonly value: T } {
  const icon = item.icon === undefined ? undefined : codiconName(item.icon);
  return {
    ...(icon === undefined ? {} : { iconPath: new vscode.ThemeIcon(icon) }),
    label: forSurface('quickPickLabel', item.label),
    ...(item.description === undefined ? {} : { description: forSurface('quickPickDescription', item.description) }),
    ...(item.detail === undefined ? {} : { detail: forSurface('quickPickDetail', item.detail) }),
    value: item.value,
  };
}

/** A quick pick (label, description and detail render `$(icon)` syntax); resolves to the value picked. */
export async function pick<T>(items: ReadonlyArray<PickItem<T>>, options: { title: string; placeHolder?: string }): Promise<T | undefined> {
  const shown = items.map(shownItem);
  const picked = await vscode.window.showQuickPick(shown, {
    title: forSurface('quickPickLabel', options.title),
    ...(options.placeHolder === undefined ? {} : { placeHolder: forSurface('quickPickDescription', options.placeHolder) }),
    matchOnDescription: true,
  });
  return picked?.value;
}

/** A quick pick of ticks, every item ticked to start with; resolves to the values ticked, or undefined on Escape. */
export async function pickMany<T>(items: ReadonlyArray<PickItem<T>>, options: { title: string; placeHolder?: string }): Promise<T[] | undefined> {
  const shown = items.map((item) => ({ ...shownItem(item), picked: true }));
  const picked = await vscode.window.showQuickPick(shown, {
    title: forSurface('quickPickLabel', options.title),
    ...(options.placeHolder === undefined ? {} : { placeHolder: forSurface('quickPickDescription', options.placeHolder) }),
    canPickMany: true,
    matchOnDescription: true,
    matchOnDetail: true,
    ignoreFocusOut: true,
  });
  return picked?.map((item) => item.value);
}

// ---- the inline answer's quick input (issue 15) --------------------------------
// A multi-step flow needs the long-lived QuickPick and InputBox (for `step`,
// buttons, an inline `validationMessage`); they are created here and every
// text they show is set here, made inert like `pick`'s.

/** What every step of a quick-input flow shows around its question. */
export interface QuickStep {
  /** Leads with the agent's name: whose question this is. */
  readonly title: string;
  readonly step?: number | undefined;
  readonly totalSteps?: number | undefined;
  readonly placeholder?: string | undefined;
  /** Our own buttons (codicons, our tooltips). */
  readonly buttons?: readonly vscode.QuickInputButton[];
}

/** An item of a step's pick, or a separator whose label heads the items after it. */
export type StepPickItem<T> = PickItem<T> | { readonly separator: string };

/** An item as the quick pick holds it; separators carry no value. */
export type ShownPickItem<T> = vscode.QuickPickItem & { readonly value?: T };

export function createStepPick<T>(): vscode.QuickPick<ShownPickItem<T>> {
  return vscode.window.createQuickPick<ShownPickItem<T>>();
}

export function createStepInput(): vscode.InputBox {
  return vscode.window.createInputBox();
}

function applyStep(input: vscode.QuickInput & { placeholder: string | undefined; buttons: readonly vscode.QuickInputButton[] }, step: QuickStep): void {
  input.title = forSurface('quickPickLabel', step.title);
  input.step = step.step;
  input.totalSteps = step.totalSteps;
  input.placeholder = step.placeholder === undefined ? undefined : forSurface('quickPickDescription', step.placeholder);
  input.buttons = step.buttons ?? [];
}

/** Shows a pick step's text and items; returns the items as shown, in order, so the caller can make some active or selected. */
export function showPickStep<T>(quickPick: vscode.QuickPick<ShownPickItem<T>>, step: QuickStep & { readonly items: ReadonlyArray<StepPickItem<T>> }): Array<ShownPickItem<T>> {
  applyStep(quickPick, step);
  const shown = step.items.map((item): ShownPickItem<T> =>
    'separator' in item
      ? { label: forSurface('quickPickLabel', item.separator), kind: vscode.QuickPickItemKind.Separator }
      : shownItem(item),
  );
  quickPick.items = shown;
  return shown;
}

/** Shows an input step's text: `prompt` under the box, `value` the user's own earlier input. */
export function showInputStep(input: vscode.InputBox, step: QuickStep & { readonly prompt?: string | undefined; readonly value?: string | undefined; readonly password?: boolean | undefined }): void {
  applyStep(input, step);
  input.prompt = step.prompt === undefined ? undefined : forSurface('quickPickDetail', step.prompt);
  input.password = step.password === true;
  if (step.value !== undefined) input.value = step.value;
  input.validationMessage = undefined;
}

/** The problem with what is typed, shown under the box (it may quote a field's label). */
export function setInputProblem(input: vscode.InputBox, message: string | undefined): void {
  input.validationMessage = message === undefined ? undefined : forSurface('quickPickDetail', message);
}

/**
 * Runs `task` with a progress indicator in the status bar; `title` may name
 * the agent, so it is made inert as status bar text.
 */
export function withStatusProgress<T>(title: string, task: () => Thenable<T>): Thenable<T> {
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: forSurface('statusBarText', title) }, task);
}

/**
 * A tooltip or hover as Markdown that shows only text: each paragraph through
 * `appendText` after untrustedText neutralised what appendText leaves live
 * (HTML, `<…>` autolinks, bare URLs, e-mail addresses); untrusted, no HTML, no icons.
 */
export function markdownTooltip(paragraphs: readonly string[]): vscode.MarkdownString {
  const markdown = new vscode.MarkdownString('', false);
  markdown.isTrusted = false;
  markdown.supportHtml = false;
  markdown.supportThemeIcons = false;
  paragraphs.forEach((paragraph, index) => {
    if (index > 0) markdown.appendMarkdown('\n\n');
    markdown.appendText(forSurface('markdownText', paragraph));
  });
  return markdown;
}

export interface TreeRow {
  readonly label: string;
  readonly description?: string;
  /** Paragraphs of the hover. */
  readonly tooltip?: readonly string[];
  /** A codicon name (ThemeIcon id). */
  readonly icon?: string;
  readonly collapsible: 'expanded' | 'collapsed' | 'none';
  readonly id?: string;
  readonly contextValue?: string;
  readonly command?: vscode.Command;
  readonly accessibilityLabel?: string;
}

const COLLAPSIBLE = {
  expanded: vscode.TreeItemCollapsibleState.Expanded,
  collapsed: vscode.TreeItemCollapsibleState.Collapsed,
  none: vscode.TreeItemCollapsibleState.None,
} as const;

export function treeItem(row: TreeRow): vscode.TreeItem {
  const item = new vscode.TreeItem(forSurface('treeLabel', row.label), COLLAPSIBLE[row.collapsible]);
  if (row.description !== undefined) item.description = forSurface('treeDescription', row.description);
  if (row.tooltip !== undefined) item.tooltip = markdownTooltip(row.tooltip);
  const icon = row.icon === undefined ? undefined : codiconName(row.icon);
  if (icon) item.iconPath = new vscode.ThemeIcon(icon);
  if (row.id !== undefined) item.id = row.id;
  if (row.contextValue !== undefined) item.contextValue = row.contextValue;
  if (row.command) item.command = { ...row.command, title: forSurface('treeLabel', row.command.title) };
  if (row.accessibilityLabel !== undefined) item.accessibilityInformation = { label: forSurface('accessibilityLabel', row.accessibilityLabel) };
  return item;
}

/** The tree view's badge (a count and its tooltip), or none. */
export function setBadge(view: vscode.TreeView<unknown>, count: number, tooltip: string): void {
  view.badge = count > 0 ? { value: count, tooltip: forSurface('accessibilityLabel', tooltip) } : undefined;
}

export interface StatusBarContent {
  /** A codicon name, shown before the text: ours, never agent text. */
  readonly icon: string;
  readonly text?: string;
  /** Paragraphs of the hover. */
  readonly tooltip: readonly string[];
  readonly accessibilityLabel: string;
}

/** A status bar item whose text, tooltip and label can only be set through `show`. */
export class StatusItem implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;

  constructor(id: string, name: string, alignment: vscode.StatusBarAlignment, priority: number, command: string) {
    this.item = vscode.window.createStatusBarItem(id, alignment, priority);
    this.item.name = forSurface('statusBarText', name);
    this.item.command = command;
  }

  show(view: StatusBarContent): void {
    const icon = codiconName(view.icon);
    const text = view.text === undefined ? '' : forSurface('statusBarText', view.text);
    this.item.text = [icon ? `$(${icon})` : '', text].filter(Boolean).join(' ');
    this.item.tooltip = markdownTooltip(view.tooltip);
    this.item.accessibilityInformation = { label: forSurface('accessibilityLabel', view.accessibilityLabel) };
    this.item.show();
  }

  hide(): void {
    this.item.hide();
  }

  dispose(): void {
    this.item.dispose();
  }
}

export function createWebviewPanel(
  viewType: string,
  title: string,
  showOptions: vscode.ViewColumn | { readonly viewColumn: vscode.ViewColumn; readonly preserveFocus?: boolean },
  options: vscode.WebviewPanelOptions & vscode.WebviewOptions = {},
): vscode.WebviewPanel {
  return vscode.window.createWebviewPanel(viewType, forSurface('panelTitle', title), showOptions, options);
}

export function setPanelTitle(panel: vscode.WebviewPanel, title: string): void {
  panel.title = forSurface('panelTitle', title);
}
