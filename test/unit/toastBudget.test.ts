// The toast budget (src/base/toastBudget.ts) against a model of VS Code's own
// spam protection: 3 toasts per 800 ms interval, the interval restarting at the
// first toast added more than 800 ms after the last restart. A notification the
// budget lets through at once is never dropped by that model.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ToastBudget } from '../../src/base/toastBudget';

/** VS Code's IntervalCounter as notificationsToasts.ts uses it: true when the toast is shown. */
function vscodeToasts() {
  let start = -Infinity;
  let count = 0;
  return (now: number) => {
    if (now - start > 800) {
      start = now;
      count = 0;
    }
    count++;
    return count <= 3;
  };
}

describe('ToastBudget', () => {
  test('three at once are allowed; the fourth waits until the window has passed the first', () => {
    const budget = new ToastBudget();
    for (const at of [0, 10, 20]) {
      assert.equal(budget.waitBefore(at), 0);
      budget.note(at);
    }
    const wait = budget.waitBefore(30);
    assert.ok(wait > 800 - 30, `waits ${wait} ms`);
    assert.equal(budget.waitBefore(30 + wait), 0);
  });

  test('the sequence an end-to-end run met (a permission, two confirmations, a form): the next request is deferred, then shown', () => {
    const before = [6206, 7296, 7371, 7711];
    const request = 7760;
    const atOnce = vscodeToasts();
    for (const at of before) atOnce(at);
    assert.equal(atOnce(request), false, 'the model drops a toast added at once, as VS Code did');
    const shown = vscodeToasts();
    const budget = new ToastBudget();
    for (const at of before) {
      assert.equal(shown(at), true);
      budget.note(at);
    }
    const wait = budget.waitBefore(request);
    assert.ok(wait > 0 && wait < 850, `waits ${wait} ms`);
    assert.equal(shown(request + wait), true);
  });

  test('whatever the arrival times, a toast the budget allows is one the model shows', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let run = 0; run < 200; run++) {
      const shown = vscodeToasts();
      const budget = new ToastBudget();
      let now = 0;
      for (let i = 0; i < 40; i++) {
        now += Math.floor(random() * 400);
        const wait = budget.waitBefore(now);
        now += wait;
        assert.equal(budget.waitBefore(now), 0);
        assert.equal(shown(now), true, `run ${run}, toast ${i} at ${now} ms was dropped`);
        budget.note(now);
      }
    }
  });
});
