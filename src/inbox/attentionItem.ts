import type { Answer, AttentionRequest, RequestProblem } from '../aep/attention';
import type { AepEvent } from '../aep/envelope';

// Where a request stands is the protocol's lifecycle (src/aep/requestStatus.ts); importable from here as before.
import type { AttentionStatus } from '../aep/requestStatus';
export { ATTENTION_STATUSES, isOpenStatus, type AttentionStatus, type ClosedStatus } from '../aep/requestStatus';

/** Whether the request's `expires_at` has passed by the clock `now` reads; it stays open all the same (see src/aep/requestStatus.ts). */
export function deadlinePassed(item: Readonly<Pick<AttentionItem, 'request'>>, now: number): boolean {
  const expiresAt = item.request?.expiresAt;
  return expiresAt !== undefined && expiresAt <= now;
}

export interface AttentionItem {
  /** Stable across the item's life: the inbox's `hub`, `(source, session)` and the request id. */
  readonly key: string;
  /** The hub the request came through (InboxOptions.hub); empty when the inbox names none. */
  readonly hub: string;
  readonly requestId: string;
  readonly source: string;
  readonly session: string;
  readonly agent: string;
  /** Present when the request could be read; otherwise `problem` says why not. */
  readonly request?: AttentionRequest;
  readonly problem?: RequestProblem;
  /** The events that made the item, kept so an open inbox can be saved and restored (a window reload). */
  readonly requestEvent: AepEvent;
  answeredEvent?: AepEvent;
  status: AttentionStatus;
  /** What the agent recorded it applied (`attention.answered`, AEP-0002 §5.3), bounded as its event was (src/aep/bounds.ts). */
  answer?: Answer;
  answeredVia?: string;
  /** The responder the agent named (`by`). */
  answeredBy?: string;
  /**
   * What the recorded answer is `cause`-linked to: its `cause`, and what that
   * names in turn when it is an ack (AEP-0004 §6: the outcome's cause is the
   * command or its ack, followed one hop). Empty when it names none.
   */
  answeredCauses?: string[];
  resolution?: string;
  /** Who the agent's `attention.resolved` is cause-linked to, when that is another emitter's event (a command). */
  resolvedBy?: string;
  /** Agents that forwarded the request to a human surface (`attention.routed`); replaced, never changed, when one is added. */
  routedBy: readonly string[];
  /** Local clock when the request was applied, and when it closed. */
  readonly receivedAt: number;
  closedAt?: number;
}

/** The routers of a request nobody routed: one list for all of them. */
export const NO_ROUTERS: readonly string[] = /* @__PURE__ */ Object.freeze([]);

export type InboxChange =
  | { kind: 'added'; item: Readonly<AttentionItem> }
  | { kind: 'updated'; item: Readonly<AttentionItem> }
  | { kind: 'removed'; item: Readonly<AttentionItem> };
