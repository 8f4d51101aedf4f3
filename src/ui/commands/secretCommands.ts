import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import { addSecretValue, MIN_SECRET_VALUE_LENGTH } from '../../aep/alwaysSecret';
import type { AlwaysSecretValues } from '../../app/hubs/alwaysSecretValues';
import { confirm, notify } from '../surfaces';
import { COMMANDS, type RegisterCommand } from './commandIds';

/** Add Always-Secret Value and Clear Always-Secret Values. */
export function registerSecretCommands(register: RegisterCommand, secretValues: AlwaysSecretValues): void {
  register(COMMANDS.addAlwaysSecret, () => addAlwaysSecret(secretValues));
  register(COMMANDS.clearAlwaysSecrets, () => clearAlwaysSecrets(secretValues));
}

/** Rule (b): a value replaced by the redaction pipeline wherever it appears in an answer. Typed into a password box, kept in secret storage. */
async function addAlwaysSecret(secretValues: AlwaysSecretValues): Promise<void> {
  const value = await vscode.window.showInputBox({
    title: l10n.t('Add Always-Secret Value'),
    prompt: l10n.t('A value (a password, a key) to replace with [REDACTED:secret] wherever it appears in an answer. Kept in VS Code secret storage.'),
    password: true,
    ignoreFocusOut: true,
    validateInput: (text) => (addSecretValue([], text).ok ? undefined : l10n.t('At least {0} characters: a shorter value would replace ordinary words.', MIN_SECRET_VALUE_LENGTH)),
  });
  if (value === undefined) return;
  const added = await secretValues.add(value);
  if (added.ok) void notify('info', l10n.t('Added. Answers replace {0} always-secret values.', secretValues.count));
  else if (added.reason === 'already-listed') void notify('info', l10n.t('That value is already listed.'));
}

async function clearAlwaysSecrets(secretValues: AlwaysSecretValues): Promise<void> {
  if (secretValues.count === 0) {
    void notify('info', l10n.t('No always-secret values are listed.'));
    return;
  }
  const clear = await confirm(l10n.t('Clear all {0} always-secret values? Answers will no longer replace them.', secretValues.count), l10n.t('Clear'));
  if (clear) await secretValues.clear();
}
