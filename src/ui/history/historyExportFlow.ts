import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import type { Logger } from '../../base/logger';
import type { HistoryEntry } from '../../history/historyEntry';
import { toCsv, toJsonLines, type ExportFormat } from '../../history/historyExport';
import { notify, pick } from '../surfaces';

/**
 * Export Answer History's steps: JSON Lines or CSV of every entry as stored
 * (masked parts stay masked), to a file the person picks. Loaded on the
 * command's first run (historyView.ts), not at activation.
 */
export async function exportHistory(entries: ReadonlyArray<Readonly<HistoryEntry>>, log: Logger): Promise<void> {
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
    log.error(`could not export the history to ${target.toString()}: ${why}`);
    void notify('error', l10n.t('Could not write the answer history to {0}: {1}', target.fsPath, why));
    return;
  }
  log.info(`exported ${entries.length} history entries as ${format} to ${target.toString()}`);
  const done = entries.length === 1 ? l10n.t('Exported 1 history entry to {0}.', target.fsPath) : l10n.t('Exported {0} history entries to {1}.', entries.length, target.fsPath);
  const choice = await notify('info', done, [{ title: l10n.t('Open'), value: 'open' }]);
  if (choice === 'open') await vscode.window.showTextDocument(target);
}
