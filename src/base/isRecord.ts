/** An object that is not an array (nor null): what a JSON object, or a message's, is once parsed. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
