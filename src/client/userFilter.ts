import { unsatisfiablePredicate, validateFilter, type AttrFilter } from '../aep/attrMatch';
import { ACCEPTED_TYPE, REJECTED_TYPE } from '../aep/control';
import { ACTION_TYPES } from '../inbox/recentActions';

/** The event types the extension needs; the user's filter narrows them further. */
export const SUBSCRIBED_TYPES = ['attention.*', ACCEPTED_TYPE, REJECTED_TYPE, 'session.*'] as const;

/**
 * The types of the main subscription: with "Before asking" on
 * (`aepAttention.beforeAsking`), also the agent's tool calls and runs
 * (src/inbox/recentActions.ts `ACTION_TYPES`).
 */
export function subscribedTypes(beforeAsking: boolean): string[] {
  return beforeAsking ? [...SUBSCRIBED_TYPES, ...ACTION_TYPES] : [...SUBSCRIBED_TYPES];
}

/** The acknowledgements of commands (AEP-0004 §3), whatever the user's filter says. */
export const ACK_TYPES = [ACCEPTED_TYPE, REJECTED_TYPE] as const;

/**
 * Why `aepAttention.filter` cannot be used, as a code the UI words.
 * `detail` is attr-match's own sentence (src/aep/attrMatch.ts), the same the
 * local hub sends with `invalid-filter`.
 */
export type FilterProblem =
  | { code: 'invalid'; detail: string }
  | { code: 'matches-nothing'; detail: string }
  /** Names `type`: the extension chooses the event types it needs. */
  | { code: 'names-type' }
  /** Names `severity`: the notification settings are for that. */
  | { code: 'names-severity' };

export type FilterResult = { ok: true; value: AttrFilter } | { ok: false; problem: FilterProblem };

export function filterProblemText(problem: FilterProblem): string {
  switch (problem.code) {
    case 'invalid':
    case 'matches-nothing':
      return `aepAttention.filter: ${problem.detail}`;
    case 'names-type':
      return 'aepAttention.filter may not name `type`: the extension chooses the event types it needs. Narrow by agent, session or source instead';
    case 'names-severity':
      return 'aepAttention.filter may not name `severity`: use aepAttention.notifications and aepAttention.notificationMinSeverity to choose what notifies you';
  }
}

/**
 * Validates the user's `filter` setting (an attr-match object, AEP-0003 §6)
 * and ANDs it with the types the extension subscribes to. `type` and
 * `severity` are refused: the first would fight the extension's own type
 * list (attr-match has one predicate per key), and the second is what the
 * notification settings are for. The acknowledgements of the user's own
 * answers do not depend on this filter: see `ackSubscriptionFilter`.
 */
export function subscriptionFilter(userFilter: unknown, beforeAsking = false): FilterResult {
  const types = subscribedTypes(beforeAsking);
  if (userFilter === undefined || userFilter === null) return { ok: true, value: { type: types } };
  const checked = validateFilter(userFilter);
  if (!checked.ok) return { ok: false, problem: { code: 'invalid', detail: checked.problem } };
  // A hub subscribes to it and delivers nothing (AEP-0003 §6.1 grammar); a person wants to hear why.
  const never = unsatisfiablePredicate(checked.value);
  if (never !== undefined) return { ok: false, problem: { code: 'matches-nothing', detail: never } };
  if (Object.hasOwn(checked.value, 'type')) return { ok: false, problem: { code: 'names-type' } };
  if (Object.hasOwn(checked.value, 'severity')) return { ok: false, problem: { code: 'names-severity' } };
  return { ok: true, value: { ...checked.value, type: types } };
}

/**
 * The filter of the second subscription that carries acknowledgements, or
 * undefined when the main subscription (`main`, from `subscriptionFilter`)
 * already matches every one of them. Any other key the user's filter adds
 * (`capture`, `run`, `subject`, an extension key, even `session` or `agent`)
 * can drop the `control.accepted` / `control.rejected` an agent sends for an
 * answer, and the answer would then "time out" although the agent took it.
 *
 * All acks, not only those of the sessions answered here: narrowing by
 * `session` would need a new subscription, and its confirmation, before each
 * answer to a session not yet named, or an ack could pass unseen. Acks are
 * small and rare; the control sender settles only its own (by `cause`, from
 * the addressed target, AEP-0004 §4.5) and the inbox drops the copy that
 * arrives on both subscriptions.
 */
export function ackSubscriptionFilter(main: AttrFilter): AttrFilter | undefined {
  return Object.keys(main).every((key) => key === 'type') ? undefined : { type: [...ACK_TYPES] };
}
