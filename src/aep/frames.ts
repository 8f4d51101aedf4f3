import * as z from 'zod/mini';
import { AEP_VERSION, parseEnvelope, type AepEvent } from './envelope';
import { CAPTURE_LEVELS } from './levels';
import { capText, clip, EVENT_BOUNDS } from './bounds';
import { JsonTooDeepError, parseUntrustedJson } from '../base/json';
import { describeZodError, safeParseEnglish } from '../base/result';

// The WebSocket frames of AEP-0003 (§2, §3.5, §4, §4.1, §5, §6.5) and the
// relay-behalf command refusal of AEP-0004 §4.2. A frame's `type` has no dot.

/**
 * `z.catch(schema, fallback)` built directly: `z.catch` itself names zod's
 * whole `util` namespace (for a constant fallback), which keeps all of it,
 * about 8 KB, in the bundle.
 */
const orElse = <T extends z.ZodMiniType>(schema: T, fallback: () => z.output<T>) =>
  // The constructor is not generic; this is the type `z.catch` gives the same schema.
  new z.ZodMiniCatch({ type: 'catch', innerType: schema, catchValue: fallback }) as z.ZodMiniCatch<T>;

/** Reads a part of a peer's declaration; a malformed part is treated as not declared (AEP-0003 §4 rule 4). */
const lenient = <T extends z.ZodMiniType>(schema: T) => orElse(z.optional(schema), () => undefined);

export const controlCapabilitySchema = z.object({
  accepts: orElse(z.array(z.string()), () => []),
  ack_window_ms: lenient(z.number().check(z.int(), z.positive())),
});
export type ControlCapability = z.infer<typeof controlCapabilitySchema>;

export const capabilitiesSchema = z.catchall(
  z.object({
    emits: lenient(z.array(z.string())),
    capture: lenient(z.array(z.string())),
    control: lenient(controlCapabilitySchema),
    replay: lenient(z.object({ buffer: lenient(z.number()), all: lenient(z.boolean()) })),
    filters: lenient(z.array(z.string())),
    roster: lenient(z.record(z.string(), z.unknown())),
    experimental: lenient(z.record(z.string(), z.unknown())),
  }),
  z.unknown(),
);
export type Capabilities = z.infer<typeof capabilitiesSchema>;

const identitySchema = z.catchall(z.object({ agent: z.optional(z.string()), instance: z.optional(z.string()) }), z.unknown());

export const ROLES = ['emitter', 'consumer', 'both'] as const;
export type Role = (typeof ROLES)[number];

const helloSchema = z.object({
  type: z.literal('hello'),
  versions: z.array(z.string()).check(z.minLength(1)),
  role: z.optional(z.enum(ROLES)),
  identity: orElse(z.optional(identitySchema), () => undefined),
  capabilities: orElse(z.optional(capabilitiesSchema), () => undefined),
});

const nonNegativeInt = z.number().check(z.int(), z.nonnegative());
const positionSchema = z.object({ epoch: nonNegativeInt, seq: nonNegativeInt });
export const resumePositionSchema = z.extend(positionSchema, { session: z.string().check(z.minLength(1)) });
export type ResumePosition = z.infer<typeof resumePositionSchema>;
/** Runs of applied positions as saved, `[epoch, first seq, last seq]`, above a floor (src/inbox/appliedPositions.ts). */
const savedAppliedSchema = z.object({
  floor: z.optional(positionSchema),
  // Three numbers as an array of length 3: `z.tuple` would add several KB to the bundle.
  runs: z.array(z.array(nonNegativeInt).check(z.length(3)) as unknown as z.ZodMiniType<[number, number, number]>).check(z.maxLength(1_024)),
  // `[epoch, seq]` of requests applied at or below the floor; absent on saves made before they were kept.
  requests: z.optional(z.array(z.array(nonNegativeInt).check(z.length(2)) as unknown as z.ZodMiniType<[number, number]>).check(z.maxLength(1_024))),
  requestFloor: z.optional(positionSchema),
});
/**
 * A position as this client keeps it across a reload: per emitter, `source`
 * absent on ones saved before it was kept, `applied` absent on ones saved
 * before it was (or unreadable): then everything up to the position counts
 * as applied, as that version held it.
 */
export const keptPositionSchema = z.extend(resumePositionSchema, {
  source: z.optional(z.string().check(z.minLength(1))),
  applied: lenient(savedAppliedSchema),
});

const rosterEntrySchema = z.object({
  session: z.string().check(z.minLength(1)),
  agent: z.optional(z.string()),
  instance: z.optional(z.string()),
  control: lenient(controlCapabilitySchema),
  emits: lenient(z.array(z.string())),
});
export type RosterEntry = z.infer<typeof rosterEntrySchema>;

export const inboundFrameSchema = z.discriminatedUnion('type', [
  helloSchema,
  z.object({ type: z.literal('subscribed'), id: z.string() }),
  z.object({ type: z.literal('unsubscribed'), id: z.string() }),
  z.object({
    type: z.literal('error'),
    code: z.string(),
    id: z.optional(z.string()),
    cause: z.optional(z.string()),
    detail: z.optional(z.string()),
    versions: z.optional(z.array(z.string())),
  }),
  z.object({ type: z.literal('replay-exhausted'), sub: z.string(), session: z.string(), earliest: positionSchema }),
  z.object({
    type: z.literal('closing'),
    reason: z.optional(z.string()),
    delivered: orElse(z.array(z.extend(resumePositionSchema, { sub: z.optional(z.string()) })), () => []),
  }),
  z.object({ type: z.literal('ping'), t: z.optional(z.unknown()) }),
  z.object({ type: z.literal('pong'), t: z.optional(z.unknown()) }),
  z.object({ type: z.literal('roster'), id: z.string(), entries: z.array(rosterEntrySchema) }),
]);
export type InboundFrame = z.infer<typeof inboundFrameSchema>;
export type HelloFrame = Extract<InboundFrame, { type: 'hello' }>;
export type ErrorFrame = Extract<InboundFrame, { type: 'error' }>;

// ---- what we send ----------------------------------------------------------

export interface OutboundHello {
  type: 'hello';
  versions: string[];
  role: Role;
  identity: { agent: string; instance: string };
  capabilities: Record<string, unknown>;
}

export interface SubscribeFrame {
  type: 'subscribe';
  id: string;
  filter: Record<string, unknown>;
  from?: ResumePosition[] | 'all';
  capture?: (typeof CAPTURE_LEVELS)[number];
}

export type OutboundFrame =
  | OutboundHello
  | SubscribeFrame
  | { type: 'unsubscribe'; id: string }
  | { type: 'ping'; t: number }
  | { type: 'pong'; t: unknown }
  | { type: 'roster'; id: string }
  /** Sent before closing on purpose (AEP-0003 §3.5.4); never relied on by either side. */
  | { type: 'closing'; reason: string; delivered: Array<ResumePosition & { sub: string }> };

// ---- classifying one text frame ----------------------------------------------

export type WireMessage =
  | { kind: 'event'; event: AepEvent }
  | { kind: 'frame'; frame: InboundFrame }
  /** A frame type this revision does not define: ignored (AEP-0003 §2), but worth a debug line. */
  | { kind: 'unknown-frame'; type: string }
  | { kind: 'invalid'; problem: string };

const KNOWN_FRAME_TYPES: ReadonlySet<string> = new Set<string>(inboundFrameSchema.def.options.flatMap((option) => option.shape.type.def.values));

/**
 * Reads one WebSocket text frame from the hub. Never throws: hostile input
 * becomes `invalid` with a sentence saying what was wrong.
 */
export function parseWireMessage(text: string): WireMessage {
  let value: unknown;
  try {
    value = parseUntrustedJson(text);
  } catch (error) {
    if (error instanceof JsonTooDeepError) return { kind: 'invalid', problem: `a message of ${text.length} characters with ${error.message}` };
    return { kind: 'invalid', problem: `not JSON (${text.length} characters starting ${JSON.stringify(text.slice(0, 40))})` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { kind: 'invalid', problem: 'a frame must be a JSON object' };
  }
  const type = (value as { type?: unknown }).type;
  if (typeof type !== 'string' || type === '') return { kind: 'invalid', problem: 'a frame needs a string `type`' };
  if (type.includes('.')) {
    const parsed = parseEnvelope(value);
    return parsed.ok ? { kind: 'event', event: parsed.value } : { kind: 'invalid', problem: parsed.problem };
  }
  if (!KNOWN_FRAME_TYPES.has(type)) return { kind: 'unknown-frame', type: type.slice(0, 64) };
  const frame = safeParseEnglish(inboundFrameSchema, value);
  if (!frame.success) return { kind: 'invalid', problem: `malformed \`${type}\` frame: ${describeZodError(frame.error)}` };
  return { kind: 'frame', frame: boundFrameText(frame.data) };
}

/** The hub's words that end up in sentences for the user, cut like an event's (see bounds.ts). */
function boundFrameText(frame: InboundFrame): InboundFrame {
  if (frame.type === 'error') {
    frame.code = capText(frame.code, EVENT_BOUNDS.identifier);
    if (frame.detail !== undefined) frame.detail = capText(frame.detail, EVENT_BOUNDS.text);
    if (frame.versions !== undefined) frame.versions = boundVersions(frame.versions);
  } else if (frame.type === 'hello') {
    frame.versions = boundVersions(frame.versions);
  } else if (frame.type === 'closing' && frame.reason !== undefined) {
    frame.reason = capText(frame.reason, EVENT_BOUNDS.label);
  }
  return frame;
}

const MAX_VERSIONS = 16;

/** A version list short enough to name in a sentence; ours stays in it when the hub listed it. */
function boundVersions(versions: string[]): string[] {
  if (versions.length <= MAX_VERSIONS && versions.every((version) => version.length <= 40)) return versions;
  const kept = versions.slice(0, MAX_VERSIONS).map((version) => clip(version, 40));
  if (versions.includes(AEP_VERSION) && !kept.includes(AEP_VERSION)) kept[MAX_VERSIONS - 1] = AEP_VERSION;
  return kept;
}
