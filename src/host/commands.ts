import * as vscode from 'vscode';
import type { AttentionItem } from '../aep/inbox/inbox';
import { isOpenStatus } from '../aep/inbox/inbox';
import type { AttentionStore } from './attentionStore';
import { kindLabel, promptLine, provenance } from './describe';
import { nextToAnswer } from './nextRequest';
import { Disposable } from './disposable';
import type { HubConnection } from './hubConnection';
import { INBOX_VIEW_ID, OPEN_REQUEST_COMMAND } from './inboxView';
import type { InlineAnswers } from './inlineAnswer';
import type { ExtensionLog } from './log';
import { describeOutcome } from './outcomeMessages';
import type { RequestPanels } from './requestPanel';
import type { SettingsService } from './settings';
import { STATUS_COMMAND } from './statusBar';
import { notify, pick } from './surfaces';
import { originOf, type TokenStore } from './tokens';
import { tokenCanFix } from '../aep/client/connectionFailure';
import { describeFailure } from './failureMessages';

export const COMMANDS = {
  connect: 'aepAttention.connect',
  disconnect: 'aepAttention.disconnect',
  reconnect: 'aepAttention.reconnect',
  setToken: 'aepAttention.setToken',
  clearToken: 'aepAttention.clearToken',
  showInbox: 'aepAttention.showInbox',
  answerNext: 'aepAttention.answerNext',
  answerInline: 'aepAttention.answerInline',
  /** While an inline answer shows: leave it for the request's page with what was typed (a keybinding, package.json). */
  openInlineAsPage: 'aepAttention.openInlineAsPage',
  openRequest: OPEN_REQUEST_COMMAND,
  dismissRequest: 'aepAttention.dismissRequest',
  showLog: 'aepAttention.showLog',
  openSettings: 'aepAttention.openSettings',
  status: STATUS_COMMAND,
} as const;

/** A command argument from the palette (none), a tree item (node) or a link/notification (key). */
function itemFrom(store: AttentionStore, argument: unknown): Readonly<AttentionItem> | undefined {
  if (typeof argument === 'string') return store.inbox.item(argument);
  if (typeof argument === 'object' && argument !== null && 'item' in argument) {
    const key = (argument as { item: { key?: unknown } }).item.key;
    return typeof key === 'string' ? store.inbox.item(key) : undefined;
  }
  return undefined;
}

export class Commands extends Disposable {
  constructor(
    private readonly connection: HubConnection,
    private readonly store: AttentionStore,
    private readonly settings: SettingsService,
    private readonly tokens: TokenStore,
    private readonly log: ExtensionLog,
    private readonly panels: RequestPanels,
    private readonly inline: InlineAnswers,
  ) {
    super();
    const register = (id: string, run: (...args: unknown[]) => unknown) => this._register(vscode.commands.registerCommand(id, run));
    register(COMMANDS.connect, () => this.connect());
    register(COMMANDS.disconnect, () => connection.disconnect());
    register(COMMANDS.reconnect, () => connection.retryNow());
    register(COMMANDS.setToken, () => this.setToken());
    register(COMMANDS.clearToken, () => this.clearToken());
    register(COMMANDS.showInbox, () => this.showInbox());
    register(COMMANDS.answerNext, () => this.answerNext());
    register(COMMANDS.answerInline, (argument) => this.answerInline(argument));
    register(COMMANDS.openInlineAsPage, () => inline.openActiveAsPage());
    register(COMMANDS.openRequest, (argument) => this.openRequest(argument));
    register(COMMANDS.dismissRequest, (argument) => this.dismiss(argument));
    register(COMMANDS.showLog, () => log.show());
    register(COMMANDS.openSettings, () => vscode.commands.executeCommand('workbench.action.openSettings', '@ext:aepattention.aep-attention'));
    register(COMMANDS.status, () => this.statusClicked());
    this._register(connection.onDidChangeState((state) => this.explainState(state)));
  }

  private lastExplained: string | undefined;

  /** Says once, in words, why the hub cannot be used, and offers the fix (issue 7: 401, watch-only, version). */
  private explainState(state: HubConnection['state']): void {
    let key: string | undefined;
    if (state.kind === 'failed') key = `failed:${JSON.stringify(state.failure)}`;
    else if (this.connection.watchOnly) key = `watch-only:${this.connection.origin}`;
    if (key === undefined || key === this.lastExplained) return;
    this.lastExplained = key;
    if (state.kind === 'failed') {
      void this.statusClicked();
      return;
    }
    void notify(
      'warning',
      vscode.l10n.t('{0} is watch-only: it runs without a token, so it refuses every answer. Start the hub with a token (AEP_TOKEN) and store the same token here to answer from VS Code.', this.connection.origin ?? 'The hub'),
      [{ title: vscode.l10n.t('Set Hub Token'), value: 'token' }, { title: vscode.l10n.t('Show Log'), value: 'log' }],
    ).then((choice) => {
      if (choice === 'log') this.log.show();
      else if (choice === 'token') void this.setToken();
    });
  }

  showInbox(): Thenable<unknown> {
    return vscode.commands.executeCommand(`${INBOX_VIEW_ID}.focus`);
  }

  open(item: Readonly<AttentionItem>): void {
    this.panels.show(item);
  }

  /** In the quick input when the request fits it (issue 15), on its page otherwise. */
  answer(item: Readonly<AttentionItem>): Promise<void> {
    return this.inline.answer(item);
  }

  /** A notification's option button: an explicit choice by the user, sent like any other answer. */
  async answerWithOption(item: Readonly<AttentionItem>, optionId: string): Promise<void> {
    const request = item.request;
    if (!request) return;
    const outcome = await this.connection.respond(request, { option: optionId });
    const described = describeOutcome(outcome, item.agent);
    if (described.ok) {
      void notify('info', described.message);
    } else {
      const choice = await notify('warning', described.message, [{ title: vscode.l10n.t('Open'), value: 'open' }]);
      if (choice === 'open') this.open(item);
    }
  }

  private async connect(): Promise<void> {
    if (!this.settings.value.hubUrl) {
      const url = await vscode.window.showInputBox({
        title: vscode.l10n.t('Connect to an AEP hub'),
        prompt: vscode.l10n.t('The hub address for this workspace, e.g. http://127.0.0.1:8787. Saved as aepAttention.hubUrl in the workspace settings.'),
        placeHolder: 'http://127.0.0.1:8787',
        ignoreFocusOut: true,
        validateInput: (value) => (originOf(value) ? undefined : vscode.l10n.t('Enter an http://, https://, ws:// or wss:// address')),
      });
      if (!url) return;
      const target = vscode.workspace.workspaceFolders?.length ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
      await vscode.workspace.getConfiguration('aepAttention').update('hubUrl', url.trim(), target);
    }
    await this.connection.connect();
  }

  private hubOriginOrExplain(): string | undefined {
    const origin = originOf(this.settings.value.hubUrl);
    if (!origin) {
      void notify('error', vscode.l10n.t('Set aepAttention.hubUrl first: the token is stored for that hub only.'), [
        { title: vscode.l10n.t('Open Settings'), value: 'settings' },
      ]).then((choice) => choice && vscode.commands.executeCommand(COMMANDS.openSettings));
    }
    return origin;
  }

  private async setToken(): Promise<void> {
    const origin = this.hubOriginOrExplain();
    if (!origin) return;
    const token = await vscode.window.showInputBox({
      title: vscode.l10n.t('AEP hub token for {0}', origin),
      prompt: vscode.l10n.t('Stored in VS Code\'s secret storage and only ever sent to {0}.', origin),
      password: true,
      ignoreFocusOut: true,
      validateInput: (value) => (value.trim() ? undefined : vscode.l10n.t('The token cannot be empty')),
    });
    if (!token) return;
    await this.tokens.set(origin, token.trim());
    this.log.for('token').info(`stored a token for ${origin}`);
    void notify('info', vscode.l10n.t('Token saved for {0}.', origin));
  }

  private async clearToken(): Promise<void> {
    const origin = this.hubOriginOrExplain();
    if (!origin) return;
    await this.tokens.clear(origin);
    this.log.for('token').info(`cleared the token for ${origin}`);
    void notify('info', vscode.l10n.t('Token cleared for {0}.', origin));
  }

  private answerNext(): void {
    const next = nextToAnswer(this.store.visibleItems(), Date.now(), (item) => this.connection.reachability(item.session).state === 'not-accepting');
    if (next) void this.answer(next);
    else void notify('info', vscode.l10n.t('No request is waiting for an answer.'));
  }

  private async openRequest(argument: unknown): Promise<void> {
    const item = itemFrom(this.store, argument) ?? (await this.pickRequest(vscode.l10n.t('Open a request')));
    if (item) this.open(item);
  }

  private async answerInline(argument: unknown): Promise<void> {
    const item = itemFrom(this.store, argument) ?? (await this.pickRequest(vscode.l10n.t('Answer a request')));
    if (item) await this.answer(item);
  }

  private async pickRequest(title: string): Promise<Readonly<AttentionItem> | undefined> {
    const items = this.store.visibleItems();
    // The prompt, and under it, on a line of its own that a long prompt cannot push out of sight, whose it is.
    const key = await pick(
      items.map((candidate) => ({
        label: promptLine(candidate) || candidate.requestId,
        description: kindLabel(candidate),
        detail: provenance(candidate),
        value: candidate.key,
      })),
      { title, ...(items.length ? {} : { placeHolder: vscode.l10n.t('No request is waiting') }) },
    );
    return key === undefined ? undefined : this.store.inbox.item(key);
  }

  private dismiss(argument: unknown): void {
    const item = itemFrom(this.store, argument);
    if (!item || !isOpenStatus(item.status)) return;
    this.store.dismiss(item);
    this.log.for('inbox').info(`dismissed ${item.requestId} from ${item.agent} locally; nothing was sent`);
  }

  private async statusClicked(): Promise<void> {
    const state = this.connection.state;
    if (state.kind !== 'failed') {
      await this.showInbox();
      return;
    }
    const retry = { title: vscode.l10n.t('Retry'), value: 'retry' } as const;
    const showLog = { title: vscode.l10n.t('Show Log'), value: 'log' } as const;
    const setToken = { title: vscode.l10n.t('Set Hub Token'), value: 'token' } as const;
    const actions = tokenCanFix(state.failure) ? [setToken, retry, showLog] : [retry, showLog];
    // The reason may quote the hub: it goes through the notification surface like agent text.
    const choice = await notify('error', vscode.l10n.t('AEP Attention cannot connect: {0}', describeFailure(state.failure)), actions);
    if (choice === 'retry') this.connection.retryNow();
    else if (choice === 'log') this.log.show();
    else if (choice === 'token') await this.setToken();
  }
}
