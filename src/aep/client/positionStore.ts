import type { ResumePosition } from '../frames';

/**
 * Where resume positions survive a restart of the client (AEP-0003 §7). The
 * VS Code layer persists them per workspace (debounced); tests keep them in
 * memory. `record` is called after every applied event that moved a
 * session's resume point, so it must be cheap.
 */
export interface PositionStore {
  /** The kept positions, least recently advanced first (the last ones matter most when not all can be sent). */
  load(): readonly ResumePosition[];
  record(position: ResumePosition): void;
  /** The session ended or the inbox forgot it: resuming it can bring nothing worth a `from` entry. */
  forget?(session: string): void;
}

/** Positions kept across a reload: the most recently advanced sessions beyond this are dropped. */
export const MAX_KEPT_POSITIONS = 1_000;
/**
 * ...and at most this many characters of them as JSON (a session string may
 * be 1 024 characters, EVENT_BOUNDS.envelopeString), since `workspaceState`
 * is rewritten whole on every save.
 */
export const MAX_KEPT_POSITION_CHARS = 128 * 1024;

/** Characters one position costs as JSON: `{"session":…,"epoch":…,"seq":…}` plus its comma. */
function charsOf(position: ResumePosition): number {
  return JSON.stringify(position.session).length + String(position.epoch).length + String(position.seq).length + 30;
}

/**
 * Resume positions in order of their last advance, bounded by count and by
 * size: recording moves a session to the newest end, and past either bound
 * the least recently advanced go. Every operation is O(1) amortised.
 */
export class RecentPositions {
  private readonly positions = new Map<string, { position: ResumePosition; chars: number }>();
  private chars = 0;

  constructor(
    initial: readonly ResumePosition[] = [],
    private readonly maxCount = MAX_KEPT_POSITIONS,
    private readonly maxChars = MAX_KEPT_POSITION_CHARS,
  ) {
    for (const position of initial) this.record(position);
  }

  get size(): number {
    return this.positions.size;
  }

  record(position: ResumePosition): void {
    this.forget(position.session);
    const chars = charsOf(position);
    this.positions.set(position.session, { position, chars });
    this.chars += chars;
    while (this.positions.size > this.maxCount || (this.chars > this.maxChars && this.positions.size > 1)) {
      const oldest = this.positions.keys().next().value;
      if (oldest === undefined) break;
      this.forget(oldest);
    }
  }

  forget(session: string): void {
    const known = this.positions.get(session);
    if (!known) return;
    this.positions.delete(session);
    this.chars -= known.chars;
  }

  /** Least recently advanced first. */
  list(): ResumePosition[] {
    return [...this.positions.values()].map((entry) => entry.position);
  }
}
