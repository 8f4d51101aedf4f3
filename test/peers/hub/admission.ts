import { parseEnvelope, type AepEvent } from '../../../src/aep/envelope';
import { parseUntrustedJson } from '../../../src/base/json';

// What the hub accepts at ingest (AEP-0001 §5, AEP-0003 §3.2.3). The
// extension's own parser is deliberately tolerant; a relay is the place where
// an invalid envelope is refused, with the rule it breaks named.

const CORE_ATTRIBUTES = new Set([
  'aep', 'id', 'type', 'subject', 'time', 'source', 'agent', 'session', 'run', 'step',
  'seq', 'epoch', 'cause', 'traceparent', 'severity', 'capture', 'data',
]);
const TYPE_PATTERN =
  /^((agent|session|run|progress|tool|delegation|attention|resource|error|state|assessment|message|control)(\.[a-z0-9_]+)+|x\.[a-z0-9_-]+\.[a-z0-9_]+(\.[a-z0-9_]+)+)$/;
const EXTENSION_NAME = /^[a-z0-9]{1,20}$/;
const TRACEPARENT = /^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/;
/** Commands (AEP-0004 §2) and `attention.routed`: foreign-emitter session events that omit `seq` (AEP-0001 §5.2). */
const COMMAND_TYPE = /^(control\.attention\.respond|control\.cancel|control\.pause|control\.resume|x\.[a-z0-9_-]+\.control\..+)$/;

export function isCommandType(type: string): boolean {
  return COMMAND_TYPE.test(type);
}

/** An admitted event and the exact text it arrived as (forwarded byte-identically when no hop changes it). */
export interface Admitted {
  event: AepEvent;
  raw: string;
}

export type Admission = { ok: true; value: Admitted } | { ok: false; problem: string; id?: string };

function envelopeProblem(event: AepEvent): string | undefined {
  if (!TYPE_PATTERN.test(event.type)) {
    return `type ${JSON.stringify(event.type)} is not a registered category or a legal x.{vendor}.{category}.{rest} name (AEP-0001 §6, AEP-0002 §3)`;
  }
  if (Number.isNaN(Date.parse(event.time))) return '`time` is not an RFC 3339 timestamp (AEP-0001 §5.1)';
  if (event.traceparent !== undefined && !TRACEPARENT.test(event.traceparent)) return '`traceparent` is malformed (AEP-0001 §5.1 #14)';
  for (const [name, value] of Object.entries(event)) {
    if (CORE_ATTRIBUTES.has(name)) continue;
    if (!EXTENSION_NAME.test(name)) return `extension attribute ${JSON.stringify(name.slice(0, 40))} is not [a-z0-9]{1,20} (AEP-0001 §5.4)`;
    const scalar = typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isInteger(value));
    if (!scalar) return `extension attribute \`${name}\` must be a string, integer or boolean (AEP-0001 §5.4)`;
  }
  const agentScoped = event.type.startsWith('agent.');
  const foreign = isCommandType(event.type) || event.type === 'attention.routed';
  if (agentScoped) {
    for (const name of ['session', 'run', 'step', 'seq'] as const) {
      if (event[name] !== undefined) return `agent-scoped event carries \`${name}\` (AEP-0001 §5.2)`;
    }
  } else if (foreign) {
    if (event.session === undefined) return 'a command or attention.routed must name the target `session` (AEP-0001 §5.2, AEP-0004 §2.2)';
    if (event.seq !== undefined) return 'a command or attention.routed must omit `seq`: the sender does not own the session order (AEP-0004 §2.2)';
  } else if (event.session === undefined || event.seq === undefined) {
    return 'a session-scoped event needs `session` and `seq` (AEP-0001 §5.2)';
  }
  return undefined;
}

/** Validates one event given as text (a WebSocket frame or one NDJSON line). */
export function admitText(text: string): Admission {
  let value: unknown;
  try {
    value = parseUntrustedJson(text);
  } catch {
    return { ok: false, problem: 'not valid JSON' };
  }
  return admitValue(value, text);
}

export function admitValue(value: unknown, text: string): Admission {
  const parsed = parseEnvelope(value);
  const id = typeof value === 'object' && value !== null && typeof (value as { id?: unknown }).id === 'string'
    ? (value as { id: string }).id
    : undefined;
  const failed = (problem: string): Admission => (id === undefined ? { ok: false, problem } : { ok: false, problem, id });
  if (!parsed.ok) return failed(parsed.problem);
  const problem = envelopeProblem(parsed.value);
  if (problem) return failed(problem);
  // SSE carries one event per `data:` line, so text with a line break is re-serialized once here.
  const raw = /[\r\n]/.test(text) ? JSON.stringify(value) : text;
  return { ok: true, value: { event: parsed.value, raw } };
}
