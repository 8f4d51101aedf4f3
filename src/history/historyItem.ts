import { parseAttentionRequest } from '../aep/attention';
import type { AttentionItem, AttentionStatus } from '../inbox/inbox';
import type { RecordedAnswer } from '../inbox/recordedAnswer';
import type { HistoryEntry } from './historyEntry';

/**
 * The request, as the history keeps it, in the shape the page renders: its
 * stored (credential-masked) event read again, with how it ended.
 */
export function historyItem(entry: Readonly<HistoryEntry>): Readonly<AttentionItem> {
  const parsed = parseAttentionRequest(entry.requestEvent);
  const resolved = entry.agentOutcomes.find((outcome) => outcome.kind === 'resolved');
  const received = Date.parse(entry.requestEvent.time);
  return {
    key: entry.itemKey,
    hub: entry.hub.id,
    requestId: entry.requestId,
    source: entry.source,
    session: entry.session,
    agent: entry.agent,
    requestEvent: entry.requestEvent,
    status: historyStatus(entry),
    routedBy: [],
    receivedAt: Number.isFinite(received) ? received : entry.at,
    ...(resolved?.kind === 'resolved' ? { resolution: resolved.resolution } : {}),
    ...(parsed.ok ? { request: parsed.value } : { problem: parsed.problem }),
  };
}

function historyStatus(entry: Readonly<HistoryEntry>): AttentionStatus {
  const kinds = entry.agentOutcomes.map((outcome) => outcome.kind);
  if (kinds.includes('resolved')) return 'resolved';
  if (kinds.includes('timeout')) return 'timed-out';
  if (kinds.includes('session-ended')) return 'session-ended';
  if (kinds.includes('answered')) return 'answered';
  return 'pending';
}

/**
 * What the agent recorded, as the entry kept it (recordedAnswer.ts decided it when it arrived); undefined
 * for an answer an older version kept without saying whose it was.
 */
export function historyRecorded(entry: Readonly<HistoryEntry>): RecordedAnswer | undefined {
  const answered = entry.agentOutcomes.find((outcome) => outcome.kind === 'answered');
  const resolved = entry.agentOutcomes.find((outcome) => outcome.kind === 'resolved');
  const endedBy = resolved?.kind === 'resolved' && resolved.by !== undefined ? { endedBy: resolved.by } : {};
  if (answered?.kind !== 'answered') return { verdict: 'none', ...endedBy };
  if (answered.verdict === undefined) return undefined;
  return {
    verdict: answered.verdict,
    ...(answered.recorded ? { answer: answered.recorded } : {}),
    ...(answered.verdict !== 'as-sent' && answered.via !== undefined ? { via: answered.via } : {}),
    ...(answered.verdict !== 'as-sent' && answered.by !== undefined ? { by: answered.by } : {}),
    ...endedBy,
  };
}
