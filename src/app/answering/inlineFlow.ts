// The step loop of the inline answer (issue 15): the plan's steps one at a
// time, Back, Escape, the checks on the way, and the confirmations before an
// answer leaves. No vscode import at run time: what it shows goes through
// `QuickInputs` (quickInputs.ts over VS Code, a scripted fake in the unit tests).
import * as l10n from '@vscode/l10n';
import type { Answer, AttentionRequest } from '../../aep/attention';
import type { RedactionOptions } from '../../aep/redaction';
import {
  checkedRequestOf, fieldDraftOf, formAnswer, optionAnswer, replyAnswer, selectDraft, selectPickOf, sendCheck, stepOfField, withField, withReply,
  type InlineAnswer, type InlinePlan, type InlineStep, type SelectPick,
} from '../../answer/inlinePlan';
import { optionPassesForOurs } from '../../answer/ownItems';
import { OWN_ACTIONS } from '../../shared/ownActionWords';
import { answerProblemText } from '../../shared/problemWords';
import type { PageDraft } from '../../shared/webviewMessages';
import { contextSummary, shownContext } from '../../shared/contextView';
import { piece, PIECES } from '../../words/untrustedText';
import { withLastAction } from '../../words/beforeAskingWords';
import {
  choiceText, fieldProblemWords, fieldPrompt, fieldQuestion, mixedItems, optionText, redactionIntro, replacementsLine, sensitivityText,
  type AgentItem, type ListItem, type Listed,
} from '../../words/inlineWords';

type FieldStep = Extract<InlineStep, { kind: 'field' }>;

/** How the flow left a step, or the whole flow. */
export type Leave = { kind: 'escape' } | { kind: 'page' } | { kind: 'closed' };
/** `words`: "Reply in words instead…" on a form's step. */
export type StepEnd<T> = { kind: 'next'; value: T } | { kind: 'back' } | { kind: 'words' } | Leave;

/** How a flow ends: an answer the person chose to send, or leaving with the draft. */
export type FlowEnd = { kind: 'send'; answer: Answer; verbatim: boolean } | Leave;

/** What every step shows around its question. Every step has the "Open as page" button; `back` adds Back before it. */
export interface StepView {
  readonly title: string;
  readonly step?: number | undefined;
  readonly totalSteps?: number | undefined;
  readonly placeholder?: string | undefined;
  readonly back: boolean;
  /** A form's step: it also offers "Reply in words instead…". */
  readonly words?: boolean | undefined;
}

/** A text step: `check` runs as the person types (`accepting` false) and on Enter (true). */
export interface InputSpec {
  readonly prompt: string;
  /** What the box holds when it shows: the person's own earlier input. */
  readonly value: string;
  readonly password?: boolean | undefined;
  /** A problem to show from the start (the whole answer's, found after the last step). */
  readonly problem: string | undefined;
  readonly check: (text: string, accepting: boolean) => string | undefined;
  readonly keep: (text: string) => void;
}

/** A pick step over items of value `V` (an object, so a separator's missing value is never one); the predicates and callbacks see items' values, never separators. */
export interface PickSpec<V> {
  readonly problem?: string | undefined;
  /** Ticks: Enter takes the ticked items, and may take none. */
  readonly many?: boolean | undefined;
  /** The item Enter answers with (a single pick), or the one focused first. */
  readonly active?: ((value: V) => boolean) | undefined;
  /** The items ticked when the step shows (`many`). */
  readonly selected?: ((value: V) => boolean) | undefined;
  /** On Enter: a problem keeps the step showing, with the problem above the items. */
  readonly check?: ((values: V[]) => string | undefined) | undefined;
  /** Files the ticked items however the step ends. */
  readonly keep?: ((values: V[]) => void) | undefined;
}

/**
 * What the step loop needs of a quick input. Each step ends once: "next"
 * with what Enter took (never while `check` finds a problem), Back, the
 * "Open as page" button, Escape or the quick input hidden (`escape`), or
 * `leave` from outside. However a step ends, its `keep` runs first, so nothing
 * typed is lost. One instance serves one flow, one step at a time.
 */
export interface QuickInputs {
  input(view: StepView, spec: InputSpec): Promise<StepEnd<string>>;
  pick<V extends object>(view: StepView, items: ReadonlyArray<Listed<V>>, spec: PickSpec<V>): Promise<StepEnd<V[]>>;
  /** Ends the step showing now, if one is, as `leave` says. */
  leave(leave: Leave): void;
}

/** An item of a pick step: a value of the step, or our own "Open as page". */
type Picked<T> = { kind: 'value'; value: T } | { kind: 'page' };

/** The longest context line the first step's placeholder takes; a longer one is left to the page. */
const CONTEXT_LINE_MAX = 90;
/** The longest placeholder the last action is added to: past it, the line is left to the page. */
const PLACEHOLDER_MAX = 200;

/**
 * One run of the quick input for one request. Its state is the page's draft,
 * so whatever way it ends, what was typed can go to the page as it is.
 */
export class InlineFlow {
  draft: PageDraft;
  private closed = false;

  constructor(
    private readonly request: AttentionRequest,
    private readonly plan: InlinePlan,
    draft: PageDraft,
    /** Whose question this is (inlineWords.ts `inlineTitle`), on every step. */
    private readonly title: string,
    private readonly redaction: () => RedactionOptions,
    private readonly quick: QuickInputs,
    /** The last action before the request, in one line (beforeAskingWords.ts), for the first step. */
    private readonly lastAction?: string,
  ) {
    this.draft = draft;
  }

  /** Ends the step showing now, from outside it: the request closed (every later step then ends so too), the keybinding, another flow. */
  leave(leave: Leave): void {
    if (leave.kind === 'closed') this.closed = true;
    this.quick.leave(leave);
  }

  /** Step by step from `start`; a problem found with the whole answer sends the person back to its step. */
  async run(start: number): Promise<FlowEnd> {
    let index = start;
    let problem: string | undefined;
    for (;;) {
      if (this.closed) return { kind: 'closed' };
      const step = this.plan.steps[index];
      if (!step) return { kind: 'escape' };
      const given = await this.runStep(step, index, problem);
      problem = undefined;
      // In words instead of the fields: its own step; Back returns to the field it was offered on.
      const end = given.kind === 'words' ? await this.wordsStep() : given;
      if (end.kind === 'words' || (end.kind === 'back' && given.kind === 'words')) continue;
      if (end.kind === 'back') {
        index = Math.max(0, index - 1);
        continue;
      }
      if (end.kind !== 'next') return end;
      const last = end.value.kind === 'option' || end.value.kind === 'words' || step.kind === 'reply' || index === this.plan.steps.length - 1;
      if (!last) {
        index++;
        continue;
      }
      const built: InlineAnswer = end.value.kind === 'option'
        ? optionAnswer(this.request, this.plan, end.value.id)
        : end.value.kind === 'words' ? replyAnswer(this.request, this.plan, this.draft)
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

  private quickStep(index: number, placeholder?: string): StepView {
    const form = this.plan.mode === 'form';
    // The first step carries a line of the context the agent attached, when it is short enough to read there.
    const context = index === 0 ? this.contextLine() : undefined;
    if (context !== undefined) placeholder = placeholder === undefined ? l10n.t('Context: {0}', context) : l10n.t('{0} · context: {1}', placeholder, context);
    // And what the agent did last before asking, where it fits beside the rest.
    if (index === 0) placeholder = withLastAction(placeholder, this.lastAction, PLACEHOLDER_MAX);
    // An option step has no count: picking an option is the whole answer. A reply after it is step 2 of 2.
    const numbered = form || index > 0;
    return {
      title: this.title,
      step: numbered ? index + 1 : undefined,
      totalSteps: numbered ? this.plan.steps.length : undefined,
      placeholder,
      back: index > 0,
      // Only where the agent can take words alone (answerCheck.ts `wordsReplyAccepted`).
      words: form && this.plan.words !== undefined,
    };
  }

  /**
   * A form answered in words instead of its fields: the reply goes as `text`
   * through the same checks and confirmations as any reply. Offered only for
   * a form without required fields; hidden as typed when one of its fields
   * asks for a secret, as that field's step is.
   */
  private async wordsStep(): Promise<StepEnd<{ kind: 'words' }>> {
    const end = await this.quick.input({ title: this.title, placeholder: l10n.t('Reply in words instead of the fields'), back: true }, {
      prompt: l10n.t('Sent as text instead of the fields.'),
      value: this.draft.reply ?? '',
      password: this.plan.words?.secret === true,
      problem: undefined,
      check: (text, accepting) => (accepting && text.trim() === '' ? l10n.t('Type a reply first.') : undefined),
      keep: (text) => (this.draft = withReply(this.draft, text)),
    });
    return end.kind === 'next' ? { kind: 'next', value: { kind: 'words' } } : end;
  }

  private contextLine(): string | undefined {
    const shown = shownContext(this.request);
    if (shown === undefined || shown === 'withheld') return undefined;
    const line = contextSummary(shown);
    return line !== '' && line.length <= CONTEXT_LINE_MAX ? line : undefined;
  }

  private async runStep(step: InlineStep, index: number, problem: string | undefined): Promise<StepEnd<{ kind: 'option'; id: string } | { kind: 'done' }>> {
    switch (step.kind) {
      case 'option': {
        type Value = { kind: 'option'; id: string } | { kind: 'reply' };
        const options = step.options.map((option): AgentItem<Picked<Value>> => ({ label: optionText(option.name), id: option.id, value: { kind: 'value', value: { kind: 'option', id: option.id } } }));
        const reply: ListItem<Picked<Value>> = {
          label: OWN_ACTIONS.replyWithText.words(), description: l10n.t('the agent reads it; an option is the exact answer'), icon: 'comment', value: { kind: 'value', value: { kind: 'reply' } },
        };
        for (;;) {
          const end = await this.pick(this.quickStep(index, l10n.t('Choose an answer (Enter), or reply with text')), options, [reply], { problem });
          if (end.kind !== 'next') return end;
          const [value] = end.value;
          if (value?.kind !== 'option') return { kind: 'next', value: { kind: 'done' } };
          // Ranking puts ours first only for words typed from its start; an agent option that reads like ours is sent only when the person says so.
          const chosen = options.find((option) => option.id === value.id);
          const name = step.options.find((option) => option.id === value.id)?.name;
          if (!chosen || !name || !optionPassesForOurs(name.withheld ? undefined : name.text)) return { kind: 'next', value };
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
    if (field.other) ours.push({ label: OWN_ACTIONS.other.words(), description: l10n.t('your own answer'), icon: 'edit', value: { kind: 'value', value: { kind: 'other' } } });
    if (!field.multi && !field.required) ours.push({ label: OWN_ACTIONS.leaveEmpty.words(), description: l10n.t('optional'), icon: 'circle-slash', value: { kind: 'value', value: { kind: 'empty' } } });
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
      { label: OWN_ACTIONS.backToChoices.words(), icon: 'arrow-left', value: { kind: 'value', value: 'back' } },
      { label: OWN_ACTIONS.sendAgentsOption.words(), detail: l10n.t('Sends the option with id {0} to the agent.', piece(option.id, PIECES.kind)), icon: 'warning', value: { kind: 'value', value: 'send' } },
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
      // Words to a secret-asking form are edited from the first step, where "Reply in words instead…" is offered again.
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
    const view: StepView = { ...this.quickStep(this.plan.steps.length - 1, placeholder), step: undefined, totalSteps: undefined, words: false };
    const end = await this.pick(view, [], items, {});
    if (end.kind === 'back' || end.kind === 'words') return { kind: 'escape', edit: editStep };
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

  // ---- the two kinds of step, through QuickInputs ------------------------------

  /** A step shows only while the request is open; hidden after it closed, the step ends `closed`. */
  private async shown<T>(show: () => Promise<StepEnd<T>>): Promise<StepEnd<T>> {
    if (this.closed) return { kind: 'closed' };
    const end = await show();
    return end.kind === 'escape' && this.closed ? { kind: 'closed' } : end;
  }

  /**
   * A text step. `check` runs as the person types (`accepting` false) and on
   * Enter (true); the message shows under the box, and Enter goes on only
   * without one. However the step ends, `keep` files the text in the draft.
   */
  private input(view: StepView, spec: InputSpec): Promise<StepEnd<string>> {
    return this.shown(() => this.quick.input(view, spec));
  }

  /**
   * A pick step. The first item (or the one the draft names) is active, so
   * Enter answers; a multi-select takes its ticked items on Enter. Pick steps
   * that take one item end with "Open as page" as an item too. The agent's
   * items (`agent`) come first, ours apart after them (inlineWords.ts `mixedItems`).
   */
  private async pick<T>(view: StepView, agent: ReadonlyArray<AgentItem<Picked<T>>>, ours: ReadonlyArray<ListItem<Picked<T>>>, spec: PickSpec<T>): Promise<StepEnd<T[]>> {
    const page: ListItem<Picked<T>> = { label: OWN_ACTIONS.openAsPage.words(), description: l10n.t('Ctrl+Shift+Enter'), icon: 'go-to-file', value: { kind: 'page' } };
    const items = mixedItems(agent, spec.many ? ours : [...ours, page]);
    const values = (picked: ReadonlyArray<Picked<T>>) => picked.flatMap((item) => (item.kind === 'value' ? [item.value] : []));
    const of = (test: ((value: T) => boolean) | undefined) => (test ? (item: Picked<T>) => item.kind === 'value' && test(item.value) : undefined);
    const { check, keep } = spec;
    const end = await this.shown(() => this.quick.pick<Picked<T>>(view, items, {
      problem: spec.problem,
      many: spec.many,
      active: of(spec.active),
      selected: of(spec.selected),
      check: check && ((picked) => (picked.some((item) => item.kind === 'page') ? undefined : check(values(picked)))),
      keep: keep && ((picked) => keep(values(picked))),
    }));
    if (end.kind !== 'next') return end;
    if (end.value.some((item) => item.kind === 'page')) return { kind: 'page' };
    return { kind: 'next', value: values(end.value) };
  }
}
