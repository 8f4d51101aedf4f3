// What is wrong with a field or an answer, in words: one home for the request
// page (under a field), the quick input and the notifications. The core
// (src/aep) decides the problem as a code; only here is it a sentence. Each
// side's bundle has its own `@vscode/l10n`, loaded with the same strings
// (src/words/l10n.ts, webview/l10n.ts), so this module works on both.
// Every switch is exhaustive: a new code without words does not compile.
import * as l10n from '@vscode/l10n';
import type { AnswerProblem, FieldName } from '../aep/answerCheck';
import type { FieldProblem } from '../aep/formValidation';

/** One field's problem, as a sentence for the person filling in the form. */
export function fieldProblemText(problem: FieldProblem): string {
  switch (problem.code) {
    case 'required':
      return l10n.t('This field is required.');
    case 'required-unsupported':
      return l10n.t('This required field has a type this extension cannot answer ("{0}").', problem.declaredType);
    case 'unsupported':
      return l10n.t('This extension cannot answer a field of type "{0}".', problem.declaredType);
    case 'not-text':
      return l10n.t('Enter text.');
    case 'not-boolean':
      return l10n.t('Choose yes or no.');
    case 'not-number':
      return l10n.t('Enter a number.');
    case 'below-min':
      return l10n.t('Enter a number of at least {0}.', problem.min);
    case 'above-max':
      return l10n.t('Enter a number of at most {0}.', problem.max);
    case 'not-a-list':
      return l10n.t('Choose from the list.');
    case 'repeated-choice':
      return l10n.t('Each choice can be picked only once.');
    case 'unlisted-choices':
      return problem.other ? l10n.t('Pick listed choices, or type your own answer.') : l10n.t('Pick only the listed choices.');
    case 'unlisted-choice':
      return problem.other ? l10n.t('Pick a listed choice, or type your own answer.') : l10n.t('Pick one of the listed choices.');
    case 'unknown-field':
      return l10n.t('This is not a field of this form.');
  }
}

/** A field as the person knows it: `"Its label"`, or `field \`its-id\`` where the label is a placeholder. */
export function fieldNameText(name: FieldName): string {
  switch (name.kind) {
    case 'label':
      return l10n.t('"{0}"', name.label);
    case 'id':
      return l10n.t('field `{0}`', name.id);
  }
}

/**
 * What is wrong with an answer, as the end of "Not sent: …". Agent text
 * (a label, an option or field id) enters as given; the surface that shows
 * the sentence caps and sanitises it (src/words/untrustedText.ts, the page's
 * text nodes).
 */
export function answerProblemText(problem: AnswerProblem): string {
  switch (problem.code) {
    case 'unreadable':
      return l10n.t('this request could not be read, so it cannot be answered here.');
    case 'answered-elsewhere':
      return l10n.t('this request is answered outside VS Code.');
    case 'unknown-option':
      return l10n.t('"{0}" is not one of the request\'s options.', problem.option);
    case 'fields':
      return problem.fields.map((field) => l10n.t('{0}: {1}', fieldNameText(field.name), fieldProblemText(field.problem))).join(' ');
    case 'values-not-form':
      return l10n.t('only a form takes field values.');
    case 'words-need-fields':
      return l10n.t('a reply in words cannot answer this form: the agent refuses any answer without its required fields ({0}).', problem.fields.map(fieldNameText).join(', '));
    case 'empty':
      return l10n.t('the answer is empty.');
  }
}
