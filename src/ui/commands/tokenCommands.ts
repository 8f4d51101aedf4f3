import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import type { Hub, Hubs } from '../../app/hubs/hubs';
import { tokenKeyOf, type TokenKey, type TokenStore } from '../../app/hubs/tokens';
import type { ExtensionLog } from '../services/log';
import { notify } from '../surfaces';
import { COMMANDS, type RegisterCommand } from './commandIds';
import { withHub } from './hubPicker';

/** The token steps other commands take: Connect's (asked only when none is stored) and a failed hub's "Enter Token…". */
export interface TokenSteps {
  setToken(hub: Hub): Promise<void>;
  offerToken(hub: Hub): Promise<void>;
}

/** Set Hub Token and Clear Hub Token. */
export function registerTokenCommands(register: RegisterCommand, hubs: Hubs, tokens: TokenStore, log: ExtensionLog): TokenSteps {
  /** Where the hub's token is filed (its base URL); none for an address that is not a usable URL. */
  const tokenKeyOrExplain = (hub: Hub): TokenKey | undefined => {
    const key = tokenKeyOf(hub.config.hubUrl);
    if (!key) {
      void notify('error', l10n.t('That hub\'s address is not usable: fix it in the settings first; the token is stored for that hub only.'), [
        { title: l10n.t('Open Settings'), value: 'settings' },
      ]).then((choice) => choice && vscode.commands.executeCommand(COMMANDS.openSettings));
    }
    return key;
  };

  const setToken = async (hub: Hub): Promise<void> => {
    const key = tokenKeyOrExplain(hub);
    if (!key) return;
    const token = await vscode.window.showInputBox({
      title: l10n.t('AEP hub token for {0}', key.base),
      prompt: l10n.t('Stored in VS Code\'s secret storage and only ever sent to {0}.', key.base),
      password: true,
      ignoreFocusOut: true,
      validateInput: (value) => (value.trim() ? undefined : l10n.t('The token cannot be empty')),
    });
    if (!token) return;
    await tokens.set(key, token.trim());
    log.for('token').info(`stored a token for ${key.base}`);
    void notify('info', l10n.t('Token saved for {0}.', key.base));
  };

  const clearToken = async (hub: Hub): Promise<void> => {
    const key = tokenKeyOrExplain(hub);
    if (!key) return;
    await tokens.clear(key);
    log.for('token').info(`cleared the token for ${key.base}`);
    void notify('info', l10n.t('Token cleared for {0}.', key.base));
  };

  register(COMMANDS.setToken, (argument) => withHub(hubs, argument, l10n.t('Set the token of which hub?'), setToken));
  register(COMMANDS.clearToken, (argument) => withHub(hubs, argument, l10n.t('Clear the token of which hub?'), clearToken));
  return {
    setToken,
    /** The token step of connecting: asked only when the address has no token stored yet. */
    offerToken: async (hub) => {
      const key = tokenKeyOf(hub.config.hubUrl);
      if (key && !(await tokens.get(key))) await setToken(hub);
    },
  };
}
