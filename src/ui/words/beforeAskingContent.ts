import { epochOf, type AepEvent } from '../../aep/envelope';
import { ACTION_BOUNDS } from '../../aep/bounds';
import { comparePositions } from '../../inbox/position';
import type { ActionSummary, SessionActions } from '../../inbox/recentActions';
import type { PageAction, PageBeforeAsking } from '../../shared/beforeAsking';

function pageAction(action: Readonly<ActionSummary>): PageAction {
  return { kind: action.kind, name: action.name, at: action.at, capture: action.capture, args: action.args, outcome: action.outcome };
}

/**
 * "Before asking" for a request: its session's actions that come before it
 * in session order (AEP-0001 §7.3; time is display only), newest first, and
 * whether earlier ones may be missing. `kept`: what the inbox holds of the
 * session (Inbox.recentActions), undefined when it holds nothing.
 */
export function pageBeforeAsking(kept: SessionActions | undefined, requestEvent: Pick<AepEvent, 'seq' | 'epoch'>): PageBeforeAsking {
  const at = requestEvent.seq === undefined ? undefined : { epoch: epochOf(requestEvent), seq: requestEvent.seq };
  const before = (kept?.actions ?? []).filter((action) => at === undefined || action.position === undefined || comparePositions(action.position, at) < 0);
  const actions = before.slice(-ACTION_BOUNDS.perSession).reverse().map(pageAction);
  const earlier = kept === undefined ? 'not-available' : kept.dropped > 0 ? 'beyond-kept' : kept.sawStart ? 'complete' : 'not-available';
  const usage = kept?.usage;
  return {
    actions,
    earlier,
    ...(kept ? { since: kept.since } : {}),
    ...(usage && (usage.inputTokens !== undefined || usage.outputTokens !== undefined || usage.cost)
      ? {
          usage: {
            ...(usage.inputTokens !== undefined ? { inputTokens: usage.inputTokens } : {}),
            ...(usage.outputTokens !== undefined ? { outputTokens: usage.outputTokens } : {}),
            ...(usage.cost ? { cost: usage.cost } : {}),
          },
        }
      : {}),
  };
}
