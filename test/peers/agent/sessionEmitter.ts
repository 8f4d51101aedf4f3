// One session the demo agent owns (AEP-0001 §5, §7): its source URI, its
// strictly increasing `seq`, its epoch, and the serialized text of every event
// it mints (the text is what goes on the wire, and what a recorded ack keeps).
import { AEP_VERSION } from '../../../src/aep/envelope';
import type { CaptureLevel, Severity } from '../../../src/aep/levels';
import { ulid } from '../../../src/base/ulid';

/** Who the agent is on the wire. */
export interface AgentIdentity {
  /** Envelope `agent`, and `hello.identity.agent`. */
  agent: string;
  /** The `{host}` of `aep://{host}/agent/{agent}/session/{session}`. */
  host: string;
  /** AEP-0001 §7.2: the order is `(epoch, seq)`; fresh session ids per run make 0 honest. */
  epoch: number;
}

/** A sequenced event of one of our sessions, in wire attribute order. */
export interface OutboundEvent {
  aep: typeof AEP_VERSION;
  id: string;
  type: string;
  subject?: string;
  time: string;
  source: string;
  agent: string;
  session: string;
  run?: string;
  seq: number;
  epoch: number;
  cause?: string;
  severity?: Severity;
  capture: CaptureLevel;
  data?: Record<string, unknown>;
}

/** An event as minted: the value, and the exact text sent (and, for an ack, resent). */
export interface Emitted {
  event: OutboundEvent;
  text: string;
}

export interface EventFields {
  subject?: string;
  /** The run within the session (AEP-0001 §5.2), for `run.*` events. */
  run?: string;
  cause?: string;
  severity?: Severity;
  capture?: CaptureLevel;
  data?: Record<string, unknown>;
}

/** The host part of a source URI: lower case, and nothing that would break the URI. */
export function sourceHostName(host: string): string {
  const cleaned = host.toLowerCase().replace(/[^a-z0-9.-]/g, '-');
  return cleaned === '' ? 'localhost' : cleaned;
}

export class SessionEmitter {
  readonly source: string;
  private seq = 0;
  private endedFlag = false;
  readonly startedAt: number;

  constructor(
    readonly session: string,
    private readonly identity: AgentIdentity,
    private readonly newId: (now: number) => string = ulid,
    now: number = Date.now(),
  ) {
    this.source = `aep://${sourceHostName(identity.host)}/agent/${encodeURIComponent(identity.agent)}/session/${encodeURIComponent(session)}`;
    this.startedAt = now;
  }

  get ended(): boolean {
    return this.endedFlag;
  }

  /** The `seq` the next event will carry. */
  get nextSeq(): number {
    return this.seq;
  }

  /** Mints the next sequenced event. Absent optionals are omitted, never null (AEP-0001 §5.1). */
  emit(type: string, fields: EventFields, now: number): Emitted {
    if (this.endedFlag) throw new Error(`session ${this.session} has ended; it emits nothing more`);
    const event: OutboundEvent = {
      aep: AEP_VERSION,
      id: this.newId(now),
      type,
      ...(fields.subject !== undefined ? { subject: fields.subject } : {}),
      time: new Date(now).toISOString(),
      source: this.source,
      agent: this.identity.agent,
      session: this.session,
      ...(fields.run !== undefined ? { run: fields.run } : {}),
      seq: this.seq++,
      epoch: this.identity.epoch,
      ...(fields.cause !== undefined ? { cause: fields.cause } : {}),
      ...(fields.severity !== undefined ? { severity: fields.severity } : {}),
      capture: fields.capture ?? 'metadata',
      ...(fields.data !== undefined ? { data: fields.data } : {}),
    };
    if (type === 'session.ended') this.endedFlag = true;
    return { event, text: JSON.stringify(event) };
  }
}
