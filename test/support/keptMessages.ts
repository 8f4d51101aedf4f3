import { AnswerPipeline } from '../../src/answer/answerPipeline';
import type { StoredCommand } from '../../src/client/commandStore';
import { recordMessages, type OutcomeMessage } from '../../src/words/answerOutcomes';

/**
 * What a freshly loaded page is told of a request's answer, from the kept
 * commands alone (a new window's pipeline has no record of its own yet), as
 * RequestPanel does after `ready`: the pipeline's record, worded.
 */
export function keptMessages(
  kept: readonly StoredCommand[],
  request: { requestId: string; session: string; source: string },
  agentText: string,
  connected: boolean,
): OutcomeMessage[] {
  const { requestId, session, source } = request;
  const record = new AnswerPipeline().record({ hub: 'h', requestId, session, source, request: undefined, status: 'pending', notAccepting: false, kept });
  return recordMessages(record, agentText, connected);
}
