import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseAttentionRequest, type AttentionRequest, type FieldSpec } from '../../src/aep/attention';
import { commandCapture } from '../../src/aep/capture';
import { parseEnvelope } from '../../src/aep/envelope';
import { honestRequestText, textHonesty, type HonestRequestText } from '../../src/aep/labels';
import { CAPTURE_LEVELS, captureAtLeast, type CaptureLevel } from '../../src/aep/levels';
import { readAepJson } from '../support/fixtures';
import { gateFormValues } from '../support/valuesGating';

interface GatingCase {
  name: string;
  fields: unknown[];
  values: Record<string, unknown>;
  ceiling: CaptureLevel;
  expect: Record<string, unknown>;
}

/** Reads raw field_specs through the real request parser, as they would arrive. */
function fieldsOf(raw: unknown[]): FieldSpec[] {
  return requestOf({ kind: 'form', prompt: 'p', fields: raw }, 'redacted').fields;
}

function requestOf(data: unknown, capture: CaptureLevel): AttentionRequest {
  const event = parseEnvelope({
    aep: '0.1', id: 'R1', type: 'attention.requested', time: '2026-07-03T10:00:00Z',
    source: 'aep://h/agent/a/session/s1', agent: 'claude-code', session: 's1', seq: 0, capture, data,
  });
  assert.ok(event.ok, event.ok ? '' : event.problem);
  const parsed = parseAttentionRequest(event.value);
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.problem.message);
  return parsed.value;
}

describe('capture levels', () => {
  test('order none < metadata < redacted < full', () => {
    assert.deepEqual([...CAPTURE_LEVELS], ['none', 'metadata', 'redacted', 'full']);
    assert.equal(captureAtLeast('redacted', 'metadata'), true);
    assert.equal(captureAtLeast('metadata', 'redacted'), false);
  });
});

describe('gateFormValues: every capture-gating fixture case', () => {
  const { cases } = readAepJson<{ cases: GatingCase[] }>('capture-gating/cases.json');
  test('the corpus has its six cases', () => assert.equal(cases.length, 6));
  for (const c of cases) {
    test(c.name, () => {
      assert.deepEqual(gateFormValues(fieldsOf(c.fields), c.values, c.ceiling), c.expect);
    });
  }
});

describe('commandCapture: what a respond command must declare', () => {
  const fields = fieldsOf([
    { id: 'name', type: 'string', label: 'Service name' },
    { id: 'n', type: 'number', label: 'Replicas' },
    { id: 'ok', type: 'boolean', label: 'Staged?' },
    { id: 'db', type: 'select', label: 'Database', other: true, choices: [{ id: '1', label: 'PostgreSQL' }] },
    { id: 'r', type: 'select', label: 'Regions', multi: true, choices: [{ id: '1', label: 'us' }, { id: '2', label: 'eu' }] },
  ]);
  test('structural answers stay at metadata', () => {
    assert.deepEqual(commandCapture({ option: 'allow' }, []), { ok: true, capture: 'metadata' });
    assert.deepEqual(commandCapture({ values: { n: 3, ok: false, db: '1', r: ['1', '2'] } }, fields), { ok: true, capture: 'metadata' });
  });
  test('free text the redaction pipeline leaves unchanged is redacted: it passed', () => {
    assert.deepEqual(commandCapture({ option: 'allow', text: 'only in build/' }, []), { ok: true, capture: 'redacted' });
    assert.deepEqual(commandCapture({ values: { name: 'billing-api' } }, fields), { ok: true, capture: 'redacted' });
    assert.deepEqual(commandCapture({ values: { db: 'MariaDB' } }, fields), { ok: true, capture: 'redacted' });
  });
});

describe('label honesty', () => {
  test('textHonesty per level', () => {
    assert.deepEqual(CAPTURE_LEVELS.map(textHonesty), ['structural', 'structural', 'redacted', 'verbatim']);
  });

  const allHonesty = (text: HonestRequestText) => [
    text.prompt.honesty,
    ...text.options.map((o) => o.label.honesty),
    ...text.fields.flatMap((f) => [f.label.honesty, ...f.choices.map((c) => c.label.honesty)]),
  ];

  interface Mapping { expected_data: unknown; expected_data_metadata: unknown }
  const mappings = readAepJson<{ ask_user_question: Mapping; elicitation: Mapping }>('mappings/claude-code.json');
  for (const [name, mapping] of Object.entries(mappings).filter(([key]) => !key.startsWith('$'))) {
    test(`${name} at metadata: every label is a structural placeholder`, () => {
      const text = honestRequestText(requestOf(mapping.expected_data_metadata, 'metadata'));
      const tags = allHonesty(text);
      assert.ok(tags.length >= 5);
      assert.ok(tags.every((tag) => tag === 'structural'), tags.join());
      // The placeholders are what arrived; we never invent a question from them.
      assert.ok(text.fields.every((f) => f.label.text === f.id || /^\d+$/.test(f.label.text)));
    });
    test(`${name} at redacted: every label is real (redacted) text`, () => {
      const text = honestRequestText(requestOf(mapping.expected_data, 'redacted'));
      const tags = allHonesty(text);
      assert.ok(tags.every((tag) => tag === 'redacted'), tags.join());
      assert.ok(text.fields.some((f) => f.label.text.length > f.id.length));
    });
  }
});
