import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { Answer } from '../aep/attention';
import { answerProblem } from '../aep/answerCheck';
import type { AttentionItem } from '../aep/inbox/inbox';
import { hostToWebviewSchema, webviewToHostSchema, type HostToWebview } from '../shared/webviewMessages';
import { kindLabel } from './describe';
import { Disposable } from './disposable';
import type { HubConnection } from './hubConnection';
import type { Logger } from '../aep/client/logger';
import { describeOutcome } from './outcomeMessages';
import { reachabilityView, requestView } from './requestView';
import { webviewHtml } from './webviewHtml';

export const REQUEST_VIEW_TYPE = 'aepAttention.request';

/** A nonce per page load, from the platform CSPRNG. */
function nonce(): string {
  return randomBytes(18).toString('base64');
}

/** One webview panel per request, beside the editor; reopening a request focuses its panel. */
export class RequestPanels extends Disposable {
  private readonly panels = new Map<string, RequestPanel>();

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly connection: HubConnection,
    private readonly log: Logger,
  ) {
    super();
    this._register({ dispose: () => [...this.panels.values()].forEach((panel) => panel.dispose()) });
  }

  get openCount(): number {
    return this.panels.size;
  }

  show(item: Readonly<AttentionItem>): void {
    const existing = this.panels.get(item.key);
    if (existing) {
      existing.reveal();
      return;
    }
    const panel = new RequestPanel(this.extensionUri, this.connection, this.log, item);
    this.panels.set(item.key, panel);
    panel.onDidDispose(() => this.panels.delete(item.key));
  }
}

class RequestPanel extends Disposable {
  private readonly panel: vscode.WebviewPanel;
  private ready = false;
  private readonly disposeEmitter = new vscode.EventEmitter<void>();
  readonly onDidDispose = this.disposeEmitter.event;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly connection: HubConnection,
    private readonly log: Logger,
    private item: Readonly<AttentionItem>,
  ) {
    super();
    this.panel = vscode.window.createWebviewPanel(
      REQUEST_VIEW_TYPE,
      vscode.l10n.t('{0} from {1}', kindLabel(item), item.agent),
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false },
      {
        enableScripts: true,
        localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')],
      },
    );
    this.panel.webview.html = this.html();
    this._register(this.panel.onDidDispose(() => this.dispose()));
    this._register(this.panel.webview.onDidReceiveMessage((message: unknown) => this.onMessage(message)));
    this._register(
      connection.onDidChangeInbox((change) => {
        if (change === undefined || change.item.key === this.item.key) this.pushUpdate();
      }),
    );
    this._register(connection.onDidChangeRoster(() => this.pushUpdate()));
    this._register(this.disposeEmitter);
  }

  reveal(): void {
    this.panel.reveal(undefined, false);
  }

  override dispose(): void {
    if (this.isDisposed) return;
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
        this.post({ type: 'init', request: requestView(this.item, this.connection.reachability(this.item.session)), now: Date.now() });
        return;
      case 'showLog':
        void vscode.commands.executeCommand('aepAttention.showLog');
        return;
      case 'submit':
        void this.submit(message.submitId, stripUndefined(message.answer));
        return;
    }
  }

  private async submit(submitId: string, answer: Answer): Promise<void> {
    const current = this.connection.inbox.item(this.item.key) ?? this.item;
    const problem = answerProblem(current.request, answer);
    if (problem) {
      this.post({ type: 'outcome', submitId, phase: 'cancelled', message: vscode.l10n.t('Not sent: {0}.', problem) });
      return;
    }
    const request = current.request;
    if (!request) return;
    this.post({ type: 'outcome', submitId, phase: 'sending', message: vscode.l10n.t('Sending to {0}…', current.agent) });
    const outcome = await this.connection.respond(request, answer);
    const described = describeOutcome(outcome, current.agent);
    const phase = outcome.kind === 'refused-by-hub' ? 'refused' : outcome.kind;
    const invalidField = outcome.kind === 'rejected' && outcome.reason === 'invalid' ? fieldNamedIn(outcome.detail, request.fields.map((f) => f.id)) : undefined;
    this.post({ type: 'outcome', submitId, phase, message: described.message, ...(invalidField ? { fieldId: invalidField } : {}) });
  }

  private pushUpdate(): void {
    const latest = this.connection.inbox.item(this.item.key);
    if (latest) this.item = latest;
    this.post({
      type: 'update',
      status: this.item.status,
      ...(this.item.resolution ? { resolution: this.item.resolution } : {}),
      reachability: reachabilityView(this.connection.reachability(this.item.session)),
      now: Date.now(),
    });
  }

  private html(): string {
    const webview = this.panel.webview;
    return webviewHtml({
      cspSource: webview.cspSource,
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'media', 'form.css')).toString(),
      nonce: nonce(),
      lang: vscode.env.language,
      title: vscode.l10n.t('AEP request'),
      loading: vscode.l10n.t('Loading the request…'),
    });
  }
}

function stripUndefined(answer: { option?: string | undefined; text?: string | undefined; values?: Record<string, unknown> | undefined }): Answer {
  const out: Answer = {};
  if (answer.option !== undefined) out.option = answer.option;
  if (answer.text !== undefined) out.text = answer.text;
  if (answer.values !== undefined) out.values = answer.values;
  return out;
}

/** The field an `invalid` nack's detail names, when it names exactly one field of the form. */
function fieldNamedIn(detail: string | undefined, fieldIds: readonly string[]): string | undefined {
  if (!detail) return undefined;
  const named = fieldIds.filter((id) => new RegExp(`["'\`]${id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}["'\`]`).test(detail));
  return named.length === 1 ? named[0] : undefined;
}
