import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import type { AnswerHistory } from '../../history/answerHistory';
import { commandJson, type HistoryEntry } from '../../history/historyEntry';
import { agoRounded } from '../../shared/timeText';
import { Disposable, toDisposable } from '../../base/disposable';
import { Emitter } from '../../base/emitter';
import type { HistoryPages } from '../page/historyPages';
import { entryDescription, historyPrompt, outcomeLines, sentLine } from '../../words/historyWords';
import type { Hubs } from '../../app/hubs/hubs';
import type { ExtensionLog } from '../services/log';
import type { RequestPages } from '../page/requestPages';
import { afterLoaded, type AlwaysSecretValues } from '../../app/hubs/alwaysSecretValues';
import { confirm, notify, pick, treeItem } from '../surfaces';
import { toCsv, toJsonLines, type ExportFormat } from '../../history/historyExport';

export const HISTORY_VIEW_ID = 'aepAttention.history';
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

  constructor(
    private readonly history: AnswerHistory,
    private readonly hubs: Hubs,
    private readonly pages: HistoryPages,
    private readonly requests: RequestPages,
    private readonly log: ExtensionLog,
    /** The always-secret values: every command here waits for them (a live page, what is copied and exported masks with them). */
    secretValues: Pick<AlwaysSecretValues, 'loaded'>,
  ) {
    super();
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
      tooltip: [historyPrompt(entry), l10n.t('{0} · session {1} · hub {2}', entry.agent, entry.session, entry.hub.label), ...(sent ? [sent] : []), ...outcomeLines(entry)],
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
  private open(argument: unknown): void {
    const entry = this.entryFrom(argument);
    if (!entry) return;
    const live = this.hubs.get(entry.hub.id)?.store.inbox.item(entry.itemKey);
    if (live && (live.status === 'pending' || live.status === 'answered')) {
      this.requests.show(live);
      return;
    }
    this.pages.show(entry, this.hubs.size > 1 ? entry.hub.label : undefined);
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
    void notify('info', l10n.t('Copied the command sent to {0} as JSON.{1}', entry.agent, masked));
  }

  /** JSON Lines or CSV of every entry as stored (masked parts stay masked), to a file the person picks. */
  private async exportHistory(): Promise<void> {
    const entries = this.history.entries();
    if (entries.length === 0) {
      void notify('info', l10n.t('The answer history is empty: there is nothing to export.'));
      return;
    }
    const format = await pick<ExportFormat>([
      { label: l10n.t('JSON Lines'), description: '.jsonl', detail: l10n.t('One entry per line, with every send and outcome'), value: 'jsonl' },
      { label: l10n.t('CSV'), description: '.csv', detail: l10n.t('One row per entry, its last send and outcome, for a spreadsheet'), value: 'csv' },
    ], { title: l10n.t('Export Answer History'), placeHolder: entries.length === 1 ? l10n.t('1 entry, in which format?') : l10n.t('{0} entries, in which format?', entries.length) });
    if (!format) return;
    const name = format === 'csv' ? 'aep-answer-history.csv' : 'aep-answer-history.jsonl';
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const target = await vscode.window.showSaveDialog({
      title: l10n.t('Export Answer History'),
      ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, name) } : {}),
      filters: format === 'csv' ? { CSV: ['csv'] } : { [l10n.t('JSON Lines')]: ['jsonl'] },
    });
    if (!target) return;
    const text = format === 'csv' ? toCsv(entries) : toJsonLines(entries);
    try {
      await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(text));
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      this.log.for('history').error(`could not export the history to ${target.toString()}: ${why}`);
      void notify('error', l10n.t('Could not write the answer history to {0}: {1}', target.fsPath, why));
      return;
    }
    this.log.for('history').info(`exported ${entries.length} history entries as ${format} to ${target.toString()}`);
    const done = entries.length === 1 ? l10n.t('Exported 1 history entry to {0}.', target.fsPath) : l10n.t('Exported {0} history entries to {1}.', entries.length, target.fsPath);
    const choice = await notify('info', done, [{ title: l10n.t('Open'), value: 'open' }]);
    if (choice === 'open') await vscode.window.showTextDocument(target);
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
