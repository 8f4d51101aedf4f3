// Rule (b) of the AEP-0003 §9.4 pipeline: the values the user lists as always
// secret (src/aep/alwaysSecret.ts, kept by the host in secret storage), and
// what the pipeline and the capture a command declares make of them.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { addSecretValue, MIN_SECRET_VALUE_LENGTH, readSecretValues, writeSecretValues } from '../../src/aep/alwaysSecret';
import { commandCapture, redactAnswer } from '../../src/aep/capture';
import { redactText, SECRET_MARK } from '../../src/aep/redaction';

describe('always-secret values: the list', () => {
  test('a value is added once, and only when it is long enough (in characters, as the reference counts)', () => {
    assert.equal(MIN_SECRET_VALUE_LENGTH, 4);
    assert.deepEqual(addSecretValue([], 'hunter2'), { ok: true, values: ['hunter2'] });
    assert.deepEqual(addSecretValue(['hunter2'], 'hunter2'), { ok: false, reason: 'already-listed' });
    assert.deepEqual(addSecretValue([], 'abc'), { ok: false, reason: 'too-short' });
    // Three characters, six UTF-16 units: still too short.
    assert.deepEqual(addSecretValue([], '😀😀😀'), { ok: false, reason: 'too-short' });
    assert.deepEqual(addSecretValue([], 'abcd'), { ok: true, values: ['abcd'] });
  });

  test('the stored list reads back; a damaged one reads as empty and says why, never what', () => {
    assert.deepEqual(readSecretValues(writeSecretValues(['hunter2', 's3cr3t-deploy'])), { values: ['hunter2', 's3cr3t-deploy'] });
    assert.deepEqual(readSecretValues(undefined), { values: [] });
    for (const raw of ['{not json', '{"a":1}', '["ok", 2]']) {
      const read = readSecretValues(raw);
      assert.deepEqual(read.values, []);
      assert.ok(read.problem && !read.problem.includes('ok'), read.problem);
    }
  });
});

describe('always-secret values: the pipeline and the capture', () => {
  const FIELDS = [{ id: 'note', type: 'string' as const, label: 'Note', required: false }];

  test('a listed value is replaced wherever it appears; one shorter than four characters is not applied', () => {
    const options = { secretValues: ['Tr0ub4dor', 'abc'] };
    const { text, replacements } = redactText('db pass Tr0ub4dor, abc stays, xTr0ub4dorx too', options);
    assert.equal(text, `db pass ${SECRET_MARK}, abc stays, x${SECRET_MARK}x too`);
    assert.deepEqual(replacements.map((r) => [r.rule, r.kind]), [['configured', 'configured secret'], ['configured', 'configured secret']]);
    assert.equal(redactText('😀😀😀 here', { secretValues: ['😀😀😀'] }).text, '😀😀😀 here');
  });

  test('an answer holding a listed value is never declared redacted: refused, or full when sent as typed; its redacted form is redacted', () => {
    const answer = { text: 'the password is plainword' };
    assert.deepEqual(commandCapture(answer, FIELDS), { ok: true, capture: 'redacted' }, 'without the list the pipeline changes nothing');
    const redaction = { secretValues: ['plainword'] };
    const refused = commandCapture(answer, FIELDS, { redaction });
    assert.equal(refused.ok, false);
    assert.deepEqual(commandCapture(answer, FIELDS, { redaction, verbatim: true }), { ok: true, capture: 'full' });
    const redacted = redactAnswer(answer, FIELDS, redaction).answer;
    assert.equal(redacted.text, `the password is ${SECRET_MARK}`);
    assert.deepEqual(commandCapture(redacted, FIELDS, { redaction }), { ok: true, capture: 'redacted' });
    // A form value too.
    const values = { values: { note: 'ship with plainword' } };
    assert.equal(commandCapture(values, FIELDS, { redaction }).ok, false);
  });
});
