import { comparePositions, type Position } from './position';

/** Consecutive applied positions of one epoch: `[epoch, first seq, last seq]`. */
export type AppliedRun = [epoch: number, first: number, last: number];

/** The position of an applied `attention.requested`: `[epoch, seq]`. */
export type AppliedRequest = [epoch: number, seq: number];

/**
 * What an emitter's session has applied, as it is saved across a reload:
 * each run above `floor`, and under it every position but requests. `floor`
 * stands for positions whose exact runs were let go to stay within a bound:
 * they count as applied, except a request, which counts only when listed in
 * `requests` or at or below `requestFloor` (the same bound, for requests, far
 * deeper since requests are a few of a session's events). A save without
 * `requests` (an earlier version) holds every request under its floor.
 */
export interface SavedApplied {
  floor?: Position;
  runs: AppliedRun[];
  requests?: AppliedRequest[];
  requestFloor?: Position;
}

/** Runs kept per session in memory; beyond, the oldest are folded into the floor. */
export const MAX_APPLIED_RUNS = 256;
/** Runs saved per session for a reload: gaps under them are few in a session that delivers in order. */
export const MAX_SAVED_RUNS = 32;
/**
 * Requests listed per session in memory, and as saved, under the floor. A
 * session delivered through the subscription's type filter has gaps at every
 * event the filter leaves out, so its runs fold into the floor quickly; its
 * requests are what a position held back wrongly would lose (never shown),
 * so they are listed apart, much further down.
 */
export const MAX_APPLIED_REQUESTS = 256;
export const MAX_SAVED_REQUESTS = 64;

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
  /** Requests applied, sorted, all above `requestFloor` (those above the floor are in the runs too). */
  private requests: Position[] = [];
  /** Requests at or below it count as applied: where the request list was cut. Never above the floor. */
  private requestFloor: Position | undefined;

  constructor(
    saved?: SavedApplied,
    private readonly maxRuns = MAX_APPLIED_RUNS,
    private readonly maxRequests = MAX_APPLIED_REQUESTS,
  ) {
    if (saved) this.absorb(saved);
  }

  /** Adds every position `saved` holds (an earlier window's, into a session already tracked here). */
  absorb(saved: SavedApplied): void {
    if (saved.floor && (!this.floor || comparePositions(saved.floor, this.floor) > 0)) this.floor = { ...saved.floor };
    // A save that lists no requests held every request under its floor.
    const requestFloor = saved.requests === undefined ? saved.floor : saved.requestFloor;
    if (requestFloor) this.raiseRequestFloor(requestFloor);
    for (const [epoch, seq] of saved.requests ?? []) this.addRequest({ epoch, seq });
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
    return this.inRuns(position);
  }

  /**
   * Whether a request at `position` was applied: under the floor only a
   * request listed, or under the request floor, was; anything else there is
   * one this session never delivered as a request (a gap since filled, a
   * filter since widened, one a snapshot left out).
   */
  hasRequest(position: Position): boolean {
    if (!this.floor || comparePositions(position, this.floor) > 0) return this.inRuns(position);
    if (this.requestFloor && comparePositions(position, this.requestFloor) <= 0) return true;
    return this.requestIndex(position) >= 0;
  }

  /** Whether `position` is held only by the floor: not known exactly as applied or not. */
  underFloor(position: Position): boolean {
    return this.floor !== undefined && comparePositions(position, this.floor) <= 0 && !this.inRuns(position);
  }

  /** Adds one position (`request`: of an `attention.requested`); false when it was applied already. */
  add(position: Position, request = false): boolean {
    if (request ? this.hasRequest(position) : this.has(position)) return false;
    if (request) this.addRequest(position);
    if (!this.has(position)) this.addRun(position.epoch, position.seq, position.seq);
    return true;
  }

  /**
   * Takes one position out, so that it is applied again when it arrives: an
   * open request a reload will not restore. Under the floor only a listed
   * request can be taken out; under the request floor nothing can, and it
   * stays: false then.
   */
  remove(position: Position): boolean {
    const listed = this.requestIndex(position);
    if (listed >= 0) this.requests.splice(listed, 1);
    if (this.floor && comparePositions(position, this.floor) <= 0) {
      return !this.requestFloor || comparePositions(position, this.requestFloor) > 0;
    }
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

  /**
   * For saving: at most `max` runs, the oldest folded into the floor, and at
   * most `maxRequests` requests under it, less those `open` says are open (a
   * reload restores an open request or, left out of its snapshot, must let the
   * replay bring it back): the list holds back the closed ones.
   */
  saved(max = MAX_SAVED_RUNS, maxRequests = MAX_SAVED_REQUESTS, open: (request: Position) => boolean = () => false): SavedApplied {
    const cut = Math.max(0, this.runs.length - max);
    const below = this.runs[cut - 1];
    const floor = below ? { epoch: below[0], seq: below[2] } : this.floor;
    const runs = this.runs.slice(cut).map(([epoch, first, last]): AppliedRun => [epoch, first, last]);
    if (!floor) return { runs };
    const under = this.requests.filter((request) => comparePositions(request, floor) <= 0 && !open(request));
    const dropped = under[under.length - maxRequests - 1];
    const requestFloor = dropped && (!this.requestFloor || comparePositions(dropped, this.requestFloor) > 0) ? dropped : this.requestFloor;
    const requests = under.slice(Math.max(0, under.length - maxRequests)).map(({ epoch, seq }): AppliedRequest => [epoch, seq]);
    return { floor: { ...floor }, runs, requests, ...(requestFloor ? { requestFloor: { ...requestFloor } } : {}) };
  }

  private inRuns(position: Position): boolean {
    const index = this.firstAfter(position);
    const run = this.runs[index - 1];
    return run !== undefined && run[0] === position.epoch && position.seq >= run[1] && position.seq <= run[2];
  }

  /** Index of `position` in the request list, or -1. */
  private requestIndex(position: Position): number {
    const index = this.requestsAfter(position) - 1;
    const found = this.requests[index];
    return found && comparePositions(found, position) === 0 ? index : -1;
  }

  /** Index of the first listed request after `position` (binary search; most land at the end). */
  private requestsAfter(position: Position): number {
    let low = 0;
    let high = this.requests.length;
    const last = this.requests[high - 1];
    if (last === undefined || comparePositions(last, position) <= 0) return high;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const found = this.requests[mid];
      if (found && comparePositions(found, position) <= 0) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  private addRequest(position: Position): void {
    if (this.requestFloor && comparePositions(position, this.requestFloor) <= 0) return;
    const index = this.requestsAfter(position);
    const before = this.requests[index - 1];
    if (before && comparePositions(before, position) === 0) return;
    this.requests.splice(index, 0, { epoch: position.epoch, seq: position.seq });
    while (this.requests.length > this.maxRequests) {
      const oldest = this.requests.shift();
      if (oldest) this.raiseRequestFloor(oldest);
    }
  }

  private raiseRequestFloor(position: Position): void {
    if (this.requestFloor && comparePositions(position, this.requestFloor) <= 0) return;
    this.requestFloor = { epoch: position.epoch, seq: position.seq };
    const kept = this.requests.findIndex((request) => comparePositions(request, position) > 0);
    // Raised to the request just shifted out (addRequest, once the list is full), nothing listed is under it: no copy of the list.
    if (kept > 0) this.requests = this.requests.slice(kept);
    else if (kept < 0) this.requests = [];
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
