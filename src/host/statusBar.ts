import * as vscode from 'vscode';
import type { ResumeNotice } from '../aep/client/hubClient';
import { sessionName } from './describe';
import type { AttentionStore } from './attentionStore';
import { Disposable } from './disposable';
import type { HubConnection } from './hubConnection';
import { StatusItem } from './surfaces';
import { describeFailure, describeLost } from './failureMessages';

export const STATUS_COMMAND = 'aepAttention.statusBarClicked';

/**
 * One status bar item: connection state and pending count, in codicons and
 * the theme's own colours. It only says "connected" while the client is.
 * Hub-authored text (an error, a close reason) and session names reach the
 * tooltip; surfaces.StatusItem makes every string inert.
 */
export class StatusBar extends Disposable {
  private readonly item = this._register(
    new StatusItem('aepAttention.status', vscode.l10n.t('AEP Attention'), vscode.StatusBarAlignment.Right, 100, STATUS_COMMAND),
  );

  private renderTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly connection: HubConnection,
    private readonly store: AttentionStore,
  ) {
    super();
    this._register(connection.onDidChangeState(() => this.render()));
    // A flood changes the inbox thousands of times a second: count once per burst, as the inbox view does.
    this._register(store.onDidChangeInbox(() => this.scheduleRender()));
    this._register({ dispose: () => this.renderTimer && clearTimeout(this.renderTimer) });
    this.render();
  }

  private scheduleRender(): void {
    if (this.renderTimer) return;
    this.renderTimer = setTimeout(() => this.render(), 50);
  }

  private render(): void {
    if (this.renderTimer) clearTimeout(this.renderTimer);
    this.renderTimer = undefined;
    const state = this.connection.state;
    if (state.kind === 'unconfigured') {
      this.item.hide();
      return;
    }
    const pending = this.store.visibleCount;
    let icon: string;
    let text: string | undefined;
    let summary: string;
    const hub = this.connection.origin ?? vscode.l10n.t('(invalid hub URL)');
    switch (state.kind) {
      case 'connecting':
        icon = 'sync~spin';
        text = vscode.l10n.t('AEP');
        summary = vscode.l10n.t('Connecting to {0} (attempt {1})', hub, state.attempt);
        break;
      case 'connected':
        icon = pending > 0 ? 'bell-dot' : 'bell';
        text = pending > 0 ? `${pending}` : undefined;
        summary =
          pending === 1
            ? vscode.l10n.t('Connected to {0}. 1 request waits for you.', hub)
            : vscode.l10n.t('Connected to {0}. {1} requests wait for you.', hub, pending);
        break;
      case 'backing-off':
        icon = 'debug-disconnect';
        text = pending > 0 ? `${pending}` : vscode.l10n.t('AEP');
        summary = vscode.l10n.t('Lost the hub at {0}: {1}. Retrying at {2}.', hub, describeLost(state.lost), new Date(state.retryAt).toLocaleTimeString());
        break;
      case 'failed':
        icon = 'error';
        text = vscode.l10n.t('AEP');
        summary = vscode.l10n.t('Cannot connect to {0}: {1}', hub, describeFailure(state.failure));
        break;
      case 'disconnected':
      case 'idle':
        icon = 'debug-disconnect';
        text = vscode.l10n.t('AEP off');
        summary = vscode.l10n.t('Disconnected from {0}.', hub);
        break;
    }
    const tooltip = [summary];
    const gaps = this.connection.gaps;
    if (gaps.length > 0) {
      tooltip.push(
        vscode.l10n.t('Older requests may be missing: the hub no longer held {0} from where this window left off.', gaps.map((g) => sessionName(g.session)).join(', ')),
      );
    }
    const resume = this.connection.resumeNotice;
    if (resume) tooltip.push(resumeSentence(resume));
    tooltip.push(state.kind === 'failed' ? vscode.l10n.t('Click for the reason and a retry.') : vscode.l10n.t('Click to open the inbox.'));
    // The tooltip's Markdown escapes spaces; screen readers get the plain sentence.
    this.item.show({ icon, ...(text === undefined ? {} : { text }), tooltip, accessibilityLabel: `${vscode.l10n.t('AEP Attention')}: ${summary}` });
  }
}

/** How this connection resumes, when it is less than everything missed, in the user's words. */
function resumeSentence(notice: ResumeNotice): string {
  switch (notice.code) {
    case 'no-replay-all':
      return vscode.l10n.t('This hub cannot replay everything it holds: a request raised while this window was disconnected, by an agent it had not seen, may be missing.');
    case 'left-out':
      return vscode.l10n.t('The hub resumes only {0} of {1} sessions from where this window left off; requests raised meanwhile in the others may be missing.', notice.resumed, notice.saved);
    case 'replay-all-cut-short':
      return vscode.l10n.t('The hub dropped the last {0} connections while replaying everything it holds, so this window resumes from where it left off; a request raised meanwhile by an agent it had not seen may be missing.', notice.connections);
    case 'subscription-refused':
      return vscode.l10n.t('The hub refused to resume from every saved position ({0}); this window asked again for less, so older requests may be missing.', notice.hubCode);
  }
}
