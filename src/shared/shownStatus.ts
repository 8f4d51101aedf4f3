// What a request's state is, as every surface shows it: the inbox row, the
// request page's status line and the quick input's "closed before you
// answered". One model, so the surfaces cannot drift apart; each words it
// with its own `t`. No imports beyond types: the page and the host both
// build it, from the inbox's status (AEP-0002 §7: only the agent's
// lifecycle events move it) and what each knows of its own answer.
import type { AttentionStatus } from '../aep/requestStatus';
import type { RECORDED_VERDICTS } from './webviewMessages';

/** What the agent recorded against what was sent from here (src/inbox/recordedAnswer.ts decides it). */
export type RecordedVerdict = (typeof RECORDED_VERDICTS)[number];

/**
 * An answer from here, as far as the surface asking knows: none, one on its
 * way whose outcome is not known yet, or one the agent accepted.
 */
export type OurAnswer = 'none' | 'in-flight' | 'accepted';

export type ShownStatus =
  /** Open. `deadline` is `expires_at` against this computer's clock: past it the request is still answerable. */
  | { kind: 'open'; deadline: 'none' | 'ahead' | 'passed' }
  /**
   * The agent recorded an answer (`attention.answered`) and has not resolved yet. `differs`: the answer it
   * recorded (what it applied, AEP-0002 §5.3) is not the one sent from here, or not as it was sent.
   */
  | { kind: 'answered'; by: AnsweredBy; differs?: true }
  | { kind: 'resolved'; by: AnsweredBy; resolution: string | undefined; differs?: true }
  /** The agent closed it and no answer was recorded, from anyone: never "answered" (an ack is not an outcome, AEP-0004 §1). */
  | { kind: 'unanswered'; ending: Exclude<ResolutionEnding, 'answered'>; resolution: string }
  | { kind: 'timed-out' }
  | { kind: 'session-ended' };

/**
 * `here`: the answer accepted was ours. `elsewhere`: another window, or the
 * agent's own prompt. `unknown`: ours is still in flight, and its outcome
 * decides (it arrives after, and the surface asks again).
 */
export type AnsweredBy = 'here' | 'elsewhere' | 'unknown';

/**
 * How `attention.resolved` says it ended (AEP-0002 §5.3: `answered | auto | dismissed`); a value from
 * elsewhere (`cancelled`) is `other`, shown as the agent wrote it.
 */
export type ResolutionEnding = 'answered' | 'auto' | 'dismissed' | 'other';
export function resolutionEnding(resolution: string): ResolutionEnding {
  return resolution === 'answered' || resolution === 'auto' || resolution === 'dismissed' ? resolution : 'other';
}

/**
 * `recorded`: what the agent recorded, when the surface knows it. It outranks this surface's own
 * answer: an accepted answer is one the agent will try (AEP-0004 §1), the record is what it applied.
 */
export function shownStatus(
  status: AttentionStatus,
  facts: { resolution?: string | undefined; deadlinePassed?: boolean | undefined; hasDeadline?: boolean | undefined; ours?: OurAnswer | undefined; recorded?: RecordedVerdict | undefined },
): ShownStatus {
  const ours = facts.ours ?? 'none';
  const { recorded } = facts;
  // `unconfirmed` is ours too: only text the record withholds or masks is not known to match (the page shows the record).
  const by: AnsweredBy = recorded === 'elsewhere' ? 'elsewhere' : recorded === 'as-sent' || recorded === 'differs' || recorded === 'unconfirmed' ? 'here'
    : ours === 'accepted' ? 'here' : ours === 'in-flight' ? 'unknown' : 'elsewhere';
  const differs = recorded === 'differs' ? { differs: true as const } : {};
  switch (status) {
    case 'pending':
      return { kind: 'open', deadline: facts.hasDeadline ? (facts.deadlinePassed ? 'passed' : 'ahead') : 'none' };
    case 'answered':
      return { kind: 'answered', by, ...differs };
    case 'resolved': {
      const ending = facts.resolution === undefined ? undefined : resolutionEnding(facts.resolution);
      if (recorded === 'none' && facts.resolution !== undefined && ending !== undefined && ending !== 'answered') {
        return { kind: 'unanswered', ending, resolution: facts.resolution };
      }
      return { kind: 'resolved', by, resolution: facts.resolution, ...differs };
    }
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
      return shown.by === 'elsewhere' ? 'answered-elsewhere' : shown.differs ? 'recorded-differs' : shown.kind;
    case 'unanswered':
      return 'resolved-unanswered';
    default:
      return shown.kind;
  }
}

/** Whether nothing more can be sent: anything but an open request. */
export function isClosed(shown: ShownStatus): boolean {
  return shown.kind !== 'open';
}
