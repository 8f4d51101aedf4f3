/**
 * A set that remembers at most `capacity` keys, forgetting the oldest first.
 * Used for `(source, id)` dedupe so memory stays bounded however long the
 * editor runs; a duplicate older than the window is caught by the lifecycle
 * rules instead (they only move forward).
 */
export class BoundedKeySet {
  // A Map iterates in insertion order, which makes "oldest" O(1) to find.
  private readonly keys = new Map<string, true>();

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
    this.keys.set(key, true);
    if (this.keys.size > this.capacity) {
      const oldest = this.keys.keys().next().value;
      if (oldest !== undefined) this.keys.delete(oldest);
    }
    return true;
  }
}
