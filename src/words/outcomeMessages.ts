import * as l10n from '@vscode/l10n';
import type { AnswerRefusal } from '../answer/answerPipeline';
import type { SendOutcome } from '../client/controlSender';
import type { NotSentReason } from '../client/notSent';
import { answerProblemText } from '../shared/problemWords';
import { agentName } from './describe';
import { piece, PIECES } from './untrustedText';
import { watchOnlySentence } from './watchOnlyWords';

/** What a hub's refusal code means (AEP-0004 §4.2); undefined for a code this extension does not know. */
export function hubCodeText(code: string): string | undefined {
  switch (code) {
    case 'no-route':
      return l10n.t('no agent connected to the hub owns that session right now');
    case 'ambiguous':
      return l10n.t('more than one agent claims that session, so the hub will not guess');
    case 'unsupported':
      return l10n.t('that agent does not accept answers through the hub');
    case 'unauthorized':
      return l10n.t('the hub does not allow this client to send answers (watch-only hub, or a token without that right)');
    default:
      return undefined;
  }
}

/** Why an answer was not sent, in one sentence. */
export function notSentText(reason: NotSentReason): string {
  switch (reason.code) {
    case 'watch-only':
      return l10n.t('Not sent. {0}', watchOnlySentence());
    case 'client-stopped':
      return l10n.t('The answer was not sent: the extension stopped before the agent answered.');
    case 'store-full':
      return reason.limit === 'count'
        ? l10n.t('The answer was not sent: {0} answers are already waiting for an agent\'s acknowledgement in this workspace, the most kept until they settle. Send this one again once some of them are acknowledged or time out (those waiting for the connection go out when the hub is back).', reason.maxCommands)
        : l10n.t('The answer was not sent: {0} KB of answers are already waiting for an agent\'s acknowledgement in this workspace, the most kept until they settle. Send this one again once some of them are acknowledged or time out (those waiting for the connection go out when the hub is back).', reason.maxKb);
    case 'too-large-to-keep':
      return l10n.t('The answer was not sent: it is too large to be kept until the agent acknowledges it (more than {0} KB). Shorten it and send it again.', reason.maxKb);
    case 'would-redact':
      return reason.parts === 1
        ? l10n.t('The answer was not sent: the redaction pipeline would replace a part of its text. Send the redacted answer, or choose to send it as typed (capture full).')
        : l10n.t('The answer was not sent: the redaction pipeline would replace {0} parts of its text. Send the redacted answer, or choose to send it as typed (capture full).', reason.parts);
    case 'other-answer-in-flight':
      return l10n.t('The answer was not sent: another answer to this request is awaiting its acknowledgement.');
    case 'not-connected':
      return l10n.t('The answer was not sent: not connected to a hub.');
    case 'answer-replaced':
      return l10n.t('Not sent again: a newer answer to this request was sent since and took its place. Send a new answer if you still mean this one.');
    case 'cannot-resend':
      return l10n.t('The answer was not sent: that answer can no longer be sent again; send a new one.');
    case 'hub-removed':
      return l10n.t('The answer was not sent: the hub this request came through is no longer in the settings, so it cannot be answered from here.');
  }
}

/**
 * One sentence for what became of an answer, for notifications and the form.
 * The agent's name, a nack's reason and detail and a hub's code and detail are
 * agent- or hub-authored: each enters the sentence as a capped, inert piece.
 */
export function describeOutcome(outcome: SendOutcome, agentText: string): { ok: boolean; message: string } {
  const agent = agentName(agentText);
  const detail = (text: string | undefined) => (text ? `: ${piece(text, PIECES.detail)}` : '');
  switch (outcome.kind) {
    case 'accepted':
      return { ok: true, message: l10n.t('{0} accepted the answer.', agent) };
    case 'rejected':
      return {
        ok: false,
        message:
          outcome.reason === 'invalid'
            ? l10n.t('{0} refused the answer as invalid{1}. The request is still open: fix the answer and send again.', agent, detail(outcome.detail))
            : l10n.t('{0} refused the answer ({1}){2}.', agent, piece(outcome.reason, PIECES.kind), detail(outcome.detail)),
      };
    case 'refused-by-hub': {
      const code = piece(outcome.code, PIECES.kind);
      const why = hubCodeText(outcome.code);
      return {
        ok: false,
        message: l10n.t('The hub did not deliver the answer ({0}): {1}.', code, outcome.detail ? piece(outcome.detail, PIECES.detail) : (why ?? code)),
      };
    }
    case 'timeout':
      return {
        ok: false,
        message: l10n.t('{0} did not acknowledge the answer within {1} s. It may still arrive; the request stays open until the agent resolves it.', agent, Math.round(outcome.afterMs / 1000)),
      };
    case 'cancelled':
      return { ok: false, message: notSentText(outcome) };
    case 'request-closed':
      return {
        ok: false,
        message: outcome.sent
          ? l10n.t('The request closed before {0} acknowledged the answer. The answer went out earlier, so {0} may have received it; nothing more is sent.', agent)
          : l10n.t('The answer was not sent: the request closed before the connection came back.'),
      };
    case 'not-kept':
      // Honest about what may have happened: written before, the agent may have it; its ack can no longer be matched here.
      return {
        ok: false,
        message: outcome.sent
          ? l10n.t('Your answer from before the reload was not sent again: it held text that is not kept across a reload (sent as typed, or a secret). It went out earlier, so {0} may have it; if the request stays open, answer again.', agent)
          : l10n.t('Your answer from before the reload was not sent: it held text that is not kept across a reload (sent as typed, or a secret). Answer again.'),
      };
    case 'awaiting-ack':
      // Not "not sent": the command is kept and goes out again under the same id, so sending a new answer is not needed.
      return {
        ok: false,
        message: outcome.sent
          ? l10n.t('Sent; waiting for {0} to acknowledge it. It will be sent again, unchanged, when the connection is back.', agent)
          : l10n.t('Waiting to be sent to {0}: it goes out, unchanged, when the connection is back.', agent),
      };
  }
}

/**
 * Why the answer pipeline sent nothing (src/answer), in one sentence
 * for every surface. An answer in flight says what is possible: wait, or
 * Send Again (the same command, AEP-0004 §2 item 3); a different answer only
 * once that one is refused or timed out.
 */
export function describeRefusal(refusal: AnswerRefusal, agentText: string): string {
  const agent = agentName(agentText);
  switch (refusal.code) {
    case 'answer-in-flight':
      return refusal.sent
        ? l10n.t('Not sent: your earlier answer is still waiting for {0} to acknowledge it. Wait for it, or Send Again (the same answer, never a second one); a different answer is possible once {0} refuses it or it times out.', agent)
        : l10n.t('Not sent: your earlier answer is still waiting to go out to {0}; it goes when the connection is back. A different answer is possible once {0} refuses it or it times out.', agent);
    case 'answer-accepted':
      return l10n.t('Not sent: {0} already accepted your earlier answer; the request closes when {0} resolves it.', agent);
    case 'request-closed':
      switch (refusal.closed) {
        case 'timed-out':
          return l10n.t('Not sent: the request timed out before you answered.');
        case 'session-ended':
          return l10n.t('Not sent: {0}\'s session ended before you answered.', agent);
        case 'resolved':
          return l10n.t('Not sent: {0} closed the request before you answered (answered elsewhere, or withdrawn).', agent);
        default:
          return l10n.t('Not sent: the request is no longer open.');
      }
    case 'unreadable':
      return l10n.t('Not sent: {0}', l10n.t('the request cannot be read.'));
    case 'answered-elsewhere':
      return l10n.t('Not sent: this request is answered outside VS Code.');
    case 'already-answered':
      return l10n.t('Not sent: {0} already recorded an answer to this request; the request closes when {0} resolves it.', agent);
    case 'not-accepting':
      return l10n.t('Not sent: {0} does not take answers from editors.', agent);
    case 'invalid':
      return l10n.t('Not sent: {0}', answerProblemText(refusal.problem));
    case 'would-redact': {
      const count = refusal.changes.reduce((n, change) => n + change.replacements.length, 0);
      return count === 1
        ? l10n.t('Not sent: the redaction pipeline would replace a part of your answer. Send it redacted, or choose to send it as typed (capture full).')
        : l10n.t('Not sent: the redaction pipeline would replace {0} parts of your answer. Send it redacted, or choose to send it as typed (capture full).', count);
    }
  }
}
