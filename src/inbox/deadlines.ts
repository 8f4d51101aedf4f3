import type { AttentionItem } from './attentionItem';

/**
 * Open requests whose `expires_at` has passed by this computer's clock, each
 * reported once. Reporting closes nothing (AEP-0002 §7 rule 2, see
 * AttentionStatus): the UI only says the deadline has passed.
 */
export class DeadlineNotes {
  private readonly noted = new WeakSet<AttentionItem>();

  /** The open requests past their deadline at `now` that were not reported before. */
  newlyPassed(open: Iterable<AttentionItem>, now: number): AttentionItem[] {
    const passed: AttentionItem[] = [];
    for (const item of open) {
      const expiresAt = item.request?.expiresAt;
      if (expiresAt === undefined || expiresAt > now || this.noted.has(item)) continue;
      this.noted.add(item);
      passed.push(item);
    }
    return passed;
  }
}
