import * as l10n from '@vscode/l10n';
import type { AttentionItem } from '../../inbox/inbox';
import { credentialKinds } from '../../aep/credentials';
import { redactText } from '../../aep/redaction';
import { storedMasking } from '../../aep/secretAsking';
import { agentName, promptLine } from '../words/describe';
import { forSurface } from '../words/untrustedText';
import type { OsNotificationMode } from '../../shared/alertMessages';

// What an OS notification says about a request (issue 28). It is read outside
// the window, on a lock screen or a shared display, by whoever is near: it
// names who asks and through which hub, and carries the prompt as plain text
// only when the prompt looks like no credential.


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
 */
export function osNoticeText(items: ReadonlyArray<Readonly<AttentionItem>>, hub: string | undefined): OsNoticeText | undefined {
  const [first] = items;
  if (!first) return undefined;
  const agent = agentName(first.agent);
  const title = hub === undefined ? l10n.t('{0} is waiting for you', agent) : l10n.t('{0} via {1} is waiting for you', agent, hub);
  const body = items.length > 1
    ? l10n.t('{0} requests from {1}', items.length, agent)
    : mayShowPrompt(first)
      ? promptLine(first)
      : l10n.t('A request from {0}', agent);
  return { title: forSurface('osNotificationTitle', title), body: forSurface('osNotificationBody', body) };
}

/**
 * The prompt leaves the window only when the credential detector names
 * nothing in it, read with the masking of what is kept (the §9.4 secret rules
 * and the user's always-secret values), so a value the user listed never
 * reaches a lock screen either.
 */
function mayShowPrompt(item: Readonly<AttentionItem>): boolean {
  const prompt = item.request?.prompt;
  return prompt !== undefined && credentialKinds(redactText(prompt, storedMasking()).replacements).length === 0;
}
