// The oversize events of the hostile corpus (test/fixtures/hostile/oversize-events.json),
// expanded to the wire text a hub would send. Generators stand for sizes no
// repository should store; see the file's $comment for their grammar.
import { hostileJson } from './hostileCorpus';

export interface OversizeEvent {
  name: string;
  expect: 'kept' | 'unshowable' | 'refused';
  /** For `refused`: what the refusal's words match. */
  problem?: RegExp;
  /** The event as JSON text, generators expanded; `__proto__` keys kept as written. */
  text: string;
}

interface RawEntry {
  name: string;
  expect: 'kept' | 'unshowable' | 'refused';
  problem?: string;
  event: unknown;
}

/** Every entry, largest text first. */
export function oversizeEvents(): OversizeEvent[] {
  const file = hostileJson<{ entries: RawEntry[] }>('oversize-events.json');
  return file.entries
    .map((entry) => ({
      name: entry.name,
      expect: entry.expect,
      ...(entry.problem !== undefined ? { problem: new RegExp(entry.problem) } : {}),
      text: expand(entry.event, 0),
    }))
    .sort((a, b) => b.text.length - a.text.length);
}

function expand(node: unknown, index: number): string {
  if (typeof node === 'string') return JSON.stringify(node.replaceAll('{i}', String(index)));
  if (Array.isArray(node)) return `[${node.map((item) => expand(item, index)).join(',')}]`;
  if (typeof node !== 'object' || node === null) return JSON.stringify(node);
  const record = node as Record<string, unknown>;
  if (typeof record['$repeat'] === 'string' && typeof record['times'] === 'number') {
    const prefix = typeof record['prefix'] === 'string' ? record['prefix'] : '';
    const suffix = typeof record['suffix'] === 'string' ? record['suffix'] : '';
    return JSON.stringify(`${prefix}${record['$repeat'].repeat(record['times'])}${suffix}`);
  }
  if (typeof record['$items'] === 'number') {
    return `[${Array.from({ length: record['$items'] }, (_, i) => expand(record['of'], i)).join(',')}]`;
  }
  if (typeof record['$expandKeys'] === 'number') {
    return `{${Array.from({ length: record['$expandKeys'] }, (_, i) => `"k${i}":${expand(record['of'], i)}`).join(',')}}`;
  }
  // Object.keys lists an own `__proto__` (JSON.parse makes one), so it is written back out.
  return `{${Object.keys(record).map((key) => `${JSON.stringify(key)}:${expand(record[key], index)}`).join(',')}}`;
}
