import type { Answer, AttentionRequest } from '../attention';
import { answerProblem, type AnswerProblem } from '../answerCheck';
import { commandCapture, type CaptureChoice, type DecidedCapture, type PartChange } from '../capture';
import type { StoredCommand } from '../client/commandStore';
import type { SendOutcome } from '../client/controlSender';
import { isOpenStatus, type AttentionStatus } from '../inbox/inbox';

/** Every place a person can answer from. Each names itself, so a refusal can be traced to the surface that asked. */
export const ANSWER_SURFACES = ['page', 'quick-input', 'notification', 'answer-next'] as const;
export type AnswerSurface = (typeof ANSWER_SURFACES)[number];

/**
 * What became of the answer to one request, as the pipeline tracks it.
 * `queued` (not written yet, offline) and `awaiting-ack` (written, no ack)
 * are both in flight: the agent may still act on that command.
 */
export type AnswerState = 'queued' | 'awaiting-ack' | 'accepted' | 'refused' | 'timed-out' | 'not-sent' | 'request-closed';

export interface AnswerRecord {
  state: AnswerState;
  /** The command in flight or settled last; the one "Send Again" repeats (AEP-0004 §2.3). */
  commandId: string;
  surface: AnswerSurface | 'restored';
}

/**
 * Why nothing was sent, as one typed code per reason; only the UI words it.
 * `answer-in-flight` carries what is still possible: wait for the ack, or
 * send the SAME command again (AEP-0004 §2 item 3: a retry MUST reuse the
 * envelope `id`, and the target re-acks instead of acting twice). A
 * different answer is possible only once that one settled as refused or timed out.
 */
export type AnswerRefusal =
  | { code: 'answer-in-flight'; commandId: string; sent: boolean }
  | { code: 'answer-accepted'; commandId: string }
  | { code: 'request-closed' }
  | { code: 'unreadable' }
  | { code: 'answered-elsewhere' }
  | { code: 'not-accepting' }
  | { code: 'invalid'; problem: AnswerProblem; fieldId?: string }
  | { code: 'would-redact'; changes: PartChange[] };

/** The one key of a request's answer: hub, request source and id (AEP-0001 dedupes by `(source, id)`). */
export interface AnswerKey {
  hub: string;
  source: string;
  requestId: string;
}

/** What a surface knows of the request when the person answers; the same facts for every surface. */
export interface AnswerFacts extends AnswerKey {
  session: string;
  request: AttentionRequest | undefined;
  status: AttentionStatus | undefined;
  /** The agent takes no answers from editors (roster `accepts`, or a watch-only hub). */
  notAccepting: boolean;
  /**
   * The hub's kept unsettled commands (commandStore.ts): an answer queued
   * offline, or restored after a window reload, is in flight here too.
   */
  kept: readonly StoredCommand[];
}

export type Admission = { ok: true } | { ok: false; refusal: AnswerRefusal };

/** What a submit became, at once: refused before anything was built, or on its way (the sender's outcome to come). */
export type AnswerResult = { kind: 'refused'; refusal: AnswerRefusal } | { kind: 'sending'; outcome: Promise<SendOutcome> };

/** Hands the command over with the capture decided here; control.ts stamps it, never decides it again. */
/** `built` hears the new command's id before it goes, so a refusal can offer "Send Again" of it. */
export type SendAnswer = (answer: Answer, capture: DecidedCapture, built: (commandId: string) => void) => Promise<SendOutcome>;

/** Records kept; oldest go first (a request closes within minutes, not hundreds of answers later). */
const MAX_RECORDS = 512;

function recordKey(key: AnswerKey): string {
  return `${key.hub}\u0000${key.source}\u0000${key.requestId}`;
}

/**
 * The capture an answer declares, decided once (AEP-0004 §5, AEP-0003 §9.4):
 * the page and the quick input preview with it, the pipeline sends with it.
 */
export function decideCapture(answer: Answer, request: Pick<AttentionRequest, 'fields'>, choice: CaptureChoice = {}) {
  return commandCapture(answer, request.fields, choice);
}

function settledState(outcome: SendOutcome): AnswerState | undefined {
  switch (outcome.kind) {
    case 'accepted': return 'accepted';
    case 'rejected':
    case 'refused-by-hub': return 'refused';
    case 'timeout': return 'timed-out';
    case 'cancelled':
    case 'not-kept': return 'not-sent';
    case 'request-closed': return 'request-closed';
    // Kept in the store for the next client: the store's record speaks for it from now on.
    case 'awaiting-ack': return undefined;
  }
}

/** A kept command for this request still in flight (neither timed out nor kept without its text). */
function keptInFlight(facts: AnswerFacts): StoredCommand | undefined {
  return facts.kept.find(
    (command) => command.subject === facts.requestId && command.target.source === facts.source && command.target.session === facts.session &&
      command.timedOut !== true && command.withheld !== true,
  );
}

/**
 * The only way anything is answered: one record per request of the answer
 * in flight and how it ended, and one decision for every surface. A second
 * answer while the first awaits its ack is refused whichever surface sends
 * it, offline and after a reload too (the kept commands count).
 */
export class AnswerPipeline {
  private readonly records = new Map<string, AnswerRecord>();

  /** The request's answer as the pipeline knows it: its own record, else a kept command in flight. */
  record(facts: AnswerFacts): AnswerRecord | undefined {
    const own = this.records.get(recordKey(facts));
    const kept = keptInFlight(facts);
    // The store knows the command's id and whether it was written; ours knows the surface.
    if (kept) return { state: kept.unsent ? 'queued' : 'awaiting-ack', commandId: kept.id, surface: own?.surface ?? 'restored' };
    return own;
  }

  /** Whether a new answer may go now; `surface` names who asks (every surface gets the same answer). */
  admit(surface: AnswerSurface, facts: AnswerFacts): Admission {
    void surface;
    if (facts.status === undefined) return refuse({ code: 'request-closed' });
    const record = this.record(facts);
    if (record && (record.state === 'queued' || record.state === 'awaiting-ack')) {
      return refuse({ code: 'answer-in-flight', commandId: record.commandId, sent: record.state === 'awaiting-ack' });
    }
    if (record?.state === 'accepted') return refuse({ code: 'answer-accepted', commandId: record.commandId });
    if (!isOpenStatus(facts.status)) return refuse({ code: 'request-closed' });
    if (!facts.request) return refuse({ code: 'unreadable' });
    if (!facts.request.answerableHere) return refuse({ code: 'answered-elsewhere' });
    if (facts.notAccepting) return refuse({ code: 'not-accepting' });
    return { ok: true };
  }

  /**
   * Checks, decides the capture once, records the answer as in flight before
   * anything is awaited (so a second submit in the same moment is refused),
   * sends, and records how it ended.
   */
  submit(surface: AnswerSurface, facts: AnswerFacts, answer: Answer, choice: CaptureChoice, send: SendAnswer): AnswerResult {
    const admitted = this.admit(surface, facts);
    if (!admitted.ok) return { kind: 'refused', refusal: admitted.refusal };
    const request = facts.request;
    if (!request) return { kind: 'refused', refusal: { code: 'unreadable' } };
    const problem = answerProblem(request, answer);
    if (problem) return { kind: 'refused', refusal: { code: 'invalid', problem, ...(problem.fieldId ? { fieldId: problem.fieldId } : {}) } };
    const decision = decideCapture(answer, request, choice);
    if (!decision.ok) return { kind: 'refused', refusal: { code: 'would-redact', changes: decision.changes } };
    return { kind: 'sending', outcome: this.track(surface, facts, '', (entry) => send(answer, decision, (id) => (entry.commandId = id))) };
  }

  /**
   * "Send Again": the same command under the same id (AEP-0004 §2 item 3),
   * never a second one, so it is allowed while that command is in flight.
   */
  resend(surface: AnswerSurface, facts: AnswerFacts, commandId: string, resend: () => Promise<SendOutcome>): Promise<SendOutcome> {
    const record = this.record(facts);
    if (record && record.commandId !== commandId && (record.state === 'queued' || record.state === 'awaiting-ack')) {
      // Another command is in flight: resending an older one would compete with it.
      return Promise.resolve({ kind: 'cancelled', commandId, code: 'other-answer-in-flight' });
    }
    return this.track(surface, facts, commandId, () => resend());
  }

  /** Records the answer in flight now, synchronously, and how it ends once it does. */
  private track(surface: AnswerSurface, facts: AnswerFacts, commandId: string, start: (entry: AnswerRecord) => Promise<SendOutcome>): Promise<SendOutcome> {
    const key = recordKey(facts);
    const entry: AnswerRecord = { state: 'queued', commandId, surface };
    this.records.set(key, entry);
    return this.settle(key, entry, surface, start(entry), commandId);
  }

  private async settle(key: string, entry: AnswerRecord, surface: AnswerSurface, sending: Promise<SendOutcome>, commandId: string): Promise<SendOutcome> {
    let outcome: SendOutcome;
    try {
      outcome = await sending;
    } catch (error) {
      if (this.records.get(key) === entry) this.records.delete(key);
      throw error;
    }
    if (this.records.get(key) !== entry) return outcome;
    const state = settledState(outcome);
    if (state === undefined) this.records.delete(key);
    else this.records.set(key, { state, commandId: outcome.commandId || entry.commandId || commandId, surface });
    for (const oldest of this.records.keys()) {
      if (this.records.size <= MAX_RECORDS) break;
      this.records.delete(oldest);
    }
    return outcome;
  }

  /** A request gone from the inbox: its record goes too (bounded by the inbox). */
  forget(key: AnswerKey): void {
    this.records.delete(recordKey(key));
  }
}

function refuse(refusal: AnswerRefusal): Admission {
  return { ok: false, refusal };
}
