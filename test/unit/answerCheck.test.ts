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

test('what the page must never get through is refused with the reason', () => {
  assert.match(answerProblem(permission(), { option: 'sudo' })?.message ?? '', /"sudo" is not one of the request's options/);
  assert.match(answerProblem(permission(), { values: { x: 1 } })?.message ?? '', /only a form takes field values/);
  assert.match(answerProblem(permission(), { text: '   ' })?.message ?? '', /the answer is empty/);
  assert.deepEqual(answerProblem(form(), { values: { db: '1' } }), { message: '"Service name": This field is required.', fieldId: 'name' });
  const regions = answerProblem(form(), { values: { name: 'x', regions: ['9'] } });
  assert.equal(regions?.fieldId, 'regions');
  assert.match(regions?.message ?? '', /^"Regions": /);
  // At capture metadata labels are placeholders: the field is named by its id.
  assert.match(answerProblem({ ...form(), capture: 'metadata' }, { values: { db: '1' } })?.message ?? '', /^field `name`: This field is required\./);
  assert.match(answerProblem(undefined, { option: 'allow' })?.message ?? '', /could not be read/);
  assert.match(answerProblem({ ...permission(), answerableHere: false }, { option: 'allow' })?.message ?? '', /answered outside VS Code/);
});
