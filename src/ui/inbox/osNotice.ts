import * as l10n from '@vscode/l10n';
import type { AttentionItem } from '../../inbox/inbox';
import { redactText, type RedactionOptions } from '../../aep/redaction';
import { namesSecret } from '../../aep/secretAsking';
import { agentName, promptLine } from '../words/describe';
import { forSurface } from '../words/untrustedText';
import type { OsNotificationMode } from '../../shared/alertMessages';

// What an OS notification says about a request (issue 28). It is read outside
// the window, on a lock screen or a shared display, by whoever is near: it
// names who asks and through which hub, and carries the prompt as plain text
// only when the §9.4 pipeline would send it unchanged.


export interface OsNoticeText {
  readonly title: string;
  readonly body: string;
}

/** Whether a request that reaches the inbox now is also an OS notification. */
export function wantsOsNotice(mode: OsNotificationMode, windowFocused: boolean): boolean {
  return mode === 'always' || (mode === 'whenUnfocused' && !windowFocused);
}

/**
 * The notification for `items`, one agent's requests of one burst (the
 * notifier's grouping). `hub` is named only when the window has several.
 * `redaction` is what the pipeline runs with for an answer (the user's home
 * and always-secret values).
 */
export function osNoticeText(items: ReadonlyArray<Readonly<AttentionItem>>, hub: string | undefined, redaction: RedactionOptions): OsNoticeText | undefined {
  const [first] = items;
  if (!first) return undefined;
  const agent = agentName(first.agent);
  const title = hub === undefined ? l10n.t('{0} is waiting for you', agent) : l10n.t('{0} via {1} is waiting for you', agent, hub);
  const body = items.length > 1
    ? l10n.t('{0} requests from {1}', items.length, agent)
    : mayShowPrompt(first, redaction)
      ? promptLine(first)
      : l10n.t('A request from {0}', agent);
  return { title: forSurface('osNotificationTitle', title), body: forSurface('osNotificationBody', body) };
}

/**
 * The notification for the requests held back while the minute's budget was
 * spent (src/inbox/alertPacing.ts), oldest burst first: how many, and the
 * newest, so a flood of other names cannot hide it.
 */
export function osMoreText(groups: ReadonlyArray<ReadonlyArray<Readonly<AttentionItem>>>, redaction: RedactionOptions): OsNoticeText | undefined {
  const all = groups.flat();
  const newest = all[all.length - 1];
  if (!newest) return undefined;
  const agent = agentName(newest.agent);
  const title = l10n.t('{0} more requests are waiting for you', all.length);
  const body = mayShowPrompt(newest, redaction) ? l10n.t('Newest, from {0}: {1}', agent, promptLine(newest)) : l10n.t('The newest is from {0}', agent);
  return { title: forSurface('osNotificationTitle', title), body: forSurface('osNotificationBody', body) };
}

/**
 * The prompt leaves the window only when the AEP-0003 §9.4 pipeline, as it
 * runs on what we send, would change nothing in it: no secret or credential
 * assignment, none of the user's always-secret values, no home path, no email,
 * phone or card number. A notification is the most public surface there is
 * (a lock screen, a shared display), so anything the pipeline would replace
 * withholds the whole prompt rather than showing it with marks: a half-hidden
 * line still says what the request is about.
 *
 * Stricter than the pipeline, which replaces only what its floor names
 * (`password: x`, `token=x`): a prompt that speaks of a password, token, key
 * or one-time code in prose ("the DB password is hunter2") is withheld too.
 * Withholding one that holds none costs the person a click.
 */
function mayShowPrompt(item: Readonly<AttentionItem>, redaction: RedactionOptions): boolean {
  const prompt = item.request?.prompt;
  if (prompt === undefined) return false;
  // PII counts here whatever the caller's options say; the line as shown is checked too, as it is what leaves.
  const unchanged = (text: string) => !namesSecret(text) && redactText(text, { ...redaction, pii: true }).replacements.length === 0;
  return unchanged(prompt) && unchanged(promptLine(item));
}
