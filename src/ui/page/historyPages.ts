import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import type { HistoryEntry } from '../../history/historyEntry';
import { historyItem } from '../../history/historyItem';
import type { Logger } from '../../base/logger';
import { agentName, kindLabel } from '../../words/describe';
import { Disposable, DisposableMap } from '../../base/disposable';
import { HistoryPageController } from '../../app/page/historyPageController';
import { createPagePanel, pageWebview } from './pagePanel';

/** Not restored across a reload (no serializer): a history page is opened again from the History view. */
export const HISTORY_PAGE_VIEW_TYPE = 'aepAttention.historyEntry';

/** One read-only page per history entry; opening it again brings it forward. */
export class HistoryPages extends Disposable {
  /** Closed with this owner; a page the person closes leaves by itself. */
  private readonly pages = this._register(new DisposableMap<string, HistoryPageController>());

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly log: Logger,
  ) {
    super();
  }

  show(entry: Readonly<HistoryEntry>, hubName: string | undefined): void {
    const open = this.pages.get(entry.id);
    if (open) {
      open.host.reveal();
      return;
    }
    const item = historyItem(entry);
    const panel = createPagePanel(HISTORY_PAGE_VIEW_TYPE, l10n.t('History: {0} from {1}', kindLabel(item), agentName(item.agent)), vscode.ViewColumn.Active, this.extensionUri);
    const page = new HistoryPageController(entry, pageWebview(panel, this.extensionUri), {
      log: this.log,
      hubName,
      strings: vscode.l10n.bundle,
      showLog: () => void vscode.commands.executeCommand('aepAttention.showLog'),
    });
    this.pages.set(entry.id, page);
    page.host.onDidDispose(() => this.pages.deleteAndLeak(entry.id));
    page.host.load();
  }
}
