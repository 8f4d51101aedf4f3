import { RecentPositions, type PositionStore } from '../../src/aep/client/positionStore';
import type { ResumePosition } from '../../src/aep/frames';

/** Resume positions kept in memory, bounded as the product's store bounds them (the extension persists them per workspace). */
export class MemoryPositionStore implements PositionStore {
  private readonly positions: RecentPositions;

  constructor(initial: readonly ResumePosition[] = []) {
    this.positions = new RecentPositions(initial);
  }

  load(): readonly ResumePosition[] {
    return this.positions.list();
  }

  record(position: ResumePosition): void {
    this.positions.record(position);
  }

  forget(session: string): void {
    this.positions.forget(session);
  }
}
