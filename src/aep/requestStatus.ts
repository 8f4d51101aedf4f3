/**
 * Where a request stands (AEP-0002 §7): open while `pending` or `answered`
 * (answered but not yet resolved is legal, transiently); closed by
 * `attention.resolved`, `attention.timeout` (`timed-out`), or its session ending.
 * The one list: the inbox's items, the page's messages and the History all
 * take their status from it.
 *
 * There is no `expired`: `expires_at` passing on this computer's clock closes
 * nothing. AEP-0002 §7 rule 2 makes the emitter's terminal
 * (`attention.timeout`, `attention.resolved`, or the `session.ended` it must
 * send after them) the end of a request. Our clock may be wrong and the agent
 * may still accept an answer, so a request past its deadline stays open and
 * answerable; the UI says the deadline has passed.
 */
export const ATTENTION_STATUSES = ['pending', 'answered', 'resolved', 'timed-out', 'session-ended'] as const;
export type AttentionStatus = (typeof ATTENTION_STATUSES)[number];

/** How a request ended: only the agent's lifecycle events close one (AEP-0002 §7). */
export type ClosedStatus = Exclude<AttentionStatus, 'pending' | 'answered'>;

export function isOpenStatus(status: AttentionStatus): status is Exclude<AttentionStatus, ClosedStatus> {
  return status === 'pending' || status === 'answered';
}
