/**
 * A set that remembers at most `capacity` keys, forgetting the oldest first.
 * Used for `(source, id)` dedupe so memory stays bounded however long the
 * editor runs; a duplicate older than the window is caught by the lifecycle
 * rules instead (they only move forward).
 *
 * The insertion order lives in a ring of keys: evicting "the oldest entry of
 * a Map" is not O(1) in V8 once many entries were deleted from its front
 * (the iterator walks the holes), which showed up as the top of the profile.
 */
export class BoundedKeySet {
  private readonly keys = new Set<string>();
  /** Grows to `capacity` as keys come (a window of 50 000 kept its whole ring from the first key on), then wraps. */
  private readonly ring: string[] = [];
  private next = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError('capacity must be a positive integer');
  }

  get size(): number {
    return this.keys.size;
  }

  has(key: string): boolean {
    return this.keys.has(key);
  }

  /** Adds the key; returns false when it was already present. */
  add(key: string): boolean {
    if (this.keys.has(key)) return false;
    if (this.ring.length < this.capacity) this.ring.push(key);
    else {
      this.keys.delete(this.ring[this.next]!);
      this.ring[this.next] = key;
      this.next = (this.next + 1) % this.capacity;
    }
    this.keys.add(key);
    return true;
  }
}
