import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import type { Reachability } from '../../client/rosterSnapshot';
import type { PositionTaken } from '../../inbox/inbox';
import { agoRounded, leftRounded } from '../../shared/timeText';
import { agentName, kindLabel, promptLine, provenance, sessionName } from '../../words/describe';
import { Disposable, toDisposable } from '../../base/disposable';
import { Emitter } from '../../base/emitter';
import { shownStatus } from '../../shared/shownStatus';
import type { Hub, Hubs } from '../../app/hubs/hubs';
import { inboxChildren, type InboxNode } from '../../app/inboxTree';
import { setBadge, treeItem } from '../surfaces';
import { watchOnlySentence } from '../../words/watchOnlyWords';

import { INBOX_VIEW_ID } from '../viewIds';
export const OPEN_REQUEST_COMMAND = 'aepAttention.openRequest';

type Node = InboxNode<Hub>;

/**
 * The inbox: open requests, oldest first, with a badge for the count; grouped
 * by hub, agent and session only where that level tells rows apart
 * (inboxTree.ts). Rebuilt from the inbox on change (debounced), and ages
 * refresh while requests are waiting.
 */
export class InboxView extends Disposable {
  /** Its one listener is VS Code's tree, which catches its own errors. */
  private readonly changes = this._register(new Emitter<void>());
  private readonly view: vscode.TreeView<Node>;
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly hubs: Hubs) {
    super();
    const provider: vscode.TreeDataProvider<Node> = {
      onDidChangeTreeData: this.changes.event,
      getChildren: (node) => this.children(node),
      getTreeItem: (node) => this.treeItem(node),
    };
    this.view = this._register(vscode.window.createTreeView(INBOX_VIEW_ID, { treeDataProvider: provider, showCollapseAll: true }));
    this._register(hubs.onDidChangeInbox(() => this.scheduleRefresh()));
    this._register(hubs.onDidChangeRoster(() => this.scheduleRefresh()));
    this._register(hubs.onDidChangeState(() => this.scheduleRefresh()));
    this._register(hubs.onDidChangeHubs(() => this.scheduleRefresh()));
    const ticker = setInterval(() => {
      if (this.view.visible && this.hubs.visibleCount > 0) this.changes.fire();
    }, 15_000);
    this._register(toDisposable(() => clearInterval(ticker)));
    this._register(toDisposable(() => clearTimeout(this.refreshTimer)));
    this.updateBadge();
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
    const count = this.hubs.visibleCount;
    const tooltip = count === 1 ? l10n.t('1 request waits for an answer') : l10n.t('{0} requests wait for an answer', count);
    setBadge(this.view, count, tooltip);
    void vscode.commands.executeCommand('setContext', 'aepAttention.configured', this.hubs.size > 0);
    // Answer Inline shows in the palette only when there is something to answer.
    void vscode.commands.executeCommand('setContext', 'aepAttention.hasRequests', count > 0);
  }

  private children(node: Node | undefined): Node[] {
    return inboxChildren(node, this.hubs.list().map((hub) => ({ hub, items: hub.store.visibleItems() })));
  }

  /** Every string here may hold agent text (agent and session names, source, prompt, kind): surfaces.treeItem makes it inert. */
  private treeItem(node: Node): vscode.TreeItem {
    const now = Date.now();
    if (node.kind === 'hub') {
      return treeItem({
        label: node.hub.label, collapsible: 'expanded', icon: hubIcon(node.hub), contextValue: 'hub', id: `hub:${node.hub.id}`,
        description: [l10n.t('{0} waiting', node.items.length), hubStateWord(node.hub)].join(' · '),
        tooltip: [node.hub.base ?? l10n.t('not a usable address: see the status bar for why'), ...node.hub.config.folders.map((folder) => l10n.t('named by the folder {0}', folder))],
      });
    }
    if (node.kind === 'agent') {
      return treeItem({
        label: agentName(node.agent), collapsible: 'expanded', icon: 'robot', contextValue: 'agent',
        description: l10n.t('{0} waiting', node.items.length),
      });
    }
    if (node.kind === 'session') {
      const [first] = node.items;
      const reach = first ? this.hubs.reachability(first) : { state: 'unknown' as const };
      return treeItem({
        label: sessionName(node.session), collapsible: 'expanded', contextValue: 'session',
        icon: reach.state === 'reachable' ? 'plug' : reach.state === 'unknown' ? 'circle-outline' : reach.state === 'not-accepting' || reach.state === 'watch-only' ? 'circle-slash' : 'debug-disconnect',
        description: [...(node.byAgent ? [agentName(node.agent)] : []), reachabilityDescription(reach)].filter((part) => part !== '').join(' · '),
        tooltip: [node.source, ...positionTakenLines(first ? this.hubs.positionTaken(first) : undefined)],
      });
    }
    const request = node.item;
    const label = promptLine(request);
    // Who asks (where no agent or session row above says it), then how long it has waited: what a narrow sidebar keeps.
    const parts = [...(node.byAgent ? [agentName(request.agent)] : []), ...(node.bySession ? [l10n.t('session {0}', sessionName(request.session))] : [])];
    const expiresAt = request.request?.expiresAt;
    parts.push(expiresAt !== undefined ? leftRounded(expiresAt, now) : agoRounded(request.receivedAt, now));
    // Rows are open requests and answered ones the agent has yet to resolve (src/shared/shownStatus.ts).
    const shown = request.status === 'answered' ? shownStatus(request.status, { recorded: this.hubs.recorded(request).verdict }) : undefined;
    if (shown?.kind === 'answered') parts.push(shown.differs ? l10n.t('the agent recorded a different answer, waiting for the agent') : l10n.t('answered, waiting for the agent'));
    parts.push(kindLabel(request));
    if (request.request) parts.push(l10n.t('capture {0}', request.request.capture));
    if (request.request && !request.request.answerableHere) parts.push(l10n.t('answered outside VS Code'));
    if (node.bySession) {
      // No session row carries the delivery word, so the row does when it is bad news.
      const reach = this.hubs.reachability(request);
      if (reach.state !== 'reachable' && reach.state !== 'unknown') parts.push(reachabilityDescription(reach));
    }
    const description = parts.join(' · ');
    return treeItem({
      label: label || request.requestId,
      collapsible: 'none',
      id: request.key,
      description,
      // The prompt, then whose it is: agent · session · host.
      tooltip: [label, provenance(request)],
      icon: request.problem?.withheld ? 'eye-closed' : request.problem ? 'warning' : request.status === 'answered' ? 'check' : request.request?.kind === 'form' ? 'checklist' : request.request?.kind === 'permission' ? 'shield' : 'comment-discussion',
      contextValue: request.problem ? 'request.malformed' : 'request',
      command: { command: OPEN_REQUEST_COMMAND, title: l10n.t('Open Request'), arguments: [request.key] },
      accessibilityLabel: `${kindLabel(request)}: ${label}. ${description}`,
    });
  }
}

/** The session's emitter sent a second event at a taken position: said in the session's tooltip, as the log said it once. */
function positionTakenLines(taken: Readonly<PositionTaken> | undefined): string[] {
  if (!taken) return [];
  return [
    taken.count === 1
      ? l10n.t('The agent sent a second event at one position (epoch {0}, seq {1}): the first stands, the second was not applied', taken.epoch, taken.seq)
      : l10n.t('The agent sent {0} events at positions already taken, first at epoch {1}, seq {2}: the first event at each stands, the others were not applied', taken.count, taken.epoch, taken.seq),
  ];
}

function hubIcon(hub: Hub): string {
  switch (hub.state.kind) {
    case 'connected':
      return 'plug';
    case 'connecting':
      return 'sync~spin';
    case 'failed':
      return 'error';
    default:
      return 'debug-disconnect';
  }
}

/** A hub row's word on its connection; the status bar's tooltip has the detail. */
function hubStateWord(hub: Hub): string {
  switch (hub.state.kind) {
    case 'connected':
      return l10n.t('connected');
    case 'connecting':
      return l10n.t('connecting');
    case 'backing-off':
      return l10n.t('lost, retrying');
    case 'failed':
      return l10n.t('cannot connect');
    default:
      return l10n.t('disconnected');
  }
}

/** The session row's word on delivery, from the roster (AEP-0003 §4.1). */
function reachabilityDescription(reach: Reachability): string {
  switch (reach.state) {
    case 'reachable':
      return l10n.t('reachable');
    case 'ambiguous':
      return l10n.t('ambiguous: {0} claimants, answers will be refused', reach.claimants);
    case 'unreachable':
      return l10n.t('not reachable right now');
    case 'not-accepting':
      return l10n.t('this agent does not take answers from editors');
    case 'watch-only':
      return watchOnlySentence();
    case 'unknown':
      return '';
  }
}
