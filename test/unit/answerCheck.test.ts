import assert from 'node:assert/strict';
import { test } from 'node:test';
import { answerProblem, checkAnswer, wordsReplyAccepted } from '../../src/aep/answerCheck';
import { parseAttentionRequest, type AttentionRequest } from '../../src/aep/attention';
import { goldenEvents } from '../support/fixtures';

const request = (id: string): AttentionRequest => {
  const event = goldenEvents().find((e) => e.id === id);
  assert.ok(event);
  const parsed = parseAttentionRequest(event);
  assert.ok(parsed.ok);
  return parsed.value;
};
const permission = () => request('01JX9YB4RQ000000000000GOLD');
const form = () => request('01JX9YBEFRQ0000000000GOLD3');

test('a valid option, text reply or form answer passes', () => {
  assert.equal(answerProblem(permission(), { option: 'allow' }), undefined);
  assert.equal(answerProblem(permission(), { option: 'deny', text: 'not on main' }), undefined);
  assert.equal(answerProblem(permission(), { text: 'only the build folder' }), undefined);
  assert.equal(answerProblem(form(), { values: { name: 'billing-api', db: 'MariaDB' } }), undefined);
});

test('what the page must never get through is refused with the reason, as a code', () => {
  assert.deepEqual(answerProblem(permission(), { option: 'sudo' }), { code: 'unknown-option', option: 'sudo' });
  assert.deepEqual(answerProblem(permission(), { values: { x: 1 } }), { code: 'values-not-form' });
  assert.deepEqual(answerProblem(permission(), { text: '   ' }), { code: 'empty' });
  assert.deepEqual(answerProblem(form(), { values: { db: '1' } }), {
    code: 'fields', fieldId: 'name', fields: [{ name: { kind: 'label', label: 'Service name' }, problem: { code: 'required' } }],
  });
  const regions = answerProblem(form(), { values: { name: 'x', regions: ['9'] } });
  assert.equal(regions?.fieldId, 'regions');
  assert.deepEqual(regions?.code === 'fields' ? regions.fields.map((f) => f.name) : regions, [{ kind: 'label', label: 'Regions' }]);
  // At capture metadata labels are placeholders: the field is named by its id.
  const withheld = answerProblem({ ...form(), capture: 'metadata' }, { values: { db: '1' } });
  assert.deepEqual(withheld?.code === 'fields' ? withheld.fields : withheld, [{ name: { kind: 'id', id: 'name' }, problem: { code: 'required' } }]);
  assert.deepEqual(answerProblem(undefined, { option: 'allow' }), { code: 'unreadable' });
  assert.deepEqual(answerProblem({ ...permission(), answerableHere: false }, { option: 'allow' }), { code: 'answered-elsewhere' });
});

test('a form with a required field is not answered in words alone (AEP-0006: the agent must reject it): refused as a code naming the required fields', () => {
  assert.equal(wordsReplyAccepted(form().fields), false);
  assert.deepEqual(answerProblem(form(), { text: 'Use the defaults; I will fill the name in later' }), {
    code: 'words-need-fields', fieldId: 'name', fields: [{ kind: 'label', label: 'Service name' }],
  });
  // At capture metadata labels are placeholders: the field is named by its id.
  assert.deepEqual(answerProblem({ ...form(), capture: 'metadata' }, { text: 'later' }), { code: 'words-need-fields', fieldId: 'name', fields: [{ kind: 'id', id: 'name' }] });
  assert.deepEqual(answerProblem(form(), { text: '  ' }), {
    code: 'fields', fieldId: 'name', fields: [{ name: { kind: 'label', label: 'Service name' }, problem: { code: 'required' } }],
  }, 'blank words are no answer: the fields are what is left');
  assert.equal(answerProblem(form(), { text: 'see values', values: { db: '1' } })?.code, 'fields', 'values that are sent are checked');
  assert.equal(answerProblem(form(), { text: 'as asked', values: { name: 'billing-api' } }), undefined, 'words beside the required values pass');
});

test('a form with no required field is answered in words alone: text satisfies AEP-0006, nothing is left out', () => {
  const optional = { ...form(), fields: form().fields.map((field) => ({ ...field, required: false })) };
  assert.equal(wordsReplyAccepted(optional.fields), true);
  assert.equal(answerProblem(optional, { text: 'Use the defaults' }), undefined);
  assert.deepEqual(answerProblem(optional, { text: '  ' }), { code: 'empty' });
});

test('the host check leaves empty optional values out of what it passes, and refuses what still fails', () => {
  // The page and the quick input leave them out already; a caller that does not must not put `""` on the wire.
  assert.deepEqual(checkAnswer(form(), { values: { name: 'x', db: '' } }), { ok: true, answer: { values: { name: 'x' } } });
  assert.deepEqual(checkAnswer(form(), { values: { name: 'x', db: '  ', regions: [] } }), { ok: true, answer: { values: { name: 'x' } } });
  assert.deepEqual(checkAnswer(form(), { values: { name: 'x', staged: false } }), { ok: true, answer: { values: { name: 'x', staged: false } } }, '`false` is an answer, not an empty one');
  const blank = checkAnswer(form(), { values: { name: ' ', db: '' } });
  assert.equal(blank.ok ? 'passed' : blank.problem.fieldId, 'name', 'a required field left blank is still refused');
  const unknown = checkAnswer(form(), { values: { name: 'x', extra: '' } });
  assert.equal(unknown.ok ? 'passed' : unknown.problem.fieldId, 'extra', 'a key that is no field is refused even when empty');
  // Answers without values pass as they came.
  assert.deepEqual(checkAnswer(permission(), { option: 'allow' }), { ok: true, answer: { option: 'allow' } });
});
