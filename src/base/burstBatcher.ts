/**
 * Batches items that come in bursts. The first item after a quiet spell is
 * delivered `leadMs` later, with whatever arrived in that time; later ones
 * every `windowMs` while they keep coming; a window with nothing in it ends the
 * burst. So the first of a burst goes out almost at once, a flood becomes a
 * few batches rather than one delivery per item, and the short lead still
 * lets a replay's request and its resolution land in the same batch.
 * `quiet` is told when a burst ends.
 */
export class BurstBatcher<T> {
  private readonly queued: T[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly deliver: (batch: T[]) => void,
    private readonly leadMs: number,
    private readonly windowMs: number,
    private readonly quiet?: () => void,
  ) {}

  push(item: T): void {
    this.queued.push(item);
    this.timer ??= setTimeout(() => this.fire(), this.leadMs);
  }

  private fire(): void {
    const batch = this.queued.splice(0);
    if (batch.length === 0) {
      this.timer = undefined;
      this.quiet?.();
      return;
    }
    this.timer = setTimeout(() => this.fire(), this.windowMs);
    this.deliver(batch);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.queued.length = 0;
  }
}
