import * as l10n from '@vscode/l10n';
import type { AttentionItem } from '../inbox/inbox';
import { mayShowInPublic } from '../aep/publicText';
import type { RedactionOptions } from '../aep/redaction';
import { agentName, promptLine } from './describe';
import { lastActionLine, withLastAction } from './beforeAskingWords';
import type { PageBeforeAsking } from '../shared/beforeAsking';
import { forSurface, piece, SURFACES } from './untrustedText';
import type { OsNotificationMode } from '../shared/alertMessages';

// What an OS notification says about a request (issue 28). It is read outside
// the window, on a lock screen or a shared display, by whoever is near: it
// names who asks and through which hub, and carries the prompt as plain text
// only when the §9.4 pipeline would send it unchanged. Every part written by
// someone else (the prompt, the agent's name, the hub's name) passes one
// rule, src/aep/publicText.ts; a name that fails it is replaced by a neutral
// one that still says an agent asked, and through a hub.


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
 * and always-secret values). `before`: the request's "Before asking" view;
 * its last action (beforeAskingWords.ts `lastActionLine`, as of `now`) ends
 * the body of a lone request as it ends the toast, when it fits and passes the
 * public rule like every other part.
 */
export function osNoticeText(
  items: ReadonlyArray<Readonly<AttentionItem>>,
  hub: string | undefined,
  redaction: RedactionOptions,
  before?: PageBeforeAsking,
  now = Date.now(),
): OsNoticeText | undefined {
  const [first] = items;
  if (!first) return undefined;
  const agent = shownAgent(first, redaction);
  const shownHub = hub === undefined ? undefined : shows(hub, hub, redaction) ? hub : l10n.t('a hub (name withheld)');
  const title = titleText(agent, shownHub, redaction);
  const body = items.length > 1
    ? l10n.t('{0} requests from {1}', items.length, agent)
    : mayShowPrompt(first, redaction)
      ? promptLine(first)
      : l10n.t('A request from {0}', agent);
  const shownAfter = items.length === 1 ? publicLastAction(before, now, redaction) : undefined;
  return { title: forSurface('osNotificationTitle', title), body: forSurface('osNotificationBody', withLastAction(body, shownAfter, SURFACES.osNotificationBody.cap)) };
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
  const agent = shownAgent(newest, redaction);
  const title = l10n.t('{0} more requests are waiting for you', all.length);
  const body = mayShowPrompt(newest, redaction) ? l10n.t('Newest, from {0}: {1}', agent, promptLine(newest)) : l10n.t('The newest is from {0}', agent);
  return { title: forSurface('osNotificationTitle', title), body: forSurface('osNotificationBody', body) };
}

/** Most of the title the names may take: the agent's half of it, a hub's a quarter, our words the rest. */
const AGENT_IN_TITLE = 32;
const HUB_IN_TITLE = 16;

/**
 * The title with our words whole: the names are cut to the room the
 * title's cap leaves beside them, never our words. A name as long as the
 * whole title ("Visual Studio Code: your session expired. Click to sign in
 * again") would otherwise push " is waiting for you" out and read as a
 * notice from whoever it names; cut, it stays a name in our sentence. A cut
 * name passes the public rule again (a prefix can read otherwise).
 */
function titleText(agent: string, hub: string | undefined, redaction: RedactionOptions): string {
  const words = hub === undefined ? l10n.t('{0} is waiting for you', '') : l10n.t('{0} via {1} is waiting for you', '', '');
  const room = Math.max(2, SURFACES.osNotificationTitle.cap - words.length);
  // Our neutral names are our words: whole.
  const cut = (name: string, cap: number, withheld: string) => {
    if (name === withheld) return name;
    const shown = piece(name, Math.max(1, cap));
    return mayShowInPublic(shown, redaction) ? shown : withheld;
  };
  const agentWithheld = l10n.t('an agent (name withheld)');
  if (hub === undefined) return l10n.t('{0} is waiting for you', cut(agent, Math.min(AGENT_IN_TITLE, room), agentWithheld));
  const shownHub = cut(hub, Math.min(HUB_IN_TITLE, Math.floor(room / 2)), l10n.t('a hub (name withheld)'));
  return l10n.t('{0} via {1} is waiting for you', cut(agent, Math.min(AGENT_IN_TITLE, room - shownHub.length), agentWithheld), shownHub);
}

/** Both what was sent and the line as shown (capped, marked) are checked: the latter is what leaves. */
function shows(raw: string, shown: string, redaction: RedactionOptions): boolean {
  return mayShowInPublic(raw, redaction) && mayShowInPublic(shown, redaction);
}

/**
 * The last action's line, or none when the tool's name (the agent's words)
 * may not go on a lock screen: checked whole as kept (up to 120 characters)
 * and as shown in the line (cut to 32), since a cut name can hide what the
 * rule would stop, or show the start of it.
 */
function publicLastAction(before: PageBeforeAsking | undefined, now: number, redaction: RedactionOptions): string | undefined {
  const line = lastActionLine(before, now);
  return line !== undefined && shows(before?.actions[0]?.name ?? '', line, redaction) ? line : undefined;
}

/** The agent's name, or a neutral one when the name itself holds what must not leave (`deploy (token=…)`). */
function shownAgent(item: Readonly<AttentionItem>, redaction: RedactionOptions): string {
  const name = agentName(item.agent);
  return shows(item.agent, name, redaction) ? name : l10n.t('an agent (name withheld)');
}

/**
 * The prompt leaves the window only when the rule for public text
 * (`mayShowInPublic`) lets both it and the line as shown through. A
 * notification is the most public surface there is, so anything the
 * pipeline would replace withholds the whole prompt rather than showing it
 * with marks: a half-hidden line still says what the request is about.
 */
function mayShowPrompt(item: Readonly<AttentionItem>, redaction: RedactionOptions): boolean {
  const prompt = item.request?.prompt;
  return prompt !== undefined && shows(prompt, promptLine(item), redaction);
}
