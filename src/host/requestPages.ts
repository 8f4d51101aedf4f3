import * as vscode from 'vscode';
import type { Answer, AttentionRequest } from '../aep/attention';
import type { SendOutcome } from '../aep/client/controlSender';
import type { AttentionItem } from '../aep/inbox/inbox';
import { draftIsEmpty } from '../aep/inlineAnswer';
import { hostToWebviewSchema, webviewStateSchema, webviewToHostSchema, type HostToWebview, type PageDraft } from '../shared/webviewMessages';
import { keptAnswerMessages, outcomeMessage, sendingMessage } from './answerOutcomes';
import { describeRefusal } from './outcomeMessages';
import { agentName, kindLabel } from './describe';
import { Disposable } from './disposable';
import type { Hubs } from './hubs';
import type { Logger } from '../aep/client/logger';
import type { RedactionOptions } from '../aep/redaction';
import type { AlwaysSecretValues } from './alwaysSecretValues';
import { pageReachability, pageRequest } from './pageRequest';
import type { SettingsService } from './settings';
import { createWebviewPanel, setPanelTitle } from './surfaces';
import { requestPageHtml, requestPageOptions } from './requestPage';
import { setHubToken } from './setHubToken';

export const REQUEST_VIEW_TYPE = 'aepAttention.request';

/** One webview panel per request, beside the editor; reopening a request focuses its panel. */
export class RequestPanels extends Disposable {
  private readonly panels = new Map<string, RequestPanel>();
  /**
   * Partial answers typed in the quick input (issue 15), by request key,
   * until a page takes them: the inline flow starts from one again, and the
   * page shows it when it opens. In memory only, like an unsaved edit.
   */
  private readonly drafts = new Map<string, PageDraft>();

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly hubs: Hubs,
    private readonly log: Logger,
    private readonly settings: SettingsService,
    private readonly secretValues: AlwaysSecretValues,
  ) {
    super();
    this._register({ dispose: () => [...this.panels.values()].forEach((panel) => panel.dispose()) });
  }

  get openCount(): number {
    return this.panels.size;
  }

  /** Opens (or brings forward) the request's page; `draft`, a partial answer from the quick input, goes onto the page. */
  show(item: Readonly<AttentionItem>, draft?: PageDraft): void {
    if (draft) this.keepDraft(item.key, draft);
    const existing = this.panels.get(item.key);
    if (existing) {
      if (this.drafts.has(item.key)) existing.handOverDraft();
      existing.reveal();
      return;
    }
    this.adopt(item, createPanel(item, this.requestColumn()));
  }

  /** Keeps a partial answer for the request's page (an empty one forgets it). Drafts of requests gone from the inbox are dropped. */
  keepDraft(key: string, draft: PageDraft): void {
    for (const kept of this.drafts.keys()) if (!this.hubs.item(kept)) this.drafts.delete(kept);
    if (draftIsEmpty(draft)) this.drafts.delete(key);
    else this.drafts.set(key, draft);
  }

  /** The partial answer kept for a request, still kept. */
  draftFor(key: string): PageDraft | undefined {
    return this.drafts.get(key);
  }

  /** The partial answer kept for a request, handed over once: a page that takes it keeps it with `setState` from then on. */
  private takeDraft(key: string): PageDraft | undefined {
    const draft = this.drafts.get(key);
    this.drafts.delete(key);
    return draft;
  }

  /**
   * Where a new request page goes: the editor group that already shows
   * request pages (the one opened last, if the user spread them out), so any
   * number of requests costs the code at most one split; beside the code when
   * there is none yet.
   */
  private requestColumn(): vscode.ViewColumn {
    let column: vscode.ViewColumn | undefined;
    for (const panel of this.panels.values()) column = panel.viewColumn ?? column;
    return column ?? vscode.ViewColumn.Beside;
  }

  /**
   * A panel VS Code kept across a window reload (`WebviewPanelSerializer`):
   * it finds its request again by the key the page saved with `setState`.
   * A request that is no longer in the inbox has nothing to show.
   */
  restore(panel: vscode.WebviewPanel, state: unknown): void {
    const saved = webviewStateSchema.safeParse(state);
    const item = saved.success ? this.findSaved(saved.data.key) : undefined;
    if (!item || this.panels.has(item.key)) {
      this.log.info(saved.success ? `closed a restored panel: its request ${saved.data.key} is no longer in the inbox` : 'closed a restored panel that saved no request');
      panel.dispose();
      return;
    }
    this.adopt(item, panel);
  }

  /** A key a page saved; one saved before keys named their hub is looked for under each hub (InboxOptions.hub). */
  private findSaved(key: string): Readonly<AttentionItem> | undefined {
    return this.hubs.item(key) ?? this.hubs.list().map((hub) => this.hubs.item(`${hub.id}\u0000${key}`)).find((item) => item !== undefined);
  }

  private adopt(item: Readonly<AttentionItem>, webviewPanel: vscode.WebviewPanel): void {
    const panel = new RequestPanel(this.extensionUri, this.hubs, this.log, this.settings, item, webviewPanel, () => this.takeDraft(item.key), () => this.secretValues.redaction());
    this.panels.set(item.key, panel);
    panel.onDidDispose(() => this.panels.delete(item.key));
  }
}

/** "permission from claude-code": the agent's words (kind, name) made inert by the panel-title surface. */
function panelTitle(item: Readonly<AttentionItem>): string {
  return vscode.l10n.t('{0} from {1}', kindLabel(item), agentName(item.agent));
}

function createPanel(item: Readonly<AttentionItem>, viewColumn: vscode.ViewColumn): vscode.WebviewPanel {
  // Not retainContextWhenHidden: the page keeps its drafts with setState and is rebuilt on show.
  return createWebviewPanel(REQUEST_VIEW_TYPE, panelTitle(item), { viewColumn, preserveFocus: false }, {});
}

/** How long a resolved request's panel stays up, when the user chose to close it, so the outcome can be read. */
const CLOSE_AFTER_RESOLVED_MS = 2_000;

function pipelineOptions(options: RedactionOptions): { home?: string; secretValues?: string[] } {
  return { ...(options.home ? { home: options.home } : {}), ...(options.secretValues?.length ? { secretValues: [...options.secretValues] } : {}) };
}

class RequestPanel extends Disposable {
  private ready = false;
  private readonly disposeEmitter = new vscode.EventEmitter<void>();
  readonly onDidDispose = this.disposeEmitter.event;
  /** Answers whose ack window ran out, by the page's submit id: a retry resends the same command. */
  private readonly timedOut = new Map<string, string>();
  private closeTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    extensionUri: vscode.Uri,
    private readonly hubs: Hubs,
    private readonly log: Logger,
    private readonly settings: SettingsService,
    private item: Readonly<AttentionItem>,
    private readonly panel: vscode.WebviewPanel,
    private readonly takeDraft: () => PageDraft | undefined,
    private readonly redaction: () => RedactionOptions,
  ) {
    super();
    this.panel.webview.options = requestPageOptions(extensionUri);
    setPanelTitle(this.panel, panelTitle(item));
    this.panel.webview.html = requestPageHtml(this.panel.webview, extensionUri);
    this._register(this.panel.onDidDispose(() => this.dispose()));
    this._register(this.panel.webview.onDidReceiveMessage((message: unknown) => this.onMessage(message)));
    this._register(
      hubs.onDidChangeInbox(({ hub, change }) => {
        if (change === undefined ? hub.id === this.item.hub : change.item.key === this.item.key) this.pushUpdate();
      }),
    );
    this._register(
      hubs.onDidChangeRoster((hub) => {
        if (hub.id === this.item.hub) this.pushUpdate();
      }),
    );
    // Its hub's hello says whether it is watch-only (src/aep/client/watchOnly.ts); a token set rebuilds the connection.
    this._register(
      hubs.onDidChangeState((hub) => {
        if (hub.id === this.item.hub) this.pushUpdate();
      }),
    );
    // An answer sent before a reload or rebuild, resent since: its outcome belongs on this page.
    this._register(
      hubs.onDidSettleRestored(({ hub, outcome, requestId, source }) => {
        const request = this.item.request;
        if (request && hub.id === this.item.hub && requestId === this.item.requestId && source === this.item.source) this.postOutcome(outcome.commandId, request, outcome, this.item.agent);
      }),
    );
    this._register(this.disposeEmitter);
  }

  /** The editor group the page is in; undefined while it is in none (closing). */
  get viewColumn(): vscode.ViewColumn | undefined {
    return this.panel.viewColumn;
  }

  reveal(): void {
    this.panel.reveal(undefined, false);
  }

  /**
   * A draft from the quick input for a page that is already open: a visible
   * page renders again with it now; a hidden one is rebuilt when shown and
   * takes it with its `init` then (a hidden webview drops messages).
   */
  handOverDraft(): void {
    if (this.ready && this.panel.visible) this.init();
  }

  override dispose(): void {
    if (this.isDisposed) return;
    if (this.closeTimer) clearTimeout(this.closeTimer);
    this.disposeEmitter.fire();
    super.dispose();
    this.panel.dispose();
  }

  private post(message: HostToWebview): void {
    if (!this.ready) return;
    // Validated here too, so a host bug shows up in the log rather than as a broken page.
    const checked = hostToWebviewSchema.safeParse(message);
    if (!checked.success) {
      this.log.error(`refused to post an invalid message to the webview: ${checked.error.message}`);
      return;
    }
    void this.panel.webview.postMessage(checked.data);
  }

  private onMessage(raw: unknown): void {
    const parsed = webviewToHostSchema.safeParse(raw);
    if (!parsed.success) {
      this.log.warn('ignored a malformed message from the request webview');
      return;
    }
    const message = parsed.data;
    switch (message.type) {
      case 'ready':
        this.ready = true;
        this.init();
        return;
      case 'showLog':
        void vscode.commands.executeCommand('aepAttention.showLog');
        return;
      case 'setToken':
        void setHubToken(this.item.hub);
        return;
      case 'submit':
        void this.submit(message.submitId, message.answer, message.verbatim === true);
        return;
      case 'retry':
        void this.retry(message.submitId);
        return;
    }
  }

  /**
   * Whatever the page did, the answer pipeline (src/aep/answer) checks again:
   * the answer against the request, an answer of ours still in flight, and
   * the free text against the AEP-0003 §9.4 pipeline. Text the pipeline would
   * change goes only if the user chose to send it as typed (`verbatim`,
   * capture `full`); `redacted` is never declared for it.
   */
  private async submit(submitId: string, answer: Answer, verbatim: boolean): Promise<void> {
    const current = this.hubs.item(this.item.key) ?? this.item;
    const result = this.hubs.answer('page', current, answer, { verbatim, redaction: this.redaction() });
    if (result.kind === 'refused') {
      const { refusal } = result;
      // An answer in flight keeps the page waiting on it; the rest leave the page open to a fixed answer.
      this.post({
        type: 'outcome', submitId, phase: refusal.code === 'answer-in-flight' ? 'awaiting-ack' : 'cancelled',
        message: describeRefusal(refusal, current.agent),
        ...(refusal.code === 'invalid' && refusal.fieldId ? { fieldId: refusal.fieldId } : {}),
      });
      return;
    }
    this.postSending(submitId, current.agent);
    const outcome = await result.outcome;
    const request = current.request;
    if (request) this.postOutcome(submitId, request, outcome, current.agent);
  }

  private async retry(submitId: string): Promise<void> {
    const commandId = this.timedOut.get(submitId);
    const current = this.hubs.item(this.item.key) ?? this.item;
    const request = current.request;
    if (!commandId || !request) {
      this.post({ type: 'outcome', submitId, phase: 'cancelled', message: vscode.l10n.t('That answer can no longer be sent again; send a new one.') });
      return;
    }
    this.timedOut.delete(submitId);
    this.postSending(submitId, this.item.agent);
    this.postOutcome(submitId, request, await this.hubs.resend('page', current, commandId), this.item.agent);
  }

  /** Renders the page: the request, the user's language, a draft from the quick input if one waits, then the answers already sent. */
  private init(): void {
    const draft = this.takeDraft();
    this.post({
      type: 'init',
      // The page previews the pipeline as the host will run it; the values stay in its memory, never in its saved state.
      request: { ...pageRequest(this.item, this.hubs.reachability(this.item), this.hubName()), ...pipelineOptions(this.redaction()) },
      now: Date.now(),
      ...(vscode.l10n.bundle ? { l10n: vscode.l10n.bundle } : {}),
      ...(draft ? { draft } : {}),
    });
    this.postKeptAnswers();
  }

  /** The hub's name, when the window has several: the page then says which one the request came through. */
  private hubName(): string | undefined {
    return this.hubs.size > 1 ? this.hubs.of(this.item)?.label : undefined;
  }

  private postSending(submitId: string, agent: string): void {
    this.post(sendingMessage(submitId, agent, this.hubs.isConnected(this.item)));
  }

  private postOutcome(submitId: string, request: AttentionRequest, outcome: SendOutcome, agent: string): void {
    if (outcome.kind === 'timeout') this.timedOut.set(submitId, outcome.commandId);
    this.post(outcomeMessage(submitId, outcome, agent, request.fields.map((f) => f.id)));
  }

  /**
   * A page that has just loaded (after a window reload, or rebuilt on show)
   * knows nothing of answers already sent to its request: it is told of those
   * still unsettled, under their command ids, so it offers what the page that
   * sent them did, "Send again" of the same command included.
   */
  private postKeptAnswers(): void {
    for (const message of keptAnswerMessages(this.hubs.keptAnswers(this.item), this.item, this.item.agent, this.hubs.isConnected(this.item))) {
      if (message.canRetry) this.timedOut.set(message.submitId, message.submitId);
      this.post(message);
    }
  }

  private pushUpdate(): void {
    const latest = this.hubs.item(this.item.key);
    if (latest) this.item = latest;
    if (this.item.status === 'resolved' && this.settings.value.closeFormWhenResolved && !this.closeTimer) {
      this.closeTimer = setTimeout(() => this.dispose(), CLOSE_AFTER_RESOLVED_MS);
    }
    this.post({
      type: 'update',
      status: this.item.status,
      ...(this.item.resolution ? { resolution: this.item.resolution } : {}),
      reachability: pageReachability(this.hubs.reachability(this.item)),
      now: Date.now(),
    });
  }
}
