// A resume position's size counts its strings as JSON text; the count skips
// building that text when nothing in it is escaped (issue 40). It must be
// exactly JSON.stringify's length for any string, escapes and lone surrogates
// included, since the kept positions' size cap rests on it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { jsonStringChars } from '../../src/client/positionStore';

test('jsonStringChars is the length of JSON.stringify of any string', () => {
  const text = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.string({ unit: fc.constantFrom('a', '"', '\\', '\u0000', '\u001f', ' ', '~', '\u007f', '\u2028', '\ud800', '\udc00', '😀', 'é'), maxLength: 20 }),
    fc.string({ maxLength: 80 }),
  );
  fc.assert(
    fc.property(text, (value) => {
      assert.equal(jsonStringChars(value), JSON.stringify(value).length);
    }),
    { numRuns: 5_000 },
  );
  for (const value of ['', 'aep://bench-host/agent/a/session/s-1', 'a"b', 'a\\b', '\t', '\u007f', 'x\ud83d']) {
    assert.equal(jsonStringChars(value), JSON.stringify(value).length, JSON.stringify(value));
  }
});
