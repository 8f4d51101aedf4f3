import type { AepEvent } from '../envelope';

/**
 * Lifecycle events waiting for their request, by key, with the bytes they
 * hold kept current through `set`, `delete` and `append`, so the inbox's
 * memory budget needs no scan. The lists are replaced, never changed in
 * place, except through `append`.
 */
export class ParkedEvents extends Map<string, AepEvent[]> {
  private heldBytes = 0;

  constructor(private readonly sizeOf: (event: AepEvent) => number) {
    super();
  }

  get bytes(): number {
    return this.heldBytes;
  }

  override set(key: string, events: AepEvent[]): this {
    this.heldBytes += this.total(events) - this.total(super.get(key));
    return super.set(key, events);
  }

  override delete(key: string): boolean {
    this.heldBytes -= this.total(super.get(key));
    return super.delete(key);
  }

  override clear(): void {
    this.heldBytes = 0;
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
  }

  private total(events: readonly AepEvent[] | undefined): number {
    let bytes = 0;
    for (const event of events ?? []) bytes += this.sizeOf(event);
    return bytes;
  }
}
