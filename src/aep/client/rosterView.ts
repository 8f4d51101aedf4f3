import { DEFAULT_ACK_WINDOW_MS } from '../control';
import type { RosterEntry } from '../frames';

/** Whether an answer to a session can be delivered right now, as the hub's roster says (AEP-0003 §4.1). */
export type Reachability =
  /** The hub does not offer a roster: reachability is unknown until a command is tried. */
  | { state: 'unknown' }
  | { state: 'unreachable' }
  /** Several live connections claim the session: the hub will refuse commands (AEP-0004 §4.5). */
  | { state: 'ambiguous'; claimants: number }
  | { state: 'reachable'; agent?: string; accepts: readonly string[]; ackWindowMs: number };

/** The latest roster snapshot, read per session. A snapshot, never a promise (AEP-0003 §4.1 rule 6). */
export class RosterView {
  private bySession: Map<string, RosterEntry[]> | undefined;

  /** Null when the hub does not advertise the roster. */
  update(entries: readonly RosterEntry[] | null): void {
    if (entries === null) {
      this.bySession = undefined;
      return;
    }
    const bySession = new Map<string, RosterEntry[]>();
    for (const entry of entries) {
      const list = bySession.get(entry.session);
      if (list) list.push(entry);
      else bySession.set(entry.session, [entry]);
    }
    this.bySession = bySession;
  }

  reachability(session: string): Reachability {
    if (!this.bySession) return { state: 'unknown' };
    const entries = this.bySession.get(session) ?? [];
    if (entries.length === 0) return { state: 'unreachable' };
    if (entries.length > 1) return { state: 'ambiguous', claimants: entries.length };
    const [entry] = entries;
    const reachable: Reachability = {
      state: 'reachable',
      accepts: entry?.control?.accepts ?? [],
      ackWindowMs: entry?.control?.ack_window_ms ?? DEFAULT_ACK_WINDOW_MS,
    };
    if (entry?.agent !== undefined) reachable.agent = entry.agent;
    return reachable;
  }

  /** The ack window to wait for a command to `session` (AEP-0004 §3, default 10 s). */
  ackWindowFor(session: string): number {
    const reach = this.reachability(session);
    return reach.state === 'reachable' ? reach.ackWindowMs : DEFAULT_ACK_WINDOW_MS;
  }
}
