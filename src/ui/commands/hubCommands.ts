import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import { DisposableStore } from '../../base/disposable';
import type { Subscription } from '../../base/emitter';
import type { ConnectionState } from '../../app/hubs/hubConnection';
import type { Hub, Hubs } from '../../app/hubs/hubs';
import { tokenCanFix } from '../../client/connectionFailure';
import { askForToken, describeFailure } from '../../words/failureMessages';
import type { ExtensionLog } from '../services/log';
import { notify } from '../surfaces';
import { COMMANDS, type RegisterCommand } from './commandIds';
import { pickHub, withHub } from './hubPicker';
import { showInbox } from './requestCommands';
import type { TokenSteps } from './tokenCommands';

/**
 * Disconnect, Reconnect and the status bar's click; and what the window says,
 * once, of a hub it cannot use and of the hub list. The returned subscription
 * stops the listening.
 */
export function registerHubCommands(register: RegisterCommand, hubs: Hubs, log: ExtensionLog, tokens: TokenSteps): Subscription {
  /** What was last explained of each hub, so a state is explained once. */
  const lastExplained = new Map<string, string>();

  /** Says once, in words, why the hub cannot be used, and offers the fix (issue 7: 401, watch-only, version). */
  const explainState = (hub: Hub, state: ConnectionState): void => {
    let key: string | undefined;
    // The client's code not loading is told once for the window where it is loaded (hubs.ts partNotLoaded), not by each hub.
    if (state.kind === 'failed') key = state.failure.code === 'client-not-loaded' ? undefined : `failed:${JSON.stringify(state.failure)}`;
    else if (hub.watchOnly) key = `watch-only:${hub.base}`;
    if (key === undefined || key === lastExplained.get(hub.id)) return;
    lastExplained.set(hub.id, key);
    if (state.kind === 'failed') {
      void explainFailure(hub);
      return;
    }
    void notify(
      'warning',
      l10n.t('{0} is watch-only: it runs without a token, so it refuses every answer. Start the hub with a token (AEP_TOKEN) and store the same token here to answer from VS Code.', hub.base ?? 'The hub'),
      [{ title: l10n.t('Set Hub Token'), value: 'token' }, { title: l10n.t('Show Log'), value: 'log' }],
    ).then((choice) => {
      if (choice === 'log') log.show();
      else if (choice === 'token') void tokens.setToken(hub);
    });
  };

  /** A failed hub's reason and its fix; otherwise the inbox. */
  const statusClicked = async (): Promise<void> => {
    const failed = hubs.list().filter((hub) => hub.state.kind === 'failed');
    const hub = failed.length > 1 ? await pickHub(hubs, l10n.t('Which hub\'s problem?')) : failed[0];
    if (hub) await explainFailure(hub);
    else await showInbox();
  };

  const explainFailure = async (hub: Hub): Promise<void> => {
    const state = hub.state;
    if (state.kind !== 'failed') return;
    const retry = { title: l10n.t('Retry'), value: 'retry' } as const;
    const showLog = { title: l10n.t('Show Log'), value: 'log' } as const;
    // Asks for the token right there; storing it rebuilds the connection (hubConnection.ts, tokens.onDidChange).
    const setToken = { title: l10n.t('Enter Token…'), value: 'token' } as const;
    const actions = tokenCanFix(state.failure) ? [setToken, retry, showLog] : [retry, showLog];
    // The reason may quote the hub: it goes through the notification surface like agent text.
    const message = hubs.size > 1
      ? l10n.t('AEP Attention cannot connect to {0}: {1}', hub.label, askForToken(state.failure) ?? describeFailure(state.failure))
      : l10n.t('AEP Attention cannot connect: {0}', askForToken(state.failure) ?? describeFailure(state.failure));
    const choice = await notify('error', message, actions);
    if (choice === 'retry') hub.retryNow();
    else if (choice === 'log') log.show();
    else if (choice === 'token') await tokens.setToken(hub);
  };

  register(COMMANDS.disconnect, (argument) => withHub(hubs, argument, l10n.t('Disconnect from which hub?'), (hub) => hub.disconnect()));
  register(COMMANDS.reconnect, (argument) => withHub(hubs, argument, l10n.t('Reconnect to which hub?'), (hub) => hub.retryNow()));
  register(COMMANDS.status, statusClicked);
  const listening = new DisposableStore();
  listening.add(hubs.onDidChangeState((hub) => explainState(hub, hub.state)));
  listening.add(
    hubs.onDidFindListProblems((problems) => {
      void notify('warning', problems.join(' '), [{ title: l10n.t('Open Settings'), value: 'settings' }]).then(
        (choice) => choice && vscode.commands.executeCommand(COMMANDS.openSettings),
      );
    }),
  );
  return listening;
}
