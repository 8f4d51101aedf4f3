// An Inbox that says when it has been handed a number of events (applied or
// dropped as duplicates: the client hands it every event it takes), and when
// one event was first applied, so a benchmark stops its clock on the event
// itself rather than on a poll.
import type { AepEvent } from '../src/aep/envelope';
import { Inbox, type ApplyOutcome } from '../src/inbox/inbox';
import { now } from './support';

export class CountingInbox extends Inbox {
  handed = 0;
  private waiter: { expected: number; resolve: () => void } | undefined;
  private readonly watched = new Map<string, number | undefined>();

  override apply(event: AepEvent): ApplyOutcome {
    const outcome = super.apply(event);
    if (this.watched.size > 0 && outcome.applied && this.watched.has(event.id) && this.watched.get(event.id) === undefined) this.watched.set(event.id, now());
    if (++this.handed === this.waiter?.expected) this.waiter.resolve();
    return outcome;
  }

  /** Resolves once `expected` events in all have been handed to the inbox. */
  whenHanded(expected: number): Promise<void> {
    return new Promise((resolve) => {
      if (this.handed >= expected) resolve();
      else this.waiter = { expected, resolve };
    });
  }

  /** Notes the `now()` at which the event with this id is first applied. */
  watch(id: string): void {
    this.watched.set(id, undefined);
  }

  appliedAt(id: string): number | undefined {
    return this.watched.get(id);
  }
}
