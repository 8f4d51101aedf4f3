import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import type { Answer, AttentionRequest } from '../../aep/attention';
import type { AnswerRefusal, AnswerSurface } from '../../answer/answerPipeline';
import type { SendOutcome } from '../../client/controlSender';
import { sendingBlockedBy } from '../../aep/reachability';
import type { Logger } from '../../base/logger';
import type { AlwaysSecretValues } from '../../app/hubs/alwaysSecretValues';
import type { AttentionItem } from '../../inbox/inbox';
import { inlinePlan, stepOfField, type InlinePlan } from '../../answer/inlinePlan';
import { fieldNamedIn } from '../../aep/nackField';
import { shownStatus } from '../../shared/shownStatus';
import { statusWord } from '../../shared/statusWords';
import { describeSettled, sendingMessage, type SendKind } from '../../words/answerOutcomes';
import { agentName } from '../../words/describe';
import { Disposable, toDisposable } from '../../base/disposable';
import type { Hubs } from '../../app/hubs/hubs';
import { lastActionLine } from '../../words/beforeAskingWords';
import { inlineTitle } from '../../words/inlineWords';
import type { InlineFlow, FlowEnd } from '../../app/answering/inlineFlow';
import { offerRefusal } from '../../app/answering/refusalChoices';
import type { RequestPagesOnDemand } from '../page/pagesOnDemand';
import { setHubToken } from '../hubs/setHubToken';
import { watchOnlySentence } from '../../words/watchOnlyWords';
import { notify, withStatusProgress, type Choice } from '../surfaces';
import type { OnFirstNeed } from '../../base/onFirstNeed';
import { onFirstNeed } from '../services/onDemand';

/** True while an inline answer shows, for the "Open as page" keybinding (package.json). */
export const ANSWERING_INLINE_CONTEXT = 'aepAttention.answeringInline';

/**
 * The inline, keyboard-first answer (issue 15): a request that fits a quick
 * input (src/answer/inlinePlan.ts decides) is answered one question at a
 * time, with the page's checks at each step; anything else opens its page.
 * Escape keeps the partial answer as the page's draft; "Open as page" is a
 * button, an item, and Ctrl+Shift+Enter on every step.
 */
export class InlineAnswers extends Disposable {
  private active: InlineFlow | undefined;
  /** The step loop and the real quick input, loaded on the first answer (a few milliseconds, once), not at activation. */
  private readonly flowParts: OnFirstNeed<[typeof import('../../app/answering/inlineFlow'), typeof import('./quickInputs')]>;

  constructor(
    private readonly hubs: Hubs,
    private readonly panels: RequestPagesOnDemand,
    private readonly log: Logger,
    private readonly secretValues: AlwaysSecretValues,
  ) {
    super();
    this.flowParts = this._register(onFirstNeed('quick-input', () => Promise.all([import('../../app/answering/inlineFlow'), import('./quickInputs')]).then((parts) => () => parts), log));
    this._register(toDisposable(() => this.active?.leave({ kind: 'escape' })));
  }

  /** The plan when the request is answered inline now: pending, readable, it fits, and its agent takes answers from editors. */
  planFor(item: Readonly<AttentionItem>): InlinePlan | undefined {
    if (item.status !== 'pending' || !item.request) return undefined;
    if (sendingBlockedBy(this.hubs.reachability(item).state) !== undefined) return undefined;
    return inlinePlan(item.request);
  }

  fits(item: Readonly<AttentionItem>): boolean {
    return this.planFor(item) !== undefined;
  }

  /** Answers in the quick input when the request fits, on its page otherwise; `fieldId` starts at that field (a refusal to fix). */
  async answer(item: Readonly<AttentionItem>, fieldId?: string): Promise<void> {
    const parts = await this.flowParts.get();
    if (!parts) return;
    const [{ InlineFlow }, { VscodeQuickInputs }] = parts;
    if (this.hubs.reachability(item).state === 'watch-only') {
      await this.sayWatchOnly(item);
      return;
    }
    // An answer of ours awaiting its ack: no second one is asked for (src/answer), whoever brought the request up;
    // nor one for a request that has closed (a notification's "Answer" touched after it ended).
    const admission = this.hubs.admit('quick-input', item);
    if (!admission.ok && (admission.refusal.code === 'answer-in-flight' || admission.refusal.code === 'request-closed')) {
      await this.refused(item, admission.refusal);
      return;
    }
    const plan = this.planFor(item);
    const request = item.request;
    if (!plan || !request) {
      await this.panels.show(item);
      return;
    }
    // A flow already showing loses its quick input to this one; it keeps its draft as on Escape.
    this.active?.leave({ kind: 'escape' });
    const title = inlineTitle(item, plan, this.hubs.size > 1 ? this.hubs.of(item)?.label : undefined);
    const after = lastActionLine(this.hubs.beforeAsking(item), Date.now());
    const flow = new InlineFlow(request, plan, this.panels.draftFor(item.key) ?? {}, title, () => this.secretValues.redaction(), new VscodeQuickInputs(), after);
    // Only the agent ends a request (AEP-0002 §7): when it does, the question in front of the person is withdrawn.
    const closing = this.hubs.onDidChangeInbox(() => {
      const latest = this.hubs.item(item.key);
      if (!latest || latest.status !== 'pending') flow.leave({ kind: 'closed' });
    });
    this.active = flow;
    void vscode.commands.executeCommand('setContext', ANSWERING_INLINE_CONTEXT, true);
    let end: FlowEnd;
    try {
      end = await flow.run(stepOfField(plan, fieldId));
    } finally {
      closing.dispose();
      if (this.active === flow) {
        this.active = undefined;
        void vscode.commands.executeCommand('setContext', ANSWERING_INLINE_CONTEXT, false);
      }
    }
    // What happened, never what was typed.
    this.log.info(`inline answer to ${item.requestId} from ${item.agent}: ${end.kind === 'send' ? 'sending' : end.kind}`);
    switch (end.kind) {
      case 'escape':
        this.panels.keepDraft(item.key, flow.draft);
        return;
      case 'page':
        await this.panels.show(item, flow.draft);
        return;
      case 'closed':
        this.panels.keepDraft(item.key, {});
        await this.closedMeanwhile(item);
        return;
      case 'send':
        // Kept until the agent accepts, so "Open" after a refusal shows what was typed.
        this.panels.keepDraft(item.key, flow.draft);
        await this.send(item, plan, end.answer, end.verbatim);
        return;
    }
  }

  /** Nothing is asked, and nothing is sent: the hub would refuse it. The token is what would let the answer through. */
  private async sayWatchOnly(item: Readonly<AttentionItem>): Promise<void> {
    this.log.info(`inline answer to ${item.requestId} from ${item.agent}: not offered, its hub is watch-only`);
    const choice = await notify('warning', watchOnlySentence(), [
      { title: l10n.t('Set Hub Token'), value: 'token' },
      { title: l10n.t('Open'), value: 'open' },
    ]);
    if (choice === 'token') await setHubToken(item.hub);
    else if (choice === 'open') void this.panels.show(this.hubs.item(item.key) ?? item);
  }

  /** The keybinding's "Open as page": the flow showing now leaves for the page with what was typed. */
  openActiveAsPage(): void {
    this.active?.leave({ kind: 'page' });
  }

  /**
   * Whatever the flow did, the answer pipeline (src/answer) decides:
   * an answer of ours still in flight refuses this one, and text the
   * redaction pipeline would change goes only as the person chose, never
   * declared `redacted` (AEP-0004 §5).
   */
  private async send(item: Readonly<AttentionItem>, plan: InlinePlan, answer: Answer, verbatim: boolean): Promise<void> {
    const current = this.hubs.item(item.key) ?? item;
    const request = current.request;
    if (!request) return;
    const result = this.hubs.answer('quick-input', current, answer, { verbatim, redaction: this.secretValues.redaction() });
    if (result.kind === 'refused') {
      await this.refused(item, result.refusal);
      return;
    }
    if (!this.hubs.isConnected(item)) void this.offerOpen(item, 'info', sendingMessage('', item.agent, false).message);
    const outcome = await withStatusProgress(l10n.t('Sending to {0}…', agentName(item.agent)), () => result.outcome);
    await this.settled(item, plan, request, outcome, result);
  }

  /**
   * Nothing was sent: the pipeline's reason, offering what every surface
   * offers for it (refusalChoices.ts), "Send Again" of the same command for
   * an answer awaiting its ack included.
   */
  async refused(item: Readonly<AttentionItem>, refusal: AnswerRefusal, surface: AnswerSurface = 'quick-input'): Promise<void> {
    const latest = () => this.hubs.item(item.key) ?? item;
    await offerRefusal({
      notify,
      open: () => void this.panels.show(latest()),
      sendAgain: (commandId) => withStatusProgress(l10n.t('Sending to {0}…', agentName(item.agent)), () => this.hubs.resend(surface, latest(), commandId)),
    }, refusal, item.agent);
  }

  /**
   * What became of the answer, as a notification: accepted, or what went
   * wrong with "Open" (the page shows the answer and its state). Refused as
   * invalid offers "Fix" at the field the agent named; no acknowledgement
   * offers "Send Again", the same command (AEP-0004 §2.3).
   */
  private async settled(item: Readonly<AttentionItem>, plan: InlinePlan, request: AttentionRequest, outcome: SendOutcome, how: SendKind): Promise<void> {
    const described = describeSettled(outcome, how, item.agent);
    if (described.ok) {
      this.panels.keepDraft(item.key, {});
      void notify('info', described.message);
      return;
    }
    type Action = 'open' | 'fix' | 'again';
    const open: Choice<Action> = { title: l10n.t('Open'), value: 'open' };
    const invalid = outcome.kind === 'rejected' && outcome.reason === 'invalid';
    const actions: Array<Choice<Action>> = invalid
      ? [{ title: l10n.t('Fix'), value: 'fix' }, open]
      : outcome.kind === 'timeout' ? [{ title: l10n.t('Send Again'), value: 'again' }, open] : [open];
    const waiting = outcome.kind === 'awaiting-ack';
    const choice = await notify(waiting ? 'info' : 'warning', described.message, actions);
    const latest = this.hubs.item(item.key) ?? item;
    if (choice === 'open') void this.panels.show(latest);
    else if (choice === 'fix') {
      const field = outcome.kind === 'rejected' ? fieldNamedIn(outcome.detail, request.fields.map((f) => f.id)) : undefined;
      await this.answer(latest, field);
    } else if (choice === 'again') {
      const again = await withStatusProgress(l10n.t('Sending to {0}…', agentName(item.agent)), () => this.hubs.resend('quick-input', latest, outcome.commandId));
      await this.settled(item, plan, request, again, { retry: outcome.commandId });
    }
  }

  /** The request closed while the quick input showed (resolved elsewhere, timed out, session ended): nothing was sent. */
  private async closedMeanwhile(item: Readonly<AttentionItem>): Promise<void> {
    const latest = this.hubs.item(item.key);
    // Nothing was sent from this flow, so whoever ended it answered elsewhere.
    const shown = latest ? shownStatus(latest.status, { ours: 'none', resolution: latest.resolution, recorded: this.hubs.recorded(latest).verdict }) : undefined;
    const why = shown === undefined ? l10n.t('no longer in the inbox')
      : statusWord(shown.kind === 'timed-out' || shown.kind === 'session-ended' || shown.kind === 'unanswered' ? shown.kind : 'answered-elsewhere');
    const message = l10n.t('The request from {0} closed before you answered ({1}). Nothing was sent.', agentName(item.agent), why);
    if (latest) await this.offerOpen(latest, 'info', message);
    else void notify('info', message);
  }

  private async offerOpen(item: Readonly<AttentionItem>, severity: 'info' | 'warning', message: string): Promise<void> {
    const choice = await notify(severity, message, [{ title: l10n.t('Open'), value: 'open' }]);
    if (choice === 'open') void this.panels.show(this.hubs.item(item.key) ?? item);
  }
}
