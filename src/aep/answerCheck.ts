import type { Answer, AttentionRequest, FieldSpec } from './attention';
import { validateFormValues, type FieldError, type FieldProblem } from './formValidation';

/** How a field is named to the person: its label when it is real text, else its id. */
export type FieldName = { kind: 'label'; label: string } | { kind: 'id'; id: string };

/**
 * What is wrong with an answer, as a code the UI words (src/shared
 * problemWords.ts); `fieldId` when one field is at fault, the first of
 * `fields` for a form.
 */
export type AnswerProblem = { fieldId?: string } & (
  | { code: 'unreadable' }
  | { code: 'answered-elsewhere' }
  | { code: 'unknown-option'; option: string }
  | { code: 'fields'; fieldId: string; fields: ReadonlyArray<{ name: FieldName; problem: FieldProblem }> }
  | { code: 'values-not-form' }
  /** A reply in words (`text` alone) to a form with required fields: `fields` names them. */
  | { code: 'words-need-fields'; fieldId: string; fields: readonly FieldName[] }
  | { code: 'empty' }
);

export type AnswerProblemCode = AnswerProblem['code'];

/** An answer the host may send (as it goes on the wire), or what is wrong with it. */
export type AnswerCheck = { ok: true; answer: Answer } | { ok: false; problem: AnswerProblem };

/**
 * Whether an answer may be sent for a request, checked again on the host side
 * whatever the page did: the webview is a less trusted context, and the quick
 * input, the notification and tools answer without it. Empty optional values
 * are left out (formValidation.ts `validateFormValues`, the page's and the
 * quick input's own rule) before the rest is checked, so what passes is what
 * goes on the wire: an emitter reads `""` as an answer, not as none.
 */
export function checkAnswer(request: AttentionRequest | undefined, answer: Answer): AnswerCheck {
  const refuse = (problem: AnswerProblem): AnswerCheck => ({ ok: false, problem });
  if (!request) return refuse({ code: 'unreadable' });
  if (!request.answerableHere) return refuse({ code: 'answered-elsewhere' });
  if (answer.option !== undefined && !request.options.some((option) => option.id === answer.option)) {
    return refuse({ code: 'unknown-option', option: answer.option });
  }
  let checked = answer;
  if (request.renderKind === 'form') {
    const inWords = answer.values === undefined && answer.option === undefined && (answer.text?.trim() ?? '') !== '';
    if (inWords) {
      // AEP-0002 §5.3: an answer may carry `text` alone, but not to a form with required fields (AEP-0006).
      if (!wordsReplyAccepted(request.fields)) return refuse(wordsNeedFields(request));
    } else {
      const check = validateFormValues(request.fields, answer.values ?? {});
      if (!check.ok) return refuse(fieldsProblem(request, check.errors));
      if (answer.values !== undefined) checked = { ...answer, values: check.values };
    }
  } else if (answer.values !== undefined) {
    return refuse({ code: 'values-not-form' });
  }
  if (checked.option === undefined && checked.values === undefined && !checked.text?.trim()) return refuse({ code: 'empty' });
  return { ok: true, answer: checked };
}

/** What is wrong with an answer (`checkAnswer`), or undefined when it may be sent. */
export function answerProblem(request: AttentionRequest | undefined, answer: Answer): AnswerProblem | undefined {
  const check = checkAnswer(request, answer);
  return check.ok ? undefined : check.problem;
}

/**
 * Whether a form may be answered in words instead of its fields (`text`
 * alone): only when none of its fields is required. AEP-0006 (AEP-0002 §5.3
 * `attention.answered`, `values`): an emitter MUST reject a respond whose
 * `values` leaves out a required field, so words alone to such a form are an
 * answer every conformant agent refuses. Words beside the required values
 * would pass, but the agent applies the values and may read nothing of the
 * words: the person who meant "don't" would have sent the values anyway.
 * The quick input and the request page both ask this before offering a words box.
 */
export function wordsReplyAccepted(fields: ReadonlyArray<Pick<FieldSpec, 'required'>>): boolean {
  return !fields.some((field) => field.required);
}

function wordsNeedFields(request: AttentionRequest): AnswerProblem {
  const required = request.fields.filter((field) => field.required);
  return { code: 'words-need-fields', fieldId: required[0]?.id ?? '', fields: required.map((field) => fieldName(request, field, field.id)) };
}

/** A form's field errors as one problem, each field named as the person sees it. */
export function fieldsProblem(request: AttentionRequest, errors: readonly [FieldError, ...FieldError[]]): AnswerProblem {
  const first = errors[0];
  const named = (fieldId: string) => fieldName(request, request.fields.find((field) => field.id === fieldId), fieldId);
  return { code: 'fields', fieldId: first.fieldId, fields: errors.map((error) => ({ name: named(error.fieldId), problem: error.problem })) };
}

/**
 * How a field is named to the user: its label when the label is real text;
 * at capture `metadata`/`none` labels are placeholders (AEP-0006), so the id.
 */
function fieldName(request: AttentionRequest, field: FieldSpec | undefined, fieldId: string): FieldName {
  const realLabel = field && field.label.trim() !== '' && (request.capture === 'redacted' || request.capture === 'full');
  return realLabel ? { kind: 'label', label: field.label } : { kind: 'id', id: fieldId };
}
