// How many system notifications reach the person (issue 38 item 6). VS Code
// holds its toasts back past a budget; the system's notification center keeps
// everything it is given, so a flood from one emitter under many agent names
// would push a real request out of sight. Past the minute's budget, bursts are
// held and given together once the next minute opens, as one notification
// ("7 more requests…") that names the newest, so it is never buried; and for
// as long as the flood goes on, one such notification a minute is all it makes.
import { MINUTE_MS } from './noticeClaims';

/** A burst given as it came, or the bursts held back, oldest first, given as one. */
export type Paced<B> = { kind: 'one'; burst: B } | { kind: 'more'; bursts: B[] };

export interface PacingDeps<B> {
  /** Takes one of this minute's notifications (NoticeClaims.claimSlot); false when the budget is spent. */
  take(now: number): Promise<boolean>;
  /** What of a held burst still waits for an answer (undefined: nothing): a request answered meanwhile is not worth a notification. */
  still(burst: B): B | undefined;
  give(alert: Paced<B>): void;
}

export class AlertPacing<B> {
  private held: B[] = [];
  /** Since a burst was held, until a minute passes with none: every burst waits for the next minute's one notification. */
  private flooding = false;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly deps: PacingDeps<B>) {}

  async offer(burst: B): Promise<void> {
    // While some are held, or were the minute before, a newer one joins them: given alone now, it would leave them behind it.
    if (!this.flooding && (await this.deps.take(Date.now()))) {
      this.deps.give({ kind: 'one', burst });
      return;
    }
    this.flooding = true;
    this.held.push(burst);
    this.schedule();
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.held = [];
    this.flooding = false;
  }

  /** At the start of the next minute, when a new budget opens. */
  private schedule(): void {
    if (this.timer) return;
    const now = Date.now();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.release();
    }, MINUTE_MS - (now % MINUTE_MS));
  }

  private stillHeld(): B[] {
    return this.held.flatMap((burst) => {
      const still = this.deps.still(burst);
      return still === undefined ? [] : [still];
    });
  }

  private async release(): Promise<void> {
    this.held = this.stillHeld();
    if (this.held.length === 0) {
      // A quiet minute: the flood is over.
      this.flooding = false;
      return;
    }
    // Held into the next minute whether or not a slot is free now: what arrives meanwhile joins them.
    this.schedule();
    if (!(await this.deps.take(Date.now()))) return;
    // Read again: some may have been answered, and others held, while the slot was taken.
    const bursts = this.stillHeld();
    this.held = [];
    const [only] = bursts;
    if (bursts.length === 1 && only !== undefined) this.deps.give({ kind: 'one', burst: only });
    else if (bursts.length > 1) this.deps.give({ kind: 'more', bursts });
  }
}
