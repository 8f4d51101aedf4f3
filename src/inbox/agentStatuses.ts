import type { AepEvent } from '../aep/envelope';
import { approximateBytes } from '../base/byteSize';

/** One emitter's agent-scoped events: the latest of each type, most recently heard type last. */
export interface AgentStatus {
  readonly source: string;
  readonly agent: string;
  readonly latest: readonly AepEvent[];
}

/** Emitters whose agent-scoped events are kept; the least recently heard goes first. */
export const MAX_AGENTS = 1_000;
/** Types kept per emitter: `agent.presence`, `agent.health`, `agent.idle`, `agent.heartbeat` and a few more. */
export const MAX_AGENT_TYPES = 8;
/**
 * The most `data` kept with one event, as the heap holds it. A status's data is a few words
 * (`{status, detail}`); a sessionless event can carry up to the frame's limit, and 1,000 emitters
 * × 8 types of that would hold hundreds of megabytes outside the inbox's memory budget.
 */
export const MAX_KEPT_DATA_BYTES = 2_048;

/**
 * Agent-scoped events (no `session`, AEP-0001 §5) belong to no session
 * timeline, yet a consumer needs them: which agents it has heard from, and
 * each one's last word of each kind. The extension subscribes to
 * `attention.*`, `session.*` and the acks only (client/userFilter.ts), so
 * `agent.presence` or `agent.health` arrive only from a hub that sends more
 * than was asked; what is kept here is mostly sessionless `attention.*`.
 * Nothing in the UI reads it yet. Kept by arrival (time is not an order, and
 * the reference relay never replays `agent.*`), bounded in emitters, types
 * and data, per `source`.
 */
export class AgentStatuses {
  private readonly bySource = new Map<string, { agent: string; latest: Map<string, AepEvent> }>();

  constructor(
    private readonly maxAgents = MAX_AGENTS,
    private readonly maxTypes = MAX_AGENT_TYPES,
  ) {}

  get size(): number {
    return this.bySource.size;
  }

  note(event: AepEvent): void {
    const known = this.bySource.get(event.source);
    const entry = known ?? { agent: event.agent, latest: new Map<string, AepEvent>() };
    // Re-inserted at the recent end, both the emitter and the type.
    this.bySource.delete(event.source);
    this.bySource.set(event.source, entry);
    entry.agent = event.agent;
    entry.latest.delete(event.type);
    entry.latest.set(event.type, withSmallData(event));
    while (entry.latest.size > this.maxTypes) {
      const oldest = entry.latest.keys().next().value;
      if (oldest === undefined) break;
      entry.latest.delete(oldest);
    }
    while (this.bySource.size > this.maxAgents) {
      const oldest = this.bySource.keys().next().value;
      if (oldest === undefined) break;
      this.bySource.delete(oldest);
    }
  }

  /** Every emitter heard, least recently heard first. */
  list(): AgentStatus[] {
    return [...this.bySource].map(([source, { agent, latest }]) => ({ source, agent, latest: [...latest.values()] }));
  }

  /** The emitter's latest agent-scoped event of `type`. */
  latest(source: string, type: string): AepEvent | undefined {
    return this.bySource.get(source)?.latest.get(type);
  }
}

/** The event as kept: its envelope, and its `data` only when that is small (MAX_KEPT_DATA_BYTES). */
function withSmallData(event: AepEvent): AepEvent {
  if (event.data === undefined || approximateBytes(event.data) <= MAX_KEPT_DATA_BYTES) return event;
  const { data: _dropped, ...envelope } = event;
  return envelope;
}
