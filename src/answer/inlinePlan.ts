// The inline, keyboard-first answer (issue 15): which requests fit a
// quick-input flow, its steps, and each step's reading and checks. The
// state of a flow is the request page's own draft (src/shared/webviewMessages.ts),
// so leaving the flow for the page loses nothing, and every value is read as
// the page reads its controls (webview/fields.ts) and checked with the page's
// code (formValidation.ts, answerCheck.ts).
import type { Answer, AttentionRequest, FieldSpec, SelectField } from '../aep/attention';
import { answerProblem, checkAnswer, fieldsProblem, wordsReplyAccepted, type AnswerProblem } from '../aep/answerCheck';
import { fieldValue, type SimpleField } from './fieldDraft';
import { decideCapture, freeTextParts, type AnswerRedaction, type FormValues } from '../aep/capture';
import { validateFormValues, type FieldProblem } from '../aep/formValidation';
import { honestRequestText, type HonestText } from '../aep/labels';
import type { CaptureLevel } from '../aep/levels';
import type { RedactionOptions } from '../aep/redaction';
import { fieldAsksForSecret, requestAsksForSecret, wordsSecretField, type SecretAskingRequest } from '../aep/secretAsking';
import { OTHER_CHOICE_DRAFT, type FieldDraft, type PageDraft } from '../shared/webviewMessages';

/**
 * What fits a quick input: up to 5 fields, a select of up to 50 choices.
 * Beyond that one question at a time hides too much of the form; the page shows it whole.
 */
export const INLINE_LIMITS = { fields: 5, choices: 50 } as const;

/**
 * How a prompt's option, a field or a choice is named. At capture
 * `metadata`/`none` its label is a placeholder (AEP-0002 §5.3 `[metadata*]`,
 * AEP-0006), never the question: it is withheld, named by its 1-based
 * position and its id, as the page does (webview/honestText.ts).
 */
export type Naming =
  | { withheld: false; text: string; honesty: 'redacted' | 'verbatim' }
  | { withheld: true; position: number; id: string; capture: CaptureLevel };

export interface NamedChoice {
  id: string;
  name: Naming;
}

export type InlineStep =
  /** Pick one of the request's options, or go on to a text reply (the next step). */
  | { kind: 'option'; options: NamedChoice[] }
  /** A free-text reply (AEP-0008 §1: text against options is mapped by the agent; `option` stays the lossless way). */
  | { kind: 'reply' }
  | { kind: 'field'; position: number; field: SimpleField; name: Naming; choices: NamedChoice[]; secret: boolean };

export interface InlinePlan {
  /** `reply`: an option or a text reply, as the page's reply area; `form`: one step per field. */
  mode: 'reply' | 'form';
  /** At capture `metadata`/`none` the emitter synthesized the prompt from structure; it is labelled so. */
  prompt: { text: string; synthesized: boolean; capture: CaptureLevel };
  steps: InlineStep[];
  /**
   * A form's "Reply in words instead…", when it is offered (answerCheck.ts
   * `wordsReplyAccepted`: the form has no required field); `secret` when one
   * of its fields asks for a secret, so the words are hidden as that field is.
   */
  words?: { secret: boolean } | undefined;
}

function naming(label: HonestText, position: number, id: string, capture: CaptureLevel): Naming {
  return label.honesty === 'structural' ? { withheld: true, position, id, capture } : { withheld: false, text: label.text, honesty: label.honesty };
}

function isSimple(field: FieldSpec): field is SimpleField {
  return field.type !== 'unsupported';
}

/** Whether a field asks for a secret (secretAsking.ts); a withheld name is a placeholder and says nothing. */
function asksForSecret(field: FieldSpec, name: Naming): boolean {
  return fieldAsksForSecret(field.id, name.withheld ? undefined : { text: name.text, honesty: name.honesty });
}

/**
 * The steps of an inline answer, or undefined when the request is answered
 * on its page instead:
 * - out of band (AEP-0008 §2): the page shows it as information, no answer;
 * - kind `auth`: what is typed may be a credential for whoever asks, and the
 *   page shows the whole prompt and its provenance beside the answer;
 * - a form with more than 5 fields, a field type this extension cannot
 *   answer (even optional: the page says it is left out), or a select of
 *   more than 50 choices.
 * Everything else fits: options (plus a text reply, as the page always
 * offers one for an answerable non-form request), a question, a small form.
 */
export function inlinePlan(request: AttentionRequest): InlinePlan | undefined {
  if (!request.answerableHere) return undefined;
  if (requestAsksForSecret(request)) return undefined;
  const honest = honestRequestText(request);
  const capture = request.capture;
  const prompt = { text: request.prompt, synthesized: honest.prompt.honesty === 'structural', capture };
  if (request.renderKind === 'form') {
    if (request.fields.length === 0 || request.fields.length > INLINE_LIMITS.fields) return undefined;
    const steps: InlineStep[] = [];
    for (const [index, field] of request.fields.entries()) {
      const shown = honest.fields[index];
      if (!shown || !isSimple(field)) return undefined;
      if (field.type === 'select' && field.choices.length > INLINE_LIMITS.choices) return undefined;
      const name = naming(shown.label, index + 1, field.id, capture);
      const choices = shown.choices.map((choice, i) => ({ id: choice.id, name: naming(choice.label, i + 1, choice.id, capture) }));
      steps.push({ kind: 'field', position: index + 1, field, name, choices, secret: asksForSecret(field, name) });
    }
    const words = wordsReplyAccepted(request.fields) ? { secret: steps.some((step) => step.kind === 'field' && step.secret) } : undefined;
    return { mode: 'form', prompt, steps, ...(words ? { words } : {}) };
  }
  if (request.options.length === 0) return { mode: 'reply', prompt, steps: [{ kind: 'reply' }] };
  if (request.options.length > INLINE_LIMITS.choices) return undefined;
  const options = honest.options.map((option, i) => ({ id: option.id, name: naming(option.label, i + 1, option.id, capture) }));
  return { mode: 'reply', prompt, steps: [{ kind: 'option', options }, { kind: 'reply' }] };
}

// ---- one field: its draft, its value, its check ------------------------------

/**
 * What is wrong with a field's drafted value, as the page finds it under
 * the field (the same `validateFormValues` call as its per-field check):
 * `required` enforced, an optional empty field passes.
 */
export function fieldProblem(field: SimpleField, draft: FieldDraft | undefined): FieldProblem | undefined {
  const value = fieldValue(field, draft);
  const check = validateFormValues([field], value === undefined ? {} : { [field.id]: value });
  return check.ok ? undefined : check.errors[0]?.problem;
}

/** What was picked in a select, as the quick pick shows it: listed choice ids, and "Other…" with its text. */
export interface SelectPick {
  choices: readonly string[];
  /** Present when "Other…" is picked (only offered when the field allows `other`); its text may still be empty. */
  other?: string;
}

/** A select's draft as the page's control holds it: a choice id or the "Other…" entry (`''`: nothing), or a list of them. */
export function selectDraft(field: SelectField, pick: SelectPick): FieldDraft {
  const other = field.other && pick.other !== undefined;
  const text = other && pick.other ? { other: pick.other } : {};
  if (field.multi) return { value: [...pick.choices, ...(other ? [OTHER_CHOICE_DRAFT] : [])], ...text };
  if (other) return { value: OTHER_CHOICE_DRAFT, ...text };
  return { value: pick.choices[0] ?? '' };
}

/** The pick a select's draft holds, to show it again; values of another shape (an older draft) are left out. */
export function selectPickOf(field: SelectField, draft: FieldDraft | undefined): SelectPick {
  const value = draft?.value;
  const listed = (item: unknown): item is string => typeof item === 'string' && field.choices.some((choice) => choice.id === item);
  const items = Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
  const choices = items.filter(listed);
  const other = field.other && items.includes(OTHER_CHOICE_DRAFT) ? { other: draft?.other ?? '' } : {};
  return { choices: field.multi ? choices : choices.slice(0, 1), ...other };
}

/** The draft with one field's input replaced. */
export function withField(draft: PageDraft, fieldId: string, input: FieldDraft): PageDraft {
  const fields = { ...(draft.fields ?? {}) };
  // defineProperty: a field id is agent-authored and must stay a plain key whatever it spells.
  Object.defineProperty(fields, fieldId, { value: input, enumerable: true, writable: true, configurable: true });
  return { ...draft, fields };
}

export function withReply(draft: PageDraft, reply: string): PageDraft {
  const { reply: _old, ...rest } = draft;
  return reply === '' ? rest : { ...rest, reply };
}

/** A field's input in a draft (own keys only: a field id is no key into the prototype). */
export function fieldDraftOf(draft: PageDraft, fieldId: string): FieldDraft | undefined {
  return draft.fields && Object.hasOwn(draft.fields, fieldId) ? draft.fields[fieldId] : undefined;
}

/** Whether a draft holds anything worth handing to the page. */
export function draftIsEmpty(draft: PageDraft): boolean {
  return (draft.reply ?? '') === '' && Object.keys(draft.fields ?? {}).length === 0;
}

// ---- the answer -------------------------------------------------------------

/** A complete answer, or what is wrong with it and the step to go back to. */
export type InlineAnswer = { ok: true; answer: Answer } | { ok: false; problem: AnswerProblem; step: number };

/** The step that asks for `fieldId`, or the first step. */
export function stepOfField(plan: InlinePlan, fieldId: string | undefined): number {
  const index = plan.steps.findIndex((step) => step.kind === 'field' && step.field.id === fieldId);
  return index < 0 ? 0 : index;
}

function checked(request: AttentionRequest, plan: InlinePlan, answer: Answer): InlineAnswer {
  // The host's own check (requestPageController.ts submit): whatever built the answer, this decides.
  const check = checkAnswer(request, answer);
  return check.ok ? { ok: true, answer: check.answer } : { ok: false, problem: check.problem, step: stepOfField(plan, check.problem.fieldId) };
}

/**
 * The form's answer from the draft, as the page's Send builds it: each
 * field's value, checked together (`required`, choice ids unless `other`),
 * empty optional fields left out.
 */
export function formAnswer(request: AttentionRequest, plan: InlinePlan, draft: PageDraft): InlineAnswer {
  const values: FormValues = {};
  for (const step of plan.steps) {
    if (step.kind !== 'field') continue;
    const value = fieldValue(step.field, fieldDraftOf(draft, step.field.id));
    if (value !== undefined) Object.defineProperty(values, step.field.id, { value, enumerable: true, writable: true, configurable: true });
  }
  const check = validateFormValues(request.fields, values);
  if (!check.ok) {
    const problem = answerProblem(request, { values }) ?? fieldsProblem(request, check.errors);
    return { ok: false, problem, step: stepOfField(plan, check.errors[0].fieldId) };
  }
  return checked(request, plan, { values: check.values });
}

/** A text reply, trimmed as the page's "Send reply" trims it. */
export function replyAnswer(request: AttentionRequest, plan: InlinePlan, draft: PageDraft): InlineAnswer {
  const text = draft.reply?.trim() ?? '';
  const step = plan.steps.findIndex((s) => s.kind === 'reply');
  if (text === '') return { ok: false, problem: { code: 'empty' }, step: step < 0 ? 0 : step };
  return checked(request, plan, { text });
}

export function optionAnswer(request: AttentionRequest, plan: InlinePlan, optionId: string): InlineAnswer {
  return checked(request, plan, { option: optionId });
}

// ---- before it leaves: honest capture -----------------------------------------

/** Why an answer is confirmed although the pipeline changes nothing; `secret-words`: words sent instead of a form whose field `fieldId` asks for a secret. */
export type Sensitivity = { kind: 'auth' } | { kind: 'secret-field'; fieldId: string } | { kind: 'secret-words'; fieldId: string };

/**
 * What the send check reads of a request: its kind, and each field's spec
 * with its label as the person sees it (labels.ts honesty). The page's
 * PageRequest is one; `checkedRequestOf` makes one of a parsed request.
 */
export interface CheckedRequest {
  kind: string;
  renderKind: string;
  fields: ReadonlyArray<{ spec: FieldSpec; label: HonestText }>;
}

/** A checked request as the secret rule reads it (secretAsking.ts): the page's request is one too. */
export function secretAskingOfChecked(request: CheckedRequest): SecretAskingRequest {
  return { kind: request.kind, renderKind: request.renderKind, fields: request.fields.map((field) => ({ id: field.spec.id, label: field.label })) };
}

export function checkedRequestOf(request: AttentionRequest): CheckedRequest {
  const honest = honestRequestText(request);
  return {
    kind: request.kind, renderKind: request.renderKind,
    fields: request.fields.map((spec, index) => ({ spec, label: honest.fields[index]?.label ?? { text: spec.label, honesty: 'structural' } })),
  };
}

/**
 * What must happen before the answer leaves (AEP-0004 §5, AEP-0003 §9.4),
 * decided here for the page and the quick input alike:
 * - `send`: no free text, or text the pipeline passes unchanged;
 * - `redaction`: the pipeline would change some text: the person chooses the
 *   redacted answer, the text as typed (capture `full`) or to edit;
 * - `sensitive`: nothing would change, but the answer is for an `auth`
 *   request or a field that asks for a secret: the person confirms.
 */
export type SendCheck =
  | { kind: 'send' }
  | { kind: 'redaction'; redaction: AnswerRedaction; sensitive?: Sensitivity }
  | { kind: 'sensitive'; sensitive: Sensitivity };

/** Previews with the pipeline's own decision (`decideCapture`), so what it offers is what the pipeline sends. */
export function sendCheck(request: CheckedRequest, answer: Answer, redaction: RedactionOptions = {}): SendCheck {
  const specs = request.fields.map((field) => field.spec);
  const decision = decideCapture(answer, { fields: specs }, { redaction });
  const sensitive = sensitivity(request, specs, answer);
  if (!decision.ok) return { kind: 'redaction', redaction: { answer: decision.redacted, changes: decision.changes }, ...(sensitive ? { sensitive } : {}) };
  return sensitive ? { kind: 'sensitive', sensitive } : { kind: 'send' };
}

function sensitivity(request: CheckedRequest, specs: readonly FieldSpec[], answer: Answer): Sensitivity | undefined {
  const parts = freeTextParts(answer, specs).filter((free) => free.text !== '');
  if (parts.length === 0) return undefined;
  if (requestAsksForSecret(request)) return { kind: 'auth' };
  for (const { part } of parts) {
    if (part.kind === 'text') {
      const fieldId = wordsSecretField(secretAskingOfChecked(request));
      if (fieldId !== undefined) return { kind: 'secret-words', fieldId };
      continue;
    }
    const field = request.fields.find((f) => f.spec.id === part.fieldId);
    // The rule the plan's `secret` steps and the page's password boxes follow (secretAsking.ts).
    if (field && fieldAsksForSecret(field.spec.id, field.label)) return { kind: 'secret-field', fieldId: part.fieldId };
  }
  return undefined;
}
