import * as vscode from 'vscode';
import { Commands } from './ui/commands/commands';
import type { AttentionItem } from './inbox/inbox';
import { AnswerHistory } from './history/answerHistory';
import { recordAnswers } from './app/historyRecorder';
import { HistoryView } from './ui/history/historyView';
import { Hubs } from './app/hubs/hubs';
import { InboxView } from './ui/inbox/inboxView';
import { InlineAnswers } from './ui/answering/inlineAnswer';
import { configureHostStrings } from './words/l10n';
import { ExtensionLog } from './ui/services/log';
import { Notifier } from './ui/notifications/notifier';
import { OsNotificationsOnDemand } from './ui/notifications/osNotificationsOnDemand';
import { HistoryPagesOnDemand, RequestPagesOnDemand } from './ui/page/pagesOnDemand';
import { REQUEST_VIEW_TYPE } from './ui/viewIds';
import { SettingsService } from './ui/services/settings';
import { tellNotLoaded } from './ui/services/onDemand';
import { cpuSince, cpuTime } from './base/cpuTime';
import { StatusBar } from './ui/status/statusBar';
import { AlwaysSecretValues } from './app/hubs/alwaysSecretValues';
import { environmentToken, TokenStore } from './app/hubs/tokens';
import { askToUseOriginToken } from './ui/hubs/originTokenQuestion';
import { toDisposable } from './base/disposable';

/** What the extension exposes to other extensions and to its own extension-host tests: read-only views. */
export interface AepAttentionApi {
  /** The one hub's state, or with several the worst of them ('unconfigured' with none). */
  connectionState(): string;
  /** Every hub the window connects to, in settings order. */
  hubs(): Array<{ id: string; label: string; state: string; pending: number }>;
  /** Open requests this window shows (dismissed ones excluded). */
  pending(): Array<{ key: string; hub: string; agent: string; session: string; kind: string; status: string }>;
  /** The answer history, newest first: what each entry is, and the words of its outcomes. */
  history(): Array<{ id: string; hub: string; agent: string; requestId: string; outcomes: string[]; ended?: string }>;
  /** Open requests the inbox holds, dismissed ones included. */
  openCount(): number;
  openPanels(): number;
  /** The keys of the requests the open request pages show. */
  shownRequests(): string[];
}

/**
 * Activation stays cheap and awaits nothing: settings are read and the views
 * registered, but no socket is opened unless a hub is configured. The reads
 * from secret storage (on desktop, the system keychain) are begun here and
 * waited for by what needs them: a connection waits for the always-secret
 * values and its token, every command and a restored page for the values.
 */
export function activate(context: vscode.ExtensionContext): AepAttentionApi {
  const started = Date.now();
  // Its own CPU time beside the wall clock, which counts the time the host is descheduled while the workbench starts (bench/footprint.ts).
  const cpu = cpuTime();
  configureHostStrings(vscode.l10n.bundle);
  const log = new ExtensionLog();
  context.subscriptions.push(log);
  const fromEnvironment = environmentToken(process.env);
  const settings = new SettingsService(fromEnvironment ? process.env['AEP_HUB']?.trim() : undefined, log.for('settings'));
  const secretValues = new AlwaysSecretValues(context.secrets, log.for('secrets'));
  context.subscriptions.push(secretValues);
  secretValues.start();
  const tokens = new TokenStore(context.secrets, fromEnvironment, askToUseOriginToken, (token) => secretValues.maskHubToken(token));
  // Made before the hubs: after a reload its kept sends are what says an agent's record answers ours (hubs.ts `recorded`).
  const history = new AnswerHistory(context.workspaceState, log.for('history'), { limits: () => settings.value.history });
  const hubs = new Hubs(settings, tokens, context.workspaceState, log, {
    keptSends: (hub, itemKey) => history.sentAnswers(hub, itemKey), redaction: () => secretValues.redaction(), loaded: () => secretValues.loaded(),
    partNotLoaded: tellNotLoaded,
  });
  const panels = new RequestPagesOnDemand(context.extensionUri, hubs, log.for('panel'), settings, secretValues);
  const inline = new InlineAnswers(hubs, panels, log.for('inline'), secretValues);
  // Connect's last step offers system notifications (issue 42); `alerts` is made below, before any command can run.
  const commands = new Commands(hubs, tokens, log, panels, inline, secretValues, (hub) => alerts.afterConnect(hub));
  const historyPanels = new HistoryPagesOnDemand(context.extensionUri, log.for('history'));
  const recording = recordAnswers(hubs, history, settings);
  const actions = {
    open: (item: Readonly<AttentionItem>) => commands.open(item),
    fitsInline: (item: Readonly<AttentionItem>) => inline.fits(item),
    answerInline: (item: Readonly<AttentionItem>) => void commands.answer(item),
    showInbox: () => void commands.showInbox(),
  };
  const alerts = new OsNotificationsOnDemand(context.extensionUri, hubs, settings, log.for('os-notifications'), actions, () => secretValues.redaction(),
    context.globalStorageUri.scheme === 'file' ? vscode.Uri.joinPath(context.globalStorageUri, 'notification-claims').fsPath : undefined,
    context.globalState);
  const notifier = new Notifier(hubs, settings, {
    ...actions,
    answerWithOption: (item, option) => void commands.answerWithOption(item, option),
    answerSimilar: (item) => void vscode.commands.executeCommand('aepAttention.answerSimilar', item.key),
  }, alerts);
  // Each hub stops its client before its store saves what the inbox holds (hubs.ts).
  // The history is written last, after the hubs' final outcomes.
  context.subscriptions.push(
    toDisposable(() => history.dispose()), recording, settings, hubs, panels, historyPanels, inline, commands, notifier, alerts,
    new StatusBar(hubs, alerts), new InboxView(hubs), new HistoryView(history, hubs, historyPanels, panels, log, secretValues),
  );
  context.subscriptions.push(
    vscode.window.registerWebviewPanelSerializer(REQUEST_VIEW_TYPE, {
      // A page restored after a reload sends the values with its first render, and masks with them.
      deserializeWebviewPanel: (panel, state) => secretValues.loaded().then(() => panels.restore(panel, state)),
    }),
  );
  // The open requests are restored synchronously as each hub starts; the token lookups and
  // the connections follow without holding up the editor's activation.
  hubs.start();
  // The system notifications' host is loaded once activation has returned, not awaited: an
  // import() compiles its chunk at once, and inside activate() that was a quarter of its time.
  const loadAlerts = setTimeout(() => alerts.start(), 0);
  context.subscriptions.push(toDisposable(() => clearTimeout(loadAlerts)));
  log.for('extension').info(`activated in ${Date.now() - started} ms, ${cpuSince(cpu)}${hubs.size === 0 ? ' (no hub configured)' : hubs.size > 1 ? ` (${hubs.size} hubs)` : ''}`);
  return {
    connectionState: () => hubs.overallState,
    hubs: () => hubs.list().map((hub) => ({ id: hub.id, label: hub.label, state: hub.state.kind, pending: hub.store.visibleCount })),
    pending: () =>
      hubs.visibleItems().map((item) => ({
        key: item.key, hub: item.hub, agent: item.agent, session: item.session, kind: item.request?.kind ?? 'unreadable', status: item.status,
      })),
    history: () =>
      history.entries().map((entry) => ({
        id: entry.id, hub: entry.hub.id, agent: entry.agent, requestId: entry.requestId,
        outcomes: [...entry.sends.flatMap((send) => send.outcomes.map((o) => o.kind)), ...entry.agentOutcomes.map((o) => o.kind)],
        ...(entry.ended ? { ended: entry.ended } : {}),
      })),
    openCount: () => hubs.list().reduce((count, hub) => count + hub.store.inbox.open().length, 0),
    openPanels: () => panels.openCount,
    shownRequests: () => panels.shownKeys(),
  };
}

export function deactivate(): void {
  // Everything is released through context.subscriptions.
}
