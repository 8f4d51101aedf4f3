import type * as z from 'zod/mini';
import { describeError, type Logger } from './logger';
import { describeZodError, parsedOk, parsedProblem, safeParseEnglish, type Parsed } from './result';

/**
 * The part of `vscode.Memento` a slot needs (the protocol core has no vscode
 * import): the editor's `workspaceState`, or test/support/memoryMemento.ts.
 */
export interface KeyValueStorage {
  get<T>(key: string, fallback: T): T;
  update(key: string, value: unknown): PromiseLike<void>;
}

/** What a slot writes: its entries under the version that wrote them, so a later version knows what it reads. */
export interface StoredSlot {
  version: number;
  entries: unknown[];
}

/**
 * How big a slot may grow on disk. `workspaceState` is rewritten whole on
 * every change, so each slot is bounded by count and by characters of JSON.
 *
 * The policy when a list is over: entries are dropped one at a time from
 * the `dropFrom` end (`first` for a list kept oldest first, `last` for one
 * kept newest first), those `dropSooner` picks before any other, until the
 * rest fits. What is dropped is returned to the store, which says what it
 * means in its own log line. An entry that cannot be serialized at all goes
 * alone, logged, and never counts against the others.
 */
export interface SlotCap<T> {
  maxEntries?: number;
  /** Characters of the stored JSON, the `{version, entries}` wrapper included. */
  maxChars?: number;
  dropFrom: 'first' | 'last';
  dropSooner?: (entry: T) => boolean;
}

/**
 * One stored list, described once: where, what one entry looks like, which
 * version this is and how older versions become it.
 */
export interface SlotSpec<T, P = T> {
  key: string;
  /** The whole slot in log lines: "could not save the answer history". */
  label: string;
  /** One entry and many, in log lines: "skipped 2 saved answer history entries". */
  noun: readonly [one: string, many: string];
  /** The version written. Stored versions above it are from a newer build: left untouched. */
  version: number;
  /** One entry as this version stores it; stored data is untrusted (another version, a damaged file). */
  schema: z.ZodMiniType<P>;
  /** What the schema cannot say (fields that must agree, normalising): the entry, or why it is not one. */
  check?: (parsed: P) => Parsed<T>;
  /** The form an entry takes on disk, when it is not the entry itself. */
  stored?: (entry: T) => unknown;
  /**
   * Reads the shape stored before slots were versioned (version 0) as its
   * list of entries; undefined when the value is not that shape.
   */
  legacy?: (raw: unknown) => unknown[] | undefined;
  /**
   * `migrations[n]` turns one entry of version n into one of version n + 1;
   * a version with none kept the shape of the next. One that throws loses
   * that entry alone.
   */
  migrations?: Readonly<Record<number, (entry: unknown) => unknown>>;
  /** Keys no two entries may share: a later entry with one already seen is skipped as unreadable. */
  keys?: (entry: T) => readonly string[];
  cap?: SlotCap<T>;
  /** Names an entry in a log line ("a's request R1 in session s1"); never its content. */
  describe?: (entry: T) => string;
  /** The log line when a write drops entries over the cap; by default a count and the first few `describe`d. */
  droppedLine?: (fit: SlotFit<T>, total: number) => string;
  /** Delay of `schedule`; 0 or absent writes at once. */
  debounceMs?: number;
  /** What `schedule` and `flush` write. */
  source?: () => readonly T[];
  /** Whether entries are measured once until `changed`: for a list whose entries are objects changed only through the store. */
  cacheSizes?: boolean;
}

/** How a stored value was read. */
export type SlotForm = 'empty' | 'current' | 'older' | 'legacy' | 'unreadable' | 'newer' | 'failed';

export interface SlotRead<T> {
  entries: T[];
  form: SlotForm;
  /** Entries stored but not read (unreadable, duplicates): writing back drops them for good. */
  skipped: number;
}

export interface SlotFit<T> {
  kept: T[];
  /** Over the cap, in the order they went. */
  dropped: T[];
  /** Could not be serialized (and are logged). */
  unstorable: T[];
}

const MAX_REASONS_LOGGED = 3;

/**
 * A versioned list in a key-value storage: reading checks every entry on
 * its own (a bad one is skipped with a log line, the rest kept) and brings
 * entries of older versions up to date; writing bounds the list by the cap,
 * at once or after `debounceMs`. A value stored by a newer version is never
 * overwritten: the slot reads it as empty, says so, and from then on writes
 * nothing. Every storage failure is caught and logged, never thrown.
 */
export class StorageSlot<T, P = T> {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;
  private frozen = false;
  private frozenLogged = false;
  private flushing = false;
  private readonly sizes = new WeakMap<object, number>();

  constructor(
    private readonly storage: KeyValueStorage,
    private readonly spec: SlotSpec<T, P>,
    private readonly log: Logger,
  ) {}

  /** A newer version's value is stored here: nothing is written over it. */
  get readOnly(): boolean {
    return this.frozen;
  }

  /** Reads and checks the stored list. */
  read(): SlotRead<T> {
    const { spec } = this;
    let raw: unknown;
    try {
      raw = this.storage.get<unknown>(spec.key, undefined);
    } catch (error) {
      this.log.error(`could not read ${spec.label}: ${describeError(error)}`, { code: 'storage-read-failed', data: { slot: spec.key } });
      return { entries: [], form: 'failed', skipped: 0 };
    }
    if (raw === undefined) return { entries: [], form: 'empty', skipped: 0 };
    // A newer version may change the wrapper too: its number alone says so.
    const version = versionOf(raw) ?? 0;
    let stored: unknown[] | undefined;
    if (isStoredSlot(raw)) {
      stored = raw.entries;
    } else {
      stored = spec.legacy?.(raw);
    }
    if (version > spec.version) {
      this.frozen = true;
      this.log.warn(
        `not reading ${spec.label}: saved by a newer version of the extension (storage version ${version}; this one reads up to ${spec.version}); ` +
          'left as it is, and nothing is saved over it from this window',
        { code: 'storage-newer-version', data: { slot: spec.key, version } },
      );
      return { entries: [], form: 'newer', skipped: 0 };
    }
    if (stored === undefined) {
      this.log.warn(`could not read ${spec.label}: saved in a form this version does not read (${shapeOf(raw)}); starting empty`, { code: 'storage-unreadable', data: { slot: spec.key } });
      return { entries: [], form: 'unreadable', skipped: 0 };
    }
    const entries: T[] = [];
    const reasons: string[] = [];
    const skippedIndices: number[] = [];
    const seen = new Set<string>();
    stored.forEach((value, index) => {
      const read = this.readEntry(value, version);
      if (!read.ok) {
        reasons.push(`entry ${index}: ${read.problem}`);
        skippedIndices.push(index);
        return;
      }
      const entry = read.value;
      const keys = spec.keys?.(entry) ?? [];
      if (keys.some((key) => seen.has(key))) {
        reasons.push(`entry ${index}: a duplicate of an earlier one`);
        skippedIndices.push(index);
        return;
      }
      for (const key of keys) seen.add(key);
      entries.push(entry);
    });
    if (reasons.length > 0) {
      const more = reasons.length > MAX_REASONS_LOGGED ? `; and ${reasons.length - MAX_REASONS_LOGGED} more` : '';
      this.log.warn(
        `skipped ${reasons.length} saved ${spec.noun[reasons.length === 1 ? 0 : 1]} that could not be read, the other ${entries.length} kept ` +
          `(${reasons.slice(0, MAX_REASONS_LOGGED).join('; ')}${more})`,
        { code: 'storage-entries-skipped', data: { slot: spec.key, skipped: reasons.length, kept: entries.length, entries: skippedIndices.join(' ') } },
      );
    }
    const form: SlotForm = isStoredSlot(raw) ? (version === spec.version ? 'current' : 'older') : 'legacy';
    return { entries, form, skipped: reasons.length };
  }

  /** Characters one entry takes on disk; undefined when it cannot be serialized. */
  charsOf(entry: T): number | undefined {
    const cache = this.spec.cacheSizes && typeof entry === 'object' && entry !== null ? (entry as object) : undefined;
    const known = cache && this.sizes.get(cache);
    if (known !== undefined) return known;
    let chars: number | undefined;
    try {
      chars = JSON.stringify(this.toStored(entry))?.length;
    } catch {
      return undefined;
    }
    if (chars === undefined) return undefined;
    if (cache) this.sizes.set(cache, chars);
    return chars;
  }

  /** The entry changed: measured again next time (see `cacheSizes`). */
  changed(entry: T): void {
    if (typeof entry === 'object' && entry !== null) this.sizes.delete(entry);
  }

  /** Whether `count` entries of `chars` characters (their own JSON, without commas or wrapper) are within the cap. */
  fits(count: number, chars: number): boolean {
    const cap = this.spec.cap;
    if (!cap) return true;
    return count <= (cap.maxEntries ?? Infinity) && this.totalChars(count, chars) <= (cap.maxChars ?? Infinity);
  }

  /**
   * The entries the cap keeps, by the policy of `SlotCap`; unserializable ones
   * logged and left out. `quiet`: only asking what a write would keep, nothing logged.
   */
  fit(entries: readonly T[], quiet = false): SlotFit<T> {
    const sizes = entries.map((entry) => this.charsOf(entry));
    const unstorable: T[] = [];
    const live: number[] = [];
    let chars = 0;
    entries.forEach((entry, index) => {
      const size = sizes[index];
      if (size === undefined) {
        unstorable.push(entry);
        if (!quiet) {
          this.log.warn(`not saving ${this.spec.describe?.(entry) ?? `one of ${this.spec.label}`}: it cannot be stored as JSON (${this.serializeError(entry)})`, {
            code: 'storage-entry-unserializable',
            data: { slot: this.spec.key, index },
          });
        }
      } else {
        live.push(index);
        chars += size;
      }
    });
    const dropped = new Set<number>();
    let count = live.length;
    if (!this.fits(count, chars)) {
      const cap = this.spec.cap;
      const fromEnd = cap?.dropFrom === 'last' ? [...live].reverse() : live;
      const sooner = cap?.dropSooner;
      const order = sooner ? [...fromEnd.filter((i) => sooner(entries[i] as T)), ...fromEnd.filter((i) => !sooner(entries[i] as T))] : fromEnd;
      for (const index of order) {
        if (this.fits(count, chars)) break;
        dropped.add(index);
        count--;
        chars -= sizes[index] ?? 0;
      }
    }
    const kept = live.filter((index) => !dropped.has(index)).map((index) => entries[index] as T);
    return { kept, dropped: [...dropped].map((index) => entries[index] as T), unstorable };
  }

  /** Writes `entries` now, bounded by the cap (a pending `schedule` is written by this too). */
  write(entries: readonly T[]): SlotFit<T> {
    this.cancel();
    const fit = this.fit(entries);
    if (fit.dropped.length > 0) {
      this.log.warn(this.spec.droppedLine?.(fit, entries.length) ?? this.defaultDroppedLine(fit, entries.length), {
        code: 'storage-trimmed',
        data: { slot: this.spec.key, kept: fit.kept.length, dropped: fit.dropped.length, total: entries.length },
      });
    }
    this.put({ version: this.spec.version, entries: fit.kept.map((entry) => this.toStored(entry)) });
    return fit;
  }

  /** Removes the slot from storage now. */
  clear(): void {
    this.cancel();
    this.put(undefined);
  }

  /** Writes `source` after `debounceMs` (at once when there is no delay, or after `dispose`). */
  schedule(): void {
    if (this.disposed || !this.spec.debounceMs) {
      this.flush();
      return;
    }
    if (this.timer) return;
    this.timer = setTimeout(() => this.flush(), this.spec.debounceMs);
  }

  get pending(): boolean {
    return this.timer !== undefined;
  }

  /** Writes what `source` gives, now; a pending `schedule` is done by it. */
  flush(): SlotFit<T> | undefined {
    // A source that changes the list (and so schedules again) is written by this flush.
    if (this.flushing) return undefined;
    const source = this.spec.source;
    if (!source) return undefined;
    this.flushing = true;
    let entries: readonly T[];
    try {
      entries = source();
    } catch (error) {
      this.cancel();
      this.log.error(`could not gather ${this.spec.label} to save: ${describeError(error)}`, { code: 'storage-gather-failed', data: { slot: this.spec.key } });
      return undefined;
    } finally {
      this.flushing = false;
    }
    return this.write(entries);
  }

  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Writes what is pending; from now on `schedule` writes at once. */
  dispose(): void {
    if (this.timer) this.flush();
    this.disposed = true;
  }

  private readEntry(value: unknown, version: number): Parsed<T> {
    let current = value;
    for (let from = version; from < this.spec.version; from++) {
      const migrate = this.spec.migrations?.[from];
      if (!migrate) continue;
      try {
        current = migrate(current);
      } catch (error) {
        return parsedProblem(`could not be brought from version ${from} to ${from + 1} (${describeError(error)})`);
      }
    }
    const parsed = safeParseEnglish(this.spec.schema, current);
    if (!parsed.success) return parsedProblem(describeZodError(parsed.error, 1));
    // Without a check the schema's output is the entry (P defaults to T).
    return this.spec.check ? this.spec.check(parsed.data) : parsedOk(parsed.data as unknown as T);
  }

  private toStored(entry: T): unknown {
    return this.spec.stored ? this.spec.stored(entry) : entry;
  }

  private defaultDroppedLine(fit: SlotFit<T>, total: number): string {
    const { spec } = this;
    const named = spec.describe ? fit.dropped.slice(0, MAX_REASONS_LOGGED).map(spec.describe).join(', ') : '';
    const more = spec.describe && fit.dropped.length > MAX_REASONS_LOGGED ? ` and ${fit.dropped.length - MAX_REASONS_LOGGED} more` : '';
    return (
      `saved ${fit.kept.length} of ${total} ${spec.noun[1]}: ${fit.dropped.length} did not fit in ${capWords(spec.cap)}` +
      (named ? ` (${named}${more})` : '')
    );
  }

  private totalChars(count: number, chars: number): number {
    return `{"version":${this.spec.version},"entries":[]}`.length + chars + Math.max(0, count - 1);
  }

  private serializeError(entry: T): string {
    try {
      JSON.stringify(this.toStored(entry));
      return 'it serializes to nothing';
    } catch (error) {
      return describeError(error);
    }
  }

  private put(value: StoredSlot | undefined): void {
    if (this.frozen) {
      if (!this.frozenLogged) this.log.info(`not saving ${this.spec.label}: a newer version's is stored there, and is kept`, { code: 'storage-newer-kept', data: { slot: this.spec.key } });
      this.frozenLogged = true;
      return;
    }
    const failed = (error: unknown) => this.log.error(`could not save ${this.spec.label}: ${describeError(error)}`, { code: 'storage-write-failed', data: { slot: this.spec.key } });
    try {
      Promise.resolve(this.storage.update(this.spec.key, value)).catch(failed);
    } catch (error) {
      failed(error);
    }
  }
}

/** The cap in words for a log line: "20 KB or 1000 entries". */
export function capWords(cap: { maxChars?: number; maxEntries?: number } | undefined): string {
  const parts: string[] = [];
  if (cap?.maxChars !== undefined) parts.push(`${Math.round(cap.maxChars / 1024)} KB`);
  if (cap?.maxEntries !== undefined) parts.push(`${cap.maxEntries} entries`);
  return parts.join(' or ');
}

function versionOf(raw: unknown): number | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const { version } = raw as Record<string, unknown>;
  return typeof version === 'number' && Number.isInteger(version) && version >= 0 ? version : undefined;
}

function isStoredSlot(raw: unknown): raw is StoredSlot {
  return versionOf(raw) !== undefined && Array.isArray((raw as Record<string, unknown>)['entries']);
}

/** What a stored value is, for a log line: its type and keys, never its content. */
function shapeOf(raw: unknown): string {
  if (Array.isArray(raw)) return 'a list';
  if (typeof raw !== 'object' || raw === null) return raw === null ? 'null' : `a ${typeof raw}`;
  const keys = Object.keys(raw).slice(0, 5).map((key) => JSON.stringify(key.slice(0, 40)));
  return keys.length > 0 ? `an object with ${keys.join(', ')}` : 'an empty object';
}
