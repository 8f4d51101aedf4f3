import { ulid } from '../../src/aep/ulid';

let counter = 0;

/** A fresh session name, unique within the run. */
export function freshSession(prefix = 's'): string {
  return `${prefix}-${Date.now().toString(36)}-${++counter}`;
}

/** A valid session-scoped event for tests, owned by `agent`. */
export function makeEvent(
  type: string,
  session: string,
  seq: number,
  extra: Record<string, unknown> = {},
  agent = 'test-agent',
): Record<string, unknown> {
  return {
    aep: '0.1', id: ulid(), type, time: new Date().toISOString(),
    source: `aep://test-host/agent/${agent}/session/${session}`, agent, session, seq, ...extra,
  };
}

/** A command to a session: seq-less, from a sender identity (AEP-0004 §2). */
export function makeCommand(type: string, session: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    aep: '0.1', id: ulid(), type, time: new Date().toISOString(),
    source: 'aep://test-host/agent/test-sender', agent: 'test-sender', session, capture: 'metadata', ...extra,
  };
}

/** POSTs events to the hub as JSON (one) or NDJSON (several). */
export async function postEvents(
  hubUrl: string,
  token: string | undefined,
  events: unknown[],
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const single = events.length === 1;
  const response = await fetch(`${hubUrl}/events`, {
    method: 'POST',
    headers: {
      'content-type': single ? 'application/json' : 'application/x-ndjson',
      'aep-version': '0.1',
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      ...headers,
    },
    body: single ? JSON.stringify(events[0]) : events.map((e) => (typeof e === 'string' ? e : JSON.stringify(e))).join('\n') + '\n',
  });
  const text = await response.text();
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    body = { text };
  }
  return { status: response.status, body };
}
