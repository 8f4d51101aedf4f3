import * as z from 'zod/mini';
import { validateFilter, type AttrFilter } from '../../src/aep/attrMatch';
import { resumePositionSchema, ROLES, type ResumePosition, type Role } from '../../src/aep/frames';
import { CAPTURE_LEVELS, type CaptureLevel } from '../../src/aep/levels';
import { describeZodError, safeParseEnglish } from '../../src/aep/result';

// Frames a client sends to the hub (AEP-0003 §4, §4.1, §6.5), read from
// untrusted text. Each reader returns what the hub needs or the error frame
// the spec names for that case.

export interface ClientHello {
  versions: string[];
  role: Role;
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

export function readHello(value: unknown): { ok: true; hello: ClientHello } | { ok: false; detail: string } {
  const parsed = safeParseEnglish(helloSchema, value);
  if (!parsed.success) return { ok: false, detail: `malformed hello: ${describeZodError(parsed.error)}` };
  const identity: ClientHello['identity'] = {};
  if (parsed.data.identity?.agent !== undefined) identity.agent = parsed.data.identity.agent;
  if (parsed.data.identity?.instance !== undefined) identity.instance = parsed.data.identity.instance;
  return {
    ok: true,
    hello: {
      versions: parsed.data.versions,
      // A hello that names no role only watches.
      role: parsed.data.role ?? 'consumer',
      identity,
      capabilities: parsed.data.capabilities ?? {},
    },
  };
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
