import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import type { Hub, Hubs } from '../../app/hubs/hubs';
import { hubAdded, hubFrom } from '../../app/hubs/commandTargets';
import { addressError, saveTarget } from '../../app/hubs/connectPlan';
import { hubId } from '../../app/hubs/hubList';
import { allowInsecureRemote } from '../services/settings';
import { pick } from '../surfaces';
import { COMMANDS, type RegisterCommand } from './commandIds';
import { pickHub } from './hubPicker';
import type { TokenSteps } from './tokenCommands';

/** Connect to Hub. `afterConnect` is its last step, once its hub is set: system notifications are offered (osNotifications.ts afterConnect). */
export function registerConnect(register: RegisterCommand, hubs: Hubs, tokens: TokenSteps, afterConnect: (hub: Hub) => void): void {
  register(COMMANDS.connect, (argument) => connect(hubs, tokens, afterConnect, argument));
}

/**
 * Shows the hub's address and lets the person keep or change it, then asks
 * for a token the address has none of: from a fresh install, four steps to
 * connected (run it, type the address, choose where it is saved, type the token).
 */
async function connect(hubs: Hubs, tokens: TokenSteps, afterConnect: (hub: Hub) => void, argument: unknown): Promise<void> {
  const hub = hubFrom(hubs, argument) ?? (hubs.size > 1 ? await pickHub(hubs, l10n.t('Connect to which hub?')) : hubs.list()[0]);
  if (!hub && hubs.size > 1) return;
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
      await tokens.offerToken(hub);
      afterConnect(hub);
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
  const target = where === 'user' ? vscode.ConfigurationTarget.Global : await pickScope();
  if (target === undefined) return;
  const config = vscode.workspace.getConfiguration('aepAttention');
  // A workspace value wins over the user's: saving for all workspaces moves the address out of this one.
  if (target === vscode.ConfigurationTarget.Global && config.inspect<string>('hubUrl')?.workspaceValue !== undefined) {
    await config.update('hubUrl', undefined, vscode.ConfigurationTarget.Workspace);
  }
  // The new hub connects as the settings change (hubs.ts).
  await config.update('hubUrl', url, target);
  const added = await hubAdded(hubs, hubId(url));
  if (!added) return;
  await tokens.offerToken(added);
  afterConnect(added);
}

async function pickScope(): Promise<vscode.ConfigurationTarget | undefined> {
  return pick(
    [
      { label: l10n.t('This workspace'), value: vscode.ConfigurationTarget.Workspace },
      { label: l10n.t('All workspaces (user settings)'), value: vscode.ConfigurationTarget.Global },
    ],
    { title: l10n.t('Save the hub address for') },
  );
}
