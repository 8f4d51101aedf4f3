// Form answers are checked against the emitter's own rules before sending
// (AEP-0006; AEP-0002 §5.3): required fields covered, select values are choice
// ids unless `other` is true, plus the types of field_spec.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  parseAttentionRequest,
  type AttentionRequest,
  type BooleanField,
  type Choice,
  type FieldSpec,
  type NumberField,
  type SelectField,
  type StringField,
  type UnsupportedField,
} from '../../src/aep/attention';
import { parseEnvelope, type AepEvent } from '../../src/aep/envelope';
import {
  checkFieldValue,
  isEmptyValue,
  validateFormValues,
  type FieldError,
  type FieldProblem,
  type FormCheck,
} from '../../src/aep/formValidation';
import { goldenEvents, readAepJson } from '../support/fixtures';

// ---- building fields directly -------------------------------------------------

const CHOICES: Choice[] = [
  { id: 'pg', label: 'PostgreSQL' },
  { id: 'sqlite', label: 'SQLite' },
  { id: 'mysql', label: 'MySQL' },
];

function stringField(id: string, required = false): StringField {
  return { id, label: id, required, type: 'string' };
}

function booleanField(id: string, required = false): BooleanField {
  return { id, label: id, required, type: 'boolean' };
}

function numberField(id: string, bounds: { min?: number; max?: number } = {}, required = false): NumberField {
  return { id, label: id, required, type: 'number', ...bounds };
}

function selectField(id: string, options: { multi?: boolean; other?: boolean; required?: boolean; choices?: Choice[] } = {}): SelectField {
  return {
    id,
    label: id,
    required: options.required ?? false,
    type: 'select',
    multi: options.multi ?? false,
    other: options.other ?? false,
    choices: options.choices ?? CHOICES,
  };
}

function unsupportedField(id: string, declaredType: string, required = false): UnsupportedField {
  return { id, label: id, required, type: 'unsupported', declaredType };
}

function errorsOf(check: FormCheck): readonly FieldError[] {
  if (check.ok) assert.fail(`expected the form to be refused, it passed with ${JSON.stringify(check.values)}`);
  assert.ok(check.errors.length > 0, 'a refusal names at least one problem');
  return check.errors;
}

function valuesOf(check: FormCheck): Record<string, unknown> {
  if (!check.ok) assert.fail(`expected the form to pass, got ${JSON.stringify(check.errors)}`);
  return check.values;
}

/** The one error on `fieldId`; fails when there is none or several. */
function errorOn(check: FormCheck, fieldId: string): FieldProblem {
  const errors = errorsOf(check).filter((error) => error.fieldId === fieldId);
  assert.equal(errors.length, 1, `exactly one error on ${fieldId}: ${JSON.stringify(check)}`);
  const [error] = errors;
  assert.ok(error);
  return error.problem;
}

const codeOf = (problem: FieldProblem | undefined) => problem?.code;

// ---- the golden form ------------------------------------------------------------

const FORM_ID = '01JX9YBEFRQ0000000000GOLD3';
const GOLDEN_ANSWER = { name: 'billing-api', staged: true, regions: ['1', '3'], db: 'MariaDB' };

function goldenForm(): AttentionRequest {
  const event = goldenEvents().find((e) => e.id === FORM_ID && e.type === 'attention.requested');
  assert.ok(event, 'the golden corpus holds the s_form request');
  assert.equal(event.session, 's_form');
  const parsed = parseAttentionRequest(event);
  if (!parsed.ok) assert.fail(parsed.problem.message);
  return parsed.value;
}

interface InvalidCase {
  name: string;
  events?: unknown[];
  event?: unknown;
}

function invalidCase(name: string): InvalidCase {
  const file = readAepJson<{ cases: InvalidCase[] }>('invalid/cases.json');
  assert.ok(Array.isArray(file.cases));
  const found = file.cases.find((c) => c.name === name);
  assert.ok(found, `invalid/cases.json has "${name}"`);
  return found;
}

function asEvent(raw: unknown): AepEvent {
  const parsed = parseEnvelope(raw);
  if (!parsed.ok) assert.fail(parsed.problem);
  return parsed.value;
}

// ---- tests -------------------------------------------------------------------------

describe('isEmptyValue', () => {
  test('absent, null, blank text and an empty list are empty', () => {
    for (const value of [undefined, null, '', ' ', '\t\n  ', []]) {
      assert.equal(isEmptyValue(value), true, JSON.stringify(value) ?? 'undefined');
    }
  });

  test('false, 0, NaN, text and a non-empty list are answers', () => {
    for (const value of [false, 0, -0, Number.NaN, 'x', ' x ', ['a'], [''], {}]) {
      assert.equal(isEmptyValue(value), false, String(value));
    }
  });
});

describe('validateFormValues: required and optional fields', () => {
  const fields: FieldSpec[] = [
    stringField('name', true),
    selectField('regions', { multi: true, required: true }),
    stringField('note'),
    numberField('replicas'),
    booleanField('staged'),
    selectField('db'),
  ];

  test('a missing required field is an error on that field', () => {
    const check = validateFormValues(fields, { regions: ['pg'] });
    assert.equal(codeOf(errorOn(check, 'name')), 'required');
    assert.equal(errorsOf(check).length, 1, 'nothing else is wrong');
  });

  test('a blank or whitespace-only required text is missing', () => {
    for (const name of ['', '   ', '\n\t']) {
      assert.equal(codeOf(errorOn(validateFormValues(fields, { name, regions: ['pg'] }), 'name')), 'required', JSON.stringify(name));
    }
  });

  test('null for a required field is missing', () => {
    assert.equal(codeOf(errorOn(validateFormValues(fields, { name: null, regions: ['pg'] }), 'name')), 'required');
  });

  test('an empty list for a required multi select is missing', () => {
    assert.equal(codeOf(errorOn(validateFormValues(fields, { name: 'api', regions: [] }), 'regions')), 'required');
  });

  test('every missing required field is reported, each on its own id', () => {
    const errors = errorsOf(validateFormValues(fields, {}));
    assert.deepEqual(errors.map((e) => e.fieldId).sort(), ['name', 'regions']);
  });

  test('empty optional fields are omitted from the values, not sent as ""', () => {
    const values = valuesOf(
      validateFormValues(fields, { name: 'api', regions: ['pg'], note: '', replicas: null, db: '  ', staged: undefined }),
    );
    assert.deepEqual(values, { name: 'api', regions: ['pg'] });
    for (const key of ['note', 'replicas', 'db', 'staged']) {
      assert.equal(Object.hasOwn(values, key), false, `${key} is omitted`);
    }
  });

  test('false and 0 are answers, kept in the values', () => {
    const values = valuesOf(validateFormValues(fields, { name: 'api', regions: ['pg'], staged: false, replicas: 0 }));
    assert.deepEqual(values, { name: 'api', regions: ['pg'], staged: false, replicas: 0 });
  });

  test('a required boolean answered false is answered', () => {
    const values = valuesOf(validateFormValues([booleanField('ok', true)], { ok: false }));
    assert.deepEqual(values, { ok: false });
  });

  test('a value inherited through the prototype is not an answer', () => {
    const inherited = Object.create({ name: 'from-the-prototype' }) as Record<string, unknown>;
    assert.equal(codeOf(errorOn(validateFormValues([stringField('name', true)], inherited), 'name')), 'required');
  });
});

describe('validateFormValues: unknown keys', () => {
  test('a key that is not a field of the form is refused, the error on that key', () => {
    const check = validateFormValues([stringField('name')], { name: 'api', colour: 'blue' });
    assert.deepEqual(errorOn(check, 'colour'), { code: 'unknown-field' });
  });

  test('an unknown key is refused even when its value is empty', () => {
    assert.equal(codeOf(errorOn(validateFormValues([stringField('name')], { extra: '' }), 'extra')), 'unknown-field');
  });

  test('prototype member names are unknown keys like any other', () => {
    const values = JSON.parse('{"constructor":"x","toString":"y","__proto__":"z"}') as Record<string, unknown>;
    const errors = errorsOf(validateFormValues([stringField('name')], values));
    assert.deepEqual(errors.map((e) => e.fieldId).sort(), ['__proto__', 'constructor', 'toString']);
  });
});

describe('checkFieldValue: string and boolean', () => {
  test('a string field takes text, nothing else', () => {
    assert.equal(checkFieldValue(stringField('s'), 'hello'), undefined);
    for (const value of [5, true, ['a'], { a: 1 }]) {
      assert.equal(codeOf(checkFieldValue(stringField('s'), value)), 'not-text', JSON.stringify(value));
    }
  });

  test('a boolean field takes true or false, not "true", 1 or "yes"', () => {
    assert.equal(checkFieldValue(booleanField('b'), true), undefined);
    assert.equal(checkFieldValue(booleanField('b'), false), undefined);
    for (const value of ['true', 'false', 1, 0, 'yes', ['true']]) {
      assert.equal(codeOf(checkFieldValue(booleanField('b'), value)), 'not-boolean', JSON.stringify(value));
    }
  });

  test('validateFormValues refuses a non-boolean on that field', () => {
    assert.equal(codeOf(errorOn(validateFormValues([booleanField('staged')], { staged: 'true' }), 'staged')), 'not-boolean');
  });
});

describe('checkFieldValue: number', () => {
  test('a finite number is accepted; text, NaN and the infinities are not', () => {
    const field = numberField('n');
    assert.equal(checkFieldValue(field, 3), undefined);
    assert.equal(checkFieldValue(field, -2.5), undefined);
    for (const value of ['3', Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, true, [3]]) {
      assert.equal(codeOf(checkFieldValue(field, value)), 'not-number', String(value));
    }
  });

  test('min and max are inclusive bounds', () => {
    const field = numberField('n', { min: 1, max: 10 });
    assert.equal(checkFieldValue(field, 1), undefined, 'min itself is allowed');
    assert.equal(checkFieldValue(field, 10), undefined, 'max itself is allowed');
    assert.equal(checkFieldValue(field, 5.5), undefined);
    assert.deepEqual(checkFieldValue(field, 0.999), { code: 'below-min', min: 1 });
    assert.deepEqual(checkFieldValue(field, 10.001), { code: 'above-max', max: 10 });
  });

  test('one-sided bounds, and a bound of zero', () => {
    assert.equal(checkFieldValue(numberField('n', { min: 0 }), 1e12), undefined);
    assert.deepEqual(checkFieldValue(numberField('n', { min: 0 }), -1), { code: 'below-min', min: 0 });
    assert.equal(checkFieldValue(numberField('n', { max: 0 }), -1e12), undefined);
    assert.deepEqual(checkFieldValue(numberField('n', { max: 0 }), 0.5), { code: 'above-max', max: 0 });
  });

  test('validateFormValues refuses an out-of-range or non-number value on that field', () => {
    const fields = [numberField('replicas', { min: 1, max: 5 }, true)];
    assert.deepEqual(errorOn(validateFormValues(fields, { replicas: 6 }), 'replicas'), { code: 'above-max', max: 5 });
    assert.equal(codeOf(errorOn(validateFormValues(fields, { replicas: '3' }), 'replicas')), 'not-number');
    assert.equal(codeOf(errorOn(validateFormValues(fields, { replicas: Number.NaN }), 'replicas')), 'not-number');
    assert.deepEqual(valuesOf(validateFormValues(fields, { replicas: 5 })), { replicas: 5 });
  });
});

describe('checkFieldValue: single select', () => {
  test('a choice id is accepted', () => {
    assert.equal(checkFieldValue(selectField('db'), 'pg'), undefined);
    assert.equal(checkFieldValue(selectField('db', { other: true }), 'sqlite'), undefined);
  });

  test('without `other`, anything that is not a choice id is refused', () => {
    const field = selectField('db');
    for (const value of ['MariaDB', 'PostgreSQL', 'PG', ['pg'], 1, true]) {
      assert.equal(codeOf(checkFieldValue(field, value)), 'unlisted-choice', JSON.stringify(value));
    }
  });

  test('a choice label is not a choice id', () => {
    assert.notEqual(checkFieldValue(selectField('db'), 'SQLite'), undefined);
  });

  test('with `other: true`, free text is accepted but a non-string is not', () => {
    const field = selectField('db', { other: true });
    assert.equal(checkFieldValue(field, 'MariaDB'), undefined);
    for (const value of [5, ['MariaDB'], { text: 'MariaDB' }, '   ']) {
      assert.equal(codeOf(checkFieldValue(field, value)), 'unlisted-choice', JSON.stringify(value));
    }
  });

  test('a select with no choices and `other: true` takes free text only', () => {
    const field = selectField('free', { other: true, choices: [] });
    assert.equal(checkFieldValue(field, 'anything'), undefined);
    assert.notEqual(checkFieldValue(field, 7), undefined);
  });
});

describe('checkFieldValue: multi select', () => {
  test('an array of distinct choice ids is accepted', () => {
    const field = selectField('dbs', { multi: true });
    assert.equal(checkFieldValue(field, ['pg']), undefined);
    assert.equal(checkFieldValue(field, ['mysql', 'pg', 'sqlite']), undefined);
  });

  test('a non-array is refused, even a single choice id', () => {
    const field = selectField('dbs', { multi: true });
    for (const value of ['pg', 5, { 0: 'pg' }, true]) {
      assert.equal(codeOf(checkFieldValue(field, value)), 'not-a-list', JSON.stringify(value));
    }
  });

  test('a choice picked twice is refused', () => {
    assert.equal(codeOf(checkFieldValue(selectField('dbs', { multi: true }), ['pg', 'sqlite', 'pg'])), 'repeated-choice');
    assert.equal(codeOf(checkFieldValue(selectField('dbs', { multi: true, other: true }), ['own', 'own'])), 'repeated-choice');
  });

  test('a non-choice item is refused without `other`', () => {
    const field = selectField('dbs', { multi: true });
    for (const value of [['pg', 'MariaDB'], ['pg', 3], [null], [['pg']]]) {
      assert.equal(codeOf(checkFieldValue(field, value)), 'unlisted-choices', JSON.stringify(value));
    }
  });

  test('free text in the array is accepted only with `other: true`', () => {
    const withOther = selectField('dbs', { multi: true, other: true });
    assert.equal(checkFieldValue(withOther, ['pg', 'MariaDB']), undefined);
    assert.equal(checkFieldValue(withOther, ['MariaDB']), undefined);
    assert.equal(codeOf(checkFieldValue(withOther, ['pg', '  '])), 'unlisted-choices', 'blank is not an answer');
    assert.equal(codeOf(checkFieldValue(withOther, ['pg', 4])), 'unlisted-choices');
    assert.notEqual(checkFieldValue(selectField('dbs', { multi: true }), ['pg', 'MariaDB']), undefined);
  });

  test('validateFormValues reports a bad multi value on that field and keeps a good one as sent', () => {
    const fields = [selectField('dbs', { multi: true, required: true })];
    assert.equal(codeOf(errorOn(validateFormValues(fields, { dbs: 'pg' }), 'dbs')), 'not-a-list');
    assert.equal(codeOf(errorOn(validateFormValues(fields, { dbs: ['pg', 'pg'] }), 'dbs')), 'repeated-choice');
    assert.deepEqual(valuesOf(validateFormValues(fields, { dbs: ['sqlite', 'pg'] })), { dbs: ['sqlite', 'pg'] });
  });
});

describe('unsupported field types', () => {
  const fields: FieldSpec[] = [stringField('name', true), unsupportedField('when', 'datetime')];

  test('an optional unsupported field left empty does not stop the form', () => {
    assert.deepEqual(valuesOf(validateFormValues(fields, { name: 'api' })), { name: 'api' });
    assert.deepEqual(valuesOf(validateFormValues(fields, { name: 'api', when: '' })), { name: 'api' });
  });

  test('a value for an unsupported field is refused, naming the declared type', () => {
    assert.deepEqual(errorOn(validateFormValues(fields, { name: 'api', when: '2026-07-03' }), 'when'), { code: 'unsupported', declaredType: 'datetime' });
    assert.deepEqual(checkFieldValue(unsupportedField('w', 'file'), 'x'), { code: 'unsupported', declaredType: 'file' });
  });

  test('a required unsupported field makes the form unanswerable', () => {
    const required: FieldSpec[] = [stringField('name', true), unsupportedField('when', 'datetime', true)];
    assert.deepEqual(errorOn(validateFormValues(required, { name: 'api' }), 'when'), { code: 'required-unsupported', declaredType: 'datetime' });
  });

  test('a form of known types is answerable; an empty field list is too', () => {
    assert.deepEqual(valuesOf(validateFormValues([stringField('a', true), numberField('b'), booleanField('c'), selectField('d')], { a: 'x' })), { a: 'x' });
    assert.deepEqual(valuesOf(validateFormValues([], {})), {});
  });

  test('a field type from the wire that this extension does not know becomes unsupported', () => {
    const event = asEvent({
      aep: '0.1',
      id: 'F1',
      type: 'attention.requested',
      time: '2026-07-03T10:00:00Z',
      source: 'aep://h/agent/a',
      agent: 'a',
      session: 's1',
      seq: 0,
      data: {
        kind: 'form',
        prompt: 'p',
        fields: [
          { id: 'name', type: 'string', label: 'Name', required: true },
          { id: 'at', type: 'datetime', label: 'When' },
          { id: 'file', type: 'upload', label: 'File', required: true },
        ],
      },
    });
    const parsed = parseAttentionRequest(event);
    if (!parsed.ok) assert.fail(parsed.problem.message);
    const at = parsed.value.fields.find((f) => f.id === 'at');
    assert.equal(at?.type, 'unsupported');
    assert.equal(at?.type === 'unsupported' ? at.declaredType : undefined, 'datetime');
    const errors = errorsOf(validateFormValues(parsed.value.fields, { name: 'x' }));
    assert.deepEqual(errors.map((e) => e.fieldId), ['file']);
  });
});

describe('the golden s_form request (AEP-0006)', () => {
  test('parses into the four fields the answer addresses', () => {
    const form = goldenForm();
    assert.equal(form.renderKind, 'form');
    assert.deepEqual(
      form.fields.map((f) => [f.id, f.type, f.required]),
      [
        ['name', 'string', true],
        ['staged', 'boolean', false],
        ['regions', 'select', false],
        ['db', 'select', false],
      ],
    );
    const db = form.fields.find((f) => f.id === 'db');
    assert.ok(db?.type === 'select' && db.other && !db.multi, 'db is a single select with other');
    const regions = form.fields.find((f) => f.id === 'regions');
    assert.ok(regions?.type === 'select' && regions.multi && !regions.other, 'regions is a closed multi select');
  });

  test('the golden answer is the one the corpus records, and it validates unchanged', () => {
    const answered = goldenEvents().find((e) => e.type === 'attention.answered' && e.subject === FORM_ID);
    assert.ok(answered, 'the corpus answers the form');
    const answer = answered.data?.['answer'];
    assert.ok(typeof answer === 'object' && answer !== null && 'values' in answer);
    assert.deepEqual(answer.values, GOLDEN_ANSWER);
    assert.deepEqual(valuesOf(validateFormValues(goldenForm().fields, GOLDEN_ANSWER)), GOLDEN_ANSWER);
  });

  test('the golden form refuses what its fields forbid', () => {
    const fields = goldenForm().fields;
    assert.equal(codeOf(errorOn(validateFormValues(fields, { ...GOLDEN_ANSWER, name: ' ' }), 'name')), 'required');
    assert.equal(codeOf(errorOn(validateFormValues(fields, { ...GOLDEN_ANSWER, regions: ['1', 'eu-central'] }), 'regions')), 'unlisted-choices');
    assert.equal(codeOf(errorOn(validateFormValues(fields, { ...GOLDEN_ANSWER, regions: ['1', '1'] }), 'regions')), 'repeated-choice');
    assert.equal(codeOf(errorOn(validateFormValues(fields, { ...GOLDEN_ANSWER, staged: 'yes' }), 'staged')), 'not-boolean');
    assert.deepEqual(valuesOf(validateFormValues(fields, { name: 'billing-api' })), { name: 'billing-api' });
  });

  test('invalid/cases.json: a non-choice string for a select without other:true is refused on that field', () => {
    const fixture = invalidCase('form answered with a non-choice string for a select without other:true');
    assert.ok(Array.isArray(fixture.events) && fixture.events.length === 2);
    const [requestRaw, answeredRaw] = fixture.events.map(asEvent);
    assert.ok(requestRaw && answeredRaw);
    const request = parseAttentionRequest(requestRaw);
    if (!request.ok) assert.fail(request.problem.message);
    const select = request.value.fields[0];
    assert.ok(select?.type === 'select' && !select.other, 'the field is a select without other');

    const answer = answeredRaw.data?.['answer'];
    assert.ok(typeof answer === 'object' && answer !== null && 'values' in answer);
    const values = answer.values;
    assert.ok(typeof values === 'object' && values !== null && !Array.isArray(values));
    const check = validateFormValues(request.value.fields, values as Record<string, unknown>);
    const errors = errorsOf(check);
    assert.deepEqual(errors.map((e) => e.fieldId), [select.id]);
    assert.equal(codeOf(errorOn(check, select.id)), 'unlisted-choice');
  });
});

describe('field ids that are Object.prototype member names', () => {
  // A field id is emitter-chosen text (parseAttentionRequest accepts any
  // non-empty string). An answered field must reach the validated values.
  const request = (() => {
    const parsed = parseAttentionRequest(
      asEvent({
        aep: '0.1',
        id: 'P1',
        type: 'attention.requested',
        time: '2026-07-03T10:00:00Z',
        source: 'aep://h/agent/a',
        agent: 'a',
        session: 's1',
        seq: 0,
        data: {
          kind: 'form',
          prompt: 'p',
          fields: [
            { id: 'constructor', type: 'string', label: 'c', required: true },
          ],
        },
      }),
    );
    if (!parsed.ok) throw new Error(parsed.problem.message);
    return parsed.value;
  })();

  test('a field called `constructor` is answered and missing like any other', () => {
    const fields = request.fields.filter((f) => f.id === 'constructor');
    assert.equal(codeOf(errorOn(validateFormValues(fields, {}), 'constructor')), 'required');
    assert.deepEqual(valuesOf(validateFormValues(fields, { constructor: 'x' })), { constructor: 'x' });
  });

  test('a field called `__proto__` makes the request a problem, so no answer is ever lost to a prototype', () => {
    const parsed = parseAttentionRequest(
      asEvent({
        aep: '0.1', id: 'P2', type: 'attention.requested', time: '2026-07-03T10:00:00Z', source: 'aep://h/agent/a', agent: 'a',
        session: 's1', seq: 1, data: { kind: 'form', prompt: 'p', fields: [{ id: '__proto__', type: 'string', label: 'p', required: true }] },
      }),
    );
    assert.equal(parsed.ok, false);
    if (!parsed.ok) assert.match(parsed.problem.message, /field id `__proto__` cannot be answered safely/);
  });
});
