import * as vscode from 'vscode';
import { codiconName, forSurface } from './untrustedText';

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

/**
 * A notification, never modal. Resolves to the value of the button chosen, by
 * identity (two buttons may read alike); buttons whose title sanitises to
 * nothing are left out.
 */
export async function notify<T>(severity: NoticeSeverity, message: string, choices: ReadonlyArray<Choice<T>> = []): Promise<T | undefined> {
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

export interface PickItem<T> {
  readonly label: string;
  readonly description?: string;
  readonly detail?: string;
  readonly value: T;
}

/** A quick pick (label, description and detail render `$(icon)` syntax); resolves to the value picked. */
export async function pick<T>(items: ReadonlyArray<PickItem<T>>, options: { title: string; placeHolder?: string }): Promise<T | undefined> {
  const shown = items.map((item) => ({
    label: forSurface('quickPickLabel', item.label),
    ...(item.description === undefined ? {} : { description: forSurface('quickPickDescription', item.description) }),
    ...(item.detail === undefined ? {} : { detail: forSurface('quickPickDetail', item.detail) }),
    value: item.value,
  }));
  const picked = await vscode.window.showQuickPick(shown, {
    title: forSurface('quickPickLabel', options.title),
    ...(options.placeHolder === undefined ? {} : { placeHolder: forSurface('quickPickDescription', options.placeHolder) }),
    matchOnDescription: true,
  });
  return picked?.value;
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

export interface StatusView {
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

  show(view: StatusView): void {
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
