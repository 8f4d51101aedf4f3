import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseAttentionRequest, type FieldSpec } from '../../src/aep/attention';
import type { AepEvent } from '../../src/aep/envelope';
import { hostToWebviewSchema, webviewToHostSchema } from '../../src/shared/webviewMessages';
import { goldenForm, requestEvent, viewOf } from '../support/pageRequests';

// The page validates answers with the very field specs the host checks them
// against, and the host reads the page's answer with the core's answer schema.

const EVERY_TYPE = requestEvent({
  kind: 'form',
  prompt: 'Deploy?',
  fields: [
    { id: 'name', type: 'string', label: 'Name', required: true },
    { id: 'replicas', type: 'number', label: 'Replicas', min: 1, max: 64 },
    { id: 'staged', type: 'boolean', label: 'Staged' },
    { id: 'regions', type: 'select', label: 'Regions', multi: true, choices: [{ id: 'eu', label: 'Europe' }, { id: 'us', label: 'Americas' }] },
    { id: 'db', type: 'select', label: 'Database', other: true, choices: [] },
    { id: 'when', type: 'date', label: 'When' },
  ],
});

function parsedFields(event: AepEvent): FieldSpec[] {
  const parsed = parseAttentionRequest(event);
  assert.ok(parsed.ok);
  return parsed.value.fields;
}

function initWith(fields: unknown[]): unknown {
  return { type: 'init', request: { ...viewOf(EVERY_TYPE), fields }, now: 1, generation: 1 };
}

describe('webview messages: one field spec, one answer schema', () => {
  for (const [name, event] of [['the golden form', goldenForm()], ['a form with every field type', EVERY_TYPE]] as const) {
    test(`${name}: the page receives the specs the core parsed, unchanged by the message schema`, () => {
      const view = viewOf(event);
      const message = hostToWebviewSchema.parse({ type: 'init', request: view, now: 1, generation: 1 });
      assert.equal(message.type, 'init');
      const received = message.type === 'init' ? message.request.fields.map((field) => field.spec) : [];
      assert.deepEqual(received, parsedFields(event));
      assert.deepEqual(view.fields.map((field) => field.label.text), parsedFields(event).map((field) => field.label));
    });
  }

  test('the page refuses a field spec the core would never make', () => {
    const label = { text: 'x', honesty: 'redacted' };
    const refused: Array<[string, unknown]> = [
      ['a type the core turns into `unsupported`', { id: 'a', type: 'date', label: 'x', required: false }],
      ['a select without multi, other and choices', { id: 'a', type: 'select', label: 'x', required: false }],
      ['an unsupported field without its declared type', { id: 'a', type: 'unsupported', label: 'x', required: false }],
      ['an empty id', { id: '', type: 'string', label: 'x', required: false }],
      ['no `required`', { id: 'a', type: 'string', label: 'x' }],
      ['a bound that is not a number', { id: 'a', type: 'number', label: 'x', required: false, min: '1' }],
    ];
    for (const [what, spec] of refused) {
      assert.equal(hostToWebviewSchema.safeParse(initWith([{ spec, label, choices: [] }])).success, false, what);
    }
    const fine = { id: 'a', type: 'string', label: 'x', required: false };
    assert.equal(hostToWebviewSchema.safeParse(initWith([{ spec: fine, label, choices: [] }])).success, true);
    assert.equal(hostToWebviewSchema.safeParse(initWith([{ spec: fine, label }])).success, false, 'choices are always listed');
  });

  test('the host reads a submitted answer with the core answer schema', () => {
    const submit = (answer: unknown) => webviewToHostSchema.safeParse({ type: 'submit', submitId: 's1', answer, key: 'k', generation: 1 });
    const ok = submit({ option: 'approve', text: 'fine', values: { name: 'billing-api', regions: ['eu'] } });
    assert.ok(ok.success);
    assert.deepEqual(ok.data, { type: 'submit', submitId: 's1', answer: { option: 'approve', text: 'fine', values: { name: 'billing-api', regions: ['eu'] } }, key: 'k', generation: 1 });
    for (const answer of [{ option: 1 }, { text: ['a'] }, { values: ['a'] }, { values: 'a' }, 'approve', null]) {
      assert.equal(submit(answer).success, false, JSON.stringify(answer));
    }
  });

  test('every message about a request names the render it was composed on; the handshake and the log need none', () => {
    const render = { key: 'h1\u0000session\u0000req-1', generation: 3 };
    const aboutRequest = [
      { type: 'submit', submitId: 's1', answer: { option: 'allow' } },
      { type: 'retry', submitId: 's1' },
      { type: 'pin' },
      { type: 'setToken' },
    ];
    for (const message of aboutRequest) {
      assert.equal(webviewToHostSchema.safeParse({ ...message, ...render }).success, true, message.type);
      assert.equal(webviewToHostSchema.safeParse(message).success, false, `${message.type} without its render`);
      assert.equal(webviewToHostSchema.safeParse({ ...message, key: render.key }).success, false, `${message.type} without its generation`);
      assert.equal(webviewToHostSchema.safeParse({ ...message, generation: 3 }).success, false, `${message.type} without its request`);
      for (const generation of [0, -1, 1.5, '3']) {
        assert.equal(webviewToHostSchema.safeParse({ ...message, ...render, generation }).success, false, `${message.type} at generation ${JSON.stringify(generation)}`);
      }
      assert.equal(webviewToHostSchema.safeParse({ ...message, ...render, key: '' }).success, false, `${message.type} about no request`);
    }
    for (const message of [{ type: 'ready' }, { type: 'showLog' }]) assert.equal(webviewToHostSchema.safeParse(message).success, true, message.type);
    const init = { type: 'init', request: viewOf(EVERY_TYPE), now: 1 };
    assert.equal(hostToWebviewSchema.safeParse({ ...init, generation: 3 }).success, true);
    assert.equal(hostToWebviewSchema.safeParse(init).success, false, 'an init always gives the render its generation');
  });
});
