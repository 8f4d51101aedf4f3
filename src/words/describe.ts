import * as l10n from '@vscode/l10n';
import type { AttentionItem } from '../inbox/inbox';
import { textHonesty } from '../aep/labels';
import { sourceHost } from '../aep/envelope';
import { foldNearLooking } from '../base/lookAlikes';
import { readingKey } from '../base/readingKey';
import { piece, PIECES } from './untrustedText';
import { withheldText } from './withheldWords';

// Words for things the UI shows in several places (tree, notifications, status, webview title).
// Agent text enters a sentence only as a capped, inert piece; the surface that shows the
// sentence sanitises it whole again (surfaces.ts).

/**
 * Letters and digits only, marks and modifier letters dropped, look-alikes folded: "AEP-Attention", "aep attentіon"
 * (Cyrillic і), "ᴀᴇᴘ Attentioñ", "ꓮꓰꓑ ꓮꓔꓔꓰꓠꓔꓲꓳꓠ" (Lisu) are "aepattention".
 */
const nameKey = (text: string) => foldNearLooking(readingKey(text).normalize('NFD').replace(/\p{M}/gu, '')).replace(/\p{Lm}|[^\p{L}\p{N}]/gu, '');
/** Whether a name's key could pass for our product's name, misspelt too ("AEP Atention"): one that holds "aep" or "attention". */
const passesForUs = (key: string) => key.includes('aep') || key.includes('ttention') || key.includes('atention');

/**
 * The agent's name as it may appear inside a sentence. A name that could pass
 * for our product's is quoted as the agent's: "agent “AEP Attention cannot
 * connect”: the hub refused the token…" cannot pass for our own
 * "AEP Attention cannot connect: …" toast, which asks for a hub's token.
 */
export function agentName(agent: string): string {
  const name = piece(agent, PIECES.agent);
  return passesForUs(nameKey(name)) ? l10n.t('agent “{0}”', name) : name;
}

export function sessionName(session: string): string {
  return piece(session, PIECES.session);
}

export function kindLabel(item: Readonly<AttentionItem>): string {
  const kind = item.request?.kind;
  switch (kind) {
    case undefined:
      return l10n.t('request');
    case 'permission':
      return l10n.t('permission');
    case 'form':
      return l10n.t('form');
    case 'input':
      return l10n.t('question');
    case 'review':
      return l10n.t('review');
    case 'auth':
      return l10n.t('sign-in');
    default:
      // An unknown kind is the agent's word, quoted as such: bare, "answered, waiting for the agent"
      // would pass for our own status beside it in the inbox's row.
      return l10n.t('kind “{0}”', piece(kind, PIECES.kind));
  }
}

/**
 * The request's prompt as plain text for a one-line place (tree item, notification).
 * At capture metadata the prompt was synthesized from structure; say so.
 */
export function promptLine(item: Readonly<AttentionItem>): string {
  if (item.problem?.withheld) return withheldText(item.problem.withheld);
  if (item.problem) return l10n.t('Cannot be shown: {0}', piece(item.problem.message, PIECES.detail));
  const request = item.request;
  if (!request) return '';
  const prompt = piece(request.prompt, PIECES.prompt);
  return textHonesty(request.capture) === 'structural' ? l10n.t('{0} (synthesized, capture {1})', prompt, request.capture) : prompt;
}

export function provenance(item: Readonly<AttentionItem>): string {
  const host = sourceHost(item.source);
  const agent = agentName(item.agent);
  const session = sessionName(item.session);
  return host ? l10n.t('{0} · session {1} · {2}', agent, session, piece(host, PIECES.source)) : l10n.t('{0} · session {1}', agent, session);
}
