// approximateBytes walks members without a key array per object (issue 40).
// The memory budget's limits rest on its figures, so the walk must give what
// the walk before it gave (Object.keys per object, every value through one
// stack), exactly, on any JSON value: the earlier walk is kept here as the
// reference. fast-check prints the seed and the shrunk case on failure.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { approximateBytes } from '../../src/base/byteSize';
import { parseUntrustedJson } from '../../src/base/json';

/** approximateBytes as it was before issue 40's change, word for word. */
function referenceBytes(root: unknown): number {
  let bytes = 0;
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'string') {
      bytes += 16 + value.length * 2;
    } else if (Array.isArray(value)) {
      bytes += 32 + value.length * 16;
      for (const item of value) pending.push(item);
    } else if (typeof value === 'object' && value !== null) {
      bytes += 32;
      for (const key of Object.keys(value)) {
        bytes += 16 + key.length * 2;
        pending.push((value as Record<string, unknown>)[key]);
      }
    } else {
      bytes += 8;
    }
  }
  return bytes;
}

/** Keys as agents send them, the awkward ones included: integer-like keys (enumerated first), `__proto__`, `constructor`. */
const key = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('__proto__', 'constructor', 'toString', '0', '1', '10', 'data', ''));

const { value: jsonLike } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.oneof(fc.string({ maxLength: 12 }), fc.string({ unit: 'binary', maxLength: 6 }), fc.double(), fc.integer(), fc.boolean(), fc.constant(null)),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(key, tie('value'), { maxKeys: 6 }),
  ),
}));

test('approximateBytes gives what the earlier walk gave, on any JSON value', () => {
  fc.assert(
    fc.property(fc.oneof(fc.jsonValue(), jsonLike), (value) => {
      assert.equal(approximateBytes(value), referenceBytes(value));
    }),
    { numRuns: 2_000 },
  );
});

test('approximateBytes gives what the earlier walk gave on values read from the network, `__proto__` members and shared values included', () => {
  fc.assert(
    fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
      // As events arrive: read from text (an own `__proto__` member dropped by the reader), then a value reached twice.
      const text = JSON.stringify({ a, b, ['__proto__']: a }).replace('"__proto__"', '"__pro\\u0074o__"');
      const read = parseUntrustedJson(text) as Record<string, unknown>;
      const shared = { first: read, second: read, list: [read, a, read] };
      assert.equal(approximateBytes(read), referenceBytes(read));
      assert.equal(approximateBytes(shared), referenceBytes(shared));
      // A `__proto__` own member made by JSON.parse itself (what the reader removes) is counted as Object.keys lists it.
      const raw: unknown = JSON.parse('{"__proto__": {"x": [1, "two"]}, "y": 3}');
      assert.equal(approximateBytes(raw), referenceBytes(raw));
    }),
    { numRuns: 500 },
  );
});

test('approximateBytes of scalars, functions and objects with inherited members is what the earlier walk gave', () => {
  const inherited: Record<string, unknown> = Object.create({ inheritedKey: 'not counted' }) as Record<string, unknown>;
  inherited['own'] = 'counted';
  const hidden = Object.defineProperty({ shown: 1 }, 'hidden', { value: 'x'.repeat(50), enumerable: false });
  for (const value of [undefined, null, 0, -1.5, true, '', 'é', 'x'.repeat(1_000), () => 1, Symbol('s'), 10n, inherited, hidden, Object.create(null), [[], {}, [[[]]]]]) {
    assert.equal(approximateBytes(value), referenceBytes(value), String(typeof value));
  }
});
