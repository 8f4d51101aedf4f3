import assert from 'node:assert/strict';
import { parseEnvelope, type AepEvent } from '../../src/aep/envelope';
import { Inbox } from '../../src/aep/inbox/inbox';
import { requestView } from '../../src/host/requestView';
import type { RequestView } from '../../src/shared/webviewMessages';
import { goldenEvents } from './fixtures';

/** The view the extension host would post for one request event, as the inbox reads it. */
export function viewOf(event: AepEvent, reach: Parameters<typeof requestView>[1] = { state: 'reachable', accepts: ['control.attention.respond'], ackWindowMs: 10_000 }): RequestView {
  const inbox = new Inbox();
  inbox.apply(event);
  const [item] = inbox.open();
  assert.ok(item, 'the event opened a request');
  return requestView(item, reach);
}

/** An `attention.requested` from claude-code with the given payload (and envelope overrides). */
export function requestEvent(data: Record<string, unknown>, extra: Record<string, unknown> = {}): AepEvent {
  const parsed = parseEnvelope({
    aep: '0.1', id: `R-${Math.random().toString(36).slice(2)}`, type: 'attention.requested', time: '2026-07-03T10:00:00Z',
    source: 'aep://host-a/agent/claude-code/session/s1', agent: 'claude-code', session: 's1', seq: 1, capture: 'redacted', severity: 'notice', data, ...extra,
  });
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.problem);
  return parsed.value;
}

/** The golden conformance stream's four-field form (service name, staged, regions, database). */
export const goldenForm = (): AepEvent => goldenEvents().find((e) => e.session === 's_form' && e.type === 'attention.requested')!;
