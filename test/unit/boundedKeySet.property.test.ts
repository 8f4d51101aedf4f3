// The dedupe window (BoundedKeySet) against a model: the last `capacity`
// distinct keys added, oldest forgotten first, whether the ring is still
// growing to its capacity or already wrapping. fast-check prints the seed and
// the shrunk case on failure.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { BoundedKeySet } from '../../src/base/boundedKeySet';

test('the dedupe window holds exactly the last `capacity` distinct keys added, before and after it wraps', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 8 }), fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 80 }), (capacity, added) => {
      const set = new BoundedKeySet(capacity);
      const model: string[] = [];
      for (const n of added) {
        const key = `k${n}`;
        const isNew = !model.includes(key);
        assert.equal(set.add(key), isNew, `${key} is ${isNew ? 'new' : 'held'}`);
        if (isNew) {
          model.push(key);
          if (model.length > capacity) model.shift();
        }
        assert.equal(set.size, model.length);
        for (let k = 0; k <= 20; k++) assert.equal(set.has(`k${k}`), model.includes(`k${k}`), `k${k} after ${key}`);
      }
    }),
  );
});
