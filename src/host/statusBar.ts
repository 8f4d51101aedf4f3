import * as vscode from 'vscode';
import { Disposable } from './disposable';
import type { HubConnection } from './hubConnection';

export const STATUS_COMMAND = 'aepAttention.statusBarClicked';

/**
 * One status bar item: connection state and pending count, in codicons and
 * the theme's own colours. It only says "connected" while the client is.
 */
export class StatusBar extends Disposable {
  private readonly item = this._register(vscode.window.createStatusBarItem('aepAttention.status', vscode.StatusBarAlignment.Right, 100));

  constructor(private readonly connection: HubConnection) {
    super();
    this.item.name = vscode.l10n.t('AEP Attention');
    this.item.command = STATUS_COMMAND;
    this._register(connection.onDidChangeState(() => this.render()));
    this._register(connection.onDidChangeInbox(() => this.render()));
    this.render();
  }

  private render(): void {
    const state = this.connection.state;
    if (state.kind === 'unconfigured') {
      this.item.hide();
      return;
    }
    const pending = this.connection.visibleItems().length;
    let summary = '';
    const hub = this.connection.origin ?? vscode.l10n.t('(invalid hub URL)');
    switch (state.kind) {
      case 'connecting':
        this.item.text = `$(sync~spin) ${vscode.l10n.t('AEP')}`;
        summary = vscode.l10n.t('Connecting to {0} (attempt {1})', hub, state.attempt);
        break;
      case 'connected':
        this.item.text = pending > 0 ? `$(bell-dot) ${pending}` : '$(bell)';
        summary =
          pending === 1
            ? vscode.l10n.t('Connected to {0}. 1 request waits for you.', hub)
            : vscode.l10n.t('Connected to {0}. {1} requests wait for you.', hub, pending);
        break;
      case 'backing-off':
        this.item.text = `$(debug-disconnect) ${pending > 0 ? pending : vscode.l10n.t('AEP')}`;
        summary = vscode.l10n.t('Lost the hub at {0}: {1}. Retrying at {2}.', hub, state.lastError, new Date(state.retryAt).toLocaleTimeString());
        break;
      case 'failed':
        this.item.text = `$(error) ${vscode.l10n.t('AEP')}`;
        summary = vscode.l10n.t('Cannot connect to {0}: {1}', hub, state.reason);
        break;
      case 'disconnected':
      case 'idle':
        this.item.text = `$(debug-disconnect) ${vscode.l10n.t('AEP off')}`;
        summary = vscode.l10n.t('Disconnected from {0}.', hub);
        break;
    }
    const tooltip = new vscode.MarkdownString(undefined, true);
    tooltip.isTrusted = false;
    tooltip.supportHtml = false;
    tooltip.appendText(summary);
    const gaps = this.connection.gaps;
    if (gaps.length > 0) {
      tooltip.appendText('\n\n');
      tooltip.appendText(
        vscode.l10n.t('Older requests may be missing: the hub no longer held {0} from where this window left off.', gaps.map((g) => g.session).join(', ')),
      );
    }
    tooltip.appendText('\n\n');
    tooltip.appendText(state.kind === 'failed' ? vscode.l10n.t('Click for the reason and a retry.') : vscode.l10n.t('Click to open the inbox.'));
    this.item.tooltip = tooltip;
    // The tooltip's Markdown escapes spaces; screen readers get the plain sentence.
    this.item.accessibilityInformation = { label: `${vscode.l10n.t('AEP Attention')}: ${summary}` };
    this.item.show();
  }
}
