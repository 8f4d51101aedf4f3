// The capture an answer declares is a provenance claim (AEP-0001 §8.2,
// AEP-0002 §5.1 rule 2, AEP-0004 §5): `metadata` without free text,
// `redacted` only when every free-text part passed the AEP-0003 §9.4 pipeline
// unchanged, `full` when the sender chose to send as typed text the pipeline
// would change. buildRespondCommand cannot be made to say `redacted` for
// changed text: it refuses instead. Driven by the upstream redaction corpus.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseAttentionRequest, type Answer, type FieldSpec } from '../../src/aep/attention';
import { commandCapture, freeTextParts, redactAnswer, verbatimCapture } from '../../src/aep/capture';
import { buildRespondCommand, type SenderIdentity } from '../../src/aep/control';
import { parseEnvelope } from '../../src/aep/envelope';
import { redactText, SECRET_MARK, type RedactionOptions } from '../../src/aep/redaction';
import { readAepJson } from '../support/fixtures';

const SENDER: SenderIdentity = { agent: 'vscode-aep', source: 'aep://workstation/agent/vscode-aep' };
const NOW = Date.parse('2026-07-03T10:15:08.123Z');

function fieldsOf(raw: unknown[]): FieldSpec[] {
  const parsed = parseAttentionRequest(
    parseEnvelopeOk({ aep: '0.1', id: 'R', type: 'attention.requested', time: '2026-07-03T10:00:00Z', source: 'aep://h/agent/a/session/s', agent: 'a', session: 's', seq: 1, capture: 'redacted', data: { kind: 'form', prompt: 'p', fields: raw } }),
  );
  if (!parsed.ok) assert.fail(parsed.problem.message);
  return parsed.value.fields;
}
function parseEnvelopeOk(raw: unknown) {
  const parsed = parseEnvelope(raw);
  if (!parsed.ok) assert.fail(parsed.problem);
  return parsed.value;
}

const FIELDS = fieldsOf([
  { id: 'name', type: 'string', label: 'Service name' },
  { id: 'n', type: 'number', label: 'Replicas' },
  { id: 'ok', type: 'boolean', label: 'Staged?' },
  { id: 'db', type: 'select', label: 'Database', other: true, choices: [{ id: '1', label: 'PostgreSQL' }] },
  { id: 'tags', type: 'select', label: 'Tags', multi: true, other: true, choices: [{ id: 't1', label: 'one' }] },
  { id: 'api_key', type: 'string', label: 'Key' },
]);
const REQUEST = { id: '01JX9ZZZZZFORM00000000000A', session: 's_custom', fields: FIELDS };
const GITHUB = 'ghp_AbCdEfGhIjKlMnOpQrStUvWxYz012345';

describe('free text in an answer', () => {
  test('the reply, string values, `other` texts (by index in a multi select), strings under unknown keys; never numbers, booleans or choice ids', () => {
    const answer: Answer = { option: 'allow', text: 'why', values: { name: 'api', n: 3, ok: true, db: '1', tags: ['t1', 'mine', 'also'], extra: 'x' } };
    assert.deepEqual(freeTextParts(answer, FIELDS), [
      { part: { kind: 'text' }, text: 'why' },
      { part: { kind: 'value', fieldId: 'name' }, text: 'api' },
      { part: { kind: 'value', fieldId: 'tags', index: 1 }, text: 'mine' },
      { part: { kind: 'value', fieldId: 'tags', index: 2 }, text: 'also' },
      { part: { kind: 'value', fieldId: 'extra' }, text: 'x' },
    ]);
    assert.deepEqual(freeTextParts({ option: 'deny', values: { n: 1, db: '1', tags: ['t1'] } }, FIELDS), []);
  });

  test('redactAnswer replaces each part in place and says what it replaced', () => {
    const answer: Answer = { text: `use ${GITHUB}`, values: { name: 'ops@example.com', db: '1', tags: ['t1', 'from /home/ann/x'], n: 2 } };
    const { answer: redacted, changes } = redactAnswer(answer, FIELDS, { home: '/home/op' });
    assert.deepEqual(redacted, { text: `use ${SECRET_MARK}`, values: { name: '[REDACTED:pii]', db: '1', tags: ['t1', 'from ~/x'], n: 2 } });
    assert.deepEqual(changes.map((c) => [c.part, c.original, c.redacted, c.replacements.map((r) => r.original)]), [
      [{ kind: 'text' }, `use ${GITHUB}`, `use ${SECRET_MARK}`, [GITHUB]],
      [{ kind: 'value', fieldId: 'name' }, 'ops@example.com', '[REDACTED:pii]', ['ops@example.com']],
      [{ kind: 'value', fieldId: 'tags', index: 1 }, 'from /home/ann/x', 'from ~/x', ['/home/ann']],
    ]);
    assert.deepEqual(answer.values?.['tags'], ['t1', 'from /home/ann/x'], 'the answer given is not modified');
  });

  test('a credential-named field id drops its value whole, as the pipeline does for credential-named keys', () => {
    const { answer, changes } = redactAnswer({ values: { api_key: 'plainlooking0value' } }, FIELDS);
    assert.deepEqual(answer, { values: { api_key: SECRET_MARK } });
    assert.equal(changes[0]?.replacements[0]?.kind, 'field named like a credential');
    assert.deepEqual(redactAnswer(answer, FIELDS).changes, [], 'and the redacted answer passes as it is');
  });

  test('an agent-chosen field id `__proto__` stays a key of the redacted values', () => {
    const values = JSON.parse(`{"__proto__": "${GITHUB}"}`) as Record<string, unknown>;
    const { answer } = redactAnswer({ values }, []);
    assert.equal(Object.getPrototypeOf(answer.values), Object.prototype);
    assert.equal(JSON.stringify(answer.values), `{"__proto__":"${SECRET_MARK}"}`);
  });
});

describe('commandCapture: honest by contract', () => {
  const clean: Answer = { text: 'only in build/', values: { name: 'billing-api', db: 'MariaDB' } };
  const dirty: Answer = { text: 'fine', values: { name: `token=${GITHUB}` } };
  test('no free text: metadata, whatever the sender chose', () => {
    for (const verbatim of [false, true]) assert.deepEqual(commandCapture({ option: 'allow', values: { n: 1 } }, FIELDS, { verbatim }), { ok: true, capture: 'metadata' });
  });
  test('text the pipeline leaves unchanged: redacted (it passed), sent as typed or not', () => {
    for (const verbatim of [false, true]) assert.deepEqual(commandCapture(clean, FIELDS, { verbatim }), { ok: true, capture: 'redacted' });
    assert.equal(verbatimCapture(clean, FIELDS), 'redacted');
  });
  test('text the pipeline would change: refused, unless sent as typed, then full', () => {
    const refused = commandCapture(dirty, FIELDS);
    assert.equal(refused.ok, false);
    assert.deepEqual(refused.ok ? [] : refused.changes.map((c) => c.part), [{ kind: 'value', fieldId: 'name' }]);
    assert.deepEqual(commandCapture(dirty, FIELDS, { verbatim: true }), { ok: true, capture: 'full' });
    assert.equal(verbatimCapture(dirty, FIELDS), 'full');
  });
  test('the home directory given is part of the pipeline', () => {
    const answer: Answer = { text: 'see /opt/me/notes' };
    assert.deepEqual(commandCapture(answer, [], {}), { ok: true, capture: 'redacted' });
    assert.equal(commandCapture(answer, [], { redaction: { home: '/opt/me' } }).ok, false);
  });
});

interface TextCase {
  name: string;
  input: string;
  opts?: RedactionOptions;
  must_not_contain?: string[];
}

describe('buildRespondCommand over the redaction corpus: never `redacted` for text the pipeline changes', () => {
  const cases = readAepJson<{ text_cases: TextCase[] }>('redaction/cases.json').text_cases;
  const shapes: Array<[string, (text: string) => Answer]> = [
    ['reply text', (text) => ({ text })],
    ['reason beside an option', (text) => ({ option: 'allow', text })],
    ['string field', (text) => ({ values: { name: text } })],
    ['`other` text in a multi select', (text) => ({ values: { tags: ['t1', text] } })],
  ];
  for (const c of cases) {
    test(c.name, () => {
      const redaction: RedactionOptions = { home: '/nonexistent-home', ...(c.opts ?? {}) };
      const changes = redactText(c.input, redaction).replacements.length > 0;
      for (const [shape, answerOf] of shapes) {
        const answer = answerOf(c.input);
        const plain = buildRespondCommand(REQUEST, answer, SENDER, NOW, { redaction });
        const typed = buildRespondCommand(REQUEST, answer, SENDER, NOW, { redaction, verbatim: true });
        assert.ok(typed.ok, `${shape}: sent as typed, always built`);
        if (changes) {
          assert.equal(plain.ok, false, `${shape}: refused, not labelled redacted`);
          assert.equal(typed.command.capture, 'full', `${shape}: as typed, at full`);
          assert.deepEqual(typed.command.data, { answer }, `${shape}: as typed means as typed`);
          // What "Send redacted" sends: the pipeline's output, which passes, at redacted, without the secret.
          const redactedAnswer = redactAnswer(answer, REQUEST.fields, redaction).answer;
          const sent = buildRespondCommand(REQUEST, redactedAnswer, SENDER, NOW, { redaction });
          assert.ok(sent.ok, `${shape}: the redacted answer is built`);
          assert.equal(sent.command.capture, 'redacted');
          const wire = JSON.stringify(sent.command);
          for (const secret of c.must_not_contain ?? []) assert.ok(!wire.includes(JSON.stringify(secret).slice(1, -1)), `${shape}: ${secret} is not on the wire`);
        } else {
          assert.ok(plain.ok, `${shape}: text the pipeline leaves alone is built`);
          assert.equal(plain.command.capture, 'redacted');
          assert.equal(typed.command.capture, 'redacted', 'it passed as it is: redacted, even when sent as typed');
        }
      }
    });
  }

  test('the refusal says what would be replaced, and no command (no id) exists', () => {
    const built = buildRespondCommand(REQUEST, { text: `deploy with ${GITHUB}` }, SENDER, NOW);
    assert.equal(built.ok, false);
    if (built.ok) return;
    assert.equal(built.refusal.reason, 'would-redact');
    assert.equal(built.refusal.changes[0]?.replacements[0]?.kind, 'GitHub token');
    assert.equal('command' in built, false);
    assert.equal(built.refusal.parts, 1);
  });
});
