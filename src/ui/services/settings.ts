import * as vscode from 'vscode';
import { CAPTURE_LEVELS, SEVERITIES, type CaptureLevel, type Severity } from '../../aep/levels';
import { DEFAULT_HISTORY_LIMITS } from '../../history/answerHistory';
import { OS_NOTIFICATION_MODES, type OsNotificationMode } from '../../shared/alertMessages';
import { Disposable } from '../../base/disposable';
import { Emitter } from '../../base/emitter';
import type { Logger } from '../../base/logger';
import { hubList, type NamedHub } from '../../app/hubs/hubList';

export type { HubScopedSettings, NotificationMode, Settings } from '../../app/hubs/settings';
import type { NotificationMode, Settings } from '../../app/hubs/settings';

const SECTION = 'aepAttention';
export const DEFAULT_SENDER_NAME = 'vscode-aep-attention';

/**
 * One configuration scope (the window's, or a folder's), each key inspected
 * once however often a read asks for it: an inspect costs the extension host
 * up to a millisecond (activation's largest part, in a profile of it), and
 * a read asks several keys for both their trusted and their user value.
 * Values are unknown until the caller's check: settings are typed by hand.
 */
class ScopeReader {
  private readonly inspected = new Map<string, ReturnType<vscode.WorkspaceConfiguration['inspect']>>();

  constructor(readonly config: vscode.WorkspaceConfiguration) {}

  private inspect(key: string): ReturnType<vscode.WorkspaceConfiguration['inspect']> {
    if (!this.inspected.has(key)) this.inspected.set(key, this.config.inspect(key));
    return this.inspected.get(key);
  }

  /**
   * In Restricted Mode only the user's own value counts for every setting that
   * changes where traffic goes, what reaches the user or what is sent (they are
   * all in `restrictedConfigurations`): a cloned repository must not be able to
   * point the extension, and the token, at a hub of its choosing, raise the
   * capture ceiling, silence notifications, or rename the sender of answers.
   */
  trusted(key: string): { value: unknown; source: 'workspace' | 'user' } {
    const inspected = this.inspect(key);
    if (vscode.workspace.isTrusted) {
      const workspaceValue = inspected?.workspaceFolderValue ?? inspected?.workspaceValue;
      if (workspaceValue !== undefined) return { value: workspaceValue, source: 'workspace' };
    }
    return { value: inspected?.globalValue, source: 'user' };
  }

  /** The user's own value, whatever a workspace says. */
  user(key: string): unknown {
    return this.inspect(key)?.globalValue;
  }
}

/** The user's allowInsecureRemote, or the workspace's once trusted (a restricted setting): what Connect checks a typed address against. */
export function allowInsecureRemote(): boolean {
  return new ScopeReader(vscode.workspace.getConfiguration(SECTION)).trusted('allowInsecureRemote').value === true;
}

function wholeNumber(value: unknown, fallback: number, min: number, max: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? Math.min(max, Math.max(min, Math.floor(value))) : fallback;
}

function filterValue(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function ceilingValue(value: unknown): CaptureLevel | undefined {
  return (CAPTURE_LEVELS as readonly unknown[]).includes(value) ? (value as CaptureLevel) : undefined;
}

function notificationMode(value: unknown): NotificationMode {
  return value === 'forms' || value === 'off' ? value : 'all';
}

function osNotificationMode(value: unknown): OsNotificationMode {
  return (OS_NOTIFICATION_MODES as readonly unknown[]).includes(value) ? (value as OsNotificationMode) : 'whenUnfocused';
}

function senderNameValue(value: unknown): string {
  return typeof value === 'string' && /^[A-Za-z0-9._-]{1,64}$/.test(value.trim()) ? value.trim() : DEFAULT_SENDER_NAME;
}

/** The hub one configuration scope names (a folder's, or the window's when it has none), if any. */
function namedHub(scope: ScopeReader, folder: string | undefined): NamedHub | undefined {
  const hub = scope.trusted('hubUrl');
  const hubUrl = typeof hub.value === 'string' ? hub.value.trim() : '';
  if (!hubUrl) return undefined;
  return {
    hubUrl,
    source: folder !== undefined && hub.source === 'workspace' ? 'folder' : hub.source,
    ...(folder === undefined ? {} : { folder }),
    filter: filterValue(scope.trusted('filter').value),
    captureCeiling: ceilingValue(scope.trusted('captureCeiling').value),
  };
}

function readSettings(environmentHub: string | undefined): Settings {
  const window = new ScopeReader(vscode.workspace.getConfiguration(SECTION));
  const config = window.config;
  const folders = vscode.workspace.workspaceFolders ?? [];
  const named = (folders.length > 0
    ? folders.map((folder) => namedHub(new ScopeReader(vscode.workspace.getConfiguration(SECTION, folder.uri)), folder.name))
    : [namedHub(window, undefined)]
  ).filter((hub): hub is NamedHub => hub !== undefined);
  // As before several hubs: the environment's hub stands in for a window that names none.
  if (named.length === 0 && environmentHub) {
    named.push({ hubUrl: environmentHub, source: 'environment', filter: filterValue(window.trusted('filter').value), captureCeiling: ceilingValue(window.trusted('captureCeiling').value) });
  }
  // The list is the user's own (scope "application"): a workspace can never add a hub to it.
  const list = hubList({
    named,
    list: window.user('hubs'),
    defaults: { filter: filterValue(window.user('filter')), captureCeiling: ceilingValue(window.user('captureCeiling')) },
  });
  const minSeverity = window.trusted('notificationMinSeverity').value;
  return {
    hubs: list.hubs,
    hubListProblems: list.problems,
    notifications: notificationMode(window.trusted('notifications').value),
    notificationMinSeverity: (SEVERITIES as readonly unknown[]).includes(minSeverity) ? (minSeverity as Severity) : 'info',
    senderName: senderNameValue(window.trusted('senderName').value),
    allowInsecureRemote: window.trusted('allowInsecureRemote').value === true,
    user: {
      notifications: notificationMode(window.user('notifications')),
      senderName: senderNameValue(window.user('senderName')),
      allowInsecureRemote: window.user('allowInsecureRemote') === true,
    },
    closeFormWhenResolved: config.get<boolean>('closeFormWhenResolved') === true,
    // Local bookkeeping, not where traffic goes or what is sent: read as set (clamped), like closeFormWhenResolved.
    history: {
      maxEntries: wholeNumber(config.get<unknown>('history.maxEntries'), DEFAULT_HISTORY_LIMITS.maxEntries, 0, 5_000),
      maxAgeDays: wholeNumber(config.get<unknown>('history.maxAgeDays'), DEFAULT_HISTORY_LIMITS.maxAgeDays, 1, 3_650),
    },
    // The person's own, whatever a workspace says (scope "application"): how they are reached is theirs to choose.
    osNotifications: osNotificationMode(window.user('osNotifications')),
    sound: window.user('sound') === true,
    // The person's own too: what is subscribed to, and shown beside every request.
    beforeAsking: window.user('beforeAsking') !== false,
  };
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
