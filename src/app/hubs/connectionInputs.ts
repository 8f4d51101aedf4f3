// No `vscode` here: the decision is unit-tested as plain logic (test/unit/connectionInputs.test.ts).
import type { HubConfig } from './hubList';
import type { ToastPolicy } from '../../inbox/toastPolicy';
import type { HubScopedSettings, Settings } from './settings';

/**
 * The settings a hub client is made of (see HubConnection.startClient). The
 * token, the other input, is watched apart: it lives in secret storage.
 * The hub's label, source and folders only word what is shown; `notifications`,
 * `notificationMinSeverity` and `closeFormWhenResolved` are read where they
 * are used, each time, so they take effect without touching the connection.
 */
export type ConnectionInputs = Pick<HubConfig, 'hubUrl' | 'filter' | 'captureCeiling'> & Pick<Settings, 'senderName' | 'allowInsecureRemote' | 'beforeAsking'>;

/**
 * The window-wide settings one hub is reached and notified with. A hub from
 * the user's own `aepAttention.hubs` takes the user's values only: in a
 * trusted workspace the window's values may be the repository's, and a
 * repository must not be able to make the user's own hub take its token over
 * plain http, rename the sender of its answers, or silence it.
 */
export function hubSettings(hub: Pick<HubConfig, 'source'>, settings: Pick<Settings, 'user'> & HubScopedSettings): HubScopedSettings {
  if (hub.source === 'list') return settings.user;
  return { notifications: settings.notifications, senderName: settings.senderName, allowInsecureRemote: settings.allowInsecureRemote };
}

/** Which of a hub's requests this window shows a toast for (src/inbox/toastPolicy.ts); `hub` undefined: the window's own values. */
export function hubToastPolicy(hub: Pick<HubConfig, 'source'> | undefined, settings: Settings): ToastPolicy {
  const notifications = hub ? hubSettings(hub, settings).notifications : settings.notifications;
  return { notifications, minSeverity: settings.notificationMinSeverity };
}

/** What one hub's client is made of: its own address, filter and ceiling, and the sender name and TLS rule it is reached with (hubSettings). */
export function connectionInputs(hub: HubConfig, settings: Settings): ConnectionInputs {
  const scoped = hubSettings(hub, settings);
  return {
    hubUrl: hub.hubUrl,
    filter: hub.filter,
    captureCeiling: hub.captureCeiling,
    senderName: scoped.senderName,
    allowInsecureRemote: scoped.allowInsecureRemote,
    // The person's own (scope "application"), for every hub: it changes what is subscribed to.
    beforeAsking: settings.beforeAsking,
  };
}

/**
 * Whether a change of settings needs a new hub client. A rebuild disposes the
 * control sender with its pending commands: an answer already written is then
 * reported "not sent", and sending it again makes a new command id that the
 * agent may execute a second time (AEP-0004 §2.3 dedupes by id only). So only
 * a change of what the connection is made of rebuilds. The filter compares by
 * value, key order aside: settings.json rewritten with the same filter is the
 * same subscription.
 */
export function needsRebuild(before: ConnectionInputs, after: ConnectionInputs): boolean {
  return (
    before.hubUrl !== after.hubUrl ||
    before.captureCeiling !== after.captureCeiling ||
    before.senderName !== after.senderName ||
    before.allowInsecureRemote !== after.allowInsecureRemote ||
    before.beforeAsking !== after.beforeAsking ||
    !sameJson(before.filter, after.filter)
  );
}

/** JSON values equal by value, objects' key order aside. */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, index) => sameJson(item, b[index]));
  }
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const aKeys = Object.keys(a);
  const bRecord = b as Record<string, unknown>;
  const aRecord = a as Record<string, unknown>;
  return aKeys.length === Object.keys(b).length && aKeys.every((key) => Object.hasOwn(bRecord, key) && sameJson(aRecord[key], bRecord[key]));
}
