import * as l10n from '@vscode/l10n';
import type { AnswerRecord } from '../answer/answerPipeline';
import type { SendOutcome } from '../client/controlSender';
import { fieldNamedIn } from '../aep/nackField';
import type { HostToWebview } from '../shared/webviewMessages';
import { agentName } from './describe';
import { describeOutcome } from './outcomeMessages';

/** What the request page is told about one answer. */
export type OutcomeMessage = Extract<HostToWebview, { type: 'outcome' }>;

/** An answer just handed over: on its way now, or waiting for the connection. */
export function sendingMessage(submitId: string, agentText: string, connected: boolean): OutcomeMessage {
  return connected
    ? { type: 'outcome', submitId, phase: 'sending', message: l10n.t('Sending to {0}…', agentName(agentText)) }
    : { type: 'outcome', submitId, phase: 'queued', message: l10n.t('Not connected to the hub: the answer waits here and goes out as soon as the connection is back.') };
}

/** What a send was, as the pipeline said (`AnswerResult`): Send Again of the same command, or a new one after one that got no acknowledgement. */
export interface SendKind {
  readonly retry?: unknown;
  readonly unacknowledged?: { readonly sameAnswer?: true };
}

/**
 * The one sentence every surface adds about a send that was not a plain new
 * answer. The same answer as one that got no acknowledgement goes as Send
 * Again, the same command (AEP-0004 §2.3), said while it is on its way; a
 * different one, or the same one the sender no longer holds, is a new
 * command, and the agent may already have applied the one it never
 * acknowledged: said until the end, whatever became of the new one, since
 * the person may now have given two answers.
 */
export function sendKindNote(how: SendKind, agentText: string, underway: boolean): string | undefined {
  const agent = agentName(agentText);
  if (how.unacknowledged?.sameAnswer) {
    return l10n.t('Your earlier answer got no acknowledgement, so {0} may already have applied it; it could no longer be sent again as the same command, so this same answer went as a new one.', agent);
  }
  if (how.unacknowledged !== undefined) return l10n.t('Your earlier answer got no acknowledgement, so {0} may already have applied it; this different answer went as a new one.', agent);
  if (how.retry !== undefined && underway) return l10n.t('The same answer as before: sent again as the same command, so {0} acts on it once.', agent);
  return undefined;
}

/** What the page says of a Send, with `sendKindNote` after it. */
export function sentAfterTimeout(message: OutcomeMessage, how: SendKind, agentText: string): OutcomeMessage {
  const note = sendKindNote(how, agentText, message.phase === 'sending' || message.phase === 'queued');
  return note ? { ...message, message: `${message.message} ${note}` } : message;
}

/** What a notification says once an answer settled: the outcome in words, with `sendKindNote` after it. */
export function describeSettled(outcome: SendOutcome, how: SendKind, agentText: string): { ok: boolean; message: string } {
  const described = describeOutcome(outcome, agentText);
  const note = sendKindNote(how, agentText, outcome.kind === 'awaiting-ack');
  return note ? { ...described, message: `${described.message} ${note}` } : described;
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

/**
 * What a page that did not send the answer (a window reload, the page
 * rebuilt when shown again) is told of it: the pipeline's record of the
 * request's answer (src/answer), the one every surface reads, under its
 * command id as `submitId`, so the page offers what the page that sent it
 * would: a timed-out one "Send again" (same id), one in flight nothing but
 * waiting. An answer whose outcome is unknown is "sent, waiting for the
 * acknowledgement", never "not sent": it is resent, unchanged, until it settles.
 */
export function recordMessages(record: AnswerRecord | undefined, agentText: string, connected: boolean, fieldIds: readonly string[] = []): OutcomeMessage[] {
  if (!record || !record.commandId) return [];
  if (record.state === 'queued') return [sendingMessage(record.commandId, agentText, connected)];
  if (record.state === 'awaiting-ack') {
    // Connected, the client has written it again already; offline, it will be once the connection is back.
    const message = connected
      ? l10n.t('Sent; waiting for {0} to acknowledge it.', agentName(agentText))
      : describeOutcome({ kind: 'awaiting-ack', commandId: record.commandId, sent: true }, agentText).message;
    return [{ type: 'outcome', submitId: record.commandId, phase: 'awaiting-ack', message }];
  }
  return record.outcome ? [outcomeMessage(record.commandId, record.outcome, agentText, fieldIds)] : [];
}
