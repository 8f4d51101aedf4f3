import * as vscode from 'vscode';
import type { AttentionItem } from '../aep/inbox/inbox';
import { textHonesty } from '../aep/labels';
import { sourceHost } from '../aep/envelope';

/** Words for things the UI shows in several places (tree, notifications, status, webview title). */

export function kindLabel(item: Readonly<AttentionItem>): string {
  const kind = item.request?.kind ?? 'request';
  switch (kind) {
    case 'permission':
      return vscode.l10n.t('permission');
    case 'form':
      return vscode.l10n.t('form');
    case 'input':
      return vscode.l10n.t('question');
    case 'review':
      return vscode.l10n.t('review');
    case 'auth':
      return vscode.l10n.t('sign-in');
    default:
      return kind;
  }
}

/** "3 min ago", "12 s ago". */
export function age(since: number, now: number): string {
  const seconds = Math.max(0, Math.round((now - since) / 1000));
  if (seconds < 60) return vscode.l10n.t('{0} s ago', seconds);
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return vscode.l10n.t('{0} min ago', minutes);
  return vscode.l10n.t('{0} h ago', Math.round(minutes / 60));
}

export function timeLeft(until: number, now: number): string {
  const seconds = Math.round((until - now) / 1000);
  if (seconds <= 0) return vscode.l10n.t('expired');
  if (seconds < 60) return vscode.l10n.t('{0} s left', seconds);
  return vscode.l10n.t('{0} min left', Math.round(seconds / 60));
}

/**
 * The request's prompt as plain text for a one-line place (tree item, notification).
 * At capture metadata the prompt was synthesized from structure; say so.
 */
export function promptLine(item: Readonly<AttentionItem>): string {
  if (item.problem) return vscode.l10n.t('Cannot be shown: {0}', item.problem.message);
  const request = item.request;
  if (!request) return '';
  const prompt = request.prompt.replace(/\s+/g, ' ').trim().slice(0, 200);
  return textHonesty(request.capture) === 'structural' ? vscode.l10n.t('{0} (synthesized, capture {1})', prompt, request.capture) : prompt;
}

export function provenance(item: Readonly<AttentionItem>): string {
  const host = sourceHost(item.source);
  return host ? vscode.l10n.t('{0} · session {1} · {2}', item.agent, item.session, host) : vscode.l10n.t('{0} · session {1}', item.agent, item.session);
}
