import { DEFAULT_ACK_WINDOW_MS, RESPOND_TYPE } from '../aep/control';
import type { RosterEntry } from '../aep/frames';
import { silentLogger, type Logger } from '../base/logger';

import type { Reachability } from '../aep/reachability';

export type { Reachability } from '../aep/reachability';

/**
 * The ack windows this client will wait, whatever a target declares
 * (AEP-0004 §3 leaves the value to the target, and a declared window is the
 * target's promise). Under a second, a healthy answer would time out on an
 * ordinary network round trip. An agent that asks a person and then runs a
 * long step before it acks may declare many minutes, and timing it out inside
 * its own window reads "no acknowledgement" for an answer still on time, so
 * every window up to an hour is honoured. Past an hour, the answer would sit
 * unsettled for longer than a person waits at the page, and a hostile value
 * (days, years) would hold it forever.
 */
export const MIN_ACK_WINDOW_MS = 1_000;
export const MAX_ACK_WINDOW_MS = 60 * 60_000;

export function clampAckWindow(declared: number): number {
  return Math.min(MAX_ACK_WINDOW_MS, Math.max(MIN_ACK_WINDOW_MS, declared));
}

/** The latest roster snapshot, read per session. A snapshot, never a promise (AEP-0003 §4.1 rule 6). */
export class RosterSnapshot {
  private bySession: Map<string, RosterEntry[]> | undefined;
  /** `session\0declared` pairs already logged as clamped, so each roster refresh does not log them again. */
  private clampedLogged = new Set<string>();

  constructor(private readonly log: Logger = silentLogger) {}

  /** Null when the hub does not advertise the roster. */
  update(entries: readonly RosterEntry[] | null): void {
    if (entries === null) {
      this.bySession = undefined;
      return;
    }
    const bySession = new Map<string, RosterEntry[]>();
    const clamped = new Set<string>();
    for (const entry of entries) {
      const list = bySession.get(entry.session);
      if (list) list.push(entry);
      else bySession.set(entry.session, [entry]);
      const declared = entry.control?.ack_window_ms;
      if (declared !== undefined && clampAckWindow(declared) !== declared) {
        const key = `${entry.session}\u0000${declared}`;
        clamped.add(key);
        if (!this.clampedLogged.has(key)) {
          this.log.warn(
            `session ${JSON.stringify(entry.session.slice(0, 80))} declares an ack window of ${declared} ms; answers to it wait ${clampAckWindow(declared)} ms (this client waits between ${MIN_ACK_WINDOW_MS / 1000} s and ${MAX_ACK_WINDOW_MS / 60_000} min)`,
            { code: 'ack-window-clamped', data: { session: entry.session.slice(0, 80), declared, waits: clampAckWindow(declared) } },
          );
        }
      }
    }
    this.bySession = bySession;
    this.clampedLogged = clamped;
  }

  /**
   * Whether the snapshot has a word on `session`: true when it lists it, and
   * when the hub offers no roster (nothing to ask). A request in a session the
   * snapshot predates is the cue to ask again: an emitter need not send
   * `session.started` first (AEP-0001 §7 does not order it), so without this a
   * connected agent would read "not connected" until some other session changed.
   */
  lists(session: string): boolean {
    return !this.bySession || this.bySession.has(session);
  }

  reachability(session: string): Reachability {
    if (!this.bySession) return { state: 'unknown' };
    const entries = this.bySession.get(session) ?? [];
    if (entries.length === 0) return { state: 'unreachable' };
    if (entries.length > 1) return { state: 'ambiguous', claimants: entries.length };
    const [entry] = entries;
    const accepts = entry?.control?.accepts ?? [];
    const agent = entry?.agent !== undefined ? { agent: entry.agent } : {};
    if (!accepts.includes(RESPOND_TYPE)) return { state: 'not-accepting', ...agent, accepts };
    return { state: 'reachable', ...agent, accepts, ackWindowMs: clampAckWindow(entry?.control?.ack_window_ms ?? DEFAULT_ACK_WINDOW_MS) };
  }

  /** The ack window to wait for a command to `session` (AEP-0004 §3, default 10 s), within the bounds above. */
  ackWindowFor(session: string): number {
    const reach = this.reachability(session);
    return reach.state === 'reachable' ? reach.ackWindowMs : DEFAULT_ACK_WINDOW_MS;
  }
}
