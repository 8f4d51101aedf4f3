import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import type { Answer, AttentionRequest } from '../../aep/attention';
import type { AnswerRefusal, AnswerSurface } from '../../answer/answerPipeline';
import type { SendOutcome } from '../../client/controlSender';
import { refusesAnswers } from '../../client/rosterSnapshot';
import type { Logger } from '../../base/logger';
import type { RedactionOptions } from '../../aep/redaction';
import type { AlwaysSecretValues } from '../services/alwaysSecretValues';
import type { AttentionItem } from '../../inbox/inbox';
import {
  checkedRequestOf, fieldDraftOf, formAnswer, inlinePlan, optionAnswer, replyAnswer, selectDraft, selectPickOf, sendCheck, stepOfField, withField, withReply,
  type InlineAnswer, type InlinePlan, type InlineStep, type SelectPick,
} from '../../answer/inlinePlan';
import { fieldNamedIn } from '../../aep/nackField';
import { readsLikeOurs } from '../../answer/ownItems';
import { shownStatus } from '../../shared/shownStatus';
import type { PageDraft } from '../../shared/webviewMessages';
import { sendingMessage } from '../words/answerOutcomes';
import { agentName } from '../words/describe';
import { Disposable } from '../services/disposable';
import type { Hubs } from '../hubs/hubs';
import { answerProblemText } from '../../shared/problemWords';
import { piece, PIECES } from '../words/untrustedText';
import {
  choiceText, fieldProblemWords, fieldPrompt, fieldQuestion, inlineTitle, mixedItems, optionText, redactionIntro, replacementsLine, sensitivityText, type AgentItem, type ListItem,
} from './inlineWords';
import { describeOutcome } from '../words/outcomeMessages';
import { offerRefusal } from '../words/refusalChoices';
import type { RequestPages } from '../page/requestPages';
import { setHubToken } from '../hubs/setHubToken';
import { watchOnlySentence } from '../words/watchOnlyWords';
import {
  createStepInput, createStepPick, notify, setInputProblem, showInputStep, showPickStep, withStatusProgress,
  type Choice, type QuickStep, type ShownPickItem, type StepPickItem,
} from '../words/surfaces';

/** True while an inline answer shows, for the "Open as page" keybinding (package.json). */
export const ANSWERING_INLINE_CONTEXT = 'aepAttention.answeringInline';

type FieldStep = Extract<InlineStep, { kind: 'field' }>;

/** How the flow left a step, or the whole flow. */
type Leave = { kind: 'escape' } | { kind: 'page' } | { kind: 'closed' };
type StepEnd<T> = { kind: 'next'; value: T } | { kind: 'back' } | Leave;

/** How a flow ends: an answer the person chose to send, or leaving with the draft. */
type FlowEnd = { kind: 'send'; answer: Answer; verbatim: boolean } | Leave;

/** An item of a pick step: a value of the step, or our own "Open as page". */
type Picked<T> = { kind: 'value'; value: T } | { kind: 'page' };

/**
 * The inline, keyboard-first answer (issue 15): a request that fits a quick
 * input (src/answer/inlinePlan.ts decides) is answered one question at a
 * time, with the page's checks at each step; anything else opens its page.
 * Escape keeps the partial answer as the page's draft; "Open as page" is a
 * button, an item, and Ctrl+Shift+Enter on every step.
 */
export class InlineAnswers extends Disposable {
  private active: InlineFlow | undefined;

  constructor(
    private readonly hubs: Hubs,
    private readonly panels: RequestPages,
    private readonly log: Logger,
    private readonly secretValues: AlwaysSecretValues,
  ) {
    super();
    this._register({ dispose: () => this.active?.leave({ kind: 'escape' }) });
  }

  /** The plan when the request is answered inline now: pending, readable, it fits, and its agent takes answers from editors. */
  planFor(item: Readonly<AttentionItem>): InlinePlan | undefined {
    if (item.status !== 'pending' || !item.request) return undefined;
    if (refusesAnswers(this.hubs.reachability(item))) return undefined;
    return inlinePlan(item.request);
  }

  fits(item: Readonly<AttentionItem>): boolean {
    return this.planFor(item) !== undefined;
  }

  /** Answers in the quick input when the request fits, on its page otherwise; `fieldId` starts at that field (a refusal to fix). */
  async answer(item: Readonly<AttentionItem>, fieldId?: string): Promise<void> {
    if (this.hubs.reachability(item).state === 'watch-only') {
      await this.sayWatchOnly(item);
      return;
    }
    // An answer of ours awaiting its ack: no second one is asked for (src/answer), whoever brought the request up.
    const admission = this.hubs.admit('quick-input', item);
    if (!admission.ok && admission.refusal.code === 'answer-in-flight') {
      await this.refused(item, admission.refusal);
      return;
    }
    const plan = this.planFor(item);
    const request = item.request;
    if (!plan || !request) {
      this.panels.show(item);
      return;
    }
    // A flow already showing loses its quick input to this one; it keeps its draft as on Escape.
    this.active?.leave({ kind: 'escape' });
    const flow = new InlineFlow(item, request, plan, this.panels.draftFor(item.key) ?? {}, this.hubs, () => this.secretValues.redaction());
    this.active = flow;
    void vscode.commands.executeCommand('setContext', ANSWERING_INLINE_CONTEXT, true);
    let end: FlowEnd;
    try {
      end = await flow.run(stepOfField(plan, fieldId));
    } finally {
      flow.dispose();
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
        this.panels.show(item, flow.draft);
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
    else if (choice === 'open') this.panels.show(this.hubs.item(item.key) ?? item);
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
    await this.settled(item, plan, request, outcome);
  }

  /**
   * Nothing was sent: the pipeline's reason, and for an answer in flight
   * "Send Again" of that same command, as its words offer. Answer Next shows
   * its refusals here too (`surface`), so they offer the same.
   */
  async refused(item: Readonly<AttentionItem>, refusal: AnswerRefusal, surface: AnswerSurface = 'quick-input'): Promise<void> {
    const latest = () => this.hubs.item(item.key) ?? item;
    await offerRefusal({
      notify,
      open: () => this.panels.show(latest()),
      sendAgain: (commandId) => withStatusProgress(l10n.t('Sending to {0}…', agentName(item.agent)), () => this.hubs.resend(surface, latest(), commandId)),
    }, refusal, item.agent);
  }

  /**
   * What became of the answer, as a notification: accepted, or what went
   * wrong with "Open" (the page shows the answer and its state). Refused as
   * invalid offers "Fix" at the field the agent named; no acknowledgement
   * offers "Send Again", the same command (AEP-0004 §2.3).
   */
  private async settled(item: Readonly<AttentionItem>, plan: InlinePlan, request: AttentionRequest, outcome: SendOutcome): Promise<void> {
    const described = describeOutcome(outcome, item.agent);
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
    if (choice === 'open') this.panels.show(latest);
    else if (choice === 'fix') {
      const field = outcome.kind === 'rejected' ? fieldNamedIn(outcome.detail, request.fields.map((f) => f.id)) : undefined;
      await this.answer(latest, field);
    } else if (choice === 'again') {
      const again = await withStatusProgress(l10n.t('Sending to {0}…', agentName(item.agent)), () => this.hubs.resend('quick-input', latest, outcome.commandId));
      await this.settled(item, plan, request, again);
    }
  }

  /** The request closed while the quick input showed (resolved elsewhere, timed out, session ended): nothing was sent. */
  private async closedMeanwhile(item: Readonly<AttentionItem>): Promise<void> {
    const latest = this.hubs.item(item.key);
    // Nothing was sent from this flow, so whoever ended it answered elsewhere.
    const shown = latest ? shownStatus(latest.status, { ours: 'none' }) : undefined;
    const why = shown === undefined ? l10n.t('no longer in the inbox')
      : shown.kind === 'timed-out' ? l10n.t('timed out')
        : shown.kind === 'session-ended' ? l10n.t('session ended') : l10n.t('answered elsewhere');
    const message = l10n.t('The request from {0} closed before you answered ({1}). Nothing was sent.', agentName(item.agent), why);
    if (latest) await this.offerOpen(latest, 'info', message);
    else void notify('info', message);
  }

  private async offerOpen(item: Readonly<AttentionItem>, severity: 'info' | 'warning', message: string): Promise<void> {
    const choice = await notify(severity, message, [{ title: l10n.t('Open'), value: 'open' }]);
    if (choice === 'open') this.panels.show(this.hubs.item(item.key) ?? item);
  }
}

/** The button on every step. */
function openAsPageButton(): vscode.QuickInputButton {
  return { iconPath: new vscode.ThemeIcon('go-to-file'), tooltip: l10n.t('Open as page (Ctrl+Shift+Enter)') };
}

/**
 * One run of the quick input for one request. Its state is the page's draft,
 * so whatever way it ends, what was typed can go to the page as it is.
 */
class InlineFlow {
  draft: PageDraft;
  /** Ends the step showing now, from outside it (the request closed, the keybinding). */
  private leaveCurrent: ((leave: Leave) => void) | undefined;
  private closed = false;
  private readonly subscription: vscode.Disposable;
  private readonly title: string;
  private readonly pageButton = openAsPageButton();

  constructor(
    item: Readonly<AttentionItem>,
    private readonly request: AttentionRequest,
    private readonly plan: InlinePlan,
    draft: PageDraft,
    hubs: Hubs,
    private readonly redaction: () => RedactionOptions,
  ) {
    this.draft = draft;
    this.title = inlineTitle(item, plan, hubs.size > 1 ? hubs.of(item)?.label : undefined);
    // Only the agent ends a request (AEP-0002 §7): when it does, the question in front of the person is withdrawn.
    this.subscription = hubs.onDidChangeInbox(() => {
      const latest = hubs.item(item.key);
      if (!latest || latest.status !== 'pending') this.leave({ kind: 'closed' });
    });
  }

  leave(leave: Leave): void {
    if (leave.kind === 'closed') this.closed = true;
    this.leaveCurrent?.(leave);
  }

  dispose(): void {
    this.subscription.dispose();
  }

  /** Step by step from `start`; a problem found with the whole answer sends the person back to its step. */
  async run(start: number): Promise<FlowEnd> {
    let index = start;
    let problem: string | undefined;
    for (;;) {
      if (this.closed) return { kind: 'closed' };
      const step = this.plan.steps[index];
      if (!step) return { kind: 'escape' };
      const end = await this.runStep(step, index, problem);
      problem = undefined;
      if (end.kind === 'back') {
        index = Math.max(0, index - 1);
        continue;
      }
      if (end.kind !== 'next') return end;
      const last = end.value.kind === 'option' || step.kind === 'reply' || index === this.plan.steps.length - 1;
      if (!last) {
        index++;
        continue;
      }
      const built: InlineAnswer = end.value.kind === 'option'
        ? optionAnswer(this.request, this.plan, end.value.id)
        : this.plan.mode === 'form' ? formAnswer(this.request, this.plan, this.draft) : replyAnswer(this.request, this.plan, this.draft);
      if (!built.ok) {
        index = built.step;
        problem = answerProblemText(built.problem);
        continue;
      }
      const confirmed = await this.confirm(built.answer);
      if (confirmed.kind === 'escape' && 'edit' in confirmed) {
        index = confirmed.edit;
        continue;
      }
      return confirmed;
    }
  }

  private quickStep(index: number, placeholder?: string): QuickStep {
    const form = this.plan.mode === 'form';
    // An option step has no count: picking an option is the whole answer. A reply after it is step 2 of 2.
    const numbered = form || index > 0;
    return {
      title: this.title,
      step: numbered ? index + 1 : undefined,
      totalSteps: numbered ? this.plan.steps.length : undefined,
      placeholder,
      buttons: index > 0 ? [vscode.QuickInputButtons.Back, this.pageButton] : [this.pageButton],
    };
  }

  private async runStep(step: InlineStep, index: number, problem: string | undefined): Promise<StepEnd<{ kind: 'option'; id: string } | { kind: 'done' }>> {
    switch (step.kind) {
      case 'option': {
        type Value = { kind: 'option'; id: string } | { kind: 'reply' };
        const options = step.options.map((option): AgentItem<Picked<Value>> => ({ label: optionText(option.name), id: option.id, value: { kind: 'value', value: { kind: 'option', id: option.id } } }));
        const reply: ListItem<Picked<Value>> = {
          label: l10n.t('Reply with text…'), description: l10n.t('the agent reads it; an option is the exact answer'), icon: 'comment', value: { kind: 'value', value: { kind: 'reply' } },
        };
        for (;;) {
          const end = await this.pick(this.quickStep(index, l10n.t('Choose an answer (Enter), or reply with text')), options, [reply], { problem });
          if (end.kind !== 'next') return end;
          const [value] = end.value;
          if (value?.kind !== 'option') return { kind: 'next', value: { kind: 'done' } };
          // Ranking puts ours first only for words typed from its start; an agent option that reads like ours is sent only when the person says so.
          const chosen = options.find((option) => option.id === value.id);
          if (!chosen || !readsLikeOurs(chosen.label, [reply.label, l10n.t('Open as page')])) return { kind: 'next', value };
          const confirmed = await this.confirmMimic(index, chosen);
          if (confirmed.kind === 'back') continue;
          return confirmed.kind === 'next' ? { kind: 'next', value } : confirmed;
        }
      }
      case 'reply': {
        const asked = this.plan.steps.length === 1 ? this.plan.prompt.text : l10n.t('Your reply, sent as text');
        const end = await this.input(this.quickStep(index, l10n.t('Type your answer')), {
          prompt: this.plan.prompt.synthesized && this.plan.steps.length === 1 ? l10n.t('{0} (synthesized, capture {1})', asked, this.plan.prompt.capture) : asked,
          value: this.draft.reply ?? '',
          problem,
          check: (text, accepting) => (accepting && text.trim() === '' ? l10n.t('Type a reply first.') : undefined),
          keep: (text) => (this.draft = withReply(this.draft, text)),
        });
        return end.kind === 'next' ? { kind: 'next', value: { kind: 'done' } } : end;
      }
      case 'field': {
        const end = await this.fieldStep(step, index, problem);
        return end.kind === 'next' ? { kind: 'next', value: { kind: 'done' } } : end;
      }
    }
  }

  private async fieldStep(step: FieldStep, index: number, problem: string | undefined): Promise<StepEnd<void>> {
    const field = step.field;
    const current = fieldDraftOf(this.draft, field.id);
    const keep = (input: Parameters<typeof withField>[2]) => (this.draft = withField(this.draft, field.id, input));
    switch (field.type) {
      case 'string':
      case 'number': {
        const end = await this.input(this.quickStep(index, fieldQuestion(step)), {
          prompt: fieldPrompt(step),
          value: typeof current?.value === 'string' ? current.value : '',
          password: field.type === 'string' && step.secret,
          problem,
          // While typing, a blank required field is not yet a problem; on Enter it is.
          check: (text, accepting) => (!accepting && text.trim() === '' ? undefined : fieldProblemWords(field, { value: text })),
          keep: (text) => keep({ value: text }),
        });
        return end.kind === 'next' ? { kind: 'next', value: undefined } : end;
      }
      case 'boolean': {
        const yes = { label: l10n.t('Yes'), value: { kind: 'value' as const, value: true } };
        const no = { label: l10n.t('No'), value: { kind: 'value' as const, value: false } };
        // The page's box starts unchecked: "No" is what Enter sends unless the person moves.
        const end = await this.pick(this.quickStep(index, fieldPrompt(step)), [], [yes, no], { problem, active: (value) => value === (current?.value === true) });
        if (end.kind !== 'next') return end;
        keep({ value: end.value[0] === true });
        return { kind: 'next', value: undefined };
      }
      case 'select':
        return this.selectStep(step, field, index, problem);
    }
  }

  private async selectStep(step: FieldStep, field: Extract<FieldStep['field'], { type: 'select' }>, index: number, problem: string | undefined): Promise<StepEnd<void>> {
    type Value = { kind: 'choice'; id: string } | { kind: 'other' } | { kind: 'empty' };
    const before = selectPickOf(field, fieldDraftOf(this.draft, field.id));
    const choices = step.choices.map((choice): AgentItem<Picked<Value>> => ({ label: choiceText(choice.name), id: choice.id, value: { kind: 'value', value: { kind: 'choice', id: choice.id } } }));
    const ours: Array<ListItem<Picked<Value>>> = [];
    if (field.other) ours.push({ label: l10n.t('Other…'), description: l10n.t('your own answer'), icon: 'edit', value: { kind: 'value', value: { kind: 'other' } } });
    if (!field.multi && !field.required) ours.push({ label: l10n.t('Leave empty'), description: l10n.t('optional'), icon: 'circle-slash', value: { kind: 'value', value: { kind: 'empty' } } });
    const isPicked = (value: Value) => (value.kind === 'choice' ? before.choices.includes(value.id) : value.kind === 'other' && before.other !== undefined);
    const toPick = (values: readonly Value[], other: string | undefined): SelectPick => ({
      choices: values.flatMap((value) => (value.kind === 'choice' ? [value.id] : [])),
      ...(values.some((value) => value.kind === 'other') ? { other: other ?? before.other ?? '' } : {}),
    });
    const end = await this.pick(this.quickStep(index, fieldPrompt(step)), choices, ours, {
      problem,
      many: field.multi,
      active: isPicked,
      selected: field.multi ? isPicked : undefined,
      // Only a multi-select can be accepted empty; the field's own check says whether it may be.
      check: field.multi ? (values) => (values.some((v) => v.kind === 'other') ? undefined : fieldProblemWords(field, selectDraft(field, toPick(values, undefined)))) : undefined,
      keep: field.multi ? (values) => void this.keepSelect(field, toPick(values, undefined)) : undefined,
    });
    if (end.kind !== 'next') return end;
    const values = end.value;
    if (!values.some((value) => value.kind === 'other')) {
      this.keepSelect(field, toPick(values, undefined));
      return { kind: 'next', value: undefined };
    }
    // "Other…": the person's own words, in a box of their own.
    const other = await this.input(this.quickStep(index, l10n.t('Your own answer')), {
      prompt: l10n.t('{0}: your own answer', fieldQuestion(step)),
      value: before.other ?? '',
      problem: undefined,
      check: (text, accepting) => (!accepting && text.trim() === '' ? undefined : fieldProblemWords(field, selectDraft(field, toPick(values, text)))),
      keep: (text) => this.keepSelect(field, toPick(values, text)),
    });
    if (other.kind === 'back') return this.selectStep(step, field, index, undefined);
    return other.kind === 'next' ? { kind: 'next', value: undefined } : other;
  }

  private keepSelect(field: Extract<FieldStep['field'], { type: 'select' }>, pick: SelectPick): void {
    this.draft = withField(this.draft, field.id, selectDraft(field, pick));
  }

  /**
   * An agent option that reads like one of our items (ownItems.ts) is
   * confirmed before it goes: "Back" is first, so a second Enter does not send it.
   */
  private async confirmMimic(index: number, option: AgentItem<unknown>): Promise<StepEnd<unknown>> {
    type Value = 'back' | 'send';
    const items: Array<ListItem<Picked<Value>>> = [
      { label: l10n.t('Back to the choices'), icon: 'arrow-left', value: { kind: 'value', value: 'back' } },
      { label: l10n.t('Send the agent\'s option'), detail: l10n.t('Sends the option with id {0} to the agent.', piece(option.id, PIECES.kind)), icon: 'warning', value: { kind: 'value', value: 'send' } },
    ];
    const placeholder = l10n.t('"{0}" is an option the agent offers, not an item of this editor. Send it?', option.label);
    const end = await this.pick({ ...this.quickStep(index, placeholder), step: undefined, totalSteps: undefined }, [], items, {});
    if (end.kind !== 'next') return end;
    return end.value[0] === 'send' ? { kind: 'next', value: undefined } : { kind: 'back' };
  }

  /**
   * Before it leaves (AEP-0004 §5, AEP-0003 §9.4): text the pipeline would
   * change is sent redacted or as typed only by the person's choice, and an
   * answer to an `auth` request or a secret-asking field is confirmed even
   * when nothing would change, as on the page. Never sent on anything but
   * an Enter on "Send…".
   */
  private async confirm(answer: Answer): Promise<FlowEnd | { kind: 'escape'; edit: number }> {
    const check = sendCheck(checkedRequestOf(this.request), answer, this.redaction());
    if (check.kind === 'send') return { kind: 'send', answer, verbatim: false };
    type Value = 'redacted' | 'verbatim' | 'send' | 'edit';
    const editStep = (() => {
      if (check.kind === 'redaction') {
        const part = check.redaction.changes[0]?.part;
        return part?.kind === 'value' ? stepOfField(this.plan, part.fieldId) : Math.max(0, this.plan.steps.findIndex((s) => s.kind === 'reply'));
      }
      return check.sensitive.kind === 'secret-field' ? stepOfField(this.plan, check.sensitive.fieldId) : 0;
    })();
    const edit = { label: l10n.t('Edit answer'), value: { kind: 'value' as const, value: 'edit' as Value } };
    const sensitive = check.sensitive ? sensitivityText(check.sensitive, this.plan) : undefined;
    const items: Array<ListItem<Picked<Value>>> = check.kind === 'redaction'
      ? [
        { label: l10n.t('Send redacted'), detail: replacementsLine(check.redaction, answer, this.plan), value: { kind: 'value', value: 'redacted' } },
        { label: l10n.t('Send as typed'), detail: l10n.t('Sends your text unchanged, at capture full: it is kept verbatim in the agent\'s session history.'), value: { kind: 'value', value: 'verbatim' } },
        edit,
      ]
      : [
        edit,
        { label: l10n.t('Send'), detail: l10n.t('The redaction pipeline finds nothing to replace, so your answer is sent as typed and kept in the agent\'s session history.'), value: { kind: 'value', value: 'send' } },
      ];
    const intro = check.kind === 'redaction' ? redactionIntro(check.redaction) : sensitive ?? '';
    const placeholder = check.kind === 'redaction' && sensitive ? `${sensitive} ${intro}` : intro;
    const view: QuickStep = { ...this.quickStep(this.plan.steps.length - 1, placeholder), step: undefined, totalSteps: undefined };
    const end = await this.pick(view, [], items, {});
    if (end.kind === 'back') return { kind: 'escape', edit: editStep };
    if (end.kind !== 'next') return end;
    switch (end.value[0]) {
      case 'redacted':
        return check.kind === 'redaction' ? { kind: 'send', answer: check.redaction.answer, verbatim: false } : { kind: 'escape', edit: editStep };
      case 'verbatim':
        return { kind: 'send', answer, verbatim: true };
      case 'send':
        return { kind: 'send', answer, verbatim: false };
      default:
        return { kind: 'escape', edit: editStep };
    }
  }

  // ---- the two kinds of step -------------------------------------------------

  /**
   * A text step. `check` runs as the person types (`accepting` false) and on
   * Enter (true); the message shows under the box, and Enter goes on only
   * without one. However the step ends, `keep` files the text in the draft.
   */
  private input(view: QuickStep, spec: {
    prompt: string;
    value: string;
    password?: boolean;
    problem: string | undefined;
    check: (text: string, accepting: boolean) => string | undefined;
    keep: (text: string) => void;
  }): Promise<StepEnd<string>> {
    const input = createStepInput();
    showInputStep(input, { ...view, prompt: spec.prompt, value: spec.value, password: spec.password });
    setInputProblem(input, spec.problem);
    input.ignoreFocusOut = true;
    return this.settle<string>(input, (finish) => [
      input.onDidChangeValue((text) => setInputProblem(input, spec.check(text, false))),
      input.onDidAccept(() => {
        const problem = spec.check(input.value, true);
        setInputProblem(input, problem);
        if (problem === undefined) finish({ kind: 'next', value: input.value });
      }),
      input.onDidTriggerButton((button) => finish(button === vscode.QuickInputButtons.Back ? { kind: 'back' } : { kind: 'page' })),
    ], () => spec.keep(input.value));
  }

  /**
   * A pick step. The first item (or the one the draft names) is active, so
   * Enter answers; a multi-select takes its ticked items on Enter. Pick steps
   * that take one item end with "Open as page" as an item too. The agent's
   * items (`agent`) come first, ours apart after them (inlineWords.ts `mixedItems`).
   */
  private pick<T>(view: QuickStep, agent: ReadonlyArray<AgentItem<Picked<T>>>, ours: ReadonlyArray<ListItem<Picked<T>>>, spec: {
    problem?: string | undefined;
    many?: boolean;
    active?: ((value: T) => boolean) | undefined;
    selected?: ((value: T) => boolean) | undefined;
    check?: ((values: T[]) => string | undefined) | undefined;
    keep?: ((values: T[]) => void) | undefined;
  }): Promise<StepEnd<T[]>> {
    const quickPick = createStepPick<Picked<T>>();
    quickPick.canSelectMany = spec.many === true;
    quickPick.ignoreFocusOut = true;
    quickPick.matchOnDescription = true;
    const page: ListItem<Picked<T>> = { label: l10n.t('Open as page'), description: l10n.t('Ctrl+Shift+Enter'), icon: 'go-to-file', value: { kind: 'page' } };
    const withPage: Array<StepPickItem<Picked<T>>> = mixedItems(agent, spec.many ? ours : [...ours, page]);
    const show = (problem: string | undefined) => {
      // No validation line on a quick pick in this VS Code API: the problem heads the list.
      const shown = showPickStep(quickPick, { ...view, items: problem === undefined ? withPage : [{ separator: problem }, ...withPage] });
      const valueOf = (item: ShownPickItem<Picked<T>>) => (item.value?.kind === 'value' ? item.value.value : undefined);
      const matching = (test: ((value: T) => boolean) | undefined) => (test ? shown.filter((item) => { const v = valueOf(item); return v !== undefined && test(v); }) : []);
      const selected = matching(spec.selected);
      if (spec.many) quickPick.selectedItems = selected;
      const active = matching(spec.active)[0];
      if (active) quickPick.activeItems = [active];
    };
    show(spec.problem);
    const values = (items: readonly ShownPickItem<Picked<T>>[]) => items.flatMap((item) => (item.value?.kind === 'value' ? [item.value.value] : []));
    return this.settle<T[]>(quickPick, (finish) => [
      quickPick.onDidAccept(() => {
        const chosen = spec.many ? quickPick.selectedItems : quickPick.activeItems.slice(0, 1);
        if (chosen.some((item) => item.value?.kind === 'page')) {
          finish({ kind: 'page' });
          return;
        }
        const picked = values(chosen);
        if (!spec.many && picked.length === 0) return;
        const problem = spec.check?.(picked);
        if (problem !== undefined) {
          show(problem);
          return;
        }
        finish({ kind: 'next', value: picked });
      }),
      quickPick.onDidTriggerButton((button) => finish(button === vscode.QuickInputButtons.Back ? { kind: 'back' } : { kind: 'page' })),
    ], () => spec.keep?.(values(quickPick.selectedItems)));
  }

  /**
   * Shows `input` until the step ends: by its own events, by hiding
   * (Escape, focus taken by another quick input), or from outside
   * (`leave`). `keep` runs on every end (on "next" the caller may file the
   * value itself too), so nothing typed is lost.
   */
  private settle<T>(
    input: vscode.QuickInput,
    listen: (finish: (end: StepEnd<T>) => void) => vscode.Disposable[],
    keep: () => void,
  ): Promise<StepEnd<T>> {
    return new Promise<StepEnd<T>>((resolve) => {
      let done = false;
      const subscriptions: vscode.Disposable[] = [];
      const finish = (end: StepEnd<T>) => {
        if (done) return;
        done = true;
        keep();
        this.leaveCurrent = undefined;
        subscriptions.forEach((s) => s.dispose());
        input.dispose();
        resolve(end);
      };
      subscriptions.push(...listen(finish), input.onDidHide(() => finish(this.closed ? { kind: 'closed' } : { kind: 'escape' })));
      this.leaveCurrent = (leave) => finish(leave);
      if (this.closed) {
        finish({ kind: 'closed' });
        return;
      }
      input.show();
    });
  }
}
