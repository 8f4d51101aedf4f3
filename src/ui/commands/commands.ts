import * as vscode from 'vscode';
import { afterLoaded, type AlwaysSecretValues } from '../../app/hubs/alwaysSecretValues';
import type { AttentionItem } from '../../inbox/inbox';
import { Disposable } from '../../base/disposable';
import type { Hub, Hubs } from '../../app/hubs/hubs';
import type { InlineAnswers } from '../answering/inlineAnswer';
import type { ExtensionLog } from '../services/log';
import type { RequestPagesOnDemand } from '../page/pagesOnDemand';
import type { TokenStore } from '../../app/hubs/tokens';
import { COMMANDS, type RegisterCommand } from './commandIds';
import { registerConnect } from './connect';
import { registerHubCommands } from './hubCommands';
import { registerRequestCommands, showInbox, type RequestActions } from './requestCommands';
import { registerSecretCommands } from './secretCommands';
import { registerTokenCommands } from './tokenCommands';

export { COMMANDS } from './commandIds';

/** Registers every command of the extension, group by group (one file each), and releases them together. */
export class Commands extends Disposable implements RequestActions {
  private readonly requests: RequestActions;

  constructor(
    hubs: Hubs,
    tokens: TokenStore,
    log: ExtensionLog,
    panels: RequestPagesOnDemand,
    inline: InlineAnswers,
    secretValues: AlwaysSecretValues,
    /** Connect's last step, once its hub is set: system notifications are offered (osNotifications.ts afterConnect). */
    afterConnect: (hub: Hub) => void = () => undefined,
  ) {
    super();
    // Every command but the log and the settings waits for the always-secret values (afterLoaded): the log is where a failed read is told.
    const register: RegisterCommand = (id, run) => void this._register(vscode.commands.registerCommand(id, afterLoaded(secretValues, run)));
    const tokenSteps = registerTokenCommands(register, hubs, tokens, log);
    registerConnect(register, hubs, tokenSteps, afterConnect);
    this._register(registerHubCommands(register, hubs, log, tokenSteps));
    registerSecretCommands(register, secretValues);
    this.requests = registerRequestCommands(register, hubs, log, panels, inline, tokenSteps);
    this._register(vscode.commands.registerCommand(COMMANDS.showLog, () => log.show()));
    this._register(vscode.commands.registerCommand(COMMANDS.openSettings, () => vscode.commands.executeCommand('workbench.action.openSettings', '@ext:aepattention.aep-attention')));
  }

  showInbox(): Thenable<unknown> {
    return showInbox();
  }

  open(item: Readonly<AttentionItem>): Promise<void> {
    return this.requests.open(item);
  }

  answer(item: Readonly<AttentionItem>): Promise<void> {
    return this.requests.answer(item);
  }

  answerWithOption(item: Readonly<AttentionItem>, optionId: string): Promise<void> {
    return this.requests.answerWithOption(item, optionId);
  }
}
