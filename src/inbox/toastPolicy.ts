// Whether a window shows a request's toast: the one rule the window's own
// notifier follows and the other windows read from its focus marker (a window
// the person is looking at keeps the others' system notifications quiet only
// for what it actually shows them).
import { severityRank, type Severity } from '../aep/levels';

/** `aepAttention.notifications`: every request, forms only, or none. */
export type NotificationMode = 'all' | 'forms' | 'off';

export interface ToastPolicy {
  readonly notifications: NotificationMode;
  /** `aepAttention.notificationMinSeverity`. */
  readonly minSeverity: Severity;
}

/** What of a request the rule reads; a request that could not be read (no `request`) counts as a `notice`. */
export interface ToastSubject {
  readonly request?: { readonly kind: string; readonly severity: Severity } | undefined;
}

export function showsToast(policy: ToastPolicy, item: ToastSubject): boolean {
  if (policy.notifications === 'off') return false;
  if (policy.notifications === 'forms' && item.request?.kind !== 'form') return false;
  return severityRank(item.request?.severity ?? 'notice') >= severityRank(policy.minSeverity);
}
