import type * as vscode from 'vscode';
import type { AttentionItem } from '../../inbox/inbox';
import type { HistoryEntry } from '../../history/historyEntry';
import type { PageDraft } from '../../shared/webviewMessages';
import { Disposable } from '../../base/disposable';
import type { Logger } from '../../base/logger';
import type { OnFirstNeed } from '../../base/onFirstNeed';
import type { Hubs } from '../../app/hubs/hubs';
import type { AlwaysSecretValues } from '../../app/hubs/alwaysSecretValues';
import { PageDrafts, restoreSavedPage } from '../../app/page/pageDrafts';
import type { SettingsService } from '../services/settings';
import { onFirstNeed } from '../services/onDemand';
import type { HistoryPages, RequestPages } from './pages';

/**
 * The request pages as the rest of the extension holds them from activation
 * (issue 40): the pages themselves (requestPages.ts, their controller and
 * host) are loaded with the first page opened or restored. Until then no
 * page is open, and the quick input's drafts are kept here.
 */
export class RequestPagesOnDemand extends Disposable {
  private readonly drafts: PageDrafts;
  private readonly pages: OnFirstNeed<RequestPages>;

  constructor(extensionUri: vscode.Uri, private readonly hubs: Hubs, private readonly log: Logger, settings: SettingsService, secretValues: AlwaysSecretValues) {
    super();
    const drafts = (this.drafts = new PageDrafts((key) => hubs.item(key) !== undefined));
    this.pages = this._register(
      onFirstNeed('request-pages', async () => {
        const { RequestPages } = await import('./pages');
        return () => new RequestPages(extensionUri, hubs, log, settings, secretValues, drafts);
      }, log, (pages) => pages.dispose()),
    );
  }

  get openCount(): number {
    return this.pages.now?.openCount ?? 0;
  }

  /** The keys of the requests the open pages show. */
  shownKeys(): string[] {
    return this.pages.now?.shownKeys() ?? [];
  }

  /** Opens (or brings forward) the request's page, once loaded; `draft`, a partial answer from the quick input, is kept now and goes onto the page. */
  async show(item: Readonly<AttentionItem>, draft?: PageDraft): Promise<void> {
    if (draft) this.drafts.keep(item.key, draft);
    (await this.pages.get())?.show(item, draft !== undefined);
  }

  /** Keeps a partial answer for the request's page (an empty one forgets it). */
  keepDraft(key: string, draft: PageDraft): void {
    this.drafts.keep(key, draft);
  }

  /** The partial answer kept for a request. */
  draftFor(key: string): PageDraft | undefined {
    return this.drafts.get(key);
  }

  /** A panel VS Code kept across a reload (the serializer registered at activation): restored once the pages are loaded; closed if they cannot be, its draft kept. */
  restore(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    return restoreSavedPage(() => this.pages.get(), panel, state, this.drafts, this.hubs, this.log);
  }
}

/** The read-only history pages, loaded with the first one opened from the History view. */
export class HistoryPagesOnDemand extends Disposable {
  private readonly pages: OnFirstNeed<HistoryPages>;

  constructor(extensionUri: vscode.Uri, log: Logger) {
    super();
    this.pages = this._register(onFirstNeed('history-pages', async () => {
      const { HistoryPages } = await import('./pages');
      return () => new HistoryPages(extensionUri, log);
    }, log, (pages) => pages.dispose()));
  }

  async show(entry: Readonly<HistoryEntry>, hubName: string | undefined): Promise<void> {
    (await this.pages.get())?.show(entry, hubName);
  }
}
