import * as z from 'zod/mini';
import { CAPTURE_LEVELS, DEFAULT_CAPTURE, DEFAULT_SEVERITY, SEVERITIES, type CaptureLevel, type Severity } from './levels';
import { describeZodError, parsedOk, parsedProblem, safeParseEnglish, type Parsed } from '../base/result';

/** The one envelope version this extension speaks (AEP-0001 §5.1 #1). */
export const AEP_VERSION = '0.1';

/** A string with at least one character: the one schema every AEP and stored shape uses for ids and names. */
export const nonEmpty = z.string().check(z.minLength(1, 'must be a non-empty string'));
const position = z.number().check(z.int('must be an integer'), z.nonnegative('must not be negative'));

/**
 * The sixteen context attributes plus `data` (AEP-0001 §5.1). Unknown
 * attributes are kept as they came (AEP-0001 §5.4: extension attributes MUST
 * be tolerated); the consumer never rejects an event for a type or attribute
 * it does not know. It does refuse an event whose *known* attributes are
 * malformed, because ordering, dedupe and routing depend on them.
 */
export const envelopeSchema = z.catchall(
  z.object({
    aep: z.literal(AEP_VERSION, { error: `unsupported envelope version (this extension reads "${AEP_VERSION}")` }),
    id: nonEmpty,
    // An event's type always contains a dot; a frame's never does (AEP-0003 §2).
    type: nonEmpty.check(z.regex(/\./, 'an event type has the form {category}.{rest}')),
    subject: z.optional(nonEmpty),
    time: z.string(),
    source: nonEmpty,
    agent: nonEmpty,
    session: z.optional(nonEmpty),
    run: z.optional(nonEmpty),
    step: z.optional(nonEmpty),
    seq: z.optional(position),
    epoch: z.optional(position),
    cause: z.optional(nonEmpty),
    traceparent: z.optional(z.string()),
    severity: z.optional(z.enum(SEVERITIES)),
    capture: z.optional(z.enum(CAPTURE_LEVELS)),
    data: z.optional(z.record(z.string(), z.unknown())),
  }),
  z.unknown(),
);

export type AepEvent = z.infer<typeof envelopeSchema>;

const OPTIONAL_NON_EMPTY = ['subject', 'session', 'run', 'step', 'cause'] as const;
const SEVERITY_SET: ReadonlySet<unknown> = new Set(SEVERITIES);
const CAPTURE_SET: ReadonlySet<unknown> = new Set(CAPTURE_LEVELS);

const isNonEmptyString = (value: unknown) => typeof value === 'string' && value.length > 0;
const isPosition = (value: unknown) => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

/**
 * The same verdict as `envelopeSchema`, without building a copy: every event
 * of a busy hub goes through here, and the schema's copy costs more than the
 * checks (see BENCHMARKS.md). A differential test keeps the two in step; the
 * schema still runs whenever this says no, to word the problem.
 */
function isWellFormed(value: Record<string, unknown>): boolean {
  if (value['aep'] !== AEP_VERSION) return false;
  if (!isNonEmptyString(value['id']) || !isNonEmptyString(value['source']) || !isNonEmptyString(value['agent'])) return false;
  const type = value['type'];
  if (typeof type !== 'string' || !type.includes('.')) return false;
  if (typeof value['time'] !== 'string') return false;
  for (const key of OPTIONAL_NON_EMPTY) if (value[key] !== undefined && !isNonEmptyString(value[key])) return false;
  if (value['seq'] !== undefined && !isPosition(value['seq'])) return false;
  if (value['epoch'] !== undefined && !isPosition(value['epoch'])) return false;
  if (value['traceparent'] !== undefined && typeof value['traceparent'] !== 'string') return false;
  if (value['severity'] !== undefined && !SEVERITY_SET.has(value['severity'])) return false;
  if (value['capture'] !== undefined && !CAPTURE_SET.has(value['capture'])) return false;
  const data = value['data'];
  if (data !== undefined && (typeof data !== 'object' || data === null || Array.isArray(data))) return false;
  return true;
}

/** Reads one untrusted value as an event; never throws. */
export function parseEnvelope(input: unknown): Parsed<AepEvent> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return parsedProblem('an event must be a JSON object');
  }
  if (isWellFormed(input as Record<string, unknown>)) return parsedOk(input as AepEvent);
  const result = safeParseEnglish(envelopeSchema, input);
  if (!result.success) return parsedProblem(`malformed event: ${describeZodError(result.error)}`);
  return parsedOk(result.data);
}

export function captureOf(event: Pick<AepEvent, 'capture'>): CaptureLevel {
  return event.capture ?? DEFAULT_CAPTURE;
}

export function severityOf(event: Pick<AepEvent, 'severity'>): Severity {
  return event.severity ?? DEFAULT_SEVERITY;
}

export function epochOf(event: Pick<AepEvent, 'epoch'>): number {
  return event.epoch ?? 0;
}

/**
 * Dedupe key (AEP-0001 §7.4): `(source, id)`, never the bare id, because two
 * emitters may mint the same id.
 */
export function dedupeKey(event: Pick<AepEvent, 'source' | 'id'>): string {
  return `${event.source}\u0000${event.id}`;
}

/**
 * Per-session state key (AEP-0001 §5.2): session identity is emitter-scoped,
 * so two sources can use the same session string for different sessions.
 */
export function sessionKey(source: string, session: string): string {
  return `${source}\u0000${session}`;
}

/** The emitter (`source`) of a `sessionKey`. */
export function sourceOfSessionKey(key: string): string {
  const end = key.indexOf('\u0000');
  return end < 0 ? key : key.slice(0, end);
}

/** The host part of an `aep://{host}/agent/...` source, for provenance display. */
export function sourceHost(source: string): string | undefined {
  const match = /^aep:\/\/([^/]+)/.exec(source);
  return match?.[1];
}
