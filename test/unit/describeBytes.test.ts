import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeBytes } from '../../src/base/byteSize';

test('a limit reads exactly, an amount held reads roughly, both in binary units', () => {
  assert.equal(describeBytes(1024 * 1024), '1 MiB', 'the default frame limit');
  assert.equal(describeBytes(64 * 1024), '64 KiB');
  assert.equal(describeBytes(1000), '1000 bytes', 'a limit under a KiB is said in bytes');
  assert.equal(describeBytes(0), '0 bytes');
  assert.equal(describeBytes(53_000), '52 KiB', 'rounded to the KiB');
  assert.equal(describeBytes(Math.round(12.46 * 1024 * 1024)), '12 MiB', 'rounded to the MiB from 10 MiB');
  assert.equal(describeBytes(Math.round(2.5 * 1024 * 1024) + 1), '2.5 MiB', 'one decimal under 10 MiB');
  assert.equal(describeBytes(200 * 1024 + 1), '0.2 MiB');
});
