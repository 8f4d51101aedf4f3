// The settings' shape, apart from how VS Code reads them (settings.ts): what the
// application's core is handed, in plain Node.
import type { Severity } from '../../aep/levels';
import type { HistoryLimits } from '../../history/answerHistory';
import type { OsNotificationMode } from '../../shared/alertMessages';
import type { HubConfig } from './hubList';

export type { NotificationMode } from '../../inbox/toastPolicy';
import type { NotificationMode } from '../../inbox/toastPolicy';

/** Every setting of the extension, read in one place and typed. */
export interface Settings {
  /**
   * Every distinct hub this window connects to (hubList.ts): each workspace
   * folder's `hubUrl` and the user's `hubs` list. Empty: the extension stays idle.
   */
  hubs: HubConfig[];
  /** What was wrong with `aepAttention.hubs`, entry by entry. */
  hubListProblems: string[];
  notifications: NotificationMode;
  notificationMinSeverity: Severity;
  senderName: string;
  allowInsecureRemote: boolean;
  /** Close a request's form shortly after the agent resolves it, instead of leaving the read-only summary open. */
  closeFormWhenResolved: boolean;
  /** How much of the answer history is kept (answerHistory.ts). */
  history: HistoryLimits;
  /** When a request is also a system notification (src/ui/notifications/osNotifications.ts). */
  osNotifications: OsNotificationMode;
  /** A short sound when a request arrives while the window is in the background. */
  sound: boolean;
  /** Show what the agent did just before it asked ("Before asking"): subscribes to its tool calls and runs. */
  beforeAsking: boolean;
  /**
   * `notifications`, `senderName` and `allowInsecureRemote` as the user set
   * them, whatever the workspace says: what the hubs of the user's own list
   * are read with (connectionInputs.ts `hubSettings`). A repository may
   * loosen its own hubs once trusted, never a hub the user listed.
   */
  user: HubScopedSettings;
}

/** The window-wide settings a hub is reached and notified with (connectionInputs.ts `hubSettings` picks whose). */
export type HubScopedSettings = Pick<Settings, 'notifications' | 'senderName' | 'allowInsecureRemote'>;
