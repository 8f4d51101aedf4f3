import * as vscode from 'vscode';
import type { AttentionItem } from '../aep/inbox/inbox';
import { age, kindLabel, promptLine, provenance, timeLeft } from './describe';
import { Disposable } from './disposable';
import type { HubConnection } from './hubConnection';

export const INBOX_VIEW_ID = 'aepAttention.inbox';
export const OPEN_REQUEST_COMMAND = 'aepAttention.openRequest';

type Node =
  | { kind: 'agent'; agent: string; items: Array<Readonly<AttentionItem>> }
  | { kind: 'session'; agent: string; session: string; source: string; items: Array<Readonly<AttentionItem>> }
  | { kind: 'request'; item: Readonly<AttentionItem> };

/**
 * The inbox: open requests grouped by agent, then session, oldest first, with
 * a badge for the count. Rebuilt from the inbox on change (debounced), and
 * ages refresh while requests are waiting.
 */
export class InboxView extends Disposable {
  private readonly changes = this._register(new vscode.EventEmitter<void>());
  private readonly view: vscode.TreeView<Node>;
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly connection: HubConnection) {
    super();
    const provider: vscode.TreeDataProvider<Node> = {
      onDidChangeTreeData: this.changes.event,
      getChildren: (node) => this.children(node),
      getTreeItem: (node) => this.treeItem(node),
    };
    this.view = this._register(vscode.window.createTreeView(INBOX_VIEW_ID, { treeDataProvider: provider, showCollapseAll: true }));
    this._register(connection.onDidChangeInbox(() => this.scheduleRefresh()));
    this._register(connection.onDidChangeRoster(() => this.scheduleRefresh()));
    this._register(connection.onDidChangeState(() => this.scheduleRefresh()));
    const ticker = setInterval(() => {
      if (this.view.visible && this.connection.visibleItems().length > 0) this.changes.fire();
    }, 15_000);
    this._register({ dispose: () => clearInterval(ticker) });
    this._register({ dispose: () => this.refreshTimer && clearTimeout(this.refreshTimer) });
    this.updateBadge();
  }

  async reveal(): Promise<void> {
    await vscode.commands.executeCommand(`${INBOX_VIEW_ID}.focus`);
  }

  private scheduleRefresh(): void {
    if (this.refreshTimer) return;
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = undefined;
      this.updateBadge();
      this.changes.fire();
    }, 50);
  }

  private updateBadge(): void {
    const count = this.connection.visibleItems().length;
    const tooltip = count === 1 ? vscode.l10n.t('1 request waits for an answer') : vscode.l10n.t('{0} requests wait for an answer', count);
    this.view.badge = count > 0 ? { value: count, tooltip } : undefined;
    void vscode.commands.executeCommand('setContext', 'aepAttention.configured', this.connection.state.kind !== 'unconfigured');
  }

  private children(node: Node | undefined): Node[] {
    const items = node === undefined ? this.connection.visibleItems() : node.kind === 'request' ? [] : node.items;
    if (node?.kind === 'session') return node.items.map((item) => ({ kind: 'request', item }));
    if (node?.kind === 'agent') {
      const bySession = groupBy(items, (item) => `${item.source}\u0000${item.session}`);
      return [...bySession.values()].map((list) => ({
        kind: 'session', agent: node.agent, session: list[0]?.session ?? '', source: list[0]?.source ?? '', items: list,
      }));
    }
    if (node !== undefined) return [];
    return [...groupBy(items, (item) => item.agent).entries()].map(([agent, list]) => ({ kind: 'agent', agent, items: list }));
  }

  private treeItem(node: Node): vscode.TreeItem {
    const now = Date.now();
    if (node.kind === 'agent') {
      const item = new vscode.TreeItem(node.agent, vscode.TreeItemCollapsibleState.Expanded);
      item.iconPath = new vscode.ThemeIcon('robot');
      item.description = vscode.l10n.t('{0} waiting', node.items.length);
      item.contextValue = 'agent';
      return item;
    }
    if (node.kind === 'session') {
      const item = new vscode.TreeItem(node.session, vscode.TreeItemCollapsibleState.Expanded);
      const reach = this.connection.reachability(node.session);
      item.iconPath = new vscode.ThemeIcon(reach.state === 'reachable' ? 'plug' : reach.state === 'unknown' ? 'circle-outline' : 'debug-disconnect');
      item.description =
        reach.state === 'reachable'
          ? vscode.l10n.t('reachable')
          : reach.state === 'ambiguous'
            ? vscode.l10n.t('ambiguous: {0} claimants, answers will be refused', reach.claimants)
            : reach.state === 'unreachable'
              ? vscode.l10n.t('not reachable right now')
              : '';
      item.tooltip = node.source;
      item.contextValue = 'session';
      return item;
    }
    const request = node.item;
    const label = promptLine(request);
    const item = new vscode.TreeItem(label || request.requestId, vscode.TreeItemCollapsibleState.None);
    item.id = request.key;
    const parts = [kindLabel(request)];
    if (request.status === 'answered') parts.push(vscode.l10n.t('answered, waiting for the agent'));
    const expiresAt = request.request?.expiresAt;
    parts.push(expiresAt !== undefined ? timeLeft(expiresAt, now) : age(request.receivedAt, now));
    if (request.request) parts.push(vscode.l10n.t('capture {0}', request.request.capture));
    if (request.request && !request.request.answerableHere) parts.push(vscode.l10n.t('answered elsewhere'));
    item.description = parts.join(' · ');
    const tooltip = new vscode.MarkdownString();
    tooltip.appendText(`${label}\n\n${provenance(request)}`);
    item.tooltip = tooltip;
    item.iconPath = new vscode.ThemeIcon(
      request.problem ? 'warning' : request.status === 'answered' ? 'check' : request.request?.kind === 'form' ? 'checklist' : request.request?.kind === 'permission' ? 'shield' : 'comment-discussion',
    );
    item.contextValue = request.problem ? 'request.malformed' : 'request';
    item.command = { command: OPEN_REQUEST_COMMAND, title: vscode.l10n.t('Open Request'), arguments: [request.key] };
    item.accessibilityInformation = { label: `${kindLabel(request)}: ${label}. ${item.description}` };
    return item;
  }
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = groups.get(k);
    if (list) list.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}
