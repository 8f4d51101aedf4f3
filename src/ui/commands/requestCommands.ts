import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import type { AttentionItem } from '../../inbox/inbox';
import { isOpenStatus } from '../../inbox/inbox';
import { kindLabel, promptLine, provenance } from '../../words/describe';
import { OptionAnswers } from '../../app/answering/optionAnswers';
import { SimilarAnswers } from '../../app/answering/similarAnswers';
import { itemFrom } from '../../app/hubs/commandTargets';
import type { Hubs } from '../../app/hubs/hubs';
import { onFirstNeed } from '../services/onDemand';
import type { InlineAnswers } from '../answering/inlineAnswer';
import { INBOX_VIEW_ID } from '../viewIds';
import type { RequestPagesOnDemand } from '../page/pagesOnDemand';
import type { ExtensionLog } from '../services/log';
import { notify, pick } from '../surfaces';
import { COMMANDS, type RegisterCommand } from './commandIds';
import type { TokenSteps } from './tokenCommands';

export function showInbox(): Thenable<unknown> {
  return vscode.commands.executeCommand(`${INBOX_VIEW_ID}.focus`);
}

/** What the notifications and the system notifications do with a request (extension.ts). */
export interface RequestActions {
  /** Resolves once the page shows (the pages are loaded with the first: pagesOnDemand.ts). */
  open(item: Readonly<AttentionItem>): Promise<void>;
  /** In the quick input when the request fits it (issue 15), on its page otherwise. */
  answer(item: Readonly<AttentionItem>): Promise<void>;
  /** A notification's option button: an explicit choice by the user, sent like any other answer. */
  answerWithOption(item: Readonly<AttentionItem>, optionId: string): Promise<void>;
}

/** Show Inbox, Answer Next, Answer Similar, Answer Inline (and its way to the page), Open Request and Dismiss Request. */
export function registerRequestCommands(
  register: RegisterCommand,
  hubs: Hubs,
  log: ExtensionLog,
  panels: RequestPagesOnDemand,
  inline: InlineAnswers,
  tokens: TokenSteps,
): RequestActions {
  const open = (item: Readonly<AttentionItem>): Promise<void> => panels.show(item);
  const answer = (item: Readonly<AttentionItem>): Promise<void> => inline.answer(item);
  const optionAnswers = new OptionAnswers({
    hubs, notify, open, answerInline: answer,
    setToken: async (item) => {
      const hub = hubs.of(item);
      if (hub) await tokens.setToken(hub);
    },
  });
  const similar = new SimilarAnswers({ hubs, notify, open });

  const pickRequest = async (title: string): Promise<Readonly<AttentionItem> | undefined> => {
    const items = hubs.visibleItems();
    const several = hubs.size > 1;
    // The prompt, and under it, on a line of its own that a long prompt cannot push out of sight, whose it is.
    const key = await pick(
      items.map((candidate) => ({
        label: promptLine(candidate) || candidate.requestId,
        description: kindLabel(candidate),
        detail: several ? l10n.t('{0} · via {1}', provenance(candidate), hubs.of(candidate)?.label ?? '') : provenance(candidate),
        value: candidate.key,
      })),
      { title, ...(items.length ? {} : { placeHolder: l10n.t('No request is waiting') }) },
    );
    return key === undefined ? undefined : hubs.item(key);
  };

  const openRequest = async (argument: unknown): Promise<void> => {
    const item = itemFrom(hubs, argument) ?? (await pickRequest(l10n.t('Open a request')));
    if (item) await open(item);
  };

  const answerInline = async (argument: unknown): Promise<void> => {
    const item = itemFrom(hubs, argument) ?? (await pickRequest(l10n.t('Answer a request')));
    if (item) await answer(item);
  };

  const dismiss = (argument: unknown): void => {
    const item = itemFrom(hubs, argument);
    if (!item || !isOpenStatus(item.status)) return;
    hubs.dismiss(item);
    log.for('inbox').info(`dismissed ${item.requestId} from ${item.agent} locally; nothing was sent`);
  };

  register(COMMANDS.showInbox, showInbox);
  register(COMMANDS.answerNext, () => optionAnswers.answerNext());
  // Answer Similar's pickers are loaded on its first run (issue 40).
  const similarFlow = onFirstNeed('answer-similar', () => import('../answering/answerSimilarFlow').then((flow) => () => flow), log.for('inline'));
  register(COMMANDS.answerSimilar, async (argument) => (await similarFlow.get())?.answerSimilar(hubs, similar, itemFrom(hubs, argument)));
  register(COMMANDS.answerInline, answerInline);
  register(COMMANDS.openInlineAsPage, () => inline.openActiveAsPage());
  register(COMMANDS.openRequest, openRequest);
  register(COMMANDS.dismissRequest, dismiss);
  return { open, answer, answerWithOption: (item, optionId) => optionAnswers.answerWithOption(item, optionId) };
}
