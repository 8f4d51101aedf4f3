/** What V8 spends on a value beyond its strings, roughly: a header per object or array, a slot per member. */
const OBJECT_BYTES = 32;
const MEMBER_BYTES = 16;
const SCALAR_BYTES = 8;
const STRING_HEADER_BYTES = 16;

/**
 * An estimate of the heap a JSON value holds: strings at two bytes per UTF-16
 * code unit (the worst case; V8 stores Latin-1 text in one), plus a fixed cost
 * per object, member and scalar. Good enough to keep a budget, not a profiler.
 *
 * The walk is iterative: a hostile event can nest deeper than the stack allows
 * recursion (or `JSON.stringify`) to follow. Shared values are counted each
 * time they are reached, which only overestimates.
 */
export function approximateBytes(root: unknown): number {
  let bytes = 0;
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'string') {
      bytes += STRING_HEADER_BYTES + value.length * 2;
    } else if (Array.isArray(value)) {
      bytes += OBJECT_BYTES + value.length * MEMBER_BYTES;
      for (const item of value) pending.push(item);
    } else if (typeof value === 'object' && value !== null) {
      bytes += OBJECT_BYTES;
      // The keys `Object.keys` lists, without a key array per object: every event the inbox keeps is
      // measured, and those arrays were a tenth of what a flood of events allocated (issue 40).
      for (const key in value) {
        if (!Object.hasOwn(value, key)) continue;
        bytes += MEMBER_BYTES + key.length * 2;
        pending.push((value as Record<string, unknown>)[key]);
      }
    } else {
      bytes += SCALAR_BYTES;
    }
  }
  return bytes;
}

const KIB = 1024;
const MIB = 1024 * 1024;

/**
 * Bytes as a short figure for people, in binary units as memory and frames
 * are counted: a limit exactly ("1 MiB", "64 KiB", "1000 bytes"), an amount
 * held roughly ("12.5 MiB", "52 KiB"). The one home for both, so a limit and
 * what is held against it read in the same unit.
 */
export function describeBytes(bytes: number): string {
  if (bytes > 0 && bytes % MIB === 0) return `${bytes / MIB} MiB`;
  if (bytes > 0 && bytes % KIB === 0) return `${bytes / KIB} KiB`;
  if (bytes < KIB) return `${bytes} bytes`;
  const mib = bytes / MIB;
  if (mib >= 10) return `${Math.round(mib)} MiB`;
  if (mib >= 0.1) return `${mib.toFixed(1)} MiB`;
  return `${Math.round(bytes / KIB)} KiB`;
}
