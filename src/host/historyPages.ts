import * as vscode from 'vscode';
import type { HistoryEntry } from '../aep/history/historyEntry';
import { historyItem } from '../aep/history/historyItem';
import type { AttentionItem } from '../aep/inbox/inbox';
import type { Logger } from '../aep/client/logger';
import { hostToWebviewSchema, webviewToHostSchema, type HostToWebview } from '../shared/webviewMessages';
import { agentName, kindLabel } from './describe';
import { Disposable } from './disposable';
import { outcomeLines } from './historyWords';
import { pageRequest } from './pageRequest';
import { requestPageHtml, requestPageOptions } from './requestPage';
import { createWebviewPanel } from './surfaces';

/** Not restored across a reload (no serializer): a history page is opened again from the History view. */
export const HISTORY_PAGE_VIEW_TYPE = 'aepAttention.historyEntry';

/** One read-only page per history entry; opening it again brings it forward. */
export class HistoryPanels extends Disposable {
  private readonly panels = new Map<string, vscode.WebviewPanel>();

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly log: Logger,
  ) {
    super();
    this._register({ dispose: () => [...this.panels.values()].forEach((panel) => panel.dispose()) });
  }

  show(entry: Readonly<HistoryEntry>, hubName: string | undefined): void {
    const open = this.panels.get(entry.id);
    if (open) {
      open.reveal(undefined, false);
      return;
    }
    const item = historyItem(entry);
    const panel = createWebviewPanel(HISTORY_PAGE_VIEW_TYPE, vscode.l10n.t('History: {0} from {1}', kindLabel(item), agentName(item.agent)), vscode.ViewColumn.Active, requestPageOptions(this.extensionUri));
    panel.webview.html = requestPageHtml(panel.webview, this.extensionUri);
    this.panels.set(entry.id, panel);
    const subscriptions = [
      panel.webview.onDidReceiveMessage((raw: unknown) => {
        const message = webviewToHostSchema.safeParse(raw);
        if (!message.success) {
          this.log.warn('ignored a malformed message from a history page');
          return;
        }
        if (message.data.type === 'ready') this.post(panel, this.initFor(entry, item, hubName));
        else if (message.data.type === 'showLog') void vscode.commands.executeCommand('aepAttention.showLog');
        // A history page is read-only: a submit or retry from it is never sent.
        else this.log.warn(`ignored a ${message.data.type} from a read-only history page`);
      }),
      panel.onDidDispose(() => {
        this.panels.delete(entry.id);
        for (const subscription of subscriptions) subscription.dispose();
      }),
    ];
  }

  private initFor(entry: Readonly<HistoryEntry>, item: Readonly<AttentionItem>, hubName: string | undefined): HostToWebview {
    const send = entry.sends.at(-1);
    const accepted = send?.outcomes.some((outcome) => outcome.kind === 'accepted') ?? false;
    const note = send && send.masked > 0
      ? vscode.l10n.t('As this history keeps it: {0} part(s) of what you sent are masked here, never stored.', send.masked)
      : undefined;
    return {
      type: 'init',
      request: pageRequest(item, { state: 'unknown' }, hubName),
      now: Date.now(),
      ...(vscode.l10n.bundle ? { l10n: vscode.l10n.bundle } : {}),
      history: { ...(send ? { sent: send.answer } : {}), accepted, ...(note ? { note } : {}), lines: outcomeLines(entry) },
    };
  }

  private post(panel: vscode.WebviewPanel, message: HostToWebview): void {
    const checked = hostToWebviewSchema.safeParse(message);
    if (!checked.success) {
      this.log.error(`refused to post an invalid message to a history page: ${checked.error.message}`);
      return;
    }
    void panel.webview.postMessage(checked.data);
  }
}
