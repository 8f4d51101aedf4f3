/**
 * The two total orders of AEP-0001 §8: capture (how much content an event may
 * carry) and severity. Consumers apply the defaults (`metadata`, `info`) when
 * the attribute is absent.
 */
export const CAPTURE_LEVELS = ['none', 'metadata', 'redacted', 'full'] as const;
export type CaptureLevel = (typeof CAPTURE_LEVELS)[number];
export const DEFAULT_CAPTURE: CaptureLevel = 'metadata';

export const SEVERITIES = ['debug', 'info', 'notice', 'warning', 'error', 'critical'] as const;
export type Severity = (typeof SEVERITIES)[number];
export const DEFAULT_SEVERITY: Severity = 'info';

export function captureRank(level: CaptureLevel): number {
  return CAPTURE_LEVELS.indexOf(level);
}

export function severityRank(level: Severity): number {
  return SEVERITIES.indexOf(level);
}

/** What content at `level` may show under the person's capture ceiling: the lower of the two (no ceiling: `level`). */
export function underCeiling(level: CaptureLevel, ceiling: CaptureLevel | undefined): CaptureLevel {
  return ceiling !== undefined && captureRank(ceiling) < captureRank(level) ? ceiling : level;
}

/** True when `level` carries at least as much content as `floor`. */
export function captureAtLeast(level: CaptureLevel, floor: CaptureLevel): boolean {
  return captureRank(level) >= captureRank(floor);
}
