import * as l10n from '@vscode/l10n';
import type { Answer } from '../../aep/attention';
import type { AnswerRefusal } from '../../answer/answerPipeline';
import type { SendOutcome } from '../../client/controlSender';
import { sendingBlockedBy } from '../../aep/reachability';
import { similarGroups, type SimilarGroup } from '../../answer/similarRequests';
import type { AttentionItem } from '../../inbox/inbox';
import { describeSettled, sendKindNote, type SendKind } from '../../words/answerOutcomes';
import { describeOutcome } from '../../words/outcomeMessages';
import { offerRefusal, type Notify } from './refusalChoices';
import type { Hubs } from '../hubs/hubs';
import type { OptionAnswerHubs } from './optionAnswers';
import { similarOptionWords } from '../../words/similarWords';

/** What Answer Similar needs of the window's hubs: what the notification's buttons need. */
export type SimilarAnswerHubs = Pick<OptionAnswerHubs, 'item' | 'answer' | 'resend'>;

export interface SimilarAnswerDeps {
  hubs: SimilarAnswerHubs;
  notify: Notify;
  open(item: Readonly<AttentionItem>): void;
}

/**
 * The one answer the person chose for the requests they checked (issue 29):
 * one command per request, each with its own id, each through the answer
 * pipeline under the surface `similar`, as if answered one by one. What
 * became of the sent ones is said in one notification, each by name; a
 * request the pipeline refuses is offered as every surface offers it
 * (`refusalChoices`). No vscode here, so it runs in plain Node.
 */
export class SimilarAnswers {
  constructor(private readonly deps: SimilarAnswerDeps) {}

  async answerAll(items: ReadonlyArray<Readonly<AttentionItem>>, answer: Answer): Promise<void> {
    const { hubs } = this.deps;
    const sending: Array<{ item: Readonly<AttentionItem>; outcome: Promise<SendOutcome>; how: SendKind }> = [];
    const refused: Array<{ item: Readonly<AttentionItem>; refusal: AnswerRefusal }> = [];
    for (const given of items) {
      const item = this.latest(given);
      const result = hubs.answer('similar', item, answer);
      if (result.kind === 'refused') refused.push({ item, refusal: result.refusal });
      else sending.push({ item, outcome: result.outcome, how: result });
    }
    const settled = await Promise.all(sending.map(async ({ item, outcome, how }) => ({ item, how, outcome: await outcome })));
    if (settled.length > 0) {
      const [first] = settled;
      const described = settled.map(({ item, outcome }) => ({ item, ...describeOutcome(outcome, item.agent) }));
      const accepted = described.filter((one) => one.ok).length;
      // What a send was, said once for the group (once per agent: the sentence names it), not after every answer.
      const notes = new Set(settled.flatMap(({ item, outcome, how }) => sendKindNote(how, item.agent, outcome.kind === 'awaiting-ack') ?? []));
      const message = settled.length === 1 && first
        ? describeSettled(first.outcome, first.how, first.item.agent).message
        : [l10n.t('{0} of {1} answers accepted. {2}', accepted, described.length, described.map((one) => one.message).join(' ')), ...notes].join(' ');
      void this.deps.notify(accepted === described.length ? 'info' : 'warning', message);
    }
    for (const { item, refusal } of refused) {
      await offerRefusal({
        notify: this.deps.notify,
        open: () => this.deps.open(this.latest(item)),
        sendAgain: (commandId) => hubs.resend('similar', this.latest(item), commandId),
      }, refusal, item.agent);
    }
  }

  private latest(item: Readonly<AttentionItem>): Readonly<AttentionItem> {
    return this.deps.hubs.item(item.key) ?? item;
  }
}

/** Which requests may be answered together now, of those the inbox shows (none dismissed): the pipeline admits an answer, the agent takes answers from editors. */
export function windowGroups(hubs: Hubs): SimilarGroup[] {
  return similarGroups(hubs.visibleItems(), (item) => hubs.admit('similar', item).ok && sendingBlockedBy(hubs.reachability(item).state) === undefined, similarOptionWords);
}
