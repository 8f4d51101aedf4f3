import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import type { Logger } from '../../base/logger';
import { OnFirstNeed, type LazyPart } from '../../base/onFirstNeed';
import { partNotLoaded } from '../../words/failureMessages';
import { notify } from '../surfaces';

/**
 * A part loaded on first need (src/base/onFirstNeed.ts: `load` imports, and resolves with how to make the part) whose failure to load
 * is logged and told in a notification, with Show Log beside it.
 */
export function onFirstNeed<T>(part: LazyPart, load: () => Promise<() => T>, log: Logger, release?: (value: T) => void): OnFirstNeed<T> {
  return new OnFirstNeed(part, load, log, () => tellNotLoaded(part), release);
}

/** Tells the person a part could not be loaded, with Show Log beside it (OnFirstNeed calls it once per owner; Hubs makes its own). */
export function tellNotLoaded(part: LazyPart): void {
  const told = async () => {
    const choice = await notify('error', partNotLoaded(part), [{ title: l10n.t('Show Log'), value: 'log' }]);
    if (choice === 'log') await vscode.commands.executeCommand('aepAttention.showLog');
  };
  void told();
}
