import { comparePositions, type Position } from './position';

/** Consecutive applied positions of one epoch: `[epoch, first seq, last seq]`. */
export type AppliedRun = [epoch: number, first: number, last: number];

/**
 * What an emitter's session has applied, as it is saved across a reload:
 * every position at or below `floor`, and each run above it. `floor` stands
 * for positions whose exact runs were let go to stay within a bound: they
 * count as applied, as a high-water mark would have them.
 */
export interface SavedApplied {
  floor?: Position;
  runs: AppliedRun[];
}

/** Runs kept per session in memory; beyond, the oldest are folded into the floor. */
export const MAX_APPLIED_RUNS = 256;
/** Runs saved per session for a reload: gaps under them are few in a session that delivers in order. */
export const MAX_SAVED_RUNS = 32;

/**
 * The positions one emitter's session has applied (AEP-0001 §7.2), as runs.
 * A replay brings a session in order, so a session delivered without gaps is
 * one run however long it is: a full duplicate replay is recognised by
 * position whatever the `(source, id)` window still holds, and after a reload
 * what the earlier window never applied (a gap, a filter since widened) is
 * told apart from what it did. A gap left open past the run bound becomes
 * part of the floor: only then is something never applied held back.
 */
export class AppliedPositions {
  private floor: Position | undefined;
  /** Sorted, disjoint, never adjacent within one epoch, all above the floor. */
  private runs: Array<[number, number, number]> = [];

  constructor(
    saved?: SavedApplied,
    private readonly maxRuns = MAX_APPLIED_RUNS,
  ) {
    if (saved) this.absorb(saved);
  }

  /** Adds every position `saved` holds (an earlier window's, into a session already tracked here). */
  absorb(saved: SavedApplied): void {
    if (saved.floor && (!this.floor || comparePositions(saved.floor, this.floor) > 0)) this.floor = { ...saved.floor };
    // Read back sorted and merged, so a save from another version cannot break the invariant.
    const all = [...this.runs, ...saved.runs.filter(([, first, last]) => first <= last)].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    this.runs = [];
    for (const [epoch, first, last] of all) {
      const previous = this.runs[this.runs.length - 1];
      if (previous && previous[0] === epoch && previous[2] + 1 >= first) previous[2] = Math.max(previous[2], last);
      else this.addRun(epoch, first, last);
    }
  }

  /** The highest applied position. */
  get highest(): Position | undefined {
    const last = this.runs[this.runs.length - 1];
    return last ? { epoch: last[0], seq: last[2] } : this.floor;
  }

  get runCount(): number {
    return this.runs.length;
  }

  has(position: Position): boolean {
    if (this.floor && comparePositions(position, this.floor) <= 0) return true;
    const index = this.firstAfter(position);
    const run = this.runs[index - 1];
    return run !== undefined && run[0] === position.epoch && position.seq >= run[1] && position.seq <= run[2];
  }

  /** Adds one position; false when it was applied already. */
  add(position: Position): boolean {
    if (this.has(position)) return false;
    this.addRun(position.epoch, position.seq, position.seq);
    return true;
  }

  /**
   * Takes one position out, so that it is applied again when it arrives: an
   * open request a reload will not restore. Under the floor it cannot be told
   * apart and stays; false then.
   */
  remove(position: Position): boolean {
    if (this.floor && comparePositions(position, this.floor) <= 0) return false;
    const index = this.firstAfter(position) - 1;
    const run = this.runs[index];
    if (!run || run[0] !== position.epoch || position.seq < run[1] || position.seq > run[2]) return true;
    const [epoch, first, last] = run;
    const parts: Array<[number, number, number]> = [];
    if (first < position.seq) parts.push([epoch, first, position.seq - 1]);
    if (position.seq < last) parts.push([epoch, position.seq + 1, last]);
    this.runs.splice(index, 1, ...parts);
    return true;
  }

  /** For saving: at most `max` runs, the oldest folded into the floor. */
  saved(max = MAX_SAVED_RUNS): SavedApplied {
    const cut = Math.max(0, this.runs.length - max);
    const below = this.runs[cut - 1];
    const floor = below ? { epoch: below[0], seq: below[2] } : this.floor;
    const runs = this.runs.slice(cut).map(([epoch, first, last]): AppliedRun => [epoch, first, last]);
    return floor ? { floor: { ...floor }, runs } : { runs };
  }

  /** Inserts `[first, last]` of `epoch`, none of it applied yet, merging neighbours. */
  private addRun(epoch: number, first: number, last: number): void {
    if (this.floor && comparePositions({ epoch, seq: last }, this.floor) <= 0) return;
    if (this.floor && this.floor.epoch === epoch && first <= this.floor.seq) first = this.floor.seq + 1;
    const index = this.firstAfter({ epoch, seq: first });
    const before = this.runs[index - 1];
    const after = this.runs[index];
    const joinsBefore = before !== undefined && before[0] === epoch && before[2] + 1 >= first;
    const joinsAfter = after !== undefined && after[0] === epoch && last + 1 >= after[1];
    if (joinsBefore && joinsAfter) {
      before[2] = Math.max(after[2], last);
      this.runs.splice(index, 1);
    } else if (joinsBefore) before[2] = Math.max(before[2], last);
    else if (joinsAfter) after[1] = Math.min(after[1], first);
    else this.runs.splice(index, 0, [epoch, first, last]);
    while (this.runs.length > this.maxRuns) {
      const oldest = this.runs.shift();
      if (oldest) this.floor = { epoch: oldest[0], seq: oldest[2] };
    }
  }

  /** Index of the first run that starts after `position` (binary search; most adds land at the end). */
  private firstAfter(position: Position): number {
    let low = 0;
    let high = this.runs.length;
    const last = this.runs[high - 1];
    if (last === undefined || comparePositions({ epoch: last[0], seq: last[1] }, position) <= 0) return high;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const run = this.runs[mid];
      if (run && comparePositions({ epoch: run[0], seq: run[1] }, position) <= 0) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}
