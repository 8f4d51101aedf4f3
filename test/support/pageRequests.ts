import assert from 'node:assert/strict';
import type { AepEvent } from '../../src/aep/envelope';
import { Inbox } from '../../src/inbox/inbox';
import { pageRequest } from '../../src/app/page/pageContent';
import { pageBeforeAsking } from '../../src/words/beforeAskingContent';
import type { CaptureLevel } from '../../src/aep/levels';
import type { PageRequest } from '../../src/shared/webviewMessages';
import { validEvent, type EventFields, type RequestData } from './events';
import { goldenEvents } from './fixtures';

/** The view the extension host would post for one request event, as the inbox reads it. */
export function viewOf(event: AepEvent, reach: Parameters<typeof pageRequest>[1] = { state: 'reachable', accepts: ['control.attention.respond'], ackWindowMs: 10_000 }): PageRequest {
  const inbox = new Inbox();
  inbox.apply(event);
  const [item] = inbox.open();
  assert.ok(item, 'the event opened a request');
  return pageRequest(item, reach);
}

/** An `attention.requested` from claude-code with the given payload (and envelope overrides). */
let requestSeq = 0;

export function requestEvent(data: RequestData, fields: Omit<EventFields, 'type' | 'data'> = {}): AepEvent {
  return rawRequestEvent(data, fields);
}

/**
 * The same with a payload the test did not write: read from a fixture, or
 * malformed on purpose. Only the envelope is checked; what the payload says is
 * the parser's to judge.
 */
export function rawRequestEvent(data: Record<string, unknown>, fields: Omit<EventFields, 'type' | 'data'> = {}): AepEvent {
  // A position of its own unless the test names one: a second event at a taken position is not applied (AEP-0001 §7.2).
  return sessionEvent('attention.requested', { seq: ++requestSeq, capture: 'redacted', severity: 'notice', ...fields, data });
}

/** An event in the session `requestEvent` raises its requests in (a timeout, an answer), from the same agent. */
export function sessionEvent(type: string, fields: EventFields = {}): AepEvent {
  return validEvent({
    id: `R-${Math.random().toString(36).slice(2)}`, time: '2026-07-03T10:00:00Z',
    source: 'aep://host-a/agent/claude-code/session/s1', agent: 'claude-code', session: 's1', ...fields, type,
  });
}

/** The golden conformance stream's four-field form (service name, staged, regions, database). */
export const goldenForm = (): AepEvent => goldenEvents().find((e) => e.session === 's_form' && e.type === 'attention.requested')!;

/**
 * The view the host would post for `request` after its session's `before`
 * events (tool calls, runs), with "Before asking" built as the page
 * controller builds it; `ceiling`: the person's capture ceiling.
 */
export function viewWithActions(before: readonly AepEvent[], request: AepEvent, ceiling?: CaptureLevel): PageRequest {
  const inbox = new Inbox(ceiling ? { captureCeiling: ceiling } : {});
  for (const event of [...before, request]) inbox.apply(event);
  const item = inbox.open().find((open) => open.requestId === request.id);
  assert.ok(item, 'the event opened a request');
  return pageRequest(item, { state: 'reachable', accepts: ['control.attention.respond'], ackWindowMs: 10_000 }, undefined, undefined, pageBeforeAsking(inbox.recentActions(item.source, item.session), item.requestEvent));
}
