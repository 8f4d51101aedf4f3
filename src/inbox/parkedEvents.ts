import { epochOf, type AepEvent } from '../aep/envelope';
import type { AttentionItem } from './attentionItem';

/**
 * Lifecycle events that arrived before their request, addressed by session
 * string and subject (request id), with the bytes and events they hold kept
 * current through `set`, `delete` and `append`, so the inbox's memory budget
 * needs no scan. The lists are replaced, never changed in place, except
 * through `append`.
 */
export class ParkedEvents extends Map<string, AepEvent[]> {
  private heldBytes = 0;
  private heldCount = 0;

  constructor(private readonly sizeOf: (event: AepEvent) => number) {
    super();
  }

  get bytes(): number {
    return this.heldBytes;
  }

  /** Events parked, across every key. */
  get count(): number {
    return this.heldCount;
  }

  override set(key: string, events: AepEvent[]): this {
    const before = super.get(key);
    this.heldBytes += this.total(events) - this.total(before);
    this.heldCount += events.length - (before?.length ?? 0);
    return super.set(key, events);
  }

  override delete(key: string): boolean {
    const before = super.get(key);
    this.heldBytes -= this.total(before);
    this.heldCount -= before?.length ?? 0;
    return super.delete(key);
  }

  override clear(): void {
    this.heldBytes = 0;
    this.heldCount = 0;
    super.clear();
  }

  append(key: string, event: AepEvent): void {
    const list = super.get(key);
    if (!list) {
      this.set(key, [event]);
      return;
    }
    list.push(event);
    this.heldBytes += this.sizeOf(event);
    this.heldCount++;
  }

  /** Parks an event for the request `subject` of a session string; past `max` events the longest-waiting go first. */
  park(session: string, subject: string, event: AepEvent, max: number): void {
    this.append(parkKey(session, subject), event);
    while (this.heldCount > max && this.dropOldest() > 0);
  }

  /** Forgets the longest-waiting key's parked events; returns how many. */
  dropOldest(): number {
    const oldestKey = this.keys().next().value;
    if (oldestKey === undefined) return 0;
    const dropped = this.get(oldestKey)?.length ?? 0;
    this.delete(oldestKey);
    return dropped;
  }

  /**
   * Takes what waited for this request. Parked events were addressed by
   * session string and subject only. The ones the request's own emitter sent
   * (and any consumer's `attention.routed`) are `mine`, in session order so
   * `answered` precedes `resolved` whatever the arrival order. A sequenced one
   * from another source may be waiting for that source's own request of the
   * same id (session names are emitter-scoped) and stays parked; a seq-less one
   * from another source claims this request and is returned as `spoofed`.
   */
  takeFor(item: Pick<AttentionItem, 'session' | 'requestId' | 'source'>): { mine: AepEvent[]; spoofed: AepEvent[] } {
    const key = parkKey(item.session, item.requestId);
    const waiting = this.get(key);
    if (!waiting) return { mine: [], spoofed: [] };
    const belongs = (event: AepEvent) => event.source === item.source || event.type === 'attention.routed';
    const mine = waiting.filter(belongs);
    const spoofed = waiting.filter((event) => !belongs(event) && event.seq === undefined);
    const others = waiting.filter((event) => !belongs(event) && event.seq !== undefined);
    if (others.length > 0) this.set(key, others);
    else this.delete(key);
    mine.sort((a, b) => epochOf(a) - epochOf(b) || (a.seq ?? -1) - (b.seq ?? -1));
    return { mine, spoofed };
  }

  private total(events: readonly AepEvent[] | undefined): number {
    let bytes = 0;
    for (const event of events ?? []) bytes += this.sizeOf(event);
    return bytes;
  }
}

function parkKey(session: string, subject: string): string {
  return `${session}\u0000${subject}`;
}
