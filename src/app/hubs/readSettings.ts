// The settings read from what VS Code's configuration holds, in plain Node:
// which layer each setting is taken from decides whether a repository can
// point the extension at a hub, raise its capture ceiling or silence it
// (ui/services/settings.ts hands VS Code's configuration in; unit-tested in
// test/unit/readSettings.test.ts).
import { CAPTURE_LEVELS, SEVERITIES, type CaptureLevel, type Severity } from '../../aep/levels';
import { DEFAULT_HISTORY_LIMITS } from '../../history/answerHistory';
import { OS_NOTIFICATION_MODES, type OsNotificationMode } from '../../shared/alertMessages';
import { hubList, type NamedHub } from './hubList';
import type { NotificationMode, Settings } from './settings';

export const DEFAULT_SENDER_NAME = 'vscode-aep-attention';

/** One configuration scope as VS Code gives it (a `WorkspaceConfiguration` is one): each key's layers, and its effective value. */
export interface ConfigScope {
  inspect(key: string): { globalValue?: unknown; workspaceValue?: unknown; workspaceFolderValue?: unknown } | undefined;
  get(key: string): unknown;
}

/** What one read of the settings is made from. */
export interface SettingsSources {
  /** The window's scope. */
  window: ConfigScope;
  /** Each workspace folder's scope, in folder order. */
  folders: ReadonlyArray<{ name: string; scope: ConfigScope }>;
  /** Whether the person trusts the workspace (Restricted Mode when not). */
  trusted: boolean;
  /** The hub the environment names (AEP_HUB with AEP_TOKEN), for a window that names none. */
  environmentHub?: string;
}

/**
 * One configuration scope, each key inspected once however often a read asks
 * for it: an inspect costs the extension host up to a millisecond (activation's
 * largest part, in a profile of it), and a read asks several keys for both
 * their trusted and their user value. Values are unknown until the caller's
 * check: settings are typed by hand.
 */
class ScopeReader {
  private readonly inspected = new Map<string, ReturnType<ConfigScope['inspect']>>();

  constructor(
    readonly scope: ConfigScope,
    private readonly isTrusted: boolean,
  ) {}

  private inspect(key: string): ReturnType<ConfigScope['inspect']> {
    if (!this.inspected.has(key)) this.inspected.set(key, this.scope.inspect(key));
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
    if (this.isTrusted) {
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
export function readAllowInsecureRemote(window: ConfigScope, trusted: boolean): boolean {
  return new ScopeReader(window, trusted).trusted('allowInsecureRemote').value === true;
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

/** Every setting, each from the layer it may come from. */
export function readSettings(sources: SettingsSources): Settings {
  const window = new ScopeReader(sources.window, sources.trusted);
  const named = (sources.folders.length > 0
    ? sources.folders.map((folder) => namedHub(new ScopeReader(folder.scope, sources.trusted), folder.name))
    : [namedHub(window, undefined)]
  ).filter((hub): hub is NamedHub => hub !== undefined);
  // As before several hubs: the environment's hub stands in for a window that names none.
  if (named.length === 0 && sources.environmentHub) {
    named.push({ hubUrl: sources.environmentHub, source: 'environment', filter: filterValue(window.trusted('filter').value), captureCeiling: ceilingValue(window.trusted('captureCeiling').value) });
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
    closeFormWhenResolved: window.scope.get('closeFormWhenResolved') === true,
    // Local bookkeeping, not where traffic goes or what is sent: read as set (clamped), like closeFormWhenResolved.
    history: {
      maxEntries: wholeNumber(window.scope.get('history.maxEntries'), DEFAULT_HISTORY_LIMITS.maxEntries, 0, 5_000),
      maxAgeDays: wholeNumber(window.scope.get('history.maxAgeDays'), DEFAULT_HISTORY_LIMITS.maxAgeDays, 1, 3_650),
    },
    // The person's own, whatever a workspace says (scope "application"): how they are reached is theirs to choose.
    osNotifications: osNotificationMode(window.user('osNotifications')),
    sound: window.user('sound') === true,
    // The person's own too: what is subscribed to, and shown beside every request.
    beforeAsking: window.user('beforeAsking') !== false,
  };
}
