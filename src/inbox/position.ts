/** A place in one session's order (AEP-0001 §7): `(epoch, seq)`, compared lexicographically. */
export interface Position {
  epoch: number;
  seq: number;
}

export function comparePositions(a: Position, b: Position): number {
  return a.epoch - b.epoch || a.seq - b.seq;
}

export function maxPosition(a: Position | undefined, b: Position): Position {
  return a === undefined || comparePositions(b, a) > 0 ? b : a;
}
