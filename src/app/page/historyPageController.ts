import * as l10n from '@vscode/l10n';
import type { Logger } from '../../base/logger';
import type { HistoryEntry } from '../../history/historyEntry';
import { historyItem, historyRecorded } from '../../history/historyItem';
import type { PageInit } from '../../shared/webviewMessages';
import { outcomeLines } from '../../words/historyWords';
import { type StringBundle } from '../../words/l10n';
import { pageRequest } from './pageContent';
import { PageHost, type PageWebview } from './pageHost';

export interface HistoryPageDeps {
  log: Logger;
  /** The hub's name, when the window has several. */
  hubName: string | undefined;
  /** The strings of the display language (`vscode.l10n.bundle`); undefined in English. */
  strings: StringBundle | undefined;
  showLog: () => void;
}

/** The read-only page of one answer-history entry: what was sent and everything that became of it; nothing is sent from it. */
export class HistoryPageController {
  readonly host: PageHost;

  constructor(private readonly entry: Readonly<HistoryEntry>, webview: PageWebview, private readonly deps: HistoryPageDeps) {
    this.host = new PageHost(webview, deps.log, {
      name: 'history page',
      init: () => this.init(),
      onMessage: (message) => {
        if (message.type === 'showLog') deps.showLog();
        // A history page is read-only: a submit or retry from it is never sent.
        else deps.log.warn(`ignored a ${message.type} from a read-only history page`, { code: 'page-message-read-only', data: { type: message.type } });
      },
    });
  }

  dispose(): void {
    this.host.dispose();
  }

  private init(): PageInit {
    const { entry } = this;
    const send = entry.sends.at(-1);
    const accepted = send?.outcomes.some((outcome) => outcome.kind === 'accepted') ?? false;
    const note = send && send.masked > 0
      ? l10n.t('As this history keeps it: {0} part(s) of what you sent are masked here, never stored.', send.masked)
      : undefined;
    return {
      type: 'init',
      request: pageRequest(historyItem(entry), { state: 'unknown' }, this.deps.hubName, historyRecorded(entry)),
      now: Date.now(),
      ...(this.deps.strings ? { l10n: this.deps.strings } : {}),
      history: { ...(send ? { sent: send.answer } : {}), accepted, ...(note ? { note } : {}), lines: outcomeLines(entry) },
    };
  }
}
