import * as l10n from '@vscode/l10n';
import type { Admission, AnswerRefusal, AnswerResult, AnswerSurface } from '../../answer/answerPipeline';
import type { Answer } from '../../aep/attention';
import type { SendOutcome } from '../../client/controlSender';
import type { AttentionItem } from '../../inbox/inbox';
import { describeSettled } from '../../words/answerOutcomes';
import { offerRefusal, type Notify } from './refusalChoices';
import { nextToAnswer } from './nextRequest';

/** What the notification's buttons and Answer Next use of the window's hubs; hubs.ts `Hubs` is one. */
export interface OptionAnswerHubs {
  visibleItems(): Array<Readonly<AttentionItem>>;
  item(key: string): Readonly<AttentionItem> | undefined;
  admit(surface: AnswerSurface, item: Readonly<AttentionItem>): Admission;
  answer(surface: AnswerSurface, item: Readonly<AttentionItem>, answer: Answer): AnswerResult;
  resend(surface: AnswerSurface, item: Readonly<AttentionItem>, commandId: string): Promise<SendOutcome>;
}

export interface OptionAnswerDeps {
  hubs: OptionAnswerHubs;
  notify: Notify;
  /** The request's page. */
  open(item: Readonly<AttentionItem>): void;
  /** Answers in the quick input, or on the page when the request does not fit it. */
  answerInline(item: Readonly<AttentionItem>): Promise<void>;
  /** Asks for the token of the request's hub (a watch-only hub refused the answer). */
  setToken(item: Readonly<AttentionItem>): Promise<void>;
  now?: () => number;
}

/**
 * The notification's option buttons and Answer Next: both answer through
 * the pipeline under their own name, and show a refusal as every surface
 * does (`refusalChoices`). No vscode here, so both run in plain Node.
 */
export class OptionAnswers {
  constructor(private readonly deps: OptionAnswerDeps) {}

  /** A notification's option button: an explicit choice by the person, sent like any other answer. */
  async answerWithOption(item: Readonly<AttentionItem>, optionId: string): Promise<void> {
    if (!item.request) return;
    const { hubs, notify } = this.deps;
    const result = hubs.answer('notification', item, { option: optionId });
    if (result.kind === 'refused') {
      await this.refused('notification', item, result.refusal);
      return;
    }
    const outcome = await result.outcome;
    const described = describeSettled(outcome, result, item.agent);
    if (described.ok) {
      void notify('info', described.message);
    } else if (outcome.kind === 'cancelled' && outcome.code === 'watch-only') {
      const choice = await notify('warning', described.message, [{ title: l10n.t('Set Hub Token'), value: 'token' }]);
      if (choice === 'token') await this.deps.setToken(item);
    } else {
      const choice = await notify('warning', described.message, [{ title: l10n.t('Open'), value: 'open' }]);
      if (choice === 'open') this.deps.open(this.latest(item));
    }
  }

  /**
   * The next request that takes an answer now, in the quick input; when
   * none does because an answer of ours awaits its ack, that refusal. The
   * pipeline is asked once per request.
   */
  async answerNext(): Promise<void> {
    const { hubs } = this.deps;
    const items = hubs.visibleItems();
    const admissions = new Map(items.map((item) => [item.key, hubs.admit('answer-next', item)]));
    const refusalOf = (item: Readonly<AttentionItem>): AnswerRefusal | undefined => {
      const admission = admissions.get(item.key);
      return admission && !admission.ok ? admission.refusal : undefined;
    };
    const next = nextToAnswer(items, (this.deps.now ?? Date.now)(), (item) => refusalOf(item) !== undefined);
    if (next) {
      await this.deps.answerInline(next);
      return;
    }
    for (const item of items) {
      const refusal = refusalOf(item);
      if (refusal?.code === 'answer-in-flight') {
        await this.refused('answer-next', item, refusal);
        return;
      }
    }
    void this.deps.notify('info', l10n.t('No request is waiting for an answer.'));
  }

  private refused(surface: AnswerSurface, item: Readonly<AttentionItem>, refusal: AnswerRefusal): Promise<void> {
    return offerRefusal({
      notify: this.deps.notify,
      open: () => this.deps.open(this.latest(item)),
      sendAgain: (commandId) => this.deps.hubs.resend(surface, this.latest(item), commandId),
    }, refusal, item.agent);
  }

  private latest(item: Readonly<AttentionItem>): Readonly<AttentionItem> {
    return this.deps.hubs.item(item.key) ?? item;
  }
}
