/**
 * Exponential backoff with jitter for reconnects: `base · 2^attempt`, capped,
 * each delay drawn from the upper half of that range so a fleet of editors
 * restarted together does not reconnect in step.
 */
export class Backoff {
  private attempt = 0;

  constructor(
    private readonly baseMs = 500,
    private readonly capMs = 30_000,
    private readonly random: () => number = Math.random,
  ) {}

  get attempts(): number {
    return this.attempt;
  }

  /** The delay before the next attempt; each call counts as one attempt. */
  next(): number {
    const ceiling = Math.min(this.capMs, this.baseMs * 2 ** Math.min(this.attempt, 30));
    this.attempt++;
    return Math.round(ceiling * (0.5 + this.random() / 2));
  }

  reset(): void {
    this.attempt = 0;
  }
}
