import assert from 'node:assert/strict';
import { test } from 'node:test';
import { answerProblem } from '../../src/aep/answerCheck';
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

test('a form answered in words instead of its fields passes as text alone; empty words, or words beside incomplete values, do not', () => {
  assert.equal(answerProblem(form(), { text: 'Use the defaults; I will fill the name in later' }), undefined);
  assert.deepEqual(answerProblem(form(), { text: '  ' }), {
    code: 'fields', fieldId: 'name', fields: [{ name: { kind: 'label', label: 'Service name' }, problem: { code: 'required' } }],
  }, 'blank words are no answer: the fields are what is left');
  assert.equal(answerProblem(form(), { text: 'see values', values: { db: '1' } })?.code, 'fields', 'values that are sent are checked');
});
