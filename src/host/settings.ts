import * as vscode from 'vscode';
import { CAPTURE_LEVELS, SEVERITIES, type CaptureLevel, type Severity } from '../aep/levels';
import { Disposable } from './disposable';

export type NotificationMode = 'all' | 'forms' | 'off';

/** Every setting of the extension, read in one place and typed. */
export interface Settings {
  /** Empty when no hub is configured: the extension stays idle. */
  hubUrl: string;
  /** Where the value came from, for messages ("set in this workspace"). */
  hubUrlSource: 'workspace' | 'user' | 'environment' | 'none';
  filter: Record<string, unknown> | undefined;
  captureCeiling: CaptureLevel | undefined;
  notifications: NotificationMode;
  notificationMinSeverity: Severity;
  senderName: string;
  allowInsecureRemote: boolean;
  /** Close a request's form shortly after the agent resolves it, instead of leaving the read-only summary open. */
  closeFormWhenResolved: boolean;
}

const SECTION = 'aepAttention';
export const DEFAULT_SENDER_NAME = 'vscode-aep-attention';

/**
 * In Restricted Mode only the user's own value counts for every setting that
 * changes where traffic goes, what reaches the user or what is sent (they are
 * all in `restrictedConfigurations`): a cloned repository must not be able to
 * point the extension, and the token, at a hub of its choosing, raise the
 * capture ceiling, silence notifications, or rename the sender of answers.
 */
function trustedValue<T>(config: vscode.WorkspaceConfiguration, key: string): { value: T | undefined; source: 'workspace' | 'user' } {
  const inspected = config.inspect<T>(key);
  if (vscode.workspace.isTrusted) {
    const workspaceValue = inspected?.workspaceFolderValue ?? inspected?.workspaceValue;
    if (workspaceValue !== undefined) return { value: workspaceValue, source: 'workspace' };
  }
  return { value: inspected?.globalValue, source: 'user' };
}

function readSettings(environmentHub: string | undefined): Settings {
  const config = vscode.workspace.getConfiguration(SECTION);
  const hub = trustedValue<string>(config, 'hubUrl');
  const configuredHub = typeof hub.value === 'string' ? hub.value.trim() : '';
  const filter = trustedValue<unknown>(config, 'filter').value;
  const ceiling = trustedValue<string>(config, 'captureCeiling').value;
  const notifications = trustedValue<string>(config, 'notifications').value;
  const minSeverity = trustedValue<string>(config, 'notificationMinSeverity').value;
  const rawSenderName = trustedValue<string>(config, 'senderName').value;
  const senderName = typeof rawSenderName === 'string' && /^[A-Za-z0-9._-]{1,64}$/.test(rawSenderName.trim()) ? rawSenderName.trim() : undefined;
  return {
    hubUrl: configuredHub || environmentHub || '',
    hubUrlSource: configuredHub ? hub.source : environmentHub ? 'environment' : 'none',
    filter: typeof filter === 'object' && filter !== null && !Array.isArray(filter) ? (filter as Record<string, unknown>) : undefined,
    captureCeiling: (CAPTURE_LEVELS as readonly string[]).includes(ceiling ?? '') ? (ceiling as CaptureLevel) : undefined,
    notifications: notifications === 'forms' || notifications === 'off' ? notifications : 'all',
    notificationMinSeverity: (SEVERITIES as readonly string[]).includes(minSeverity ?? '') ? (minSeverity as Severity) : 'info',
    senderName: senderName || DEFAULT_SENDER_NAME,
    allowInsecureRemote: trustedValue<boolean>(config, 'allowInsecureRemote').value === true,
    closeFormWhenResolved: config.get<boolean>('closeFormWhenResolved') === true,
  };
}

/** The typed settings accessor: one read, one change event, reacting to `affectsConfiguration`. */
export class SettingsService extends Disposable {
  private current: Settings;
  private readonly changes = this._register(new vscode.EventEmitter<Settings>());
  readonly onDidChange = this.changes.event;

  constructor(private readonly environmentHub: string | undefined) {
    super();
    this.current = readSettings(environmentHub);
    this._register(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration(SECTION)) this.refresh();
      }),
    );
    this._register(vscode.workspace.onDidGrantWorkspaceTrust(() => this.refresh()));
  }

  get value(): Settings {
    return this.current;
  }

  private refresh(): void {
    this.current = readSettings(this.environmentHub);
    this.changes.fire(this.current);
  }
}
