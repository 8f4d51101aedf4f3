import type { Answer, AttentionRequest } from './attention';
import { validateFormValues } from './formValidation';

/**
 * Whether an answer may be sent for a request, checked again on the host side
 * whatever the page did: the webview is a less trusted context. Returns what
 * is wrong, in words, or undefined.
 */
export function answerProblem(request: AttentionRequest | undefined, answer: Answer): string | undefined {
  if (!request) return 'this request could not be read, so it cannot be answered here';
  if (!request.answerableHere) return 'this request is answered outside VS Code';
  if (answer.option !== undefined && !request.options.some((option) => option.id === answer.option)) {
    return `"${answer.option}" is not one of the request's options`;
  }
  if (request.renderKind === 'form') {
    const check = validateFormValues(request.fields, answer.values ?? {});
    if (!check.ok) return check.errors.map((error) => `${error.fieldId}: ${error.message}`).join('; ');
  } else if (answer.values !== undefined) {
    return 'only a form takes field values';
  }
  if (answer.option === undefined && answer.values === undefined && !answer.text?.trim()) return 'the answer is empty';
  return undefined;
}
