import { matchesFilter, type AttrFilter } from '../attrMatch';
import type { OutboundFrame, RosterEntry, SubscribeFrame } from '../frames';
import type { Logger } from './logger';

/**
 * After a reconnect the subscription resumes from saved positions, and
 * positions are per session (AEP-0003 §5): a session that began while this
 * client was away is named by none of them, so only its live tail would
 * arrive and a request it raised meanwhile would be lost. The roster names
 * the sessions that are live now; those the resume did not cover are replayed
 * once through a second, temporary subscription (`from: "all"` filtered to
 * them, §5 replay-all), which ends when a ping sent right after it is
 * answered. Whatever arrives twice is absorbed by dedupe.
 */
export class SessionCatchUp {
  /** Sessions the current connection's resume named; undefined when nothing needs catching up. */
  private covered: ReadonlySet<string> | undefined;
  /** Ping `t` values awaited, each closing one catch-up subscription. */
  private readonly closers = new Map<number, string>();
  private count = 0;
  private pingClock = 0;
  /** The ping that follows a replay of everything; its pong means that replay arrived whole. */
  private replayAllMark: number | undefined;
  private replayedAll = false;

  constructor(private readonly log: Logger) {}

  /**
   * Whether the next subscription should ask for everything the hub holds:
   * until one such replay has arrived whole. A connection lost in the middle
   * of it would otherwise resume from the positions of the sessions replayed
   * so far, and never see the others.
   */
  get wantsReplayAll(): boolean {
    return !this.replayedAll;
  }

  /** Sent right after a `from: "all"` subscription: its pong marks the replay complete. */
  replayAllSent(): OutboundFrame {
    const t = -++this.pingClock;
    this.replayAllMark = t;
    return { type: 'ping', t };
  }

  /** The main subscription was sent. A catch-up can only be needed when it resumed from positions and the hub replays "all" and answers roster requests. */
  subscribed(from: SubscribeFrame['from'], hubReplaysAll: boolean, hubHasRoster: boolean): void {
    this.closers.clear();
    this.replayAllMark = undefined;
    this.covered = Array.isArray(from) && hubReplaysAll && hubHasRoster ? new Set(from.map((position) => position.session)) : undefined;
    if (Array.isArray(from) && !(hubReplaysAll && hubHasRoster)) {
      this.log.info('this hub offers no replay of everything it holds, or no roster: a session that began while this client was disconnected shows only what it sends from now on');
    }
  }

  /** The first roster after resuming: frames that replay the sessions the resume missed (none when there are none). */
  onRoster(entries: readonly RosterEntry[], subscription: Omit<SubscribeFrame, 'type' | 'id' | 'from'>): OutboundFrame[] {
    const covered = this.covered;
    if (!covered) return [];
    this.covered = undefined;
    const sessionOnly: AttrFilter = subscription.filter['session'] === undefined ? {} : { session: subscription.filter['session'] };
    const missed = [...new Set(entries.map((entry) => entry.session))].filter((session) => !covered.has(session) && matchesFilter(sessionOnly, { session }));
    if (missed.length === 0) return [];
    const id = `catch-up-${++this.count}`;
    // A ping `t` of our own, apart from the keepalive pings' clock values.
    const t = -++this.pingClock;
    this.closers.set(t, id);
    this.log.info(`catching up on ${missed.length} session${missed.length === 1 ? '' : 's'} that began while this client was disconnected: ${missed.join(', ')}`);
    const subscribe: SubscribeFrame = { type: 'subscribe', id, filter: { ...subscription.filter, session: missed }, from: 'all' };
    if (subscription.capture) subscribe.capture = subscription.capture;
    return [subscribe, { type: 'ping', t }];
  }

  /** A pong: once the replay before it has arrived, the catch-up subscription is closed. */
  onPong(t: unknown): OutboundFrame | undefined {
    if (typeof t !== 'number') return undefined;
    if (t === this.replayAllMark) {
      this.replayAllMark = undefined;
      this.replayedAll = true;
      return undefined;
    }
    const id = this.closers.get(t);
    if (id === undefined) return undefined;
    this.closers.delete(t);
    return { type: 'unsubscribe', id };
  }

  /** Whether a frame's subscription id is one of ours (its `subscribed`, `unsubscribed` or `error`). */
  owns(id: string | undefined): boolean {
    return id !== undefined && id.startsWith('catch-up-');
  }
}
