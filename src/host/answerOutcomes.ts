import type { StoredCommand } from '../aep/client/commandStore';
import type { SendOutcome } from '../aep/client/controlSender';
import { fieldNamedIn } from '../aep/nackField';
import type { HostToWebview } from '../shared/webviewMessages';
import { agentName } from './describe';
import { t } from './l10n';
import { describeOutcome } from './outcomeMessages';

/** What the request page is told about one answer. */
export type OutcomeMessage = Extract<HostToWebview, { type: 'outcome' }>;

/** An answer just handed over: on its way now, or waiting for the connection. */
export function sendingMessage(submitId: string, agentText: string, connected: boolean): OutcomeMessage {
  return connected
    ? { type: 'outcome', submitId, phase: 'sending', message: t('Sending to {0}…', agentName(agentText)) }
    : { type: 'outcome', submitId, phase: 'queued', message: t('Not connected to the hub: the answer waits here and goes out as soon as the connection is back.') };
}

/**
 * How an answer settled. A timeout offers "Send again", which repeats the
 * same command id (AEP-0004 §2.3), so the page's `retry` names this `submitId`.
 */
export function outcomeMessage(submitId: string, outcome: SendOutcome, agentText: string, fieldIds: readonly string[]): OutcomeMessage {
  // A request closed first ends the answer on the page as a cancelled one does; the message says whether it was sent.
  const phase = outcome.kind === 'refused-by-hub' ? 'refused' : outcome.kind === 'request-closed' || outcome.kind === 'not-kept' ? 'cancelled' : outcome.kind;
  const invalidField = outcome.kind === 'rejected' && outcome.reason === 'invalid' ? fieldNamedIn(outcome.detail, fieldIds) : undefined;
  return {
    type: 'outcome', submitId, phase, message: describeOutcome(outcome, agentText).message,
    ...(invalidField ? { fieldId: invalidField } : {}),
    ...(outcome.kind === 'timeout' ? { canRetry: true } : {}),
  };
}

/** The request a page shows, as the kept commands name it (`subject`, and the session and emitter they are addressed to). */
export interface AnsweredRequest {
  requestId: string;
  session: string;
  source: string;
}

/**
 * The answers to one request still kept unsettled (commandStore.ts), told to
 * a page that did not send them or no longer shows them: a window reload, or
 * the page rebuilt when shown again. Each goes under its command id as
 * `submitId`, so the page offers what the page that sent it would: a
 * timed-out one "Send again" (same id), one in flight nothing but waiting.
 * An answer whose outcome is unknown is "sent, waiting for the
 * acknowledgement", never "not sent": it is resent, unchanged, until it
 * settles. Timed-out ones come first, so one still in flight decides what
 * the page leaves enabled.
 */
export function keptAnswerMessages(
  kept: readonly StoredCommand[],
  request: AnsweredRequest,
  agentText: string,
  connected: boolean,
): OutcomeMessage[] {
  const mine = kept.filter(
    (command) => command.subject === request.requestId && command.target.session === request.session && command.target.source === request.source,
  );
  // Kept without its text (a reload): not sent again, and said so, so the page is open to a new answer.
  const withheld = mine.filter((command) => command.withheld === true);
  const timedOut = mine.filter((command) => command.timedOut === true && command.withheld !== true);
  const inFlight = mine.filter((command) => command.timedOut !== true && command.withheld !== true);
  const agent = agentName(agentText);
  return [
    ...withheld.map((command) => outcomeMessage(command.id, { kind: 'not-kept', commandId: command.id, sent: command.unsent !== true }, agentText, [])),
    ...timedOut.map((command) => outcomeMessage(command.id, { kind: 'timeout', commandId: command.id, afterMs: command.ackWindowMs }, agentText, [])),
    ...inFlight.map((command): OutcomeMessage => {
      if (command.unsent) return sendingMessage(command.id, agentText, connected);
      // Connected, the client has written it again already; offline, it will be once the connection is back.
      const message = connected
        ? t('Sent; waiting for {0} to acknowledge it.', agent)
        : describeOutcome({ kind: 'awaiting-ack', commandId: command.id, sent: true }, agentText).message;
      return { type: 'outcome', submitId: command.id, phase: 'awaiting-ack', message };
    }),
  ];
}
