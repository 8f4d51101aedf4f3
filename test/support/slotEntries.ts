import assert from 'node:assert/strict';
import type { KeyValueStorage } from '../../src/base/storageSlot';

/**
 * The entries a storage slot (src/base/storageSlot.ts) holds under
 * `key`, after checking it is stored in the versioned form; `[]` when the
 * key is empty.
 */
export function slotEntries<T>(storage: KeyValueStorage, key: string, version = 1): T[] {
  const stored = storage.get<unknown>(key, undefined);
  if (stored === undefined) return [];
  assert.ok(typeof stored === 'object' && stored !== null && !Array.isArray(stored), `${key} holds a versioned slot`);
  const { version: saved, entries } = stored as Record<string, unknown>;
  assert.equal(saved, version, `${key} is at version ${version}`);
  assert.ok(Array.isArray(entries), `${key} holds a list of entries`);
  return entries as T[];
}
