// No `vscode` here: when the extension offers, or takes by itself, the one
// step system notifications need in a window (issue 42). VS Code creates a
// webview view only when it shows it (there is no API to resolve one
// hidden), and the browser hands out its permission per origin, not per
// window: so a window needs its Notifications view shown once, and a profile
// needs the browser's permission once. Unit-tested in test/unit/osNoticeSetup.test.ts.
import type { OsNotificationMode, PermissionState } from './alertMessages';

/**
 * What to do now: nothing; offer the person one click ("Allow System
 * Notifications", which shows the view and asks the browser); or show the
 * view by itself, since the browser already allowed this profile and only
 * this window's view is missing (our own view, shown and left: nothing is
 * answered, nothing is asked).
 */
export type SetupStep = 'none' | 'offer' | 'open';

export interface SetupFacts {
  /** `aepAttention.osNotifications`: `off` means never offer, never open. */
  readonly mode: OsNotificationMode;
  /** The view of this window is resolved and has said what the browser allows. */
  readonly viewReady: boolean;
  /** What the view last said of the browser's permission (undefined before it is ready). */
  readonly permission: PermissionState | undefined;
  /** A view of this profile, in any window, saw the permission granted (and none has seen it taken back since). */
  readonly grantedInProfile: boolean;
  /**
   * A view of this profile saw the browser refuse (blocked, or no notifications at all) and none has seen
   * it granted or reset since: another window's offer would only be refused again, so none is made.
   */
  readonly refusedInProfile: boolean;
  /** This window already offered the click (once per window), or already opened the view by itself. */
  readonly doneInWindow: boolean;
  /** The person chose "Don't Ask Again" on an offer (for the profile). */
  readonly declined: boolean;
}

export function setupStep(facts: SetupFacts): SetupStep {
  if (facts.mode === 'off') return 'none';
  if (facts.viewReady) {
    // The view is there; only the browser's answer is missing. Refused or unsupported: the view and the tooltip say where to change it, we do not nag.
    return facts.permission === 'default' && !facts.doneInWindow && !facts.declined ? 'offer' : 'none';
  }
  if (facts.doneInWindow) return 'none';
  if (facts.grantedInProfile) return 'open';
  return facts.declined || facts.refusedInProfile ? 'none' : 'offer';
}

/**
 * Whether a request that wants a system notification now may show the view
 * by itself first: only when the person is not looking at this window (the
 * sidebar changing under their eyes is the one cost of showing it), or when
 * they asked for notifications even while looking (`always`).
 */
export function mayOpenFor(mode: OsNotificationMode, windowFocused: boolean): boolean {
  return mode === 'always' || (mode === 'whenUnfocused' && !windowFocused);
}
