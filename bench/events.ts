// Event factories for the benchmarks. Everything here is valid AEP 0.1 that the
// local hub admits; ids are ULIDs like a real emitter's.
import { ulid } from '../src/base/ulid';

export const BENCH_AGENT = 'bench-agent';

/** The golden corpus's four-field deployment form (AEP-0006 `kind: "form"`). */
export const GOLDEN_FORM_FIELDS = [
  { id: 'name', type: 'string', label: 'Service name', required: true },
  { id: 'staged', type: 'boolean', label: 'Deploy to staging first?' },
  { id: 'regions', type: 'select', label: 'Regions', multi: true, choices: [{ id: '1', label: 'us-east' }, { id: '2', label: 'eu-west' }, { id: '3', label: 'ap-south' }] },
  { id: 'db', type: 'select', label: 'Database', other: true, choices: [{ id: '1', label: 'PostgreSQL' }, { id: '2', label: 'SQLite' }] },
];

export function sourceOf(agent: string, session: string): string {
  return `aep://bench-host/agent/${agent}/session/${session}`;
}

export interface EnvelopeBase {
  aep: '0.1';
  id: string;
  type: string;
  time: string;
  source: string;
  agent: string;
  session: string;
  seq: number;
  [key: string]: unknown;
}

/** One owner event in `session` at `seq`. */
export function ownerEvent(type: string, session: string, seq: number, extra: Record<string, unknown> = {}, agent = BENCH_AGENT, id = ulid()): EnvelopeBase {
  return { aep: '0.1', id, type, time: new Date().toISOString(), source: sourceOf(agent, session), agent, session, seq, ...extra };
}

export function formRequest(session: string, seq: number, agent = BENCH_AGENT, fields: unknown[] = GOLDEN_FORM_FIELDS): EnvelopeBase {
  return ownerEvent('attention.requested', session, seq, {
    subject: `deploy-${seq}`, severity: 'notice', capture: 'redacted',
    data: { kind: 'form', prompt: 'Configure the new service deployment', fields, respond_via: ['control'] },
  }, agent);
}

export function answered(session: string, seq: number, requestId: string, agent = BENCH_AGENT): EnvelopeBase {
  return ownerEvent('attention.answered', session, seq, {
    subject: requestId, cause: requestId, capture: 'redacted',
    data: { answer: { values: { name: 'billing-api', staged: true, regions: ['1', '3'], db: 'MariaDB' } }, via: 'control' },
  }, agent);
}

export function resolved(session: string, seq: number, requestId: string, causeId: string, agent = BENCH_AGENT): EnvelopeBase {
  return ownerEvent('attention.resolved', session, seq, {
    subject: requestId, cause: causeId, capture: 'metadata', data: { resolution: 'answered', latency_ms: 5000 },
  }, agent);
}

/**
 * `count` attention events over `sessions` sessions, interleaved round-robin as
 * live traffic would be: each session cycles requested → answered → resolved,
 * so requests open and close and the open set stays small.
 */
export function attentionFlood(count: number, sessions: number, prefix: string): EnvelopeBase[] {
  const out: EnvelopeBase[] = [];
  const state = Array.from({ length: sessions }, (_, i) => ({ session: `${prefix}-${i}`, seq: 0, request: '', answer: '' }));
  for (let n = 0; n < count; n++) {
    const s = state[n % sessions]!;
    const step = s.seq % 3;
    let event: EnvelopeBase;
    if (step === 0) {
      event = formRequest(s.session, s.seq);
      s.request = event.id;
    } else if (step === 1) {
      event = answered(s.session, s.seq, s.request);
      s.answer = event.id;
    } else {
      event = resolved(s.session, s.seq, s.request, s.answer);
    }
    s.seq++;
    out.push(event);
  }
  return out;
}

/**
 * Background chatter. With "Before asking" on (the extension's default) the
 * client subscribes to `tool.completed` (one type in four here); the hub
 * filters out the rest. `AEP_BENCH_CHATTER=actions` makes all of it tool
 * calls the client subscribes to (`tool.requested` / `tool.completed`): the
 * worst case for "Before asking", reported beside the usual figures.
 */
const FILTERED_TYPES: readonly string[] = process.env['AEP_BENCH_CHATTER'] === 'actions'
  ? ['tool.requested', 'tool.completed']
  : ['tool.started', 'tool.completed', 'progress.updated', 'message.delta'];

/**
 * A source of background events: `share` of them are attention events the
 * client subscribes to (a request then its resolution), the rest are tool and
 * progress chatter the hub filters out.
 */
export class BackgroundTraffic {
  private readonly sessions: Array<{ session: string; seq: number; open?: string }>;
  private n = 0;

  constructor(sessions: number, private readonly share: number, prefix: string) {
    this.sessions = Array.from({ length: sessions }, (_, i) => ({ session: `${prefix}-${i}`, seq: 0 }));
  }

  next(): EnvelopeBase {
    const s = this.sessions[this.n++ % this.sessions.length]!;
    const seq = s.seq++;
    // Every 1/share-th event is an attention event: the request when none is open, else its resolution.
    if (this.n % Math.round(1 / this.share) === 0) {
      if (s.open === undefined) {
        const request = ownerEvent('attention.requested', s.session, seq, {
          severity: 'info', capture: 'metadata', data: { kind: 'input', prompt: 'Continue?' },
        }, 'bench-noise');
        s.open = request.id;
        return request;
      }
      const closing = ownerEvent('attention.resolved', s.session, seq, { subject: s.open, data: { resolution: 'answered' } }, 'bench-noise');
      s.open = undefined;
      return closing;
    }
    const type = FILTERED_TYPES[seq % FILTERED_TYPES.length]!;
    return ownerEvent(type, s.session, seq, { severity: 'debug', data: { tool: 'bash', n: seq } }, 'bench-noise');
  }
}
