// System notifications wait for a view (issue 42): VS Code creates the
// notifications view only when it shows it, so a window that shows it by
// itself for its first request holds that request's notification until the
// view is ready. What is held is given only if it still waits for an answer,
// and nothing is held longer than the view is given to come.

/** How long a held burst waits for the view before it is dropped, as it would have been without the view. */
export const VIEW_WAIT_MS = 15_000;
/** Bursts held at most; past it the second oldest goes, since the first is the one the hold is for. */
export const MAX_HELD = 32;

export interface HeldDeps<B> {
  /** What of a burst still waits for an answer (undefined: nothing): answered or dismissed meanwhile, it is not given. */
  still(burst: B): B | undefined;
  /** The view did not come in time: `dropped` bursts were let go. */
  expired(dropped: number): void;
}

export class HeldUntilReady<B> {
  private held: B[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly deps: HeldDeps<B>,
    private readonly waitMs = VIEW_WAIT_MS,
    private readonly max = MAX_HELD,
  ) {}

  get count(): number {
    return this.held.length;
  }

  hold(burst: B): void {
    this.held.push(burst);
    if (this.held.length > this.max) this.held.splice(1, 1);
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      const dropped = this.held.length;
      this.held = [];
      this.deps.expired(dropped);
    }, this.waitMs);
  }

  /** The view is ready: what still waits, oldest first, to be given now. */
  release(): B[] {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const held = this.held;
    this.held = [];
    const given: B[] = [];
    for (const burst of held) {
      const still = this.deps.still(burst);
      if (still !== undefined) given.push(still);
    }
    return given;
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.held = [];
  }
}
