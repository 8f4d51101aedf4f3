import * as z from 'zod/mini';
import { validateFilter, type AttrFilter } from '../../../src/aep/attrMatch';
import { resumePositionSchema, ROLES, type ResumePosition, type Role } from '../../../src/aep/frames';
import { parseUntrustedJson } from '../../../src/base/json';
import { CAPTURE_LEVELS, type CaptureLevel } from '../../../src/aep/levels';
import { describeZodError, safeParseEnglish } from '../../../src/base/result';

// Frames a client sends to the hub (AEP-0003 §4, §4.1, §6.5), read from
// untrusted text. Each reader returns what the hub needs or the error frame
// the spec names for that case.

export interface ClientHello {
  versions: string[];
  /** As declared. AEP-0003 §4 names no default, so an absent role gates nothing. */
  role: Role | undefined;
  identity: { agent?: string; instance?: string };
  /** Kept as sent: the roster relays declarations verbatim (AEP-0003 §4.1 rule 4). */
  capabilities: Record<string, unknown>;
}

const helloSchema = z.object({
  type: z.literal('hello'),
  versions: z.array(z.string()),
  role: z.optional(z.enum(ROLES)),
  identity: z.optional(z.catchall(z.object({ agent: z.optional(z.string()), instance: z.optional(z.string()) }), z.unknown())),
  capabilities: z.optional(z.record(z.string(), z.unknown())),
});

/** One frame's text as the JSON object every frame is (AEP-0003 §2), or why it is not one. */
export function readFrameObject(text: string): { ok: true; frame: Record<string, unknown> } | { ok: false; detail: string } {
  let value: unknown;
  try {
    value = parseUntrustedJson(text);
  } catch {
    return { ok: false, detail: 'the frame is not JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, detail: 'a frame must be a JSON object' };
  return { ok: true, frame: value as Record<string, unknown> };
}

export function readHello(value: unknown): { ok: true; hello: ClientHello } | { ok: false; detail: string } {
  const parsed = safeParseEnglish(helloSchema, value);
  if (!parsed.success) return { ok: false, detail: `malformed hello: ${describeZodError(parsed.error)}` };
  const { role } = parsed.data;
  const identity: ClientHello['identity'] = {};
  if (parsed.data.identity?.agent !== undefined) identity.agent = parsed.data.identity.agent;
  if (parsed.data.identity?.instance !== undefined) identity.instance = parsed.data.identity.instance;
  // AEP-0003 §4 rule 3. `both` emits too. Non-empty, since it names the envelope `agent`
  // of the events to come, which is never empty (AEP-0001 §5.1 #7).
  if ((role === 'emitter' || role === 'both') && !identity.agent) {
    return { ok: false, detail: `a hello with role "${role}" must name identity.agent, the agent its events carry (AEP-0003 §4 rule 3)` };
  }
  return { ok: true, hello: { versions: parsed.data.versions, role, identity, capabilities: parsed.data.capabilities ?? {} } };
}

export type SubscribeRequest = {
  id: string;
  filter: AttrFilter;
  capture: CaptureLevel | undefined;
  from: ResumePosition[] | 'all' | undefined;
};

export type SubscribeError = { code: 'invalid-filter' | 'limit-exceeded'; detail: string; id?: string };

const subscribeSchema = z.catchall(z.object({ type: z.literal('subscribe'), id: z.string().check(z.minLength(1)) }), z.unknown());

export function readSubscribe(
  value: Record<string, unknown>,
  maxFromPositions: number,
): { ok: true; request: SubscribeRequest } | { ok: false; error: SubscribeError } {
  const head = subscribeSchema.safeParse(value);
  if (!head.success) return { ok: false, error: { code: 'invalid-filter', detail: 'subscribe needs a non-empty string `id`' } };
  const id = head.data.id;
  const fail = (code: SubscribeError['code'], detail: string) => ({ ok: false as const, error: { code, detail, id } });
  const filter = validateFilter(value['filter'] ?? {});
  if (!filter.ok) return fail('invalid-filter', filter.problem);
  const capture = value['capture'];
  if (capture !== undefined && !(CAPTURE_LEVELS as readonly unknown[]).includes(capture)) {
    return fail('invalid-filter', '`capture` must be one of none, metadata, redacted, full');
  }
  const from = value['from'];
  let positions: ResumePosition[] | 'all' | undefined;
  if (from === undefined || from === 'all') {
    positions = from;
  } else if (Array.isArray(from)) {
    if (from.length > maxFromPositions) {
      return fail('limit-exceeded', `\`from\` names ${from.length} positions; this hub replays at most ${maxFromPositions} per subscribe`);
    }
    const parsed = safeParseEnglish(z.array(resumePositionSchema), from);
    if (!parsed.success) return fail('invalid-filter', `malformed \`from\`: ${describeZodError(parsed.error)}`);
    positions = parsed.data;
  } else {
    return fail('invalid-filter', '`from` must be an array of {session, epoch, seq} positions or "all" (AEP-0003 §6.5)');
  }
  return { ok: true, request: { id, filter: filter.value, capture: capture as CaptureLevel | undefined, from: positions } };
}
