// The one poller every test tier uses (unit, integration, the end-to-end workbench):
// it waits for the change a test asserts, up to a deadline, and when the deadline
// passes its failure says what it last saw. A test never waits a fixed time instead.

/** How long to wait and how often to look. */
export interface WaitOptions<T> {
  /** Default 5 000 ms. */
  timeoutMs?: number;
  /** Default 10 ms; a read of a browser page asks for PAGE_READ_EVERY_MS. */
  everyMs?: number;
  /** How the last value reads in the failure message; default JSON. */
  show?: (last: T) => string;
}

/**
 * How often a wait reads a browser page (an evaluation, a locator, every frame of a workbench):
 * each read is a round trip through the test's Playwright connection and the browser to a
 * renderer, and the end-to-end files run with the machine's cores full. The one shared
 * workbench's file took 131 and 131 CPU-s with its page reads every 10-100 ms, 114 to 127 with
 * them at this, its timed waits aside (BENCHMARKS.md). The request-page harness's wait for a
 * message stays at 20 ms: slower, those files took no less.
 */
export const PAGE_READ_EVERY_MS = 200;

/**
 * How often a wait reads the page when the test times it (an "Open → page focused" figure it
 * reports, or a step that must land before a request expires): at PAGE_READ_EVERY_MS the figure
 * would hold up to 200 ms of the wait's own looking.
 */
export const TIMED_PAGE_READ_EVERY_MS = 20;

// Taken when this module loads, before any test fakes the clock (t.mock.timers replaces
// the global): a test that drives its timers by hand still polls in real time.
const realSetTimeout = globalThis.setTimeout;
const pause = (ms: number) => new Promise((resolve) => realSetTimeout(resolve, ms));

function showValue(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * Reads `read` until `holds` says yes of what it read, and returns that value; after
 * the deadline fails with `what` and the last value read. `read` may be async; a
 * read that throws fails the wait at once (catch in `read` what may fail for a while).
 */
export async function waitForValue<T>(read: () => T | Promise<T>, holds: (value: T) => boolean, what: string, options: WaitOptions<T> = {}): Promise<T> {
  const { timeoutMs = 5_000, everyMs = 10, show = showValue } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (holds(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last: ${show(value)}`);
    await pause(everyMs);
  }
}

/**
 * Polls `condition` (sync or async) until it holds, or fails with `what` after
 * `timeoutMs`, adding `describe()` (the state it last saw) to the message.
 */
export async function waitUntil(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 5_000,
  describe?: () => string | Promise<string>,
  everyMs = 10,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${describe ? `: ${await describe()}` : ''}`);
    await pause(everyMs);
  }
}
