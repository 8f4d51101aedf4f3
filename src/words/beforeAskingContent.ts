import { epochOf, type AepEvent } from '../aep/envelope';
import { ACTION_BOUNDS } from '../aep/bounds';
import { captureAtLeast, underCeiling, type CaptureLevel } from '../aep/levels';
import { redactText, type RedactionOptions } from '../aep/redaction';
import { comparePositions, type Position } from '../inbox/position';
import { plainHead, type ActionOutcome, type ActionSummary, type SessionActions, type ShownText } from '../inbox/recentActions';
import { pageActionSchema, pageBeforeAskingSchema, type PageAction, type PageBeforeAsking } from '../shared/beforeAsking';

/** What a request's view is built against: its place in the session, when it arrived, and how text is shown now. */
export interface BeforeAskingOptions {
  /** The pipeline's options (AlwaysSecretValues.redaction): the person's always-secret values and home. */
  redaction?: RedactionOptions;
}

/**
 * A kept free text as it may be shown now: under the ceiling now (it may have
 * been lowered since it was kept), and, when called redacted, through the
 * pipeline with the person's own values (the floor ran when it was kept).
 */
function textNow(shown: ShownText, capture: CaptureLevel, max: number, redaction: RedactionOptions | undefined): ShownText {
  if (shown.shown !== 'text') return shown;
  if (!captureAtLeast(capture, 'redacted')) return { shown: 'level' };
  if (shown.honesty === 'verbatim' && capture === 'full') return shown;
  const text = plainHead(redactText(shown.text, redaction).text, max);
  return { shown: 'text', honesty: 'redacted', text, chars: Math.max(shown.chars + text.length - shown.text.length, text.length) };
}

/**
 * An outcome as it may be shown now. Its short texts (status, error type,
 * reason, rule) are allowed at capture `metadata`, but are the agent's free
 * text all the same: they pass the redaction floor too.
 */
function outcomeNow(outcome: ActionOutcome, capture: CaptureLevel, redaction: RedactionOptions | undefined): ActionOutcome {
  const field = <K extends string>(key: K, text: string | undefined): Partial<Record<K, string>> =>
    text === undefined ? {} : ({ [key]: plainHead(redactText(text, redaction).text, ACTION_BOUNDS.name) } as Record<K, string>);
  switch (outcome.state) {
    case 'running':
      return outcome;
    case 'done':
      return { state: 'done', ...(outcome.durationMs !== undefined ? { durationMs: outcome.durationMs } : {}), ...field('status', outcome.status) };
    case 'failed':
      return {
        state: 'failed',
        ...(outcome.durationMs !== undefined ? { durationMs: outcome.durationMs } : {}),
        ...field('errorType', outcome.errorType),
        ...field('reason', outcome.reason),
        ...(outcome.message !== undefined ? { message: textNow(outcome.message, capture, ACTION_BOUNDS.message, redaction) } : {}),
      };
    case 'denied':
      return { state: 'denied', by: outcome.by, ...field('rule', outcome.rule) };
  }
}

function pageAction(action: Readonly<ActionSummary>, ceiling: CaptureLevel | undefined, redaction: RedactionOptions | undefined): PageAction {
  const capture = underCeiling(action.capture, ceiling);
  return {
    kind: action.kind, name: action.name, at: action.at, capture,
    args: textNow(action.args, capture, ACTION_BOUNDS.args, redaction),
    outcome: outcomeNow(action.outcome, capture, redaction),
  };
}

/**
 * Whether something of the session comes before the request: by session
 * order when both have a position (AEP-0001 §7.3; time is display only),
 * else by arrival here (when the request's is known).
 */
function comesBefore(position: Position | undefined, arrived: number | undefined, at: Position | undefined, receivedAt: number | undefined): boolean {
  if (position !== undefined && at !== undefined) return comparePositions(position, at) < 0;
  if (arrived !== undefined && receivedAt !== undefined) return arrived <= receivedAt;
  return true;
}

/**
 * The run's usage as of the request: the usage after the last step whose
 * events all come before it (recentActions.ts `usageSteps`). None when every
 * kept step holds some event after it (the step before was not kept): no
 * figure rather than one summed partly from after the request.
 */
function usageBefore(kept: SessionActions | undefined, at: Position | undefined, receivedAt: number | undefined): SessionActions['usage'] {
  if (kept === undefined) return undefined;
  const usageAt = kept.usageAt;
  if (usageAt === undefined || comesBefore(usageAt.position, usageAt.arrived, at, receivedAt)) return kept.usage;
  const steps = kept.usageSteps ?? [];
  for (let i = steps.length - 1; i >= 0; i--) {
    const step = steps[i];
    if (step && comesBefore(step.usageAt.position, step.usageAt.arrived, at, receivedAt)) return step.usage;
  }
  return undefined;
}

/**
 * In session order: the actions with a position sorted by it, in the places
 * such actions take in arrival order; those without one stay where they arrived.
 */
function inSessionOrder(actions: readonly Readonly<ActionSummary>[]): Readonly<ActionSummary>[] {
  const ordered = [...actions];
  const slots: number[] = [];
  const positioned: Array<{ action: Readonly<ActionSummary>; position: Position }> = [];
  actions.forEach((action, i) => {
    if (action.position === undefined) return;
    slots.push(i);
    positioned.push({ action, position: action.position });
  });
  positioned.sort((a, b) => comparePositions(a.position, b.position));
  slots.forEach((slot, k) => {
    const entry = positioned[k];
    if (entry) ordered[slot] = entry.action;
  });
  return ordered;
}

/**
 * "Before asking" for a request: its session's actions that come before it
 * in session order, newest first, and whether earlier ones may be missing.
 * `kept`: what the inbox holds of the session (Inbox.recentActions, with the
 * ceiling now), undefined when it holds nothing. `request.receivedAt`: when
 * the request arrived (AttentionItem.receivedAt), for what has no position.
 */
export function pageBeforeAsking(
  kept: SessionActions | undefined,
  request: Pick<AepEvent, 'seq' | 'epoch'> & { receivedAt?: number },
  options: BeforeAskingOptions = {},
): PageBeforeAsking {
  const at = request.seq === undefined ? undefined : { epoch: epochOf(request), seq: request.seq };
  const before = inSessionOrder((kept?.actions ?? []).filter((action) => comesBefore(action.position, action.arrived, at, request.receivedAt)));
  const actions = before.slice(-ACTION_BOUNDS.perSession).reverse().map((action) => pageAction(action, kept?.ceiling, options.redaction));
  const earlier = kept === undefined ? 'not-available' : kept.dropped > 0 ? 'beyond-kept' : kept.sawStart ? 'complete' : 'not-available';
  const usage = usageBefore(kept, at, request.receivedAt);
  return checkedView({
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
  });
}

/**
 * The view as the page's schema accepts it, whatever was kept: an action or
 * usage it would refuse is left out, never the page (the host refuses to post
 * a message that fails the schema, and the request would not render at all).
 */
function checkedView(view: PageBeforeAsking): PageBeforeAsking {
  if (pageBeforeAskingSchema.safeParse(view).success) return view;
  const { usage, ...rest } = view;
  const kept: PageBeforeAsking = { ...rest, actions: view.actions.filter((action) => pageActionSchema.safeParse(action).success) };
  const withUsage = usage ? { ...kept, usage } : kept;
  if (pageBeforeAskingSchema.safeParse(withUsage).success) return withUsage;
  if (pageBeforeAskingSchema.safeParse(kept).success) return kept;
  return { actions: [], earlier: 'not-available' };
}
