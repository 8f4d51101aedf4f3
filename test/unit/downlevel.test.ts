import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import * as z from 'zod/mini';
import { parseEnvelope } from '../../src/aep/envelope';
import { CAPTURE_LEVELS, type CaptureLevel } from '../../src/aep/levels';
import { annotatedTypes, captureAnnotation, downlevel, synthesizePrompt } from '../peers/hub/downlevel';
import { aepFixturePath, readAepJson } from '../support/fixtures';

const jsonObject = z.record(z.string(), z.unknown());
const level = z.enum(CAPTURE_LEVELS);
const corpusSchema = z.object({
  $comment: z.string(),
  cases: z.array(
    z.object({
      name: z.string(),
      ceiling: level,
      event: jsonObject,
      expect_capture: level,
      expect_data: z.nullable(jsonObject),
    }),
  ),
});
const corpus = corpusSchema.parse(readAepJson('downlevel/cases.json'));

/**
 * Narrows without copying: zod's record parse rebuilds the object, which
 * would lose identity and mangle an own `__proto__` member.
 */
function asObject(value: unknown): Record<string, unknown> {
  if (!isRecord(value)) assert.fail(`expected a JSON object, got ${JSON.stringify(value)}`);
  return value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The event minus the two members a hop may rewrite. */
function envelopeOf(event: Record<string, unknown>): Record<string, unknown> {
  const { capture: _capture, data: _data, ...rest } = event;
  return rest;
}

/** Runs downlevel and checks the invariants every call must keep. */
function run(event: Record<string, unknown>, ceiling: CaptureLevel): Record<string, unknown> {
  const before = structuredClone(event);
  const out = downlevel(event, ceiling);
  assert.deepEqual(event, before, 'the input is never mutated');
  assert.deepEqual(envelopeOf(out), envelopeOf(event), 'only capture and data change');
  return out;
}

const base = {
  aep: '0.1', id: 'E1', time: '2026-07-03T10:00:00Z', source: 'aep://h/agent/a', agent: 'a', session: 's1', seq: 0,
};

describe('downlevel corpus (AEP-0001 §8.2)', () => {
  test('the corpus has its 18 cases', () => assert.equal(corpus.cases.length, 18));
  for (const c of corpus.cases) {
    test(c.name, () => {
      const out = run(c.event, c.ceiling);
      assert.equal(out['capture'], c.expect_capture);
      if (c.expect_data === null) assert.equal(Object.hasOwn(out, 'data'), false, 'no data member at all');
      else assert.deepEqual(out['data'], c.expect_data);
      const parsed = parseEnvelope(out);
      assert.ok(parsed.ok, parsed.ok ? '' : parsed.problem);
    });
  }
  test('DL7 (nothing to do) returns the very same object', () => {
    const c = corpus.cases.find((entry) => entry.event['id'] === 'DL7');
    assert.ok(c);
    assert.equal(downlevel(c.event, c.ceiling), c.event);
  });
  test('DL12 (redacted source, redacted ceiling) returns the very same object (§8.2(e))', () => {
    const c = corpus.cases.find((entry) => entry.event['id'] === 'DL12');
    assert.ok(c);
    assert.equal(downlevel(c.event, c.ceiling), c.event);
  });
});

describe('downlevel: identity when no change is needed', () => {
  const event = { ...base, type: 'tool.failed', capture: 'redacted', data: { tool: { name: 'Bash' }, error: { message: 'x' } } };
  for (const ceiling of ['redacted', 'full'] as const) {
    test(`redacted event, ${ceiling} ceiling`, () => assert.equal(downlevel(event, ceiling), event));
  }
  test('absent capture is metadata: a metadata ceiling keeps it', () => {
    const plain = { ...base, type: 'run.started', data: { trigger: 'user' } };
    assert.equal(downlevel(plain, 'metadata'), plain);
  });
  test('an unknown capture value is treated as full, so only a full ceiling keeps it', () => {
    const odd = { ...base, type: 'run.started', capture: 'verbatim', data: { trigger: 'user', prompt: 'SECRET' } };
    assert.equal(downlevel(odd, 'full'), odd);
    assert.deepEqual(run(odd, 'redacted'), { ...base, type: 'run.started', capture: 'metadata', data: { trigger: 'user' } });
  });
});

describe('downlevel: beyond the corpus', () => {
  test('ceiling none on an event without capture: capture none, data gone', () => {
    const out = run({ ...base, type: 'run.started', data: { trigger: 'user' } }, 'none');
    assert.equal(out['capture'], 'none');
    assert.equal(Object.hasOwn(out, 'data'), false);
  });
  test('an event without data stays without data', () => {
    const out = run({ ...base, type: 'tool.failed', capture: 'full' }, 'metadata');
    assert.equal(out['capture'], 'metadata');
    assert.equal(Object.hasOwn(out, 'data'), false);
  });
  test('a schema that declares no properties prunes nothing, so its payload goes whole', () => {
    const out = run({ ...base, type: 'control.accepted', capture: 'redacted', data: { note: 'SECRET' } }, 'metadata');
    assert.equal(Object.hasOwn(out, 'data'), false);
  });
  test('a payload that is not an object is dropped', () => {
    const out = run({ ...base, type: 'tool.failed', capture: 'full', data: 'SECRET' }, 'metadata');
    assert.equal(Object.hasOwn(out, 'data'), false);
  });
  test('undeclared members of a known type stay: they default to metadata (AEP-0002 §5.1 rule 4)', () => {
    const out = run({
      ...base, type: 'tool.failed', capture: 'redacted',
      data: { tool: { name: 'Bash', x_shell: 'zsh' }, error: { type: 'E', code: 2, message: 'SECRET' }, x_retries: 1 },
    }, 'metadata');
    assert.deepEqual(out['data'], { tool: { name: 'Bash', x_shell: 'zsh' }, error: { type: 'E', code: 2 }, x_retries: 1 });
  });
  test('unchanged sub-objects are shared, changed ones are copies', () => {
    const tool = { name: 'Bash' };
    const error = { type: 'E', message: 'SECRET' };
    const out = run({ ...base, type: 'tool.failed', capture: 'redacted', data: { tool, error } }, 'metadata');
    const data = asObject(out['data']);
    assert.equal(data['tool'], tool);
    assert.notEqual(data['error'], error);
  });
  test('a `__proto__` member from JSON stays an own member and never becomes a prototype', () => {
    const event = asObject(JSON.parse(
      '{"aep":"0.1","id":"P","type":"tool.failed","time":"t","source":"aep://h/agent/a","agent":"a","session":"s","seq":0,' +
        '"capture":"redacted","data":{"error":{"message":"SECRET"},"__proto__":{"polluted":true}}}',
    ));
    const out = run(event, 'metadata');
    const data = asObject(out['data']);
    assert.equal(Object.getPrototypeOf(data), Object.prototype);
    assert.equal(Object.hasOwn(data, '__proto__'), true);
    assert.equal(data['polluted'], undefined);
  });
  test('attention.requested without a subject: the synthesis drops its tail (AEP-0003 §9 item 2)', () => {
    const out = run({
      ...base, type: 'attention.requested', capture: 'full',
      data: { kind: 'input', prompt: 'SECRET question', context: { transcript: 'SECRET' } },
    }, 'metadata');
    assert.deepEqual(out['data'], { kind: 'input', prompt: 'a requests input' });
  });
  test('labels without a usable id fall back to the 1-based position; malformed items go', () => {
    const out = run({
      ...base, type: 'attention.requested', subject: 'Bash', capture: 'redacted',
      data: {
        kind: 'form', prompt: 'SECRET',
        options: [{ label: 'SECRET yes' }, 'SECRET bare string', { id: 7, label: 'SECRET' }],
        fields: [{ id: 'f', type: 'select', label: 'SECRET', choices: 'SECRET' }, 'SECRET', { type: 'string', label: 'SECRET' }],
      },
    }, 'metadata');
    assert.deepEqual(out['data'], {
      kind: 'form', prompt: 'a requests form: Bash',
      options: [{ label: '1' }, { id: 7, label: '7' }],
      fields: [{ id: 'f', type: 'select', label: 'f' }, { type: 'string', label: '3' }],
    });
    assert.equal(JSON.stringify(out).includes('SECRET'), false);
  });
  test('answer.values that is not an object is dropped below redacted', () => {
    const out = run({ ...base, type: 'attention.answered', capture: 'redacted', data: { answer: { option: '1', values: 'SECRET' } } }, 'metadata');
    assert.deepEqual(out['data'], { answer: { option: '1' } });
  });
  test('a full attention.answered at a redacted ceiling loses its free text too (§8.2(e))', () => {
    const out = run({
      ...base, type: 'attention.answered', capture: 'full',
      data: { answer: { text: 'SECRET', values: { name: 'SECRET', n: 2, ok: false } } },
    }, 'redacted');
    assert.equal(out['capture'], 'metadata');
    assert.deepEqual(out['data'], { answer: { values: { n: 2, ok: false } } });
  });
  test('extension attributes ride unchanged', () => {
    const out = run({ ...base, type: 'run.started', capture: 'full', acmeregion: 'eu-1', data: { prompt: 'SECRET' } }, 'metadata');
    assert.equal(out['acmeregion'], 'eu-1');
    assert.deepEqual(out['data'], {});
  });
  test('synthesizePrompt never invents content', () => {
    assert.equal(synthesizePrompt('claude-code', 'permission', 'Bash'), 'claude-code requests permission: Bash');
    assert.equal(synthesizePrompt(undefined, 3, ''), 'an agent requests attention');
  });
});

describe('the annotation table read from the vendored schemas', () => {
  test('every vendored payload schema with properties is in the table', () => {
    const dir = aepFixturePath('schemas/types');
    const expected = fs.readdirSync(dir)
      .filter((file) => file.endsWith('.schema.json'))
      .filter((file) => {
        const schema = z.object({ properties: jsonObject }).parse(JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')));
        return Object.keys(schema.properties).length > 0;
      })
      .map((file) => file.slice(0, -'.schema.json'.length))
      .sort();
    assert.equal(expected.length, 41);
    assert.deepEqual(annotatedTypes(), expected);
  });
  test('nested objects, array items and dotted member names', () => {
    assert.equal(captureAnnotation('attention.answered', ['answer', 'text']), 'redacted');
    assert.equal(captureAnnotation('attention.requested', ['context']), 'full');
    assert.equal(captureAnnotation('attention.requested', ['fields', '[]', 'choices', '[]', 'label']), 'metadata');
    assert.equal(captureAnnotation('resource.citation.recorded', ['citations', '[]', 'cited_text']), 'full');
    assert.equal(captureAnnotation('resource.citation.recorded', ['citations', '[]', 'source', 'uri']), 'redacted');
    // A member name containing dots is one step, not a path.
    assert.equal(captureAnnotation('assessment.evaluation.recorded', ['gen_ai.evaluation.explanation']), 'redacted');
    assert.equal(captureAnnotation('assessment.evaluation.recorded', ['gen_ai', 'evaluation', 'explanation']), undefined);
    assert.equal(captureAnnotation('x.acme.thing', []), undefined);
  });
});
