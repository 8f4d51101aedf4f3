/**
 * Whether an answer to a session can be delivered right now, as the hub's
 * roster says (AEP-0003 §4.1). The one home of the states: the host's
 * roster (src/client/rosterSnapshot.ts) decides them, the page's messages
 * carry them (src/shared/webviewMessages.ts), and `sendingBlockedBy` decides
 * once, for every surface, when nothing may be sent.
 */
export type Reachability =
  /** The hub does not offer a roster: reachability is unknown until a command is tried. */
  | { state: 'unknown' }
  | { state: 'unreachable' }
  /** Several live connections claim the session: the hub will refuse commands (AEP-0004 §4.5). */
  | { state: 'ambiguous'; claimants: number }
  /**
   * One claimant, but its `control.accepts` lacks `control.attention.respond`
   * (absent `control`: it accepts no commands). Its declaration is
   * authoritative (AEP-0003 §4.1, AEP-0004 §4.2): the hub or the agent would
   * refuse an answer as `unsupported`, so the user is told before sending.
   */
  | { state: 'not-accepting'; agent?: string; accepts: readonly string[] }
  | { state: 'reachable'; agent?: string; accepts: readonly string[]; ackWindowMs: number }
  /** The hub itself refuses every command (src/client/watchOnly.ts): whatever the roster says, nothing is sent. */
  | { state: 'watch-only' };

export type ReachabilityState = Reachability['state'];

/** Every state of `Reachability`, for the page's schema; a state missing here, or one it does not have, does not compile. */
export const REACHABILITY_STATES = ['unknown', 'unreachable', 'ambiguous', 'not-accepting', 'reachable', 'watch-only'] as const satisfies readonly ReachabilityState[];
const everyStateListed: Exclude<ReachabilityState, (typeof REACHABILITY_STATES)[number]> extends never ? true : false = true;
void everyStateListed;

/** Why nothing can be sent at all: a known refusal, so no surface offers to send (the page, the quick input, a notification's buttons). */
export type SendingBlock = Extract<ReachabilityState, 'not-accepting' | 'watch-only'>;
export function sendingBlockedBy(state: ReachabilityState): SendingBlock | undefined {
  return state === 'not-accepting' || state === 'watch-only' ? state : undefined;
}
