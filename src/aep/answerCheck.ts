import type { Answer, AttentionRequest, FieldSpec } from './attention';
import { validateFormValues } from './formValidation';

/** What is wrong with an answer, in a sentence; `fieldId` when one field is at fault. */
export interface AnswerProblem {
  message: string;
  fieldId?: string;
}

/**
 * Whether an answer may be sent for a request, checked again on the host side
 * whatever the page did: the webview is a less trusted context. Returns what
 * is wrong, in words, or undefined.
 */
export function answerProblem(request: AttentionRequest | undefined, answer: Answer): AnswerProblem | undefined {
  if (!request) return { message: 'this request could not be read, so it cannot be answered here.' };
  if (!request.answerableHere) return { message: 'this request is answered outside VS Code.' };
  if (answer.option !== undefined && !request.options.some((option) => option.id === answer.option)) {
    return { message: `"${answer.option}" is not one of the request's options.` };
  }
  if (request.renderKind === 'form') {
    const check = validateFormValues(request.fields, answer.values ?? {});
    if (!check.ok) {
      const named = (fieldId: string) => fieldName(request, request.fields.find((field) => field.id === fieldId), fieldId);
      const message = check.errors.map((error) => `${named(error.fieldId)}: ${error.message}`).join(' ');
      const first = check.errors[0];
      return first ? { message, fieldId: first.fieldId } : { message };
    }
  } else if (answer.values !== undefined) {
    return { message: 'only a form takes field values.' };
  }
  if (answer.option === undefined && answer.values === undefined && !answer.text?.trim()) return { message: 'the answer is empty.' };
  return undefined;
}

/**
 * How a field is named to the user: its label when the label is real text;
 * at capture `metadata`/`none` labels are placeholders (AEP-0006), so the id.
 */
function fieldName(request: AttentionRequest, field: FieldSpec | undefined, fieldId: string): string {
  const realLabel = field && field.label.trim() !== '' && (request.capture === 'redacted' || request.capture === 'full');
  return realLabel ? `"${field.label}"` : `field \`${fieldId}\``;
}
