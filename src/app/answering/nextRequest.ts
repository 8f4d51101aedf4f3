import { deadlinePassed, type AttentionItem } from '../../inbox/inbox';

/**
 * What Answer Next Request opens: a pending request that can be answered
 * here, the oldest still in time first, then the oldest past its deadline.
 * Those stay answerable, since the agent decides when a request ends
 * (AEP-0002 §7), but the agent may refuse the answer, so they come last.
 * A request whose agent takes no answers from editors (`notAccepting`, from
 * the roster) is skipped: its page could only say so.
 */
export function nextToAnswer<T extends Readonly<AttentionItem>>(
  items: readonly T[],
  now: number,
  notAccepting: (item: T) => boolean = () => false,
): T | undefined {
  return items
    .filter((item) => item.status === 'pending' && item.request?.answerableHere && !notAccepting(item))
    .sort((a, b) => Number(deadlinePassed(a, now)) - Number(deadlinePassed(b, now)) || a.receivedAt - b.receivedAt)[0];
}
