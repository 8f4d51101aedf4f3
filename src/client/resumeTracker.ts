import type { ResumePosition, SubscribeFrame } from '../aep/frames';
import { DEFAULT_FROM_LIMIT, degradeAfterRefusal, planResume, type ResumePlan } from './resumePlan';

/**
 * How this connection resumes when it is not the whole story, as a code the
 * UI words (the log has the English): the person should know, without
 * reading the log, that requests raised while away may be missing.
 */
export type ResumeNotice =
  /** The hub offers no replay of everything: sessions begun while away are missed. */
  | { code: 'no-replay-all' }
  /** The hub takes fewer positions than were saved: only `resumed` of `saved` sessions resume. */
  | { code: 'left-out'; resumed: number; saved: number }
  /** The hub dropped this many replays of everything in a row: resuming from positions for now. */
  | { code: 'replay-all-cut-short'; connections: number }
  /** The hub refused the subscription (`hubCode`); the client asked again for less. */
  | { code: 'subscription-refused'; hubCode: string }
  /**
   * Resuming with a replay of everything the hub holds: it never says what it
   * dropped (AEP-0003 §5 rule 2). A session it dropped after where this client
   * stood is seen and reported as a gap (replayAllGaps.ts); one it dropped
   * whole, or one begun and dropped while this client was away, is not.
   */
  | { code: 'replay-all-unverifiable' };

/** Replays of everything cut short in a row before resuming from positions instead. */
export const REPLAY_ALL_TRIES = 3;

/**
 * What a client learns about resuming across its connections to one hub,
 * and the `from` each new main subscription asks with (resumePlan.ts holds
 * the pure rules). Every notice comes with a sentence for the log.
 */
export class ResumeTracker {
  /** Positions one `from` may name, lowered by each `limit-exceeded`; kept across reconnects. */
  private fromLimit = DEFAULT_FROM_LIMIT;
  /** The hub refused `from: "all"` although it advertised it: not asked again by this client. */
  private replayAllRefused = false;
  /** Said once per client: without replay-all, sessions begun while away are missed. */
  private missWarned = false;
  /**
   * Connections in a row that asked for everything the hub holds and were lost
   * early (within `stableMs`) or while behind on what the hub had sent. A hub
   * may legally drop a consumer that falls behind (AEP-0003 §8.4); one that
   * does so during every replay of everything would keep this client
   * replaying from the start forever, so after REPLAY_ALL_TRIES such losses
   * in a row it resumes from positions (which always advance) until a
   * connection lasts `stableMs`. Two quick network drops stay under it.
   */
  private replayAllCutShort = 0;
  /** When the current connection's replay of everything was asked for; undefined when it resumed otherwise. */
  private replayAllAskedAt: number | undefined;

  constructor(
    private readonly stableMs: number,
    /** `problem`: worth reporting as one; otherwise the state of a normal resume, for the log and the status. */
    private readonly notify: (notice: ResumeNotice, message: string, problem: boolean) => void,
  ) {}

  /**
   * The `from` of a connection's first main subscription. `hubReplaysAll`: the
   * hub's hello advertised `replay.all` (AEP-0003 §5). `resuming`: there was
   * an absence to resume from (saved positions, or an earlier connection).
   */
  plan(saved: readonly ResumePosition[], hubReplaysAll: boolean, resuming: boolean): SubscribeFrame['from'] {
    const plan = this.choose(saved, hubReplaysAll);
    this.announce(plan, saved.length, hubReplaysAll, resuming);
    return plan.from;
  }

  /**
   * The hub refused (`hubCode`, `why`) the main subscription that asked with
   * `refused`: the `from` to ask with next (AEP-0003 §6.5: the refusal leaves
   * the connection open, so ask again for less), or undefined when a
   * subscription without `from` was refused and only a reconnect is left.
   * Never a final failure: a hub's limits and authorisations change without
   * the settings changing.
   */
  replanAfterRefusal(
    refusal: { from: SubscribeFrame['from']; hubCode: string; why: string },
    saved: readonly ResumePosition[],
    hubReplaysAll: boolean,
    resuming: boolean,
  ): { from: SubscribeFrame['from'] } | undefined {
    const next = degradeAfterRefusal(refusal.from, { limit: this.fromLimit, replayAll: !this.replayAllRefused });
    if (!next) return undefined;
    this.fromLimit = next.limit;
    this.replayAllRefused = !next.replayAll;
    const plan = this.choose(saved, hubReplaysAll);
    this.notify(
      { code: 'subscription-refused', hubCode: refusal.hubCode },
      `${refusal.why}; subscribing again${describeFrom(plan.from) || ' without replay (live events only)'}`,
      true,
    );
    this.announce(plan, saved.length, hubReplaysAll, resuming);
    return { from: plan.from };
  }

  /** The connection ended; `behind`: with messages the hub had sent still unhandled. */
  connectionLost(behind: boolean): void {
    if (this.replayAllAskedAt === undefined) return;
    const early = Date.now() - this.replayAllAskedAt < this.stableMs;
    this.replayAllCutShort = behind || early ? this.replayAllCutShort + 1 : 0;
    this.replayAllAskedAt = undefined;
  }

  /** The connection has lasted `stableMs`. */
  connectionLasted(): void {
    // One that resumed from positions after replays were cut short: the next reconnect asks for everything again.
    if (this.replayAllAskedAt === undefined) this.replayAllCutShort = 0;
  }

  private choose(saved: readonly ResumePosition[], hubReplaysAll: boolean): ResumePlan & { cutOff: boolean } {
    const replaysAll = hubReplaysAll && !this.replayAllRefused;
    const cutOff = replaysAll && this.replayAllCutShort >= REPLAY_ALL_TRIES;
    const plan = planResume({ saved, replayAll: replaysAll && !cutOff, limit: this.fromLimit });
    this.replayAllAskedAt = plan.from === 'all' ? Date.now() : undefined;
    return { ...plan, cutOff };
  }

  private announce(plan: ResumePlan & { cutOff: boolean }, saved: number, hubReplaysAll: boolean, resuming: boolean): void {
    if (plan.cutOff) {
      this.notify(
        { code: 'replay-all-cut-short', connections: this.replayAllCutShort },
        `the hub dropped the last ${this.replayAllCutShort} connections while replaying everything it holds (it may drop consumers that fall behind); ` +
          'resuming from where this client left off instead, so a request raised meanwhile in a session it had not seen may be missed. ' +
          'Replay of everything is tried again once a connection lasts',
        true,
      );
    }
    this.reportLeftOut(plan, saved);
    if (!(hubReplaysAll && !this.replayAllRefused) && resuming) this.warnNoReplayAll();
    if (plan.from === 'all' && resuming) {
      this.notify(
        { code: 'replay-all-unverifiable' },
        'resuming with a replay of everything the hub holds, which never says what it no longer holds (AEP-0003 §5): a session it dropped after where this client left off is reported when its replay shows it; one it dropped whole cannot be seen',
        false,
      );
    }
  }

  private reportLeftOut(plan: ResumePlan, saved: number): void {
    if (plan.leftOut === 0) return;
    this.notify(
      { code: 'left-out', resumed: saved - plan.leftOut, saved },
      `resuming ${saved - plan.leftOut} of ${saved} sessions from where this client left off (the hub takes no more, and offers no replay of everything it holds); the other ${plan.leftOut} show only what they send from now on`,
      true,
    );
  }

  /**
   * Without replay-all a resume names only the sessions this client has seen
   * (AEP-0003 §7), and nothing in the protocol lists the others (the roster
   * holds live duplex claimants only, §4.1 rule 3): a request raised while
   * this client was away, in a session it had not seen, never arrives.
   */
  private warnNoReplayAll(): void {
    if (this.missWarned) return;
    this.missWarned = true;
    this.notify(
      { code: 'no-replay-all' },
      'this hub offers no replay of everything it holds (AEP-0003 §5 replay-all): a request raised while this client was disconnected, in a session it had not seen before, is missed; such a session shows only what it sends from now on',
      true,
    );
  }
}

/** How a subscription resumes, as log data: `replay` is `all`, `positions` (with how many) or `live`. */
export function fromData(from: SubscribeFrame['from']): { replay: 'all' | 'positions' | 'live'; positions: number } {
  if (from === 'all') return { replay: 'all', positions: 0 };
  return from && from.length > 0 ? { replay: 'positions', positions: from.length } : { replay: 'live', positions: 0 };
}

/** How a subscription resumes, for the log: "" when it asks for no replay. */
export function describeFrom(from: SubscribeFrame['from']): string {
  if (from === 'all') return ' with replay of everything held';
  return from && from.length > 0 ? ` from ${from.length} saved position${from.length === 1 ? '' : 's'}` : '';
}
