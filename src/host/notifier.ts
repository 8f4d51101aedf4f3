import * as vscode from 'vscode';
import type { AttentionItem } from '../aep/inbox/inbox';
import { isOpenStatus } from '../aep/inbox/inbox';
import { textHonesty } from '../aep/labels';
import { severityRank } from '../aep/levels';
import { promptLine } from './describe';
import { Disposable } from './disposable';
import type { HubConnection } from './hubConnection';
import type { SettingsService } from './settings';

const COALESCE_MS = 400;
const MAX_OPTION_BUTTONS = 3;

export interface NotifierActions {
  open(item: Readonly<AttentionItem>): void;
  showInbox(): void;
  answerWithOption(item: Readonly<AttentionItem>, optionId: string): void;
}

/**
 * One information message per new request, coalesced per agent within a
 * short burst ("5 requests from claude-code"), never repeated for a request
 * already notified (redelivery, reconnect, reload). Plain information
 * messages, so VS Code's Do Not Disturb applies; never escalated.
 */
export class Notifier extends Disposable {
  private readonly notified = new Set<string>();
  private readonly queued: Array<Readonly<AttentionItem>> = [];
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly connection: HubConnection,
    private readonly settings: SettingsService,
    private readonly actions: NotifierActions,
  ) {
    super();
    for (const item of connection.visibleItems()) this.notified.add(item.key);
    this._register(
      connection.onDidChangeInbox((change) => {
        if (change === undefined) {
          // A restored or switched inbox: what it holds was notified before, or belongs to another hub.
          for (const item of connection.visibleItems()) this.notified.add(item.key);
          return;
        }
        if (change.kind === 'added' && !this.notified.has(change.item.key)) {
          this.notified.add(change.item.key);
          if (this.wants(change.item)) this.enqueue(change.item);
        }
      }),
    );
    this._register({ dispose: () => this.timer && clearTimeout(this.timer) });
  }

  private wants(item: Readonly<AttentionItem>): boolean {
    const { notifications, notificationMinSeverity } = this.settings.value;
    if (notifications === 'off') return false;
    if (notifications === 'forms' && item.request?.kind !== 'form') return false;
    const severity = item.request?.severity ?? 'notice';
    return severityRank(severity) >= severityRank(notificationMinSeverity);
  }

  private enqueue(item: Readonly<AttentionItem>): void {
    this.queued.push(item);
    this.timer ??= setTimeout(() => this.flush(), COALESCE_MS);
  }

  private flush(): void {
    this.timer = undefined;
    const hidden = this.connection.hiddenKeys;
    // A request resolved within the burst (a replay catching up) is not worth a notification.
    const still = this.queued.splice(0).filter((item) => isOpenStatus(item.status) && !hidden.has(item.key));
    const byAgent = new Map<string, Array<Readonly<AttentionItem>>>();
    for (const item of still) byAgent.set(item.agent, [...(byAgent.get(item.agent) ?? []), item]);
    for (const [agent, items] of byAgent) {
      const [first] = items;
      if (items.length === 1 && first) this.showOne(first);
      else void this.showMany(agent, items.length);
    }
  }

  private async showMany(agent: string, count: number): Promise<void> {
    const open = vscode.l10n.t('Open Inbox');
    const choice = await vscode.window.showInformationMessage(vscode.l10n.t('{0} requests from {1}', count, agent), open);
    if (choice === open) this.actions.showInbox();
  }

  private async showOne(item: Readonly<AttentionItem>): Promise<void> {
    const open = vscode.l10n.t('Open');
    const request = item.request;
    // Option buttons only when the answer goes through the hub and the labels are real text:
    // at capture metadata a label is a placeholder ("1"), not something to click blind.
    const optionButtons =
      request && request.kind === 'permission' && request.answerableHere && textHonesty(request.capture) !== 'structural'
        ? request.options.slice(0, MAX_OPTION_BUTTONS)
        : [];
    const message = vscode.l10n.t('{0}: {1}', item.agent, promptLine(item));
    const choice = await vscode.window.showInformationMessage(message, open, ...optionButtons.map((option) => option.label));
    if (choice === undefined) return;
    if (choice === open) {
      this.actions.open(item);
      return;
    }
    const option = optionButtons.find((candidate) => candidate.label === choice);
    if (option && isOpenStatus(item.status)) this.actions.answerWithOption(item, option.id);
  }
}
