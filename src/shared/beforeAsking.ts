import * as z from 'zod/mini';
import { ACTION_BOUNDS, DENIED_BY } from '../aep/bounds';
import { CAPTURE_LEVELS } from '../aep/levels';

// "Before asking": the request's session's last actions before it asked, as
// the page shows them (built on the host from src/inbox/recentActions.ts by
// src/words/beforeAskingContent.ts, validated again by the page). Every
// string here is the agent's, already plain and bounded; the page sets each
// as a text node.

/** Actions shown at first; "show more" shows the rest, up to ACTION_BOUNDS.perSession. */
export const BEFORE_ASKING_FIRST = 10;

const name = z.string().check(z.maxLength(ACTION_BOUNDS.name));

/** What may be shown of a free-text part (recentActions.ts `ShownText`). */
const shownTextSchema = z.discriminatedUnion('shown', [
  /** Below the level the part needs (capture `metadata`): not shown, and the page says so. */
  z.object({ shown: z.literal('level') }),
  z.object({ shown: z.literal('none') }),
  z.object({ shown: z.literal('unseen') }),
  z.object({
    shown: z.literal('text'),
    honesty: z.enum(['redacted', 'verbatim']),
    text: z.string().check(z.maxLength(ACTION_BOUNDS.args)),
    /** The whole text's length: more than `text` when it was folded. */
    chars: z.number().check(z.int(), z.minimum(0)),
  }),
]);
export type PageShownText = z.infer<typeof shownTextSchema>;

const duration = z.optional(z.number().check(z.int(), z.minimum(0)));

const outcomeSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('running') }),
  z.object({ state: z.literal('done'), durationMs: duration, status: z.optional(name) }),
  z.object({ state: z.literal('failed'), durationMs: duration, errorType: z.optional(name), reason: z.optional(name), message: z.optional(shownTextSchema) }),
  z.object({ state: z.literal('denied'), by: z.enum([...DENIED_BY, 'other']), rule: z.optional(name) }),
]);
export type PageActionOutcome = z.infer<typeof outcomeSchema>;

export const pageActionSchema = z.object({
  kind: z.enum(['tool', 'run']),
  /** The tool's name; empty for a run. */
  name,
  /** When (epoch ms, from the event's `time`: display only). */
  at: z.number(),
  /** The level its arguments were read at: the event's, at most the person's ceiling. */
  capture: z.enum(CAPTURE_LEVELS),
  args: shownTextSchema,
  outcome: outcomeSchema,
});
export type PageAction = z.infer<typeof pageActionSchema>;

/**
 * Whether steps before the ones listed may be missing:
 * - `complete`: this window saw the session start, and kept every step since;
 * - `not-available`: it did not (it connected later, the hub replays nothing
 *   or not that far back, or what it kept was forgotten): `since` says from when it knows;
 * - `beyond-kept`: there were more than it keeps per session.
 */
export const EARLIER_STATES = ['complete', 'not-available', 'beyond-kept'] as const;

export const pageBeforeAskingSchema = z.object({
  /** Newest first, at most ACTION_BOUNDS.perSession. */
  actions: z.array(pageActionSchema).check(z.maxLength(ACTION_BOUNDS.perSession)),
  earlier: z.enum(EARLIER_STATES),
  /** When this window first heard of the session's actions (epoch ms); absent when it holds nothing of them. */
  since: z.optional(z.number()),
  /** The run's tokens and cost so far, as the agent reported them (AEP-0002 §5.2). */
  usage: z.optional(
    z.object({
      inputTokens: z.optional(z.number().check(z.int(), z.minimum(0))),
      outputTokens: z.optional(z.number().check(z.int(), z.minimum(0))),
      cost: z.optional(z.object({ currency: z.string().check(z.regex(/^[A-Z]{3}$/)), total: z.number().check(z.minimum(0)) })),
    }),
  ),
});
export type PageBeforeAsking = z.infer<typeof pageBeforeAskingSchema>;
