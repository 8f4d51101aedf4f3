// The answer history written out for an audit: JSON Lines (one entry per
// line) or CSV (one row per entry). Built from the entries as stored, so what
// storage masked (text sent as typed, secrets, credential-looking text) stays
// masked: nothing here reads an answer from anywhere else.
import type { Answer } from '../aep/attention';
import type { TextHonesty } from '../aep/labels';
import type { CaptureLevel } from '../aep/levels';
import type { EndedWithoutAnswer, HistoryEntry, HistoryOutcome } from './historyEntry';

export type ExportFormat = 'jsonl' | 'csv';

/** One entry as exported; times are ISO 8601 (UTC). */
export interface ExportedEntry {
  at: string;
  hub: { id: string; label: string };
  agent: string;
  session: string;
  source: string;
  requestId: string;
  kind: string;
  /** As stored: capture-aware and credential-masked; `honesty` is verbatim, redacted, or structural (synthesized at capture metadata). */
  prompt: { text: string; honesty: TextHonesty };
  /** Each answer as stored: masked where the history masks it. */
  sends: Array<{ at: string; commandId: string; capture: CaptureLevel; answer: Answer; outcomes: ExportedOutcome[] }>;
  ended?: EndedWithoutAnswer;
  agentOutcomes: ExportedOutcome[];
}

export type ExportedOutcome = Omit<HistoryOutcome, 'at'> & { at: string };

const iso = (ms: number) => new Date(ms).toISOString();
const outcome = (o: Readonly<HistoryOutcome>): ExportedOutcome => ({ ...o, at: iso(o.at) }) as ExportedOutcome;

export function exportedEntry(entry: Readonly<HistoryEntry>): ExportedEntry {
  return {
    at: iso(entry.at),
    hub: { id: entry.hub.id, label: entry.hub.label },
    agent: entry.agent,
    session: entry.session,
    source: entry.source,
    requestId: entry.requestId,
    kind: entry.kind,
    prompt: { text: entry.prompt.text, honesty: entry.prompt.honesty },
    sends: entry.sends.map((send) => ({ at: iso(send.at), commandId: send.commandId, capture: send.capture, answer: send.answer, outcomes: send.outcomes.map(outcome) })),
    ...(entry.ended === undefined ? {} : { ended: entry.ended }),
    agentOutcomes: entry.agentOutcomes.map(outcome),
  };
}

/** Oldest first, which is how an audit trail reads. */
function chronological(entries: readonly HistoryEntry[]): HistoryEntry[] {
  return [...entries].sort((a, b) => a.at - b.at);
}

export function toJsonLines(entries: readonly HistoryEntry[]): string {
  return chronological(entries).map((entry) => `${JSON.stringify(exportedEntry(entry))}\n`).join('');
}

export const CSV_COLUMNS = [
  'time', 'hub', 'agent', 'session', 'request_id', 'kind', 'prompt', 'prompt_honesty',
  'sent_at', 'command_id', 'capture', 'answer', 'send_outcome', 'agent_outcome', 'ended',
] as const;

export function toCsv(entries: readonly HistoryEntry[]): string {
  const rows = chronological(entries).map((entry) => {
    const last = entry.sends.at(-1);
    const row: Record<(typeof CSV_COLUMNS)[number], string> = {
      time: iso(entry.at), hub: entry.hub.label, agent: entry.agent, session: entry.session, request_id: entry.requestId,
      kind: entry.kind, prompt: entry.prompt.text, prompt_honesty: entry.prompt.honesty,
      sent_at: last ? iso(last.at) : '', command_id: last?.commandId ?? '', capture: last?.capture ?? '',
      answer: last ? JSON.stringify(last.answer) : '', send_outcome: last?.outcomes.at(-1)?.kind ?? '',
      agent_outcome: entry.agentOutcomes.at(-1)?.kind ?? '', ended: entry.ended ?? '',
    };
    return CSV_COLUMNS.map((column) => csvCell(row[column])).join(',');
  });
  return [CSV_COLUMNS.join(','), ...rows].map((line) => `${line}\r\n`).join('');
}

/**
 * RFC 4180 quoting, and agent text kept from running as a spreadsheet formula:
 * a cell starting with `=`, `+`, `-`, `@`, a tab or a carriage return gets a
 * leading apostrophe (the OWASP advice on CSV injection).
 */
export function csvCell(value: string): string {
  const inert = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n']/.test(inert) || inert !== value ? `"${inert.replace(/"/g, '""')}"` : inert;
}
