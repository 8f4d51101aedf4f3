import * as l10n from '@vscode/l10n';
import { textHonesty } from '../../aep/labels';
import { groupOf, type SimilarGroup } from '../../answer/similarRequests';
import type { AttentionItem } from '../../inbox/inbox';
import { contextSummary, shownContext } from '../../shared/contextView';
import type { Hubs } from '../../app/hubs/hubs';
import { agentName, kindLabel, promptLine, sessionName } from '../../words/describe';
import type { PickItem } from '../../words/pickItem';
import { confirm, notify, pick, pickMany } from '../surfaces';
import { windowGroups, type SimilarAnswers } from '../../app/answering/similarAnswers';
import { similarConfirmation, similarGroupLabel, similarOptionItems, similarOptionTitle } from '../../words/similarWords';

// "Answer Similar Requests…" (issue 29): the requests that can take the same
// answer, every one listed and ticked, the person unticks any, picks the
// option (by the words every request gives it: similarRequests.ts) and
// confirms; then each is answered on its own (similarAnswers.ts).
// Never automatic: every step is the person's.

export async function answerSimilar(hubs: Hubs, similar: SimilarAnswers, from: Readonly<AttentionItem> | undefined): Promise<void> {
  const groups = windowGroups(hubs);
  const group = from ? groupOf(groups, from) : groups.length > 1 ? await pickGroup(groups) : groups[0];
  if (!group) {
    if (from || groups.length === 0) void notify('info', from ? l10n.t('No other request can take the same answer as this one now.') : l10n.t('No two requests can take the same answer now.'));
    return;
  }
  const title = group.withheld ? l10n.t('Answer {0} similar requests (labels withheld at capture)', group.items.length) : l10n.t('Answer {0} similar requests', group.items.length);
  const checked = await pickMany(group.items.map((item) => row(hubs, item)), { title, placeHolder: l10n.t('Every request is ticked: untick any you do not want to answer, then Enter') });
  if (!checked || checked.length === 0) return;
  const option = await pick(similarOptionItems(group), { title: similarOptionTitle(group, checked.length) });
  if (option === undefined) return;
  const { message, action } = similarConfirmation(group, option, checked);
  const go = await confirm(message, action);
  if (go) await similar.answerAll(checked, { option: option.id });
}

/** A request as the checklist shows it: who asks (and through which hub), its session, what it asks, and a line of its context. */
function row(hubs: Hubs, item: Readonly<AttentionItem>): PickItem<Readonly<AttentionItem>> {
  const hub = hubs.size > 1 ? hubs.of(item)?.label : undefined;
  const request = item.request;
  const withheld = request !== undefined && textHonesty(request.capture) === 'structural';
  const context = request ? shownContext(request) : undefined;
  const contextLine = context === undefined ? undefined : context === 'withheld' ? l10n.t('context withheld') : contextSummary(context);
  const asked = withheld && request ? l10n.t('Prompt withheld at capture {0}; synthesized: {1}', request.capture, request.prompt) : promptLine(item);
  return {
    label: hub === undefined ? agentName(item.agent) : l10n.t('{0} via {1}', agentName(item.agent), hub),
    description: l10n.t('session {0} · {1}', sessionName(item.session), kindLabel(item)),
    detail: contextLine ? l10n.t('{0} · context: {1}', asked, contextLine) : asked,
    value: item,
  };
}

async function pickGroup(groups: readonly SimilarGroup[]): Promise<SimilarGroup | undefined> {
  return pick(groups.map((group) => ({
    label: similarGroupLabel(group),
    description: group.kind,
    detail: [...new Set(group.items.map((item) => agentName(item.agent)))].join(', '),
    value: group,
  })), { title: l10n.t('Answer which similar requests?') });
}
