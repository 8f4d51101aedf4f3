import type { ResumePosition } from '../frames';

/**
 * Where resume positions survive a restart of the client (AEP-0003 §7). The
 * VS Code layer persists them per workspace (debounced); tests keep them in
 * memory. `record` is called after every applied event that moved a
 * session's resume point, so it must be cheap.
 */
export interface PositionStore {
  load(): readonly ResumePosition[];
  record(position: ResumePosition): void;
}

export class MemoryPositionStore implements PositionStore {
  private readonly positions = new Map<string, ResumePosition>();

  constructor(initial: readonly ResumePosition[] = []) {
    for (const position of initial) this.positions.set(position.session, position);
  }

  load(): readonly ResumePosition[] {
    return [...this.positions.values()];
  }

  record(position: ResumePosition): void {
    this.positions.set(position.session, position);
  }
}
