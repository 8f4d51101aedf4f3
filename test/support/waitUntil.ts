/** Polls `condition` until it holds, or fails with `what` after `timeoutMs`. */
export async function waitUntil(condition: () => boolean, what: string, timeoutMs = 5_000, describe?: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${describe ? `: ${describe()}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
