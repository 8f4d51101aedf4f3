// From a person's Send on the page to the socket, six hops (issue "One owner for an answer"):
//   1. webview/answerForm.ts AnswerArea.hand -> webview/main.ts submit (the area's send callback)
//   2. webview/main.ts submit -> src/app/page/requestPageController.ts RequestPageController.submit (the 'submit' webview message)
//   3. RequestPageController.submit -> src/app/hubs/hubs.ts Hubs.answer (the controller's injected `answer`, wired in requestPages.ts)
//   4. Hubs.answer -> AnswerPipeline.submit (here: admit, check, decide the capture, record)
//   5. AnswerPipeline.submit -> src/client/controlSender.ts ControlSender.respond (builds with control.ts
//      respondCommand, keeps it in the CommandStore, writes it)
//   6. ControlSender.write -> src/client/hubSocket.ts HubSocket.send (through the writer HubClient hands it on connect)
// The quick input, the notification and Answer Next enter at hop 3.
import { answerSchema, type Answer, type AttentionRequest } from '../aep/attention';
import { checkAnswer, type AnswerProblem } from '../aep/answerCheck';
import { decideCapture, type CaptureChoice, type PartChange } from '../aep/capture';
import type { CaptureLevel } from '../aep/levels';
import { canonicalJson } from '../base/json';
import type { StoredCommand } from '../client/commandStore';
import type { AnswerSender, SendHooks, SendOutcome } from '../client/controlSender';
import type { RespondCommand } from '../aep/control';
import { isOpenStatus, type AttentionStatus, type ClosedStatus } from '../inbox/inbox';
import type { SentAnswer } from '../inbox/recordedAnswer';

/** Every place a person can answer from. Each names itself, so a refusal can be traced to the surface that asked. */
export const ANSWER_SURFACES = ['page', 'quick-input', 'notification', 'answer-next', 'similar'] as const;
export type AnswerSurface = (typeof ANSWER_SURFACES)[number];

/**
 * What became of the answer to one request, as the pipeline tracks it.
 * `queued` (not written yet, offline) and `awaiting-ack` (written, no ack)
 * are both in flight: the agent may still act on that command. `ack-timed-out`:
 * no acknowledgement within the ack window (AEP-0004 §3), not the agent's
 * `attention.timeout` (that is the request's status `timed-out`).
 */
export type AnswerState = 'queued' | 'awaiting-ack' | 'accepted' | 'refused' | 'invalid' | 'ack-timed-out' | 'not-sent' | 'request-closed';

/**
 * The one home of what became of a request's answer: every surface (the
 * page, the quick input, the notification, Answer Next) reads it here, none
 * keeps a copy of its own.
 */
export interface AnswerRecord {
  state: AnswerState;
  /** The command in flight or settled last; the one "Send Again" repeats (AEP-0004 §2.3). */
  commandId: string;
  surface: AnswerSurface | 'restored';
  /** How it settled, for the surface's words; absent while in flight. */
  outcome?: SendOutcome;
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
  /** `closed`: how it ended; absent when the inbox no longer holds the request. */
  | { code: 'request-closed'; closed?: ClosedStatus }
  | { code: 'unreadable' }
  | { code: 'answered-elsewhere' }
  /**
   * The agent recorded an answer (`attention.answered`, AEP-0002 §7), given elsewhere or this window's own
   * whose acknowledgement never came: the request stays open until it is resolved, but another answer would
   * contradict the one the agent applies, and the same one would change nothing.
   */
  | { code: 'already-answered' }
  | { code: 'not-accepting' }
  | { code: 'invalid'; problem: AnswerProblem; fieldId?: string }
  | { code: 'would-redact'; changes: PartChange[] };

/** Where a request's answer goes (the hub) and which request it answers (AEP-0001 dedupes by `(source, id)`). */
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

/**
 * A command that timed out and then settled (a late ack, a late refusal by
 * the hub). `current`: it is still the request's answer, so the record now
 * says how it ended; false when a newer answer took its place.
 */
export interface LateSettlement {
  key: AnswerKey;
  outcome: SendOutcome;
  current: boolean;
}

/**
 * What a submit became, at once: refused before anything was built, or on its
 * way (the sender's outcome to come). `retry`: the same answer as one that got
 * no acknowledgement, and it went as Send Again, the same command under the
 * same id (AEP-0004 §2.3). `unacknowledged`: a new command after one that got
 * none, while the agent may already have applied that one; `sameAnswer` when
 * it carries that one's answer but the sender no longer held that command.
 */
export type AnswerResult =
  | { kind: 'refused'; refusal: AnswerRefusal }
  | { kind: 'sending'; outcome: Promise<SendOutcome>; retry?: { commandId: string }; unacknowledged?: { commandId: string; sameAnswer?: true } };


/** What the caller of submit/resend also hears: the command before it goes (the answer history). */
export interface SubmitHooks {
  built?(command: RespondCommand): void;
}

/** Records kept; oldest go first (a request closes within minutes, not hundreds of answers later). */
const MAX_RECORDS = 512;
/** Commands remembered per request for `sentAnswers`; a person sends a few at most (a refusal, a fix). */
const MAX_SENT = 8;

/**
 * A request's record, whichever hub delivered it: `(source, id)` is one request (AEP-0001 §5.1), so a copy
 * a second hub delivers (one hub under two addresses) is refused while the first copy's answer is on its way.
 */
function recordKey(key: AnswerKey): string {
  return `${key.source}\u0000${key.requestId}`;
}

// The one capture decision; defined beside the rules it applies, so the page's bundle can preview with it too.
export { decideCapture } from '../aep/capture';

function settledState(outcome: SendOutcome): AnswerState | undefined {
  switch (outcome.kind) {
    case 'accepted': return 'accepted';
    // `invalid` leaves the request pending: the person fixes the answer and sends a new one.
    case 'rejected': return outcome.reason === 'invalid' ? 'invalid' : 'refused';
    case 'refused-by-hub': return 'refused';
    case 'timeout': return 'ack-timed-out';
    case 'cancelled':
    case 'not-kept': return 'not-sent';
    case 'request-closed': return 'request-closed';
    // Kept in the store for the next client: the store's record speaks for it from now on.
    case 'awaiting-ack': return undefined;
  }
}

/**
 * What the hub's kept commands (commandStore.ts, which outlives a reload)
 * say of this request's answer: the one place their flags are read. One in
 * flight wins; else the newest timed out (open to "Send again"); else one
 * kept without its text (not sent again).
 */
function keptRecord(facts: AnswerFacts, surface: AnswerRecord['surface']): AnswerRecord | undefined {
  const mine = facts.kept.filter((command) => command.subject === facts.requestId && command.target.source === facts.source && command.target.session === facts.session);
  const inFlight = mine.find((command) => command.timedOut !== true && command.withheld !== true);
  if (inFlight) return { state: inFlight.unsent ? 'queued' : 'awaiting-ack', commandId: inFlight.id, surface };
  const timedOut = mine.filter((command) => command.timedOut === true && command.withheld !== true).at(-1);
  if (timedOut) return { state: 'ack-timed-out', commandId: timedOut.id, surface, outcome: { kind: 'timeout', commandId: timedOut.id, afterMs: timedOut.ackWindowMs } };
  const withheld = mine.filter((command) => command.withheld === true).at(-1);
  if (withheld) return { state: 'not-sent', commandId: withheld.id, surface, outcome: { kind: 'not-kept', commandId: withheld.id, sent: withheld.unsent !== true } };
  return undefined;
}

function inFlight(record: AnswerRecord | undefined): boolean {
  return record?.state === 'queued' || record?.state === 'awaiting-ack';
}

/**
 * The only way anything is answered: one record per request of the answer
 * in flight and how it ended, and one decision for every surface. A second
 * answer while the first awaits its ack is refused whichever surface sends
 * it, offline and after a reload too (the kept commands count).
 */
export class AnswerPipeline {
  private readonly records = new Map<string, AnswerRecord>();
  private readonly sent = new Map<string, SentAnswer[]>();
  /** What each command of this window carried (`carriedKey`), to tell the same answer sent again from a new one. */
  private readonly carried = new Map<string, string>();

  /** `settledLate`: how a timed-out command ended after all, for the surfaces that showed "no acknowledgement". */
  constructor(private readonly listener: { settledLate?(late: LateSettlement): void } = {}) {}

  /**
   * Every answer this window sent for the request, under its command id, the
   * kept (restored) commands included: what the agent's record is checked
   * against (recordedAnswer.ts).
   */
  sentAnswers(facts: AnswerFacts): SentAnswer[] {
    const own = this.sent.get(recordKey(facts)) ?? [];
    const kept = facts.kept
      .filter((command) => command.subject === facts.requestId && command.target.source === facts.source && !own.some((one) => one.commandId === command.id))
      .flatMap((command): SentAnswer[] => {
        const answer = keptAnswer(command.text);
        return answer ? [{ commandId: command.id, answer }] : [];
      });
    return [...own, ...kept];
  }

  private noteSent(facts: AnswerFacts, commandId: string, answer: Answer): void {
    const key = recordKey(facts);
    const list = this.sent.get(key) ?? [];
    this.sent.delete(key);
    this.sent.set(key, [...list.filter((one) => one.commandId !== commandId), { commandId, answer }].slice(-MAX_SENT));
    for (const oldest of this.sent.keys()) {
      if (this.sent.size <= MAX_RECORDS) break;
      this.sent.delete(oldest);
    }
  }

  /**
   * The request's answer as the pipeline knows it: a kept command in flight
   * (the store knows whether it was written, also for a command restored
   * after a reload), else its own record, else what the store kept of a
   * timed-out or withheld one.
   */
  record(facts: AnswerFacts): AnswerRecord | undefined {
    const own = this.records.get(recordKey(facts));
    const kept = keptRecord(facts, own?.surface ?? 'restored');
    if (kept && inFlight(kept)) return kept;
    return own ?? kept;
  }

  /**
   * How a command an earlier client left (a reload, a rebuild) ended, as
   * its restoring sender reports it: the record says so from now on.
   */
  noteRestored(key: AnswerKey, outcome: SendOutcome): void {
    const state = settledState(outcome);
    const recorded = recordKey(key);
    const own = this.records.get(recorded);
    // A newer answer of this window's own is not overwritten by an older one's ending.
    if (own && own.commandId !== outcome.commandId && (inFlight(own) || own.state === 'accepted')) return;
    if (state === undefined) this.records.delete(recorded);
    else this.keep(recorded, { state, commandId: outcome.commandId, surface: own?.surface ?? 'restored', outcome });
  }

  /** Whether a new answer may go now; `surface` names who asks (every surface gets the same answer). */
  admit(surface: AnswerSurface, facts: AnswerFacts): Admission {
    void surface;
    if (facts.status === undefined) return refuse({ code: 'request-closed' });
    const record = this.record(facts);
    if (record && inFlight(record)) {
      return refuse({ code: 'answer-in-flight', commandId: record.commandId, sent: record.state === 'awaiting-ack' });
    }
    if (record?.state === 'accepted') return refuse({ code: 'answer-accepted', commandId: record.commandId });
    if (!isOpenStatus(facts.status)) return refuse({ code: 'request-closed', closed: facts.status });
    // Every surface as the page says it: answered, "nothing more can be sent from here" (toasts and Answer Similar sent one).
    if (facts.status === 'answered') return refuse({ code: 'already-answered' });
    if (!facts.request) return refuse({ code: 'unreadable' });
    if (!facts.request.answerableHere) return refuse({ code: 'answered-elsewhere' });
    if (facts.notAccepting) return refuse({ code: 'not-accepting' });
    return { ok: true };
  }

  /**
   * Checks, decides the capture once, records the answer as in flight before
   * anything is awaited (so a second submit in the same moment is refused),
   * sends, and records how it ended. The same answer as one that timed out is
   * sent as Send Again, the same command (AEP-0004 §2.3, §7: a retry reuses
   * its id), never as a second one.
   */
  submit(surface: AnswerSurface, facts: AnswerFacts, given: Answer, choice: CaptureChoice, sender: AnswerSender, hooks: SubmitHooks = {}): AnswerResult {
    const admitted = this.admit(surface, facts);
    if (!admitted.ok) return { kind: 'refused', refusal: admitted.refusal };
    const request = facts.request;
    if (!request) return { kind: 'refused', refusal: { code: 'unreadable' } };
    const check = checkAnswer(request, given);
    if (!check.ok) {
      const problem = check.problem;
      return { kind: 'refused', refusal: { code: 'invalid', problem, ...(problem.fieldId ? { fieldId: problem.fieldId } : {}) } };
    }
    // What goes out is what was checked: empty optional values left out, whoever built the answer.
    const answer = check.answer;
    const decision = decideCapture(answer, request, choice);
    if (!decision.ok) return { kind: 'refused', refusal: { code: 'would-redact', changes: decision.changes } };
    const respond = (entry: AnswerRecord) =>
      sender.respond(request, answer, decision, this.hooks(facts, entry, { built: (command) => {
        entry.commandId = command.id;
        this.noteSent(facts, command.id, command.data.answer);
        this.noteCarried(command.id, decision.capture, command.data.answer);
        hooks.built?.(command);
      } }));
    const unacknowledged = this.record(facts);
    if (unacknowledged?.state !== 'ack-timed-out') return { kind: 'sending', outcome: this.track(surface, facts, '', respond) };
    const { commandId } = unacknowledged;
    if (this.carriedBy(facts, commandId) === carriedKey(decision.capture, answer)) {
      // The target may have applied it and only its ack was lost: a new id would be a second answer it refuses
      // or applies twice, so the same answer goes as Send Again. A sender that no longer holds it sends it anew,
      // and the caller is told so: a new command, while the agent may already have applied the first.
      let resent = false;
      const again = (entry: AnswerRecord) => {
        entry.commandId = commandId;
        const same = sender.resend(commandId, this.hooks(facts, entry));
        resent = same !== undefined;
        return same ?? respond(entry);
      };
      const outcome = this.track(surface, facts, commandId, again);
      return resent ? { kind: 'sending', outcome, retry: { commandId } } : { kind: 'sending', outcome, unacknowledged: { commandId, sameAnswer: true } };
    }
    return { kind: 'sending', outcome: this.track(surface, facts, '', respond), unacknowledged: { commandId } };
  }

  /**
   * What the command `commandId` carried: noted when this window built it,
   * else read from the kept envelope (a command from before a reload).
   */
  private carriedBy(facts: AnswerFacts, commandId: string): string | undefined {
    const noted = this.carried.get(commandId);
    if (noted !== undefined) return noted;
    const kept = facts.kept.find((command) => command.id === commandId);
    return kept ? keptCarried(kept.text) : undefined;
  }

  private noteCarried(commandId: string, capture: CaptureLevel, answer: Answer): void {
    this.carried.set(commandId, carriedKey(capture, answer));
    for (const oldest of this.carried.keys()) {
      if (this.carried.size <= MAX_RECORDS) break;
      this.carried.delete(oldest);
    }
  }

  /**
   * "Send Again" of `commandId`, the command the surface showed: the same
   * command under the same id (AEP-0004 §2 item 3), never a second one, so it
   * is allowed while that command is in flight. Only while it is still the
   * request's answer: a surface's offer can outlive it (a newer answer sent
   * from another surface), and what goes is what the person was shown.
   */
  resend(surface: AnswerSurface, facts: AnswerFacts, commandId: string, sender: AnswerSender): Promise<SendOutcome> {
    const record = this.record(facts);
    if (record && record.commandId !== commandId) {
      // In flight, resending an older one would compete with it; settled, it would undo the person's later choice.
      return Promise.resolve({ kind: 'cancelled', commandId, code: inFlight(record) ? 'other-answer-in-flight' : 'answer-replaced' });
    }
    const written = record?.commandId === commandId && record.state === 'awaiting-ack';
    const key = recordKey(facts);
    const before = this.records.get(key);
    return this.track(surface, facts, commandId, (entry) => {
      if (written) entry.state = 'awaiting-ack';
      const again = sender.resend(commandId, this.hooks(facts, entry));
      if (again) return again;
      // Nothing sent (the command settled meanwhile, or another hub's copy of the request sent it): the record stays.
      if (this.records.get(key) === entry) {
        if (before) this.records.set(key, before);
        else this.records.delete(key);
      }
      return Promise.resolve<SendOutcome>({ kind: 'cancelled', commandId, code: 'cannot-resend' });
    });
  }

  /** The sender's news of one command, kept in its record while that record is still this request's. */
  private hooks(facts: AnswerFacts, entry: AnswerRecord, extra: Pick<SendHooks, 'built'> = {}): SendHooks {
    const key = recordKey(facts);
    const current = () => this.records.get(key);
    return {
      ...extra,
      written: () => {
        if (current() === entry && entry.state === 'queued') entry.state = 'awaiting-ack';
      },
      late: (outcome) => {
        const record = current();
        const state = settledState(outcome);
        // Settled after its ack window: the timeout was not the end (a late accept closes the answer, a late refusal
        // says why it was not delivered). A newer answer's record is not overwritten by an older command's ending.
        const stillItsAnswer = record !== undefined && record.commandId === outcome.commandId && record.state === 'ack-timed-out' && state !== undefined;
        if (stillItsAnswer) this.keep(key, { state, commandId: outcome.commandId, surface: record.surface, outcome });
        this.listener.settledLate?.({ key: { hub: facts.hub, source: facts.source, requestId: facts.requestId }, outcome, current: stillItsAnswer });
      },
    };
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
    else this.keep(key, { state, commandId: outcome.commandId || entry.commandId || commandId, surface, outcome });
    return outcome;
  }

  private keep(key: string, record: AnswerRecord): void {
    this.records.delete(key);
    this.records.set(key, record);
    for (const oldest of this.records.keys()) {
      if (this.records.size <= MAX_RECORDS) break;
      this.records.delete(oldest);
    }
  }

  /** A request gone from the inbox: its record goes too (bounded by the inbox). */
  forget(key: AnswerKey): void {
    this.records.delete(recordKey(key));
    this.sent.delete(recordKey(key));
  }
}

/**
 * What a command carries, as one text: its answer and the capture it
 * declares. Two answers with the same key are the same answer, so one sent
 * again is the same command (a different capture is a different envelope).
 */
function carriedKey(capture: string, answer: Answer): string {
  return canonicalJson({ capture, answer });
}

/** `carriedKey` of a kept command's envelope; undefined for a withheld one (no text) or one that does not read. */
function keptCarried(text: string): string | undefined {
  const answer = keptAnswer(text);
  if (!answer) return undefined;
  const capture = (JSON.parse(text) as { capture?: unknown }).capture;
  return typeof capture === 'string' ? carriedKey(capture, answer) : undefined;
}

/** The answer a kept command's envelope carries; a withheld one (no text) or one that does not read carries none. */
function keptAnswer(text: string): Answer | undefined {
  if (text === '') return undefined;
  try {
    const parsed = answerSchema.safeParse((JSON.parse(text) as { data?: { answer?: unknown } } | null)?.data?.answer);
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

function refuse(refusal: AnswerRefusal): Admission {
  return { ok: false, refusal };
}
