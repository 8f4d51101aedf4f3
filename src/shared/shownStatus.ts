// What a request's state is, as every surface shows it: the inbox row, the
// request page's status line and the quick input's "closed before you
// answered". One model, so the surfaces cannot drift apart; each words it
// with its own `t`. No imports beyond types: the page and the host both
// build it, from the inbox's status (AEP-0002 §7: only the agent's
// lifecycle events move it) and what each knows of its own answer.
import type { STATUSES } from './webviewMessages';

export type RequestStatus = (typeof STATUSES)[number];

/**
 * An answer from here, as far as the surface asking knows: none, one on its
 * way whose outcome is not known yet, or one the agent accepted.
 */
export type OurAnswer = 'none' | 'in-flight' | 'accepted';

export type ShownStatus =
  /** Open. `deadline` is `expires_at` against this computer's clock: past it the request is still answerable. */
  | { kind: 'open'; deadline: 'none' | 'ahead' | 'passed' }
  /** The agent recorded an answer (`attention.answered`) and has not resolved yet. */
  | { kind: 'answered'; by: AnsweredBy }
  | { kind: 'resolved'; by: AnsweredBy; resolution: string | undefined }
  | { kind: 'timed-out' }
  | { kind: 'session-ended' };

/**
 * `here`: the answer accepted was ours. `elsewhere`: another window, or the
 * agent's own prompt. `unknown`: ours is still in flight, and its outcome
 * decides (it arrives after, and the surface asks again).
 */
export type AnsweredBy = 'here' | 'elsewhere' | 'unknown';

export function shownStatus(
  status: RequestStatus,
  facts: { resolution?: string | undefined; deadlinePassed?: boolean | undefined; hasDeadline?: boolean | undefined; ours?: OurAnswer | undefined },
): ShownStatus {
  const ours = facts.ours ?? 'none';
  const by: AnsweredBy = ours === 'accepted' ? 'here' : ours === 'in-flight' ? 'unknown' : 'elsewhere';
  switch (status) {
    case 'pending':
      return { kind: 'open', deadline: facts.hasDeadline ? (facts.deadlinePassed ? 'passed' : 'ahead') : 'none' };
    case 'answered':
      return { kind: 'answered', by };
    case 'resolved':
      return { kind: 'resolved', by, resolution: facts.resolution };
    case 'timed-out':
      return { kind: 'timed-out' };
    case 'session-ended':
      return { kind: 'session-ended' };
  }
}

/**
 * The one word for a state, as the page's `data-status` carries it (tests and
 * styles read it): `answered-elsewhere` whenever someone else's answer ended
 * the request, whether the agent has resolved it yet or not.
 */
export function statusKey(shown: ShownStatus): string {
  switch (shown.kind) {
    case 'open':
      return 'pending';
    case 'answered':
    case 'resolved':
      return shown.by === 'elsewhere' ? 'answered-elsewhere' : shown.kind;
    default:
      return shown.kind;
  }
}

/** Whether nothing more can be sent: anything but an open request. */
export function isClosed(shown: ShownStatus): boolean {
  return shown.kind !== 'open';
}
