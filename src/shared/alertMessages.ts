// The message protocol between the extension host and the notifications view
// (webview/alerts/main.ts): the sidebar webview that hands a request to the
// system's notifications (the browser `Notification` API) and plays the
// optional sound. Both sides check what they receive (alertChecks.ts).

export const OS_NOTIFICATION_MODES = ['whenUnfocused', 'always', 'off'] as const;
export type OsNotificationMode = (typeof OS_NOTIFICATION_MODES)[number];

/**
 * What the view found of the browser's permission: `unsupported` when the
 * webview has no `Notification` at all (some desktop builds refuse it to
 * webviews).
 */
export const PERMISSION_STATES = ['granted', 'denied', 'default', 'unsupported'] as const;
export type PermissionState = (typeof PERMISSION_STATES)[number];

/** Whether the view can play the sound: `blocked` until the person has clicked in it (the browser's autoplay rule). */
export const SOUND_STATES = ['ready', 'blocked', 'unsupported'] as const;
export type SoundState = (typeof SOUND_STATES)[number];

/** What the view shows about itself: the host's settings and whether the window has focus. */
export interface AlertSettings {
  mode: OsNotificationMode;
  sound: boolean;
  focused: boolean;
}

export type HostToAlerts =
  | { type: 'init'; settings: AlertSettings; l10n?: Record<string, string> }
  | { type: 'settings'; settings: AlertSettings }
  /**
   * One burst of one agent's requests: the OS notification (text worded and
   * made plain by the host, src/words/osNotice.ts) and/or the sound.
   */
  | { type: 'alert'; id: string; notice?: { title: string; body: string }; sound: boolean }
  /** Its requests closed (answered, timed out, ended): the notification is taken back. */
  | { type: 'close'; id: string }
  /**
   * The extension showed the view itself (issue 42): it says why in one
   * sentence, and with `ask` (the person chose Allow System Notifications
   * outside the view) asks the browser's permission if it has no answer yet.
   */
  | { type: 'opened'; ask: boolean };

export type AlertsToHost =
  | { type: 'ready'; permission: PermissionState; sound: SoundState }
  | { type: 'permission'; permission: PermissionState }
  | { type: 'sound'; sound: SoundState }
  /** The notification was handed to the system (`shown`: its `show` event fired). */
  | { type: 'shown'; id: string }
  /** The browser refused to construct it, or fired `error`. */
  | { type: 'failed'; id: string }
  /** The person clicked it. */
  | { type: 'clicked'; id: string };
