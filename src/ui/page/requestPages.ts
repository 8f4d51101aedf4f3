import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import type { AttentionItem } from '../../inbox/inbox';
import { webviewStateSchema } from '../../shared/webviewMessages';
import { findSaved, type PageDrafts } from '../../app/page/pageDrafts';
import { agentName, kindLabel } from '../../words/describe';
import { Disposable, DisposableMap } from '../../base/disposable';
import type { Hubs } from '../../app/hubs/hubs';
import type { Logger } from '../../base/logger';
import type { AlwaysSecretValues } from '../../app/hubs/alwaysSecretValues';
import { createPagePanel, pageWebview, restoredPanel } from './pagePanel';
import { RequestPageController } from '../../app/page/requestPageController';
import type { SettingsService } from '../services/settings';
import { setPanelTitle } from '../surfaces';
import { CAPTURE_CEILING_SETTING } from '../../words/withheldWords';
import { setHubToken } from '../hubs/setHubToken';
import { REQUEST_VIEW_TYPE } from '../viewIds';

/**
 * A webview panel per request, beside the editor; reopening a request
 * focuses its panel. As VS Code's preview editors: the next Open of another
 * request reuses the page nobody has typed in or sent from (the preview),
 * which is already loaded, instead of building a new webview; a page the
 * person typed in is theirs (pinned) and stays.
 */
export class RequestPages extends Disposable {
  /** Closed with this owner; a page closed or handed to another request leaves by itself. */
  private readonly panels = this._register(new DisposableMap<string, RequestPage>());

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly hubs: Hubs,
    private readonly log: Logger,
    private readonly settings: SettingsService,
    private readonly secretValues: AlwaysSecretValues,
    /** Partial answers from the quick input, kept before any page is loaded (pagesOnDemand.ts). */
    private readonly drafts: PageDrafts,
  ) {
    super();
  }

  get openCount(): number {
    return this.panels.size;
  }

  shownKeys(): string[] {
    return [...this.panels.keys()];
  }

  /**
   * Opens (or brings forward) the request's page, with the draft kept for it; `pinned`: it was handed
   * a partial answer from the quick input just now (pagesOnDemand.ts keeps it before the pages load).
   */
  show(item: Readonly<AttentionItem>, pinned = false): void {
    const existing = this.panels.get(item.key);
    if (existing) {
      // A visible page renders again with the draft now; a hidden one takes it with the init it gets when shown.
      if (this.drafts.has(item.key)) existing.controller.host.refresh();
      existing.controller.host.reveal();
      return;
    }
    const preview = this.preview();
    if (preview) this.reuse(preview, item);
    // A new panel: the page loads with its first render in its HTML, drawn without waiting for the host.
    else this.adopt(item, createPagePanel(REQUEST_VIEW_TYPE, panelTitle(item), { viewColumn: this.requestColumn(), preserveFocus: false }, this.extensionUri)).host.load();
    // A page handed a draft holds typing: it is never the preview the next request takes, even before it has drawn it and pinned itself.
    const opened = this.panels.get(item.key);
    if (pinned && opened) opened.state.pinned = true;
  }

  /** The page to reuse for another request: the latest one not pinned. */
  private preview(): RequestPage | undefined {
    let found: RequestPage | undefined;
    for (const page of this.panels.values()) if (!page.state.pinned) found = page;
    return found;
  }

  /** Shows `item` on a loaded page: the old request's controller lets go, a new one renders at once. */
  private reuse(page: RequestPage, item: Readonly<AttentionItem>): void {
    const wasReady = page.controller.host.detach();
    setPanelTitle(page.panel, panelTitle(item));
    this.adopt(item, page.panel, wasReady);
    page.panel.reveal(undefined, false);
    this.log.info(`reused the preview page for ${item.requestId}`);
  }

  /**
   * Where a new request page goes: the editor group that already shows
   * request pages (the one opened last, if the user spread them out), so any
   * number of requests costs the code at most one split; beside the code when
   * there is none yet.
   */
  private requestColumn(): vscode.ViewColumn {
    let column: vscode.ViewColumn | undefined;
    for (const { panel } of this.panels.values()) column = panel.viewColumn ?? column;
    return column ?? vscode.ViewColumn.Beside;
  }

  /**
   * A panel VS Code kept across a window reload (`WebviewPanelSerializer`):
   * it finds its request again by the key the page saved with `setState`.
   * A request that is no longer in the inbox has nothing to show.
   */
  restore(panel: vscode.WebviewPanel, state: unknown): void {
    const saved = webviewStateSchema.safeParse(state);
    const item = saved.success ? findSaved(this.hubs, saved.data.key) : undefined;
    if (!item || this.panels.has(item.key)) {
      this.log.info(saved.success ? `closed a restored panel: its request ${saved.data.key} is no longer in the inbox` : 'closed a restored panel that saved no request');
      panel.dispose();
      return;
    }
    restoredPanel(panel, this.extensionUri);
    setPanelTitle(panel, panelTitle(item));
    this.adopt(item, panel).host.load();
  }

  private adopt(item: Readonly<AttentionItem>, panel: vscode.WebviewPanel, alreadyLoaded = false): RequestPageController {
    const state = { pinned: false };
    const controller = new RequestPageController(item, pageWebview(panel, this.extensionUri), {
      hubs: this.hubs,
      answer: (current, answer, choice) => this.hubs.answer('page', current, answer, choice),
      resend: (current, commandId) => this.hubs.resend('page', current, commandId),
      log: this.log,
      redaction: () => this.secretValues.redaction(),
      onDidChangeRedaction: (listener) => this.secretValues.onDidChange(listener),
      takeDraft: () => this.drafts.take(item.key),
      strings: vscode.l10n.bundle,
      closeWhenResolved: () => this.settings.value.closeFormWhenResolved,
      showLog: () => void vscode.commands.executeCommand('aepAttention.showLog'),
      setToken: (hubId) => void setHubToken(hubId),
      openSettings: () => void vscode.commands.executeCommand('workbench.action.openSettings', CAPTURE_CEILING_SETTING),
      pin: () => {
        state.pinned = true;
      },
    }, alreadyLoaded);
    const page: RequestPage = { panel, controller, state, dispose: () => controller.dispose() };
    this.panels.set(item.key, page);
    controller.host.onDidDispose(() => {
      if (this.panels.get(item.key) === page) this.panels.deleteAndLeak(item.key);
    });
    return controller;
  }
}

/** "permission from claude-code": the agent's words (kind, name) made inert by the panel-title surface. */
function panelTitle(item: Readonly<AttentionItem>): string {
  return l10n.t('{0} from {1}', kindLabel(item), agentName(item.agent));
}

/** One request's page: the panel VS Code shows, and what drives it. */
interface RequestPage {
  panel: vscode.WebviewPanel;
  controller: RequestPageController;
  /** `pinned`: typed in or sent from, so never reused for another request. */
  readonly state: { pinned: boolean };
  /** Closes the page. */
  dispose(): void;
}
