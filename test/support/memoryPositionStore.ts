import { RecentPositions, type KeptPosition, type PositionStore } from '../../src/client/positionStore';

/** Resume positions kept in memory, bounded as the product's store bounds them (the extension persists them per workspace). */
export class MemoryPositionStore implements PositionStore {
  private readonly positions: RecentPositions;

  constructor(initial: readonly KeptPosition[] = []) {
    this.positions = new RecentPositions(initial);
  }

  load(): readonly KeptPosition[] {
    return this.positions.list();
  }

  record(position: KeptPosition): void {
    this.positions.record(position);
  }

  forget(source: string, session: string): void {
    this.positions.forget(source, session);
  }
}
