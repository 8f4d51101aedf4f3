import * as z from 'zod/mini';

// The message protocol between the extension host and the notifications view
// (webview/alerts/main.ts): the sidebar webview that hands a request to the
// system's notifications (the browser `Notification` API) and plays the
// optional sound. Both sides validate what they receive with these schemas.

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

const id = z.string().check(z.minLength(1), z.maxLength(64));
const words = z.string().check(z.maxLength(400));

/** What the view shows about itself: the host's settings and whether the window has focus. */
const alertSettings = z.object({
  mode: z.enum(OS_NOTIFICATION_MODES),
  sound: z.boolean(),
  focused: z.boolean(),
});
export type AlertSettings = z.infer<typeof alertSettings>;

export const hostToAlertsSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('init'), settings: alertSettings, l10n: z.optional(z.record(z.string(), z.string())) }),
  z.object({ type: z.literal('settings'), settings: alertSettings }),
  /**
   * One burst of one agent's requests: the OS notification (text worded and
   * made plain by the host, src/words/osNotice.ts) and/or the sound.
   */
  z.object({
    type: z.literal('alert'),
    id,
    notice: z.optional(z.object({ title: words, body: words })),
    sound: z.boolean(),
  }),
  /** Its requests closed (answered, timed out, ended): the notification is taken back. */
  z.object({ type: z.literal('close'), id }),
  /**
   * The extension showed the view itself (issue 42): it says why in one
   * sentence, and with `ask` (the person chose Allow System Notifications
   * outside the view) asks the browser's permission if it has no answer yet.
   */
  z.object({ type: z.literal('opened'), ask: z.boolean() }),
]);
export type HostToAlerts = z.infer<typeof hostToAlertsSchema>;

export const alertsToHostSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready'), permission: z.enum(PERMISSION_STATES), sound: z.enum(SOUND_STATES) }),
  z.object({ type: z.literal('permission'), permission: z.enum(PERMISSION_STATES) }),
  z.object({ type: z.literal('sound'), sound: z.enum(SOUND_STATES) }),
  /** The notification was handed to the system (`shown`: its `show` event fired). */
  z.object({ type: z.literal('shown'), id }),
  /** The browser refused to construct it, or fired `error`. */
  z.object({ type: z.literal('failed'), id }),
  /** The person clicked it. */
  z.object({ type: z.literal('clicked'), id }),
]);
export type AlertsToHost = z.infer<typeof alertsToHostSchema>;
