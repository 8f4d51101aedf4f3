import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import type { ResumeNotice } from '../../client/hubClient';
import { sessionName } from '../../words/describe';
import { Disposable, toDisposable } from '../../base/disposable';
import type { Hub, Hubs } from '../../app/hubs/hubs';
import { StatusItem } from '../surfaces';
import type { OsNotificationsOnDemand } from '../notifications/osNotificationsOnDemand';
import { describeFailure, describeLost } from '../../words/failureMessages';

export const STATUS_COMMAND = 'aepAttention.statusBarClicked';

/**
 * One status bar item: connection state and pending count, in codicons and
 * the theme's own colours; with several hubs, the total and a tooltip line
 * per hub. It only says "connected" while the client is.
 * Hub-authored text (an error, a close reason) and session names reach the
 * tooltip; surfaces.StatusItem makes every string inert.
 */
export class StatusBar extends Disposable {
  private readonly item = this._register(
    new StatusItem('aepAttention.status', l10n.t('AEP Attention'), vscode.StatusBarAlignment.Right, 100, STATUS_COMMAND),
  );

  private renderTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly hubs: Hubs, private readonly alerts?: Pick<OsNotificationsOnDemand, 'notes' | 'onDidChange'>) {
    super();
    if (alerts) this._register(alerts.onDidChange(() => this.render()));
    this._register(hubs.onDidChangeState(() => this.render()));
    this._register(hubs.onDidChangeHubs(() => this.render()));
    // A flood changes the inbox thousands of times a second: count once per burst, as the inbox view does.
    this._register(hubs.onDidChangeInbox(() => this.scheduleRender()));
    this._register(toDisposable(() => clearTimeout(this.renderTimer)));
    this.render();
  }

  private scheduleRender(): void {
    if (this.renderTimer) return;
    this.renderTimer = setTimeout(() => this.render(), 50);
  }

  private render(): void {
    if (this.renderTimer) clearTimeout(this.renderTimer);
    this.renderTimer = undefined;
    const hubs = this.hubs.list();
    const [only] = hubs;
    if (!only) {
      this.item.hide();
      return;
    }
    if (hubs.length === 1) {
      const shown = hubLine(only);
      const tooltip = [shown.summary, ...hubNotes(only), ...(this.alerts?.notes() ?? [])];
      tooltip.push(only.state.kind === 'failed' ? l10n.t('Click for the reason and a retry.') : l10n.t('Click to open the inbox.'));
      // The tooltip's Markdown escapes spaces; screen readers get the plain sentence.
      this.item.show({ icon: shown.icon, ...(shown.text === undefined ? {} : { text: shown.text }), tooltip, accessibilityLabel: `${l10n.t('AEP Attention')}: ${shown.summary}` });
      return;
    }
    // Several hubs: one item with the total, and a line per hub (its state, what waits, its last error).
    const pending = this.hubs.visibleCount;
    const overall = this.hubs.overallState;
    const connected = hubs.filter((hub) => hub.state.kind === 'connected').length;
    const icon = overall === 'failed' ? 'error' : overall === 'connected' ? (pending > 0 ? 'bell-dot' : 'bell') : overall === 'connecting' ? 'sync~spin' : 'debug-disconnect';
    const summary = pending === 1
      ? l10n.t('{0} of {1} hubs connected. 1 request waits for you.', connected, hubs.length)
      : l10n.t('{0} of {1} hubs connected. {2} requests wait for you.', connected, hubs.length, pending);
    const tooltip = [summary];
    for (const hub of hubs) tooltip.push(l10n.t('{0}: {1}', hub.label, hubLine(hub).summary), ...hubNotes(hub));
    tooltip.push(...(this.alerts?.notes() ?? []));
    tooltip.push(overall === 'failed' ? l10n.t('Click for the reasons and a retry.') : l10n.t('Click to open the inbox.'));
    this.item.show({ icon, text: pending > 0 ? `${pending}` : l10n.t('AEP'), tooltip, accessibilityLabel: `${l10n.t('AEP Attention')}: ${summary}` });
  }
}

/** One hub as the status item shows it alone: its icon, its count, and its sentence. */
function hubLine(hub: Hub): { icon: string; text: string | undefined; summary: string } {
  const state = hub.state;
  const pending = hub.store.visibleCount;
  const name = hub.base ?? l10n.t('(invalid hub URL)');
  switch (state.kind) {
    case 'connecting':
      return { icon: 'sync~spin', text: l10n.t('AEP'), summary: l10n.t('Connecting to {0} (attempt {1})', name, state.attempt) };
    case 'connected':
      return {
        icon: pending > 0 ? 'bell-dot' : 'bell',
        text: pending > 0 ? `${pending}` : undefined,
        summary: pending === 1 ? l10n.t('Connected to {0}. 1 request waits for you.', name) : l10n.t('Connected to {0}. {1} requests wait for you.', name, pending),
      };
    case 'backing-off':
      return {
        icon: 'debug-disconnect',
        text: pending > 0 ? `${pending}` : l10n.t('AEP'),
        summary: l10n.t('Lost the hub at {0}: {1}. Retrying at {2}.', name, describeLost(state.lost), new Date(state.retryAt).toLocaleTimeString()),
      };
    case 'failed':
      return { icon: 'error', text: l10n.t('AEP'), summary: l10n.t('Cannot connect to {0}: {1}', name, describeFailure(state.failure)) };
    case 'disconnected':
    case 'idle':
      return { icon: 'debug-disconnect', text: l10n.t('AEP off'), summary: l10n.t('Disconnected from {0}.', name) };
  }
}

/** What a hub may be missing: replay gaps, and how it resumed. */
function hubNotes(hub: Hub): string[] {
  const notes: string[] = [];
  const gaps = hub.gaps;
  if (gaps.length > 0) {
    notes.push(
      l10n.t('Older requests may be missing: the hub no longer held {0} from where this window left off.', gaps.map((g) => sessionName(g.session)).join(', ')),
    );
  }
  const resume = hub.resumeNotice;
  if (resume) notes.push(resumeSentence(resume));
  return notes;
}

/** How this connection resumes, when it is less than everything missed, in the user's words. */
function resumeSentence(notice: ResumeNotice): string {
  switch (notice.code) {
    case 'no-replay-all':
      return l10n.t('This hub cannot replay everything it holds: a request raised while this window was disconnected, by an agent it had not seen, may be missing.');
    case 'left-out':
      return l10n.t('The hub resumes only {0} of {1} sessions from where this window left off; requests raised meanwhile in the others may be missing.', notice.resumed, notice.saved);
    case 'replay-all-cut-short':
      return l10n.t('The hub dropped the last {0} connections while replaying everything it holds, so this window resumes from where it left off; a request raised meanwhile by an agent it had not seen may be missing.', notice.connections);
    case 'subscription-refused':
      return l10n.t('The hub refused to resume from every saved position ({0}); this window asked again for less, so older requests may be missing.', notice.hubCode);
    case 'replay-all-unverifiable':
      return l10n.t('The hub replays only what it still holds and cannot tell whether it dropped requests raised while this window was away. A session it is seen to have dropped is named above.');
  }
}
