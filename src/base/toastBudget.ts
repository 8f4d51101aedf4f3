/**
 * How many notifications a window may add before VS Code stops showing them
 * as toasts. VS Code's spam protection (notificationsToasts.ts,
 * `SPAM_PROTECTION`: 3 toasts per 800 ms, counted from the first of each
 * interval) puts any further one in the notification center only, with no
 * toast: a request's notification landing there reaches nobody. The budget
 * counts this extension's own notifications over a sliding window a little
 * longer than VS Code's, so one it allows is never a fourth in VS Code's
 * interval; another extension's toasts are beyond its sight.
 */
export class ToastBudget {
  private readonly shown: number[] = [];

  constructor(private readonly limit = 3, private readonly windowMs = 850) {}

  /** A notification was just added. */
  note(now: number): void {
    this.shown.push(now);
    this.forget(now);
  }

  /** 0 when a notification added now would still be a toast; otherwise how long to wait until one would. */
  waitBefore(now: number): number {
    this.forget(now);
    if (this.shown.length < this.limit) return 0;
    const oldest = this.shown[this.shown.length - this.limit] as number;
    return Math.max(1, oldest + this.windowMs - now + 1);
  }

  private forget(now: number): void {
    while (this.shown.length > 0 && (this.shown[0] as number) <= now - this.windowMs) this.shown.shift();
  }
}
