import * as vscode from 'vscode';
import type { AttentionItem } from '../../inbox/inbox';
import type { RedactionOptions } from '../../aep/redaction';
import { Disposable } from '../../base/disposable';
import { Emitter } from '../../base/emitter';
import type { Logger } from '../../base/logger';
import type { OnFirstNeed } from '../../base/onFirstNeed';
import type { Hub, Hubs } from '../../app/hubs/hubs';
import type { SettingsService } from '../services/settings';
import { onFirstNeed } from '../services/onDemand';
import type { AlertActions, OsNotifications } from './osNotifications';
import { ALERTS_VIEW_ID } from '../viewIds';

/** Shows the Notifications view and asks the browser's permission: the walkthrough's step, the palette, and the offer's click. */
export const ALLOW_COMMAND = 'aepAttention.allowSystemNotifications';

/**
 * The system notifications' host (osNotifications.ts) as activation holds it
 * (issue 40): the view and the command are registered now, the host itself is
 * loaded just after activation (`start`), without holding it up. What comes
 * before it is loaded waits for it, in order: the view VS Code resolves, a
 * request's alert, Connect's offer, Allow System Notifications. The status
 * tooltip has no note from it until then, and is told when it has.
 */
export class OsNotificationsOnDemand extends Disposable implements vscode.WebviewViewProvider {
  private readonly host: OnFirstNeed<OsNotifications>;
  private readonly changes = this._register(new Emitter<void>((error) => this.log.error(`listener failed: ${String(error)}`)));
  /** Fires when what `notes` says may have changed, and once the host is loaded. */
  readonly onDidChange = this.changes.event;

  constructor(
    extensionUri: vscode.Uri,
    hubs: Hubs,
    settings: SettingsService,
    private readonly log: Logger,
    actions: AlertActions,
    redaction: () => RedactionOptions,
    sharedDir: string | undefined,
    profile: vscode.Memento,
  ) {
    super();
    this.host = this._register(
      onFirstNeed('os-notifications', async () => {
        const { OsNotifications } = await import('./osNotifications');
        return () => {
          const host = new OsNotifications(extensionUri, hubs, settings, log, actions, redaction, sharedDir, profile);
          host.onDidChange(() => this.changes.fire());
          // The status tooltip has the host's note from now on, whichever need loaded it.
          queueMicrotask(() => this.changes.fire());
          return host;
        };
      }, log, (host) => host.dispose()),
    );
    this._register(vscode.commands.registerCommand(ALLOW_COMMAND, async () => (await this.host.get())?.allow()));
    this._register(vscode.window.registerWebviewViewProvider(ALERTS_VIEW_ID, this, { webviewOptions: { retainContextWhenHidden: true } }));
  }

  /** Begins loading the host; returns at once. */
  start(): void {
    void this.host.get();
  }

  async resolveWebviewView(view: vscode.WebviewView): Promise<void> {
    (await this.host.get())?.resolveWebviewView(view);
  }

  /** One agent's requests of one burst (notifier.ts), given by the host now or once it is loaded. */
  alert(items: ReadonlyArray<Readonly<AttentionItem>>, hub: string | undefined): void {
    const host = this.host.now;
    if (host) host.alert(items, hub);
    else void this.host.get().then((loaded) => loaded?.alert(items, hub));
  }

  /** Connect to Hub's last step (issue 42). */
  afterConnect(hub: Hub): void {
    void this.host.get().then((loaded) => loaded?.afterConnect(hub));
  }

  /** Paragraphs for the status tooltip; none before the host is loaded. */
  notes(): string[] {
    return this.host.now?.notes() ?? [];
  }
}
