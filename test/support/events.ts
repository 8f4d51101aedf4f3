import assert from 'node:assert/strict';
import type { Answer, AttentionOption, KnownKind } from '../../src/aep/attention';
import { AEP_VERSION, parseEnvelope, type AepEvent } from '../../src/aep/envelope';
import { ulid } from '../../src/base/ulid';

let counter = 0;

/** A fresh session name, unique within the run. */
export function freshSession(prefix = 's'): string {
  return `${prefix}-${Date.now().toString(36)}-${++counter}`;
}

type KnownAttribute =
  | 'id' | 'type' | 'subject' | 'time' | 'source' | 'agent' | 'session' | 'run' | 'step'
  | 'seq' | 'epoch' | 'cause' | 'traceparent' | 'severity' | 'capture' | 'data';

/**
 * Envelope attributes (AEP-0001 §5.1) as the core types them. Extension
 * attributes (§5.4) go in `extensions`, so a misspelt attribute is a type
 * error rather than an extension nobody reads.
 */
export type EventFields = Partial<Pick<AepEvent, KnownAttribute>> & { extensions?: Record<string, unknown> };

/**
 * A valid event: a fresh ULID and the current time unless given. The core's
 * own envelope parser checks it, so a builder never hands a test an event the
 * extension would refuse; malformed input is built with `rawEnvelope`.
 */
export function validEvent(fields: EventFields & Pick<AepEvent, 'type' | 'source' | 'agent'>): AepEvent {
  const { extensions, ...known } = fields;
  // The defaults are drawn only when missing: a ULID costs a CSPRNG call, and floods build thousands.
  const value: Record<string, unknown> = { aep: AEP_VERSION, id: known.id ?? ulid(), time: known.time ?? new Date().toISOString() };
  for (const [key, attribute] of Object.entries({ ...known, ...extensions })) if (attribute !== undefined) value[key] = attribute;
  const parsed = parseEnvelope(value);
  assert.ok(parsed.ok, parsed.ok ? '' : `a test builder made a malformed event: ${parsed.problem}`);
  return parsed.value;
}

/**
 * Deliberately unchecked: a valid base (a `progress.status` from test-agent)
 * with `attributes` laid over it as given, for input the hub or the extension
 * must refuse or survive. Nothing here is checked; the name marks the case as hostile.
 */
export function rawEnvelope(attributes: Record<string, unknown>): Record<string, unknown> {
  return {
    aep: AEP_VERSION, id: ulid(), type: 'progress.status', time: new Date().toISOString(),
    source: 'aep://test-host/agent/test-agent', agent: 'test-agent', ...attributes,
  };
}

/** The source of an emitter's session, as `makeEvent` names it. */
export function sourceFor(session: string, agent = 'test-agent'): string {
  return `aep://test-host/agent/${agent}/session/${session}`;
}

/** A valid session-scoped event for tests, owned by `agent`. */
export function makeEvent(type: string, session: string, seq: number, fields: EventFields = {}, agent = 'test-agent'): AepEvent {
  return validEvent({ type, source: sourceFor(session, agent), agent, session, seq, ...fields });
}

/** A command to a session: seq-less, from a sender identity (AEP-0004 §2). */
export function makeCommand(type: string, session: string, fields: EventFields = {}): AepEvent {
  return validEvent({ type, source: 'aep://test-host/agent/test-sender', agent: 'test-sender', session, capture: 'metadata', ...fields });
}

/**
 * A field_spec as it goes on the wire (AEP-0002 §5.2 as amended by AEP-0006).
 * `type` stays open: a type from a newer revision must degrade to a field the
 * extension cannot answer, so tests send such types too.
 */
export type WireField = {
  id: string;
  type: 'string' | 'number' | 'boolean' | 'select' | (string & {});
  label: string;
  required?: boolean;
  multi?: boolean;
  other?: boolean;
  choices?: AttentionOption[];
  min?: number;
  max?: number;
};

/** `attention.requested` data as it goes on the wire (AEP-0002 §5.3, AEP-0006 `fields`, AEP-0008 `respond_via`). */
export type RequestData = {
  kind: KnownKind | (string & {});
  prompt: string;
  options?: AttentionOption[];
  fields?: WireField[];
  expires_at?: string;
  respond_via?: Array<'control' | 'oob' | (string & {})>;
  context?: Record<string, unknown>;
};

/**
 * An `attention.requested` in `session` at `seq`: `data` over a plain
 * question. Severity, capture and the rest of the envelope are the test's to set.
 */
export function makeRequest(
  session: string,
  seq: number,
  data: Partial<RequestData> = {},
  fields: Omit<EventFields, 'type' | 'data'> = {},
  agent = 'test-agent',
): AepEvent {
  const request: RequestData = { kind: 'input', prompt: 'Which branch?', ...data };
  return makeEvent('attention.requested', session, seq, { ...fields, data: request }, agent);
}

/** How a test's emitter (see `emitterEvents`) writes its events unless a call says otherwise. */
export interface EmitterDefaults {
  agent?: string;
  session?: string;
  /** The host part of the source, `aep://<host>/agent/<agent>/session/<session>`. */
  host?: string;
  /** A fixed time, so events built twice are the same but for their ids. */
  time?: string;
  /** Laid over every request's data (`kind: 'input'`, `prompt: 'Which branch?'` unless given). */
  request?: Partial<RequestData>;
  /** Envelope attributes of every request (a capture level, a severity). */
  requestFields?: Omit<EventFields, 'type' | 'data' | 'id' | 'seq'>;
}

/**
 * One emitter's session as a test writes it (AEP-0001 §5.2: a session is
 * `(source, session)`): the same source, agent, session and time on every
 * event, the test giving ids, subjects and seqs. The one set of lifecycle
 * builders (AEP-0002 §5–7) for tests; each event passes the core's parser.
 */
export function emitterEvents(defaults: EmitterDefaults = {}) {
  const agent = defaults.agent ?? 'test-agent';
  const session = defaults.session ?? 's1';
  const source = `aep://${defaults.host ?? 'test-host'}/agent/${agent}/session/${session}`;
  const event = (fields: EventFields & Pick<AepEvent, 'type'>): AepEvent =>
    validEvent({ ...(defaults.time === undefined ? {} : { time: defaults.time }), source, agent, session, ...fields });
  return {
    source,
    agent,
    session,
    /** Any event of this emitter's session; `fields` may override anything, the source too. */
    event,
    /** `attention.requested` (AEP-0002 §5.3). */
    request: (id: string, seq: number, data: Partial<RequestData> = {}, fields: EventFields = {}) =>
      event({ id, type: 'attention.requested', seq, ...defaults.requestFields, data: { kind: 'input', prompt: 'Which branch?', ...defaults.request, ...data }, ...fields }),
    /** `attention.answered` for `subject`, via the control channel unless `fields` say otherwise. */
    answered: (id: string, subject: string, seq: number, answer: Answer = { option: 'allow' }, fields: EventFields = {}) =>
      event({ id, type: 'attention.answered', subject, cause: subject, seq, data: { answer, via: 'control' }, ...fields }),
    /** `attention.resolved` for `subject`. */
    resolved: (id: string, subject: string, seq: number, resolution = 'answered', fields: EventFields = {}) =>
      event({ id, type: 'attention.resolved', subject, cause: subject, seq, data: { resolution }, ...fields }),
    /** `attention.timeout` for `subject`. */
    timedOut: (id: string, subject: string, seq: number, afterMs = 60_000, fields: EventFields = {}) =>
      event({ id, type: 'attention.timeout', subject, cause: subject, seq, data: { after_ms: afterMs }, ...fields }),
    /** `session.ended`. */
    ended: (id: string, seq: number, reason = 'normal', fields: EventFields = {}) =>
      event({ id, type: 'session.ended', seq, data: { reason }, ...fields }),
    /** `progress.status`, the event a session emits between requests. */
    status: (id: string, seq: number, fields: EventFields = {}) => event({ id, type: 'progress.status', seq, ...fields }),
  };
}

/** POSTs events to the hub as JSON (one) or NDJSON (several). Anything goes: hostile cases post malformed events. */
export async function postEvents(
  hubUrl: string,
  token: string | undefined,
  events: readonly unknown[],
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
