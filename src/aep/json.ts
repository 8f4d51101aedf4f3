/**
 * `JSON.parse` for text from the network. A `__proto__` member is an own
 * property after `JSON.parse`, but copying it (as schema parsers do) would
 * swap the copy's prototype and let a hostile sender plant inherited members
 * such as `kind`. Such members are dropped; the reviver only runs when the
 * text could contain one (spelled out, or hidden behind `\u` escapes), so
 * ordinary frames parse at full speed.
 */
export function parseUntrustedJson(text: string): unknown {
  if (!text.includes('__proto__') && !text.includes('\\u')) return JSON.parse(text);
  return JSON.parse(text, (key, value: unknown) => (key === '__proto__' ? undefined : value));
}
