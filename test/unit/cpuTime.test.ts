// activate()'s own CPU time (src/base/cpuTime.ts), which the footprint benchmark reads from
// the extension's "activated in" line beside the wall clock: the line it writes, and that
// it counts work done and not time spent off the CPU (a descheduled host's).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cpuSince, cpuTime } from '../../src/base/cpuTime';

const hasThreadClock = typeof (process as { threadCpuUsage?: unknown }).threadCpuUsage === 'function';

/** Spins until `ms` of CPU time have passed by the process's reading, or a generous wall-clock bound. */
function work(ms: number): void {
  const start = cpuTime().process;
  const bound = Date.now() + 20 * ms + 2_000;
  while (cpuTime().process - start < ms * 1000 && Date.now() < bound);
}

test("the process's CPU time, and the thread's own beside it where Node can tell it", () => {
  assert.equal(cpuTime().thread !== undefined, hasThreadClock);
  assert.match(cpuSince(cpuTime()), hasThreadClock ? /^CPU \d+\.\d{2} ms \(process\), \d+\.\d{2} ms \(thread\)$/ : /^CPU \d+\.\d{2} ms \(process\)$/);
});

test('work done counts, time spent off the CPU does not', () => {
  const before = cpuTime();
  work(30);
  const busy = cpuTime().process - before.process;
  assert.ok(busy >= 30_000, `30 ms of work read as ${busy} µs`);
  const idleFrom = cpuTime();
  const wallFrom = performance.now();
  // The thread blocked off the CPU for 100 ms, as a descheduled host is: what is measured, not a wait for a change.
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
  const waited = performance.now() - wallFrom;
  const idle = cpuTime().process - idleFrom.process;
  assert.ok(idle < (waited * 1000) / 2, `${Math.round(waited)} ms off the CPU read as ${idle} µs of CPU`);
});
