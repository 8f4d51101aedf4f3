/**
 * `JSON.parse` for text from the network. A `__proto__` member is an own
 * property after `JSON.parse`, but copying it (as schema parsers do) would
 * swap the copy's prototype and let a hostile sender plant inherited members
 * such as `kind`. Such members are removed after parsing, by an iterative
 * walk (no recursion, so deep nesting cannot exhaust the stack) that runs only
 * when the text could contain one, spelled out or behind `\u` escapes.
 */
export function parseUntrustedJson(text: string): unknown {
  const value: unknown = JSON.parse(text);
  if (text.includes('__proto__') || text.includes('\\u')) dropProtoMembers(value);
  return value;
}

function dropProtoMembers(root: unknown): void {
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value !== 'object' || value === null) continue;
    if (Array.isArray(value)) {
      for (const item of value) pending.push(item);
      continue;
    }
    if (Object.hasOwn(value, '__proto__')) delete (value as Record<string, unknown>)['__proto__'];
    for (const key of Object.keys(value)) pending.push((value as Record<string, unknown>)[key]);
  }
}
