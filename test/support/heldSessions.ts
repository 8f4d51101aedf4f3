// What a hub holds when a client reconnects to it, for the catch-up cost
// (test/load/catchUpCost.test.ts checks it, bench/catchUp.ts times it):
// sessions each with session.started, tool chatter the extension's
// subscription filter keeps off the wire, some answered requests and one open
// request; and the request raised during an outage, in a session never seen.
import { SUBSCRIBED_TYPES } from '../../src/client/userFilter';
import type { AepEvent } from '../../src/aep/envelope';
import { freshSession, makeEvent, makeRequest, postEvents } from './events';

/** Tool events per session: held by the hub, never sent to the extension. */
export const TOOL_EVENTS_PER_SESSION = 10;

/** The local hub's largest NDJSON batch (test/peers/hub/config.ts `maxBatch`). */
const BATCH = 1_000;

export interface HeldSessions {
  events: AepEvent[];
  /** How many of `events` the extension's subscription takes (SUBSCRIBED_TYPES). */
  subscribed: number;
  /** The open request of each session, by id. */
  openRequestIds: string[];
}

/** Whether the extension's own type filter takes `type` (`attention.*` matches by prefix, AEP-0003 §6). */
export function isSubscribedType(type: string): boolean {
  return SUBSCRIBED_TYPES.some((pattern) => (pattern.endsWith('.*') ? type.startsWith(pattern.slice(0, -1)) : type === pattern));
}

/**
 * `count` sessions, each: session.started, TOOL_EVENTS_PER_SESSION tool events,
 * `answered` permission requests each requested → answered → resolved, and
 * one input request left open.
 */
export function heldSessions(count: number, answered: number, prefix = 'held'): HeldSessions {
  const events: AepEvent[] = [];
  const openRequestIds: string[] = [];
  for (let i = 0; i < count; i++) {
    const session = freshSession(`${prefix}${i}`);
    let seq = 0;
    events.push(makeEvent('session.started', session, seq++));
    for (let n = 0; n < TOOL_EVENTS_PER_SESSION; n++) events.push(makeEvent('tool.started', session, seq++, { data: { tool: 'Bash' } }));
    for (let n = 0; n < answered; n++) {
      const request = makeRequest(session, seq++, {
        kind: 'permission', prompt: `Run step ${n}?`, options: [{ id: 'allow', label: 'Allow' }, { id: 'deny', label: 'Deny' }],
      }, { severity: 'notice' });
      const answer = makeEvent('attention.answered', session, seq++, { subject: request.id, cause: request.id, data: { answer: { option: 'allow' }, via: 'control' } });
      const resolved = makeEvent('attention.resolved', session, seq++, { subject: request.id, cause: answer.id, data: { resolution: 'answered' } });
      events.push(request, answer, resolved);
    }
    const open = makeRequest(session, seq++, { kind: 'input', prompt: `Question of ${session}` }, { severity: 'notice' });
    openRequestIds.push(open.id);
    events.push(open);
  }
  return { events, subscribed: events.filter((event) => isSubscribedType(event.type)).length, openRequestIds };
}

/** The session started and the request raised while the client was away, in a session it never saw. */
export function outageRequest(prefix = 'new'): { events: AepEvent[]; requestId: string } {
  const session = freshSession(prefix);
  const request = makeRequest(session, 1, { kind: 'input', prompt: 'Asked while you were away' }, { severity: 'notice' });
  return { events: [makeEvent('session.started', session, 0), request], requestId: request.id };
}

/** POSTs `events` to the hub in batches it admits; throws unless every batch is accepted (202). */
export async function postAll(hubUrl: string, token: string | undefined, events: readonly unknown[]): Promise<void> {
  for (let i = 0; i < events.length; i += BATCH) {
    const { status, body } = await postEvents(hubUrl, token, events.slice(i, i + BATCH));
    if (status !== 202) throw new Error(`the hub refused a batch at event ${i}: HTTP ${status} ${JSON.stringify(body).slice(0, 300)}`);
  }
}
