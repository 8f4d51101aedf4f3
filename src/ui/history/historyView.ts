import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import type { AnswerHistory } from '../../history/answerHistory';
import { commandJson, type HistoryEntry } from '../../history/historyEntry';
import { agoRounded } from '../../shared/timeText';
import { Disposable, toDisposable } from '../../base/disposable';
import { Emitter } from '../../base/emitter';
import type { HistoryPagesOnDemand } from '../page/pagesOnDemand';
import { entryDescription, historyPrompt, outcomeLines, sentLine } from '../../words/historyWords';
import { agentName, sessionName } from '../../words/describe';
import type { Hubs } from '../../app/hubs/hubs';
import type { ExtensionLog } from '../services/log';
import type { RequestPagesOnDemand } from '../page/pagesOnDemand';
import { afterLoaded, type AlwaysSecretValues } from '../../app/hubs/alwaysSecretValues';
import { confirm, notify, treeItem } from '../surfaces';
import type { OnFirstNeed } from '../../base/onFirstNeed';
import { onFirstNeed } from '../services/onDemand';

import { HISTORY_VIEW_ID } from '../viewIds';
export const HISTORY_COMMANDS = {
  open: 'aepAttention.openHistoryEntry',
  copyJson: 'aepAttention.copyHistoryJson',
  clear: 'aepAttention.clearHistory',
  export: 'aepAttention.exportHistory',
} as const;

type Node = { entry: Readonly<HistoryEntry> };

/**
 * The History view beside the inbox (issue 16): every request answered from
 * this window, newest first, and those that ended without an answer from
 * here, marked. A request still open opens its live page; one that is over
 * opens read-only with what was sent and every outcome.
 */
export class HistoryView extends Disposable {
  private readonly changes = this._register(new Emitter<void>((error) => this.log.for('history').error(`listener failed: ${String(error)}`)));
  private readonly view: vscode.TreeView<Node>;
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;
  /** Export Answer History's steps and formats, loaded on its first run (issue 40). */
  private readonly exporting: OnFirstNeed<typeof import('./historyExportFlow')>;

  constructor(
    private readonly history: AnswerHistory,
    private readonly hubs: Hubs,
    private readonly pages: HistoryPagesOnDemand,
    private readonly requests: RequestPagesOnDemand,
    private readonly log: ExtensionLog,
    /** The always-secret values: every command here waits for them (a live page, what is copied and exported masks with them). */
    secretValues: Pick<AlwaysSecretValues, 'loaded'>,
  ) {
    super();
    this.exporting = this._register(onFirstNeed('history-export', () => import('./historyExportFlow').then((flow) => () => flow), log.for('history')));
    const provider: vscode.TreeDataProvider<Node> = {
      onDidChangeTreeData: this.changes.event,
      getChildren: (node) => (node ? [] : this.history.entries().map((entry) => ({ entry }))),
      getTreeItem: (node) => this.treeItem(node),
    };
    this.view = this._register(vscode.window.createTreeView(HISTORY_VIEW_ID, { treeDataProvider: provider }));
    this._register(history.onDidChange(() => this.scheduleRefresh()));
    this._register(hubs.onDidChangeHubs(() => this.scheduleRefresh()));
    this._register(toDisposable(() => clearTimeout(this.refreshTimer)));
    const register = (id: string, run: (...args: unknown[]) => unknown) => this._register(vscode.commands.registerCommand(id, afterLoaded(secretValues, run)));
    register(HISTORY_COMMANDS.open, (argument) => this.open(argument));
    register(HISTORY_COMMANDS.copyJson, (argument) => this.copyJson(argument));
    register(HISTORY_COMMANDS.clear, () => this.clear());
    register(HISTORY_COMMANDS.export, () => this.exportHistory());
  }

  private scheduleRefresh(): void {
    if (this.refreshTimer) return;
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = undefined;
      this.changes.fire();
    }, 50);
  }

  /** Every string here may hold agent or hub text: surfaces.treeItem makes it inert. */
  private treeItem({ entry }: Node): vscode.TreeItem {
    const several = this.hubs.size > 1;
    const description = `${entryDescription(entry, several)} · ${agoRounded(entry.at, Date.now())}`;
    const sent = sentLine(entry);
    return treeItem({
      label: historyPrompt(entry) || entry.requestId,
      description,
      collapsible: 'none',
      id: entry.id,
      icon: entry.sends.length === 0 ? 'circle-slash' : entry.sends.at(-1)?.outcomes.some((o) => o.kind === 'accepted') ? 'pass' : 'warning',
      contextValue: entry.sends.length > 0 ? 'historyEntry.sent' : 'historyEntry.ended',
      tooltip: [historyPrompt(entry), l10n.t('{0} · session {1} · hub {2}', agentName(entry.agent), sessionName(entry.session), entry.hub.label), ...(sent ? [sent] : []), ...outcomeLines(entry)],
      command: { command: HISTORY_COMMANDS.open, title: l10n.t('Open'), arguments: [entry.id] },
      accessibilityLabel: `${historyPrompt(entry)}. ${description}`,
    });
  }

  private entryFrom(argument: unknown): Readonly<HistoryEntry> | undefined {
    if (typeof argument === 'string') return this.history.entry(argument);
    if (typeof argument === 'object' && argument !== null && 'entry' in argument) {
      const id = (argument as { entry: { id?: unknown } }).entry.id;
      return typeof id === 'string' ? this.history.entry(id) : undefined;
    }
    return this.view.selection[0]?.entry;
  }

  /** A request still open in its hub opens its live page (it can still be answered); one that is over, read-only. */
  private async open(argument: unknown): Promise<void> {
    const entry = this.entryFrom(argument);
    if (!entry) return;
    const live = this.hubs.get(entry.hub.id)?.store.inbox.item(entry.itemKey);
    if (live && (live.status === 'pending' || live.status === 'answered')) {
      await this.requests.show(live);
      return;
    }
    await this.pages.show(entry, this.hubs.size > 1 ? entry.hub.label : undefined);
  }

  /** The command as it was sent, with what the history masks still masked: the clipboard is no place for a secret either. */
  private async copyJson(argument: unknown): Promise<void> {
    const entry = this.entryFrom(argument);
    const send = entry?.sends.at(-1);
    if (!entry || !send) {
      void notify('info', l10n.t('Nothing was sent from here for that request, so there is no command to copy.'));
      return;
    }
    await vscode.env.clipboard.writeText(commandJson(send));
    this.log.for('history').info(`copied command ${send.command.id} as JSON`);
    const masked = send.masked > 0 ? l10n.t(' {0} part(s) of the answer are masked, as the history keeps them.', send.masked) : '';
    void notify('info', l10n.t('Copied the command sent to {0} as JSON.{1}', agentName(entry.agent), masked));
  }

  /** JSON Lines or CSV of every entry as stored (masked parts stay masked), to a file the person picks (historyExportFlow.ts). */
  private async exportHistory(): Promise<void> {
    const entries = this.history.entries();
    if (entries.length === 0) {
      void notify('info', l10n.t('The answer history is empty: there is nothing to export.'));
      return;
    }
    await (await this.exporting.get())?.exportHistory(entries, this.log.for('history'));
  }

  private async clear(): Promise<void> {
    const count = this.history.entries().length;
    if (count === 0) return;
    const message = count === 1 ? l10n.t('Clear the answer history of this workspace (1 entry)?') : l10n.t('Clear the answer history of this workspace ({0} entries)?', count);
    if (!(await confirm(message, l10n.t('Clear History')))) return;
    this.history.clear();
    this.log.for('history').info(`cleared ${count} history entries`);
  }
}
