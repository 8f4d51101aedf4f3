import * as l10n from '@vscode/l10n';
import type { Answer } from '../aep/attention';
import { resolutionEnding } from '../shared/shownStatus';
import { statusWord } from '../shared/statusWords';
import type { EndedWithoutAnswer, HistoryEntry, HistoryOutcome } from '../history/historyEntry';
import { agentName } from './describe';
import { piece, PIECES } from './untrustedText';

// Words for the answer history (issue 16): the History view's rows and the
// read-only page. Agent and hub text enters only as capped, inert pieces; the
// surface that shows a sentence sanitises it whole again (surfaces.ts).

/** An entry's prompt for a one-line place; at structural capture it is a placeholder and says so. */
export function historyPrompt(entry: Readonly<HistoryEntry>): string {
  const prompt = piece(entry.prompt.text, PIECES.prompt);
  if (entry.prompt.honesty !== 'structural') return prompt;
  const capture = typeof entry.requestEvent.capture === 'string' ? entry.requestEvent.capture : 'metadata';
  return l10n.t('{0} (synthesized, capture {1})', prompt, capture);
}

/** One outcome, in a few words. */
export function outcomeWord(outcome: Readonly<HistoryOutcome>): string {
  switch (outcome.kind) {
    case 'accepted':
      return l10n.t('accepted');
    case 'rejected':
      return l10n.t('refused by the agent: {0}', piece(outcome.reason, PIECES.kind));
    case 'refused-by-hub':
      return l10n.t('refused by the hub: {0}', piece(outcome.code, PIECES.kind));
    case 'not-delivered':
      return l10n.t('not delivered');
    case 'ack-timed-out':
      return l10n.t('no acknowledgement');
    case 'awaiting-ack':
      return outcome.sent ? l10n.t('sent, awaiting acknowledgement') : l10n.t('waiting for the connection');
    case 'request-closed':
      return l10n.t('request closed before the acknowledgement');
    case 'not-kept':
      return l10n.t('not sent again after a reload: it held text that is not kept');
    case 'answered': {
      // What the agent recorded is what it applied (AEP-0002 §5.3): said when it is not what was sent from here.
      const recorded = outcome.recorded ? answerWords(outcome.recorded) : '';
      const oob = outcome.via === 'oob';
      if (outcome.verdict === 'differs') {
        return oob ? l10n.t('the agent recorded a different answer, out of band: {0}', recorded) : l10n.t('the agent recorded a different answer: {0}', recorded);
      }
      if (outcome.verdict === 'unconfirmed') {
        return l10n.t('the agent recorded your answer, with text that cannot be checked against what was sent: {0}', recorded);
      }
      if (outcome.verdict === 'elsewhere' && recorded) return oob ? l10n.t('answered out of band: {0}', recorded) : l10n.t('answered elsewhere: {0}', recorded);
      return statusWord(outcome.verdict === 'elsewhere' ? 'answered-elsewhere' : 'answered');
    }
    case 'resolved': {
      const ended = resolvedWord(outcome.resolution);
      return outcome.by !== undefined ? l10n.t('{0}, by {1}', ended, piece(outcome.by, PIECES.agent)) : ended;
    }
    case 'timeout':
      return statusWord('timed-out');
    case 'session-ended':
      return statusWord('session-ended');
  }
}

/** How the agent's `attention.resolved` says it ended; only `answered` says anyone answered. */
function resolvedWord(resolution: string): string {
  switch (resolutionEnding(resolution)) {
    case 'answered': return l10n.t('resolved ({0})', piece(resolution, PIECES.kind));
    case 'dismissed': return l10n.t('dismissed by the agent');
    case 'auto': return l10n.t('resolved by the agent on its own (auto)');
    case 'other': return l10n.t('ended by the agent ({0})', piece(resolution, PIECES.kind));
  }
}

export function endedWord(ended: EndedWithoutAnswer): string {
  switch (ended) {
    case 'answered-elsewhere':
      return statusWord('answered-elsewhere');
    case 'resolved':
      return l10n.t('resolved without an answer from here');
    case 'timed-out':
      return statusWord('timed-out');
    case 'session-ended':
      return statusWord('session-ended');
    case 'dismissed':
      return l10n.t('dismissed');
  }
}

/**
 * Where the entry stands: for an answer from here, the last thing said of
 * its latest send, then the agent's last word; otherwise how it ended.
 */
export function entryOutcomes(entry: Readonly<HistoryEntry>): string[] {
  const words: string[] = [];
  if (entry.ended !== undefined) words.push(endedWord(entry.ended));
  const last = entry.sends.at(-1)?.outcomes.at(-1);
  if (last) words.push(outcomeWord(last));
  // An accepted answer is not what the agent applied when its record says otherwise.
  const answered = entry.agentOutcomes.find((outcome) => outcome.kind === 'answered');
  if (last && answered?.kind === 'answered' && (answered.verdict === 'differs' || answered.verdict === 'unconfirmed' || answered.verdict === 'elsewhere')) words.push(outcomeWord(answered));
  const agent = entry.agentOutcomes.at(-1);
  if (agent && !(entry.ended !== undefined && agent.kind === 'timeout')) words.push(outcomeWord(agent));
  return words;
}

/** The row's description: the agent, where it stands, and (with several hubs) which hub. */
export function entryDescription(entry: Readonly<HistoryEntry>, hubShown: boolean): string {
  const parts = [agentName(entry.agent), ...entryOutcomes(entry)];
  if (hubShown) parts.push(l10n.t('via {0}', piece(entry.hub.label, PIECES.agent)));
  return parts.join(' · ');
}

/** An answer (sent, or recorded by the agent), in the few words a tooltip has room for. */
function answerWords(answer: Answer): string {
  const parts: string[] = [];
  if (answer.option !== undefined) parts.push(l10n.t('option {0}', piece(answer.option, PIECES.kind)));
  if (answer.text !== undefined) parts.push(l10n.t('text "{0}"', piece(answer.text, PIECES.prompt)));
  if (answer.values !== undefined) parts.push(l10n.t('{0} values', Object.keys(answer.values).length));
  return parts.join(', ');
}

/** What was sent, in the few words a tooltip has room for. */
export function sentLine(entry: Readonly<HistoryEntry>): string | undefined {
  const send = entry.sends.at(-1);
  if (!send) return undefined;
  const sent = answerWords(send.answer);
  return send.masked > 0 ? l10n.t('Sent {0} at capture {1} ({2} masked in this history).', sent, send.capture, send.masked) : l10n.t('Sent {0} at capture {1}.', sent, send.capture);
}

/** Every outcome with its time, oldest first, for the read-only page. */
export function outcomeLines(entry: Readonly<HistoryEntry>): string[] {
  const timed = (outcome: Readonly<HistoryOutcome>) => l10n.t('{0}: {1}', new Date(outcome.at).toLocaleString(), outcomeWord(outcome));
  const lines: string[] = [];
  entry.sends.forEach((send, index) => {
    lines.push(entry.sends.length > 1 ? l10n.t('{0}: answer {1} sent', new Date(send.at).toLocaleString(), index + 1) : l10n.t('{0}: answer sent', new Date(send.at).toLocaleString()));
    for (const outcome of send.outcomes) lines.push(timed(outcome));
  });
  if (entry.ended !== undefined) lines.push(l10n.t('{0}: {1}', new Date(entry.at).toLocaleString(), endedWord(entry.ended)));
  for (const outcome of entry.agentOutcomes) lines.push(timed(outcome));
  return lines;
}
