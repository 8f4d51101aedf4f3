import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseAttentionRequest } from '../../src/aep/attention';
import { parseWireMessage } from '../../src/aep/frames';
import { parseUntrustedJson } from '../../src/base/json';

const envelope = (data: string) =>
  `{"aep":"0.1","id":"Q","type":"attention.requested","time":"t","source":"aep://h/agent/a","agent":"a","session":"s","seq":0,"data":${data}}`;

for (const spelling of ['__proto__', '\\u005f_proto__', '\\u005f\\u005f\\u0070roto__']) {
  test(`a "${spelling}" member cannot plant inherited fields`, () => {
    const message = parseWireMessage(envelope(`{"${spelling}":{"kind":"form","prompt":"planted"}}`));
    assert.equal(message.kind, 'event');
    if (message.kind !== 'event') return;
    assert.equal(Object.getPrototypeOf(message.event.data), Object.prototype);
    const request = parseAttentionRequest(message.event);
    assert.equal(request.ok, false, 'the planted kind and prompt are not seen');
    assert.equal(({} as Record<string, unknown>)['kind'], undefined);
  });
}

test('ordinary text parses exactly as JSON.parse does', () => {
  const text = envelope('{"kind":"input","prompt":"caf\\u00e9 \\"quoted\\""}');
  assert.deepEqual(parseUntrustedJson(text), JSON.parse(text));
});
