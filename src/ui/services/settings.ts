import * as vscode from 'vscode';
import { Disposable } from '../../base/disposable';
import { Emitter } from '../../base/emitter';
import type { Logger } from '../../base/logger';
import { readAllowInsecureRemote, readSettings as readFrom } from '../../app/hubs/readSettings';

export type { HubScopedSettings, NotificationMode, Settings } from '../../app/hubs/settings';
import type { Settings } from '../../app/hubs/settings';

const SECTION = 'aepAttention';

/** The user's allowInsecureRemote, or the workspace's once trusted (a restricted setting): what Connect checks a typed address against. */
export function allowInsecureRemote(): boolean {
  return readAllowInsecureRemote(vscode.workspace.getConfiguration(SECTION), vscode.workspace.isTrusted);
}

/** The settings from VS Code's configuration, each from the layer it may come from (app/hubs/readSettings.ts). */
function readSettings(environmentHub: string | undefined): Settings {
  return readFrom({
    window: vscode.workspace.getConfiguration(SECTION),
    folders: (vscode.workspace.workspaceFolders ?? []).map((folder) => ({ name: folder.name, scope: vscode.workspace.getConfiguration(SECTION, folder.uri) })),
    trusted: vscode.workspace.isTrusted,
    ...(environmentHub ? { environmentHub } : {}),
  });
}

/** The typed settings accessor: one read, one change event, reacting to `affectsConfiguration`. */
export class SettingsService extends Disposable {
  private current: Settings;
  private readonly changes = this._register(new Emitter<Settings>((error) => this.log.error(`listener failed: ${String(error)}`)));
  readonly onDidChange = this.changes.event;

  constructor(
    private readonly environmentHub: string | undefined,
    private readonly log: Logger,
  ) {
    super();
    this.current = readSettings(environmentHub);
    this._register(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration(SECTION)) this.refresh();
      }),
    );
    this._register(vscode.workspace.onDidGrantWorkspaceTrust(() => this.refresh()));
    // A folder added or removed may name a hub of its own.
    this._register(vscode.workspace.onDidChangeWorkspaceFolders(() => this.refresh()));
  }

  get value(): Settings {
    return this.current;
  }

  private refresh(): void {
    this.current = readSettings(this.environmentHub);
    this.changes.fire(this.current);
  }
}
