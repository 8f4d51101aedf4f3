// Every outcome and problem the core decides is a code; only the UI words it.
// One sample of every code (the mapped types make a missing code a compile
// error, as the exhaustive switches do), each worded as a whole sentence in
// English, and each through the l10n bundle: with a pseudo-translated bundle
// loaded, no sentence is left in English.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import * as l10n from '@vscode/l10n';
import { getL10nPseudoLocalized, type l10nJsonFormat } from '@vscode/l10n-dev';
import type { AnswerProblem, AnswerProblemCode } from '../../src/aep/answerCheck';
import type { NotSentCode, NotSentReason } from '../../src/client/notSent';
import type { FieldProblem, FieldProblemCode } from '../../src/aep/formValidation';
import { notSentText } from '../../src/words/outcomeMessages';
import { answerProblemText, fieldProblemText } from '../../src/shared/problemWords';
import { repoRoot } from '../support/fixtures';

type OnePerCode<Union extends { code: string }> = { [Code in Union['code']]: Array<Extract<Union, { code: Code }>> };

const FIELD_PROBLEMS: OnePerCode<FieldProblem> = {
  required: [{ code: 'required' }],
  'required-unsupported': [{ code: 'required-unsupported', declaredType: 'datetime' }],
  unsupported: [{ code: 'unsupported', declaredType: 'file' }],
  'not-text': [{ code: 'not-text' }],
  'not-boolean': [{ code: 'not-boolean' }],
  'not-number': [{ code: 'not-number' }],
  'below-min': [{ code: 'below-min', min: 1 }],
  'above-max': [{ code: 'above-max', max: 10 }],
  'not-a-list': [{ code: 'not-a-list' }],
  'repeated-choice': [{ code: 'repeated-choice' }],
  'unlisted-choices': [{ code: 'unlisted-choices', other: false }, { code: 'unlisted-choices', other: true }],
  'unlisted-choice': [{ code: 'unlisted-choice', other: false }, { code: 'unlisted-choice', other: true }],
  'unknown-field': [{ code: 'unknown-field' }],
};

const ANSWER_PROBLEMS: OnePerCode<AnswerProblem> = {
  unreadable: [{ code: 'unreadable' }],
  'answered-elsewhere': [{ code: 'answered-elsewhere' }],
  'unknown-option': [{ code: 'unknown-option', option: 'sudo' }],
  fields: [{
    code: 'fields', fieldId: 'name',
    fields: [{ name: { kind: 'label', label: 'Service name' }, problem: { code: 'required' } }, { name: { kind: 'id', id: 'n' }, problem: { code: 'not-number' } }],
  }],
  'values-not-form': [{ code: 'values-not-form' }],
  'words-need-fields': [{ code: 'words-need-fields', fieldId: 'name', fields: [{ kind: 'label', label: 'Service name' }, { kind: 'id', id: 'db' }] }],
  empty: [{ code: 'empty' }],
};

const NOT_SENT: OnePerCode<NotSentReason> = {
  'watch-only': [{ code: 'watch-only' }],
  'client-stopped': [{ code: 'client-stopped' }],
  'store-full': [{ code: 'store-full', limit: 'count', maxCommands: 64 }, { code: 'store-full', limit: 'size', maxKb: 512 }],
  'too-large-to-keep': [{ code: 'too-large-to-keep', maxKb: 512 }],
  'would-redact': [{ code: 'would-redact', parts: 1 }, { code: 'would-redact', parts: 3 }],
  'other-answer-in-flight': [{ code: 'other-answer-in-flight' }],
  'not-connected': [{ code: 'not-connected' }],
  'answer-replaced': [{ code: 'answer-replaced' }],
  'cannot-resend': [{ code: 'cannot-resend' }],
  'hub-removed': [{ code: 'hub-removed' }],
};

/** Every code's sentences, in the language loaded now. */
function everySentence(): Array<[string, string]> {
  const field = (Object.keys(FIELD_PROBLEMS) as FieldProblemCode[]).flatMap((code) => FIELD_PROBLEMS[code].map((p): [string, string] => [`field ${code}`, fieldProblemText(p)]));
  const answer = (Object.keys(ANSWER_PROBLEMS) as AnswerProblemCode[]).flatMap((code) => ANSWER_PROBLEMS[code].map((p): [string, string] => [`answer ${code}`, answerProblemText(p)]));
  const notSent = (Object.keys(NOT_SENT) as NotSentCode[]).flatMap((code) => NOT_SENT[code].map((r): [string, string] => [`not sent ${code}`, notSentText(r)]));
  return [...field, ...answer, ...notSent];
}

/** A bundle's messages as strings (an exported bundle may carry comments). */
function messagesOf(bundle: l10nJsonFormat): Record<string, string> {
  return Object.fromEntries(Object.entries(bundle).map(([key, value]) => [key, typeof value === 'string' ? value : value.message]));
}

describe('every problem and outcome code has words', () => {
  test('in English: a whole sentence, every placeholder filled, variants of a code worded apart', () => {
    l10n.config({ contents: {} });
    const sentences = everySentence();
    assert.equal(sentences.length, 34);
    for (const [code, sentence] of sentences) {
      assert.match(sentence, /^\S.*\S$/, code);
      assert.doesNotMatch(sentence, /\{\d+\}/, `${code}: ${sentence}`);
    }
    assert.equal(new Set(sentences.map(([, sentence]) => sentence)).size, sentences.length, 'no two codes read the same');
    assert.equal(fieldProblemText({ code: 'below-min', min: 3 }), 'Enter a number of at least 3.');
    assert.equal(
      answerProblemText(ANSWER_PROBLEMS.fields[0] ?? assert.fail()),
      '"Service name": This field is required. field `n`: Enter a number.',
    );
    assert.match(notSentText({ code: 'store-full', limit: 'count', maxCommands: 64 }), /^The answer was not sent: 64 answers are already waiting/);
  });

  test('through the bundle: with the committed bundle pseudo-translated, no sentence stays English', () => {
    const bundle = JSON.parse(fs.readFileSync(path.join(repoRoot(), 'l10n', 'bundle.l10n.json'), 'utf8')) as l10nJsonFormat;
    l10n.config({ contents: {} });
    const english = everySentence();
    l10n.config({ contents: messagesOf(getL10nPseudoLocalized(bundle)) });
    try {
      const pseudo = everySentence();
      assert.equal(pseudo.length, english.length);
      pseudo.forEach(([code, sentence], i) => {
        // Agent text and numbers stay as given; every word of ours is translated.
        assert.notEqual(sentence, english[i]?.[1], `${code} is not in the bundle: ${sentence}`);
        assert.doesNotMatch(sentence, /\b(the|field|answer|Enter|Pick|sent|this)\b/i, `${code} left English words: ${sentence}`);
      });
    } finally {
      l10n.config({ contents: {} });
    }
  });
});
