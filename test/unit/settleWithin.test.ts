// A wait that gives up: the round trip a claim waits on (osNotifications.ts)
// never completes for a page gone without a word, and each burst waiting on
// it would be held until the page came back, hours later.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { settleWithin } from '../../src/base/settleWithin';

test('a promise that settles in time gives its value, and its timer is cleared', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  let answer!: (value: boolean) => void;
  const waited = settleWithin(new Promise<boolean>((resolve) => (answer = resolve)), 10_000, false);
  t.mock.timers.tick(9_999);
  answer(true);
  assert.equal(await waited, true);
  t.mock.timers.tick(1);
  assert.equal(await waited, true, 'the fallback does not replace the value');
});

test('a promise that never settles gives the fallback once the time has passed, not before', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const waited = settleWithin(new Promise<boolean>(() => undefined), 10_000, false);
  let settled = false;
  void waited.then(() => (settled = true));
  t.mock.timers.tick(9_999);
  await Promise.resolve();
  assert.equal(settled, false, 'still waiting 1 ms before the time');
  t.mock.timers.tick(1);
  assert.equal(await waited, false);
});

test('a promise that fails in time fails the wait', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const waited = settleWithin(Promise.reject(new Error('post failed')), 10_000, false);
  await assert.rejects(waited, /post failed/);
});
