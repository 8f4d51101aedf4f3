import * as vscode from 'vscode';
import { AttentionStore } from './host/attentionStore';
import { Commands } from './host/commands';
import { HubConnection } from './host/hubConnection';
import { InboxView } from './host/inboxView';
import { InlineAnswers } from './host/inlineAnswer';
import { configureHostStrings } from './host/l10n';
import { ExtensionLog } from './host/log';
import { Notifier } from './host/notifier';
import { REQUEST_VIEW_TYPE, RequestPanels } from './host/requestPanel';
import { SettingsService } from './host/settings';
import { StatusBar } from './host/statusBar';
import { environmentToken, TokenStore } from './host/tokens';

/**
 * Activation stays cheap: settings are read and the views registered, but no
 * socket is opened unless a hub is configured.
 */
/** What the extension exposes to other extensions and to its own extension-host tests: read-only views. */
export interface AepAttentionApi {
  connectionState(): string;
  /** Open requests this window shows (dismissed ones excluded). */
  pending(): Array<{ key: string; agent: string; session: string; kind: string; status: string }>;
  /** Open requests the inbox holds, dismissed ones included. */
  openCount(): number;
  openPanels(): number;
}

export async function activate(context: vscode.ExtensionContext): Promise<AepAttentionApi> {
  const started = Date.now();
  configureHostStrings(vscode.l10n.bundle);
  const log = new ExtensionLog();
  context.subscriptions.push(log);
  const fromEnvironment = environmentToken(process.env);
  const settings = new SettingsService(fromEnvironment ? process.env['AEP_HUB']?.trim() : undefined);
  const tokens = new TokenStore(context.secrets, fromEnvironment);
  const store = new AttentionStore(context.workspaceState, log);
  const connection = new HubConnection(settings, tokens, store, log);
  const panels = new RequestPanels(context.extensionUri, connection, store, log.for('panel'), settings);
  const inline = new InlineAnswers(connection, store, panels, log.for('inline'));
  const commands = new Commands(connection, store, settings, tokens, log, panels, inline);
  const notifier = new Notifier(connection, store, settings, {
    open: (item) => commands.open(item),
    fitsInline: (item) => inline.fits(item),
    answerInline: (item) => void commands.answer(item),
    showInbox: () => void commands.showInbox(),
    answerWithOption: (item, option) => void commands.answerWithOption(item, option),
  });
  // Disposed in this order: the connection stops its client before the store saves what the inbox holds.
  context.subscriptions.push(settings, connection, store, panels, inline, commands, notifier, new StatusBar(connection, store), new InboxView(connection, store));
  context.subscriptions.push(
    vscode.window.registerWebviewPanelSerializer(REQUEST_VIEW_TYPE, {
      deserializeWebviewPanel: (panel, state) => Promise.resolve(panels.restore(panel, state)),
    }),
  );
  // Not awaited: the open requests are restored synchronously inside start(); the token
  // lookup and the connection follow without holding up the editor's activation.
  connection.start().catch((error: unknown) => log.for('connection').error(`could not start: ${String(error)}`));
  log.for('extension').info(`activated in ${Date.now() - started} ms${settings.value.hubUrl ? '' : ' (no hub configured)'}`);
  return {
    connectionState: () => connection.state.kind,
    pending: () =>
      store.visibleItems().map((item) => ({
        key: item.key, agent: item.agent, session: item.session, kind: item.request?.kind ?? 'unreadable', status: item.status,
      })),
    openCount: () => store.inbox.open().length,
    openPanels: () => panels.openCount,
  };
}

export function deactivate(): void {
  // Everything is released through context.subscriptions.
}
