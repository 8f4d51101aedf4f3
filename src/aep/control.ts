import * as z from 'zod/mini';
import type { Answer, AttentionRequest } from './attention';
import { commandCapture, type CaptureChoice, type DecidedCapture, type PartChange } from './capture';
import { AEP_VERSION, type AepEvent } from './envelope';
import { describeZodError, parsedOk, parsedProblem, safeParseEnglish, type Parsed } from '../base/result';
import { ulid } from '../base/ulid';

export const RESPOND_TYPE = 'control.attention.respond';
export const ACCEPTED_TYPE = 'control.accepted';
export const REJECTED_TYPE = 'control.rejected';

/** AEP-0004 §3: the ack window when the target declared none. */
export const DEFAULT_ACK_WINDOW_MS = 10_000;

/** AEP-0004 §3 reasons; `timeout` is synthesized by the sender, never on the wire. */
export const REJECT_REASONS = ['unsupported', 'unauthorized', 'busy', 'refused', 'invalid'] as const;
export type RejectReason = (typeof REJECT_REASONS)[number];

const rejectedDataSchema = z.object({
  // Read as any string so a reason from a newer revision still settles the command.
  reason: z.string().check(z.minLength(1)),
  detail: z.optional(z.string()),
});
export type RejectedData = z.infer<typeof rejectedDataSchema>;

export function readRejected(event: AepEvent): Parsed<RejectedData> {
  const result = safeParseEnglish(rejectedDataSchema, event.data ?? {});
  if (result.success) return parsedOk(result.data);
  return parsedProblem(`control.rejected from ${event.agent} is malformed: ${describeZodError(result.error)}`);
}

/** Who we are when we send commands: an ordinary emitter identity (AEP-0004 §2.2). */
export interface SenderIdentity {
  agent: string;
  /** Our source URI, e.g. `aep://{host}/agent/{agent}`. */
  source: string;
}

export type RespondCommand = AepEvent & {
  type: typeof RESPOND_TYPE;
  session: string;
  subject: string;
  cause: string;
  data: { answer: Answer };
};

/** Why no command was built: the pipeline would change free text the sender did not choose to send verbatim. */
export interface RespondRefusal {
  reason: 'would-redact';
  /** What the pipeline would replace, part by part (never logged: it is the user's text). */
  changes: PartChange[];
  /** How many parts, all changes together. */
  parts: number;
}

/** A command, or a refusal: there is no way to get `redacted` on text the pipeline would change. */
export type RespondBuild = { ok: true; command: RespondCommand } | { ok: false; refusal: RespondRefusal };

/**
 * Builds the `control.attention.respond` for a request (AEP-0004 §2, §5, §6):
 * addressed to the request's session, `subject` and `cause` = the request id,
 * no `seq` (the sender does not own the target's order), and an honest
 * capture (capture.ts `commandCapture`): `metadata` with no free text,
 * `redacted` when the AEP-0003 §9.4 pipeline changes none of it, `full` when
 * the sender chose to send as typed text the pipeline would change. Anything
 * else is refused, never labelled `redacted`. Keep the returned envelope: a
 * retry MUST resend it unchanged, same `id` (AEP-0004 §2.3). Given a
 * capture already decided (the answer pipeline, src/answer), it stamps
 * that one and decides nothing again.
 */
export function buildRespondCommand(
  request: Pick<AttentionRequest, 'id' | 'session' | 'fields'>,
  answer: Answer,
  sender: SenderIdentity,
  now: number = Date.now(),
  choice: CaptureChoice | DecidedCapture = {},
): RespondBuild {
  const decision = isDecided(choice) ? choice : commandCapture(answer, request.fields, choice);
  if (!decision.ok) {
    const count = decision.changes.reduce((n, change) => n + change.replacements.length, 0);
    return {
      ok: false,
      refusal: {
        reason: 'would-redact',
        changes: decision.changes,
        parts: count,
      },
    };
  }
  return { ok: true, command: respondCommand(request, answer, sender, decision, now) };
}

/** The envelope for an answer whose capture is decided already (the answer pipeline): stamped, never decided again. */
export function respondCommand(
  request: Pick<AttentionRequest, 'id' | 'session'>,
  answer: Answer,
  sender: SenderIdentity,
  decided: DecidedCapture,
  now: number = Date.now(),
): RespondCommand {
  return {
    aep: AEP_VERSION,
    id: ulid(now),
    type: RESPOND_TYPE,
    time: new Date(now).toISOString(),
    source: sender.source,
    agent: sender.agent,
    session: request.session,
    subject: request.id,
    cause: request.id,
    capture: decided.capture,
    data: { answer },
  };
}

function isDecided(choice: CaptureChoice | DecidedCapture): choice is DecidedCapture {
  return 'capture' in choice;
}
