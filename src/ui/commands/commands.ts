import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import { addSecretValue, MIN_SECRET_VALUE_LENGTH } from '../../aep/alwaysSecret';
import { afterLoaded, type AlwaysSecretValues } from '../../app/hubs/alwaysSecretValues';
import type { AttentionItem } from '../../inbox/inbox';
import { isOpenStatus } from '../../inbox/inbox';
import { kindLabel, promptLine, provenance } from '../../words/describe';
import { OptionAnswers } from '../../app/answering/optionAnswers';
import { SimilarAnswers } from '../../app/answering/similarAnswers';
import { answerSimilar } from '../answering/answerSimilarFlow';
import { Disposable } from '../../base/disposable';
import type { ConnectionState } from '../../app/hubs/hubConnection';
import type { Hub, Hubs } from '../../app/hubs/hubs';
import { INBOX_VIEW_ID, OPEN_REQUEST_COMMAND } from '../inbox/inboxView';
import type { InlineAnswers } from '../answering/inlineAnswer';
import type { ExtensionLog } from '../services/log';
import type { RequestPages } from '../page/requestPages';
import { STATUS_COMMAND } from '../status/statusBar';
import { confirm, notify, pick } from '../surfaces';
import { tokenKeyOf, type TokenKey, type TokenStore } from '../../app/hubs/tokens';
import { tokenCanFix } from '../../client/connectionFailure';
import { askForToken, describeFailure } from '../../words/failureMessages';
import { SET_TOKEN_COMMAND } from '../hubs/setHubToken';
import { addressError, saveTarget } from '../../app/hubs/connectPlan';
import { hubId } from '../../app/hubs/hubList';

export const COMMANDS = {
  connect: 'aepAttention.connect',
  disconnect: 'aepAttention.disconnect',
  reconnect: 'aepAttention.reconnect',
  setToken: SET_TOKEN_COMMAND,
  clearToken: 'aepAttention.clearToken',
  addAlwaysSecret: 'aepAttention.addAlwaysSecret',
  clearAlwaysSecrets: 'aepAttention.clearAlwaysSecrets',
  showInbox: 'aepAttention.showInbox',
  answerNext: 'aepAttention.answerNext',
  answerSimilar: 'aepAttention.answerSimilar',
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
function itemFrom(hubs: Hubs, argument: unknown): Readonly<AttentionItem> | undefined {
  if (typeof argument === 'string') return hubs.item(argument);
  if (typeof argument === 'object' && argument !== null && 'item' in argument) {
    const key = (argument as { item: { key?: unknown } }).item.key;
    return typeof key === 'string' ? hubs.item(key) : undefined;
  }
  return undefined;
}

/** A hub row of the inbox (its context menu), when the command came from one. */
function hubFrom(hubs: Hubs, argument: unknown): Hub | undefined {
  if (typeof argument !== 'object' || argument === null || !('hub' in argument)) return undefined;
  const id = (argument as { hub: { id?: unknown } }).hub.id;
  return typeof id === 'string' ? hubs.get(id) : undefined;
}

export class Commands extends Disposable {
  private readonly optionAnswers: OptionAnswers;
  private readonly similar: SimilarAnswers;

  constructor(
    private readonly hubs: Hubs,
    private readonly tokens: TokenStore,
    private readonly log: ExtensionLog,
    private readonly panels: RequestPages,
    private readonly inline: InlineAnswers,
    private readonly secretValues: AlwaysSecretValues,
    /** Connect's last step, once its hub is set: system notifications are offered (osNotifications.ts afterConnect). */
    private readonly afterConnect: (hub: Hub) => void = () => undefined,
  ) {
    super();
    this.optionAnswers = new OptionAnswers({
      hubs, notify, open: (item) => this.open(item), answerInline: (item) => this.answer(item),
      setToken: async (item) => {
        const hub = hubs.of(item);
        if (hub) await this.setToken(hub);
      },
    });
    this.similar = new SimilarAnswers({ hubs, notify, open: (item) => this.open(item) });
    // Every command but the log and the settings waits for the always-secret values (afterLoaded): the log is where a failed read is told.
    const register = (id: string, run: (...args: unknown[]) => unknown) => this._register(vscode.commands.registerCommand(id, afterLoaded(secretValues, run)));
    register(COMMANDS.connect, (argument) => this.connect(argument));
    register(COMMANDS.disconnect, (argument) => this.withHub(argument, l10n.t('Disconnect from which hub?'), (hub) => hub.disconnect()));
    register(COMMANDS.reconnect, (argument) => this.withHub(argument, l10n.t('Reconnect to which hub?'), (hub) => hub.retryNow()));
    register(COMMANDS.setToken, (argument) => this.withHub(argument, l10n.t('Set the token of which hub?'), (hub) => this.setToken(hub)));
    register(COMMANDS.clearToken, (argument) => this.withHub(argument, l10n.t('Clear the token of which hub?'), (hub) => this.clearToken(hub)));
    register(COMMANDS.addAlwaysSecret, () => this.addAlwaysSecret());
    register(COMMANDS.clearAlwaysSecrets, () => this.clearAlwaysSecrets());
    register(COMMANDS.showInbox, () => this.showInbox());
    register(COMMANDS.answerNext, () => this.optionAnswers.answerNext());
    register(COMMANDS.answerSimilar, (argument) => answerSimilar(hubs, this.similar, itemFrom(hubs, argument)));
    register(COMMANDS.answerInline, (argument) => this.answerInline(argument));
    register(COMMANDS.openInlineAsPage, () => inline.openActiveAsPage());
    register(COMMANDS.openRequest, (argument) => this.openRequest(argument));
    register(COMMANDS.dismissRequest, (argument) => this.dismiss(argument));
    this._register(vscode.commands.registerCommand(COMMANDS.showLog, () => log.show()));
    this._register(vscode.commands.registerCommand(COMMANDS.openSettings, () => vscode.commands.executeCommand('workbench.action.openSettings', '@ext:aepattention.aep-attention')));
    register(COMMANDS.status, () => this.statusClicked());
    this._register(hubs.onDidChangeState((hub) => this.explainState(hub, hub.state)));
    this._register(
      hubs.onDidFindListProblems((problems) => {
        void notify('warning', problems.join(' '), [{ title: l10n.t('Open Settings'), value: 'settings' }]).then(
          (choice) => choice && vscode.commands.executeCommand(COMMANDS.openSettings),
        );
      }),
    );
  }

  /** Rule (b): a value replaced by the redaction pipeline wherever it appears in an answer. Typed into a password box, kept in secret storage. */
  private async addAlwaysSecret(): Promise<void> {
    const value = await vscode.window.showInputBox({
      title: l10n.t('Add Always-Secret Value'),
      prompt: l10n.t('A value (a password, a key) to replace with [REDACTED:secret] wherever it appears in an answer. Kept in VS Code secret storage.'),
      password: true,
      ignoreFocusOut: true,
      validateInput: (text) => (addSecretValue([], text).ok ? undefined : l10n.t('At least {0} characters: a shorter value would replace ordinary words.', MIN_SECRET_VALUE_LENGTH)),
    });
    if (value === undefined) return;
    const added = await this.secretValues.add(value);
    if (added.ok) void notify('info', l10n.t('Added. Answers replace {0} always-secret values.', this.secretValues.count));
    else if (added.reason === 'already-listed') void notify('info', l10n.t('That value is already listed.'));
  }

  private async clearAlwaysSecrets(): Promise<void> {
    if (this.secretValues.count === 0) {
      void notify('info', l10n.t('No always-secret values are listed.'));
      return;
    }
    const clear = await confirm(l10n.t('Clear all {0} always-secret values? Answers will no longer replace them.', this.secretValues.count), l10n.t('Clear'));
    if (clear) await this.secretValues.clear();
  }

  /** What was last explained of each hub, so a state is explained once. */
  private readonly lastExplained = new Map<string, string>();

  /** Says once, in words, why the hub cannot be used, and offers the fix (issue 7: 401, watch-only, version). */
  private explainState(hub: Hub, state: ConnectionState): void {
    let key: string | undefined;
    if (state.kind === 'failed') key = `failed:${JSON.stringify(state.failure)}`;
    else if (hub.watchOnly) key = `watch-only:${hub.base}`;
    if (key === undefined || key === this.lastExplained.get(hub.id)) return;
    this.lastExplained.set(hub.id, key);
    if (state.kind === 'failed') {
      void this.explainFailure(hub);
      return;
    }
    void notify(
      'warning',
      l10n.t('{0} is watch-only: it runs without a token, so it refuses every answer. Start the hub with a token (AEP_TOKEN) and store the same token here to answer from VS Code.', hub.base ?? 'The hub'),
      [{ title: l10n.t('Set Hub Token'), value: 'token' }, { title: l10n.t('Show Log'), value: 'log' }],
    ).then((choice) => {
      if (choice === 'log') this.log.show();
      else if (choice === 'token') void this.setToken(hub);
    });
  }

  /**
   * Runs a hub command on the hub it names: the inbox row it came from, the
   * only hub, or the one the person picks when there are several.
   */
  private async withHub(argument: unknown, title: string, run: (hub: Hub) => unknown): Promise<void> {
    const hub = hubFrom(this.hubs, argument) ?? (await this.pickHub(title));
    if (hub) await run(hub);
  }

  private async pickHub(title: string): Promise<Hub | undefined> {
    const hubs = this.hubs.list();
    if (hubs.length === 0) {
      void notify('error', l10n.t('No hub is configured: set aepAttention.hubUrl, or add one to aepAttention.hubs.'), [
        { title: l10n.t('Open Settings'), value: 'settings' },
      ]).then((choice) => choice && vscode.commands.executeCommand(COMMANDS.openSettings));
      return undefined;
    }
    if (hubs.length === 1) return hubs[0];
    const id = await pick(
      hubs.map((hub) => ({ label: hub.label, description: hub.base ?? l10n.t('not a usable address'), detail: hubStateLine(hub), value: hub.id })),
      { title },
    );
    return id === undefined ? undefined : this.hubs.get(id);
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
  answerWithOption(item: Readonly<AttentionItem>, optionId: string): Promise<void> {
    return this.optionAnswers.answerWithOption(item, optionId);
  }

  /**
   * Shows the hub's address and lets the person keep or change it, then asks
   * for a token the address has none of: from a fresh install, four steps to
   * connected (run it, type the address, choose where it is saved, type the token).
   */
  private async connect(argument: unknown): Promise<void> {
    const hub = hubFrom(this.hubs, argument) ?? (this.hubs.size > 1 ? await this.pickHub(l10n.t('Connect to which hub?')) : this.hubs.list()[0]);
    if (!hub && this.hubs.size > 1) return;
    const where = saveTarget(hub?.config.source, (vscode.workspace.workspaceFolders?.length ?? 0) > 0);
    if (hub) {
      const choice = await pick(
        [
          { label: l10n.t('Connect to {0}', hub.base ?? hub.label), value: 'connect' },
          // A hub of the user's list is changed in that list, where its label and filter are.
          { label: l10n.t('Change address…'), ...(where === 'list' ? { description: l10n.t('in aepAttention.hubs') } : {}), value: 'change' },
        ],
        { title: l10n.t('Connect to an AEP hub') },
      );
      if (choice === undefined) return;
      if (choice === 'connect') {
        await hub.connect();
        await this.offerToken(hub);
        this.afterConnect(hub);
        return;
      }
      if (where === 'list') {
        await vscode.commands.executeCommand(COMMANDS.openSettings);
        return;
      }
    }
    const url = (await vscode.window.showInputBox({
      title: l10n.t('Connect to an AEP hub'),
      prompt: l10n.t('The hub address, e.g. http://127.0.0.1:8787.'),
      placeHolder: 'http://127.0.0.1:8787',
      value: hub?.config.hubUrl ?? '',
      ignoreFocusOut: true,
      validateInput: (value) => addressError(value, allowInsecureRemote()),
    }))?.trim();
    if (!url) return;
    const target = where === 'user' ? vscode.ConfigurationTarget.Global : await this.pickScope();
    if (target === undefined) return;
    const config = vscode.workspace.getConfiguration('aepAttention');
    // A workspace value wins over the user's: saving for all workspaces moves the address out of this one.
    if (target === vscode.ConfigurationTarget.Global && config.inspect<string>('hubUrl')?.workspaceValue !== undefined) {
      await config.update('hubUrl', undefined, vscode.ConfigurationTarget.Workspace);
    }
    // The new hub connects as the settings change (hubs.ts).
    await config.update('hubUrl', url, target);
    const added = await this.hubNamed(hubId(url));
    if (!added) return;
    await this.offerToken(added);
    this.afterConnect(added);
  }

  private async pickScope(): Promise<vscode.ConfigurationTarget | undefined> {
    return pick(
      [
        { label: l10n.t('This workspace'), value: vscode.ConfigurationTarget.Workspace },
        { label: l10n.t('All workspaces (user settings)'), value: vscode.ConfigurationTarget.Global },
      ],
      { title: l10n.t('Save the hub address for') },
    );
  }

  /** The hub of that id once the settings change has added it (hubs.ts reconciles on the change event); undefined after a few seconds without. */
  private hubNamed(id: string): Promise<Hub | undefined> {
    const now = this.hubs.get(id);
    if (now) return Promise.resolve(now);
    return new Promise((resolve) => {
      const done = (hub: Hub | undefined) => {
        clearTimeout(timer);
        listener.dispose();
        resolve(hub);
      };
      const timer = setTimeout(() => done(undefined), 5_000);
      const listener = this.hubs.onDidChangeHubs(() => {
        const hub = this.hubs.get(id);
        if (hub) done(hub);
      });
    });
  }

  /** The token step of connecting: asked only when the address has no token stored yet. */
  private async offerToken(hub: Hub): Promise<void> {
    const key = tokenKeyOf(hub.config.hubUrl);
    if (key && !(await this.tokens.get(key))) await this.setToken(hub);
  }

  /** Where the hub's token is filed (its base URL); none for an address that is not a usable URL. */
  private tokenKeyOrExplain(hub: Hub): TokenKey | undefined {
    const key = tokenKeyOf(hub.config.hubUrl);
    if (!key) {
      void notify('error', l10n.t('That hub\'s address is not usable: fix it in the settings first; the token is stored for that hub only.'), [
        { title: l10n.t('Open Settings'), value: 'settings' },
      ]).then((choice) => choice && vscode.commands.executeCommand(COMMANDS.openSettings));
    }
    return key;
  }

  private async setToken(hub: Hub): Promise<void> {
    const key = this.tokenKeyOrExplain(hub);
    if (!key) return;
    const token = await vscode.window.showInputBox({
      title: l10n.t('AEP hub token for {0}', key.base),
      prompt: l10n.t('Stored in VS Code\'s secret storage and only ever sent to {0}.', key.base),
      password: true,
      ignoreFocusOut: true,
      validateInput: (value) => (value.trim() ? undefined : l10n.t('The token cannot be empty')),
    });
    if (!token) return;
    await this.tokens.set(key, token.trim());
    this.log.for('token').info(`stored a token for ${key.base}`);
    void notify('info', l10n.t('Token saved for {0}.', key.base));
  }

  private async clearToken(hub: Hub): Promise<void> {
    const key = this.tokenKeyOrExplain(hub);
    if (!key) return;
    await this.tokens.clear(key);
    this.log.for('token').info(`cleared the token for ${key.base}`);
    void notify('info', l10n.t('Token cleared for {0}.', key.base));
  }

  private async openRequest(argument: unknown): Promise<void> {
    const item = itemFrom(this.hubs, argument) ?? (await this.pickRequest(l10n.t('Open a request')));
    if (item) this.open(item);
  }

  private async answerInline(argument: unknown): Promise<void> {
    const item = itemFrom(this.hubs, argument) ?? (await this.pickRequest(l10n.t('Answer a request')));
    if (item) await this.answer(item);
  }

  private async pickRequest(title: string): Promise<Readonly<AttentionItem> | undefined> {
    const items = this.hubs.visibleItems();
    const several = this.hubs.size > 1;
    // The prompt, and under it, on a line of its own that a long prompt cannot push out of sight, whose it is.
    const key = await pick(
      items.map((candidate) => ({
        label: promptLine(candidate) || candidate.requestId,
        description: kindLabel(candidate),
        detail: several ? l10n.t('{0} · via {1}', provenance(candidate), this.hubs.of(candidate)?.label ?? '') : provenance(candidate),
        value: candidate.key,
      })),
      { title, ...(items.length ? {} : { placeHolder: l10n.t('No request is waiting') }) },
    );
    return key === undefined ? undefined : this.hubs.item(key);
  }

  private dismiss(argument: unknown): void {
    const item = itemFrom(this.hubs, argument);
    if (!item || !isOpenStatus(item.status)) return;
    this.hubs.dismiss(item);
    this.log.for('inbox').info(`dismissed ${item.requestId} from ${item.agent} locally; nothing was sent`);
  }

  /** A failed hub's reason and its fix; otherwise the inbox. */
  private async statusClicked(): Promise<void> {
    const failed = this.hubs.list().filter((hub) => hub.state.kind === 'failed');
    const hub = failed.length > 1 ? await this.pickHub(l10n.t('Which hub\'s problem?')) : failed[0];
    if (hub) await this.explainFailure(hub);
    else await this.showInbox();
  }

  private async explainFailure(hub: Hub): Promise<void> {
    const state = hub.state;
    if (state.kind !== 'failed') return;
    const retry = { title: l10n.t('Retry'), value: 'retry' } as const;
    const showLog = { title: l10n.t('Show Log'), value: 'log' } as const;
    // Asks for the token right there; storing it rebuilds the connection (hubConnection.ts, tokens.onDidChange).
    const setToken = { title: l10n.t('Enter Token…'), value: 'token' } as const;
    const actions = tokenCanFix(state.failure) ? [setToken, retry, showLog] : [retry, showLog];
    // The reason may quote the hub: it goes through the notification surface like agent text.
    const message = this.hubs.size > 1
      ? l10n.t('AEP Attention cannot connect to {0}: {1}', hub.label, askForToken(state.failure) ?? describeFailure(state.failure))
      : l10n.t('AEP Attention cannot connect: {0}', askForToken(state.failure) ?? describeFailure(state.failure));
    const choice = await notify('error', message, actions);
    if (choice === 'retry') hub.retryNow();
    else if (choice === 'log') this.log.show();
    else if (choice === 'token') await this.setToken(hub);
  }
}

/** The user's allowInsecureRemote, or the workspace's once trusted, as settings.ts reads it (restricted setting). */
function allowInsecureRemote(): boolean {
  const inspected = vscode.workspace.getConfiguration('aepAttention').inspect<boolean>('allowInsecureRemote');
  const workspace = vscode.workspace.isTrusted ? (inspected?.workspaceFolderValue ?? inspected?.workspaceValue) : undefined;
  return (workspace ?? inspected?.globalValue) === true;
}

/** A hub in the picker: its state in a few words. */
function hubStateLine(hub: Hub): string {
  const waiting = hub.store.visibleCount;
  const state = hub.state.kind === 'failed' ? l10n.t('cannot connect: {0}', describeFailure(hub.state.failure)) : hub.state.kind;
  return l10n.t('{0} · {1} waiting', state, waiting);
}
