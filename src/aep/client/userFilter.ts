import { validateFilter, type AttrFilter } from '../attrMatch';
import { parsedOk, parsedProblem, type Parsed } from '../result';

/** The event types the extension needs; the user's filter narrows them further. */
export const SUBSCRIBED_TYPES = ['attention.*', 'control.accepted', 'control.rejected', 'session.*'] as const;

/**
 * Validates the user's `filter` setting (an attr-match object, AEP-0003 §6)
 * and ANDs it with the types the extension subscribes to. `type` and
 * `severity` are refused: the first would fight the extension's own type
 * list (attr-match has one predicate per key), and the second would also hide
 * the acknowledgements of the user's own answers; the notification settings
 * decide what is loud.
 */
export function subscriptionFilter(userFilter: unknown): Parsed<AttrFilter> {
  if (userFilter === undefined || userFilter === null) return parsedOk({ type: [...SUBSCRIBED_TYPES] });
  const checked = validateFilter(userFilter);
  if (!checked.ok) return parsedProblem(`aepAttention.filter: ${checked.problem}`);
  for (const key of ['type', 'severity']) {
    if (Object.hasOwn(checked.value, key)) {
      return parsedProblem(
        key === 'type'
          ? 'aepAttention.filter may not name `type`: the extension chooses the event types it needs. Narrow by agent, session or source instead'
          : 'aepAttention.filter may not name `severity`: it would also hide the acknowledgements of your answers. Use aepAttention.notifications to choose what notifies you',
      );
    }
  }
  return parsedOk({ ...checked.value, type: [...SUBSCRIBED_TYPES] });
}
