import { sessionKey } from '../aep/envelope';
import type { ResumePosition } from '../aep/frames';
import type { SavedApplied } from '../inbox/appliedPositions';

/**
 * Where one emitter's session stood: a session's identity is `(source,
 * session)` (AEP-0001 §5.2), so two emitters using one session string keep
 * a position each. `source` is absent only on positions saved before it was
 * kept (a bare session string): those still feed `from` but claim no emitter.
 */
export interface KeptPosition extends ResumePosition {
  source?: string;
  /**
   * Which positions up to here its window applied (Inbox.positionOf). Absent
   * on positions saved before it was kept: everything up to the position
   * counts as applied then.
   */
  applied?: SavedApplied;
}

/** The key a kept position is stored under: `(source, session)`, or the bare session for a position saved without its source. */
export function keptKey(source: string | undefined, session: string): string {
  return source === undefined ? `\u0000${session}` : sessionKey(source, session);
}

/**
 * Where resume positions survive a restart of the client (AEP-0003 §7). The
 * VS Code layer persists them per workspace (debounced); tests keep them in
 * memory. `record` is called after every applied event that moved a
 * session's resume point, so it must be cheap.
 */
export interface PositionStore {
  /** The kept positions, least recently advanced first (the last ones matter most when not all can be sent). */
  load(): readonly KeptPosition[];
  record(position: KeptPosition): void;
  /** The emitter's session ended or the inbox forgot it: resuming it can bring nothing worth a `from` entry. */
  forget?(source: string, session: string): void;
}

/** Positions kept across a reload: the most recently advanced sessions beyond this are dropped. */
export const MAX_KEPT_POSITIONS = 1_000;
/**
 * ...and at most this many characters of them as JSON (a session string may
 * be 1 024 characters, EVENT_BOUNDS.envelopeString), since `workspaceState`
 * is rewritten whole on every save.
 */
export const MAX_KEPT_POSITION_CHARS = 128 * 1024;

/** Characters one position costs as JSON: `{"source":…,"session":…,"epoch":…,"seq":…}` plus its comma. */
function charsOf(position: KeptPosition): number {
  const source = position.source === undefined ? 0 : JSON.stringify(position.source).length + 10;
  return source + JSON.stringify(position.session).length + String(position.epoch).length + String(position.seq).length + 30 + appliedChars(position.applied);
}

/** Characters of `"applied":{"floor":…,"runs":[…],"requests":[…],"requestFloor":…}`, counted without building the JSON (bounded lists). */
function appliedChars(applied: SavedApplied | undefined): number {
  if (applied === undefined) return 0;
  let chars = 22;
  if (applied.floor) chars += 28 + String(applied.floor.epoch).length + String(applied.floor.seq).length;
  for (const [epoch, first, last] of applied.runs) chars += String(epoch).length + String(first).length + String(last).length + 5;
  if (applied.requests) chars += 12;
  for (const [epoch, seq] of applied.requests ?? []) chars += String(epoch).length + String(seq).length + 4;
  if (applied.requestFloor) chars += 35 + String(applied.requestFloor.epoch).length + String(applied.requestFloor.seq).length;
  return chars;
}

/**
 * Resume positions in order of their last advance, bounded by count and by
 * size: recording moves a session to the newest end, and past either bound
 * the least recently advanced go. Every operation is O(1) amortised.
 */
export class RecentPositions {
  private readonly positions = new Map<string, { position: KeptPosition; chars: number }>();
  private chars = 0;

  constructor(
    initial: readonly KeptPosition[] = [],
    private readonly maxCount = MAX_KEPT_POSITIONS,
    private readonly maxChars = MAX_KEPT_POSITION_CHARS,
  ) {
    for (const position of initial) this.record(position);
  }

  get size(): number {
    return this.positions.size;
  }

  record(position: KeptPosition): void {
    const key = keptKey(position.source, position.session);
    this.drop(key);
    const chars = charsOf(position);
    this.positions.set(key, { position, chars });
    this.chars += chars;
    while (this.positions.size > this.maxCount || (this.chars > this.maxChars && this.positions.size > 1)) {
      const oldest = this.positions.keys().next().value;
      if (oldest === undefined) break;
      this.drop(oldest);
    }
  }

  /**
   * Forgets the emitter's position in `session`, and the one saved without a
   * source for that session string: that one most likely stood for the same
   * emitter (as the bare-name format forgot it), and one the hub no longer
   * holds would be reported as a gap on every resume.
   */
  forget(source: string, session: string): void {
    this.drop(keptKey(source, session));
    this.drop(keptKey(undefined, session));
  }

  /** Least recently advanced first. */
  list(): KeptPosition[] {
    return [...this.positions.values()].map((entry) => entry.position);
  }

  private drop(key: string): void {
    const known = this.positions.get(key);
    if (!known) return;
    this.positions.delete(key);
    this.chars -= known.chars;
  }
}
