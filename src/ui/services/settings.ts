import * as vscode from 'vscode';
import { CAPTURE_LEVELS, SEVERITIES, type CaptureLevel, type Severity } from '../../aep/levels';
import { DEFAULT_HISTORY_LIMITS } from '../../history/answerHistory';
import { OS_NOTIFICATION_MODES, type OsNotificationMode } from '../../shared/alertMessages';
import { Disposable } from '../../base/disposable';
import { isRecord } from '../../base/isRecord';
import { Emitter } from '../../base/emitter';
import type { Logger } from '../../base/logger';
import { hubList, type NamedHub } from '../../app/hubs/hubList';

export type { HubScopedSettings, NotificationMode, Settings } from '../../app/hubs/settings';
import type { NotificationMode, Settings } from '../../app/hubs/settings';

const SECTION = 'aepAttention';
export const DEFAULT_SENDER_NAME = 'vscode-aep-attention';

/**
 * In Restricted Mode only the user's own value counts for every setting that
 * changes where traffic goes, what reaches the user or what is sent (they are
 * all in `restrictedConfigurations`): a cloned repository must not be able to
 * point the extension, and the token, at a hub of its choosing, raise the
 * capture ceiling, silence notifications, or rename the sender of answers.
 */
function trustedValue<T>(inspected: Inspected<T>): { value: T | undefined; source: 'workspace' | 'user' } {
  if (vscode.workspace.isTrusted) {
    const workspaceValue = inspected.workspaceFolderValue ?? inspected.workspaceValue;
    if (workspaceValue !== undefined) return { value: workspaceValue, source: 'workspace' };
  }
  return { value: inspected.globalValue, source: 'user' };
}

/** The layers of a key read here, as `WorkspaceConfiguration.inspect` names them. */
type Inspected<T> = { readonly globalValue?: T; readonly workspaceValue?: T; readonly workspaceFolderValue?: T };

/** What one scope's configuration holds for a key of the section, by layer. */
type Inspect = <T>(key: string) => Inspected<T>;

/**
 * One scope's settings of the section, by layer, from one inspect of the
 * section itself. An inspect weighs every configuration layer: one of the
 * whole section costs about what one key's does, and the settings were read
 * at activation with fourteen, one per key. The layers hold the same values
 * as each key's own inspect.
 */
function sectionInspector(scope: vscode.Uri | undefined): Inspect {
  const section = vscode.workspace.getConfiguration(undefined, scope).inspect<unknown>(SECTION);
  // A layer that is not an object (a settings file's "aepAttention": 1) holds none of the section's keys.
  const layer = (value: unknown): Record<string, unknown> => (isRecord(value) ? value : {});
  const user = layer(section?.globalValue);
  const workspace = layer(section?.workspaceValue);
  const folder = layer(section?.workspaceFolderValue);
  return <T>(key: string) => ({ globalValue: user[key] as T, workspaceValue: workspace[key] as T, workspaceFolderValue: folder[key] as T });
}

/** The user's allowInsecureRemote, or the workspace's once trusted (a restricted setting): what Connect checks a typed address against. */
export function allowInsecureRemote(): boolean {
  return trustedValue(sectionInspector(undefined)<boolean>('allowInsecureRemote')).value === true;
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
function namedHub(inspect: Inspect, folder: string | undefined): NamedHub | undefined {
  const hub = trustedValue(inspect<string>('hubUrl'));
  const hubUrl = typeof hub.value === 'string' ? hub.value.trim() : '';
  if (!hubUrl) return undefined;
  return {
    hubUrl,
    source: folder !== undefined && hub.source === 'workspace' ? 'folder' : hub.source,
    ...(folder === undefined ? {} : { folder }),
    filter: filterValue(trustedValue(inspect('filter')).value),
    captureCeiling: ceilingValue(trustedValue(inspect('captureCeiling')).value),
  };
}

function readSettings(environmentHub: string | undefined): Settings {
  const config = vscode.workspace.getConfiguration(SECTION);
  const inspect = sectionInspector(undefined);
  const folders = vscode.workspace.workspaceFolders ?? [];
  const named = (folders.length > 0
    ? folders.map((folder) => namedHub(sectionInspector(folder.uri), folder.name))
    : [namedHub(inspect, undefined)]
  ).filter((hub): hub is NamedHub => hub !== undefined);
  // As before several hubs: the environment's hub stands in for a window that names none.
  if (named.length === 0 && environmentHub) {
    named.push({ hubUrl: environmentHub, source: 'environment', filter: filterValue(trustedValue(inspect('filter')).value), captureCeiling: ceilingValue(trustedValue(inspect('captureCeiling')).value) });
  }
  // The list is the user's own (scope "application"): a workspace can never add a hub to it.
  const list = hubList({
    named,
    list: inspect('hubs').globalValue,
    defaults: { filter: filterValue(inspect('filter').globalValue), captureCeiling: ceilingValue(inspect('captureCeiling').globalValue) },
  });
  const minSeverity = trustedValue(inspect<string>('notificationMinSeverity')).value;
  return {
    hubs: list.hubs,
    hubListProblems: list.problems,
    notifications: notificationMode(trustedValue(inspect('notifications')).value),
    notificationMinSeverity: (SEVERITIES as readonly string[]).includes(minSeverity ?? '') ? (minSeverity as Severity) : 'info',
    senderName: senderNameValue(trustedValue(inspect('senderName')).value),
    allowInsecureRemote: trustedValue(inspect('allowInsecureRemote')).value === true,
    user: {
      notifications: notificationMode(inspect('notifications').globalValue),
      senderName: senderNameValue(inspect('senderName').globalValue),
      allowInsecureRemote: inspect('allowInsecureRemote').globalValue === true,
    },
    closeFormWhenResolved: config.get<boolean>('closeFormWhenResolved') === true,
    // Local bookkeeping, not where traffic goes or what is sent: read as set (clamped), like closeFormWhenResolved.
    history: {
      maxEntries: wholeNumber(config.get<unknown>('history.maxEntries'), DEFAULT_HISTORY_LIMITS.maxEntries, 0, 5_000),
      maxAgeDays: wholeNumber(config.get<unknown>('history.maxAgeDays'), DEFAULT_HISTORY_LIMITS.maxAgeDays, 1, 3_650),
    },
    // The person's own, whatever a workspace says (scope "application"): how they are reached is theirs to choose.
    osNotifications: osNotificationMode(inspect('osNotifications').globalValue),
    sound: inspect('sound').globalValue === true,
    // The person's own too: what is subscribed to, and shown beside every request.
    beforeAsking: inspect('beforeAsking').globalValue !== false,
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
