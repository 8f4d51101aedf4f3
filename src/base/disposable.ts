import type { Subscription } from './emitter';

/**
 * Disposes each in turn; one that throws does not keep the rest alive (the
 * error is dropped: disposal is best effort, and the caller cannot act on it).
 */
function disposeEach(disposables: Iterable<Subscription>): void {
  for (const disposable of disposables) {
    try {
      disposable.dispose();
    } catch {
      // One failing dispose must not keep the rest alive.
    }
  }
}

/** A disposable that runs `fn` on its first `dispose()` only (VS Code's `toDisposable`). */
export function toDisposable(fn: () => void): Subscription {
  let done = false;
  return {
    dispose: () => {
      if (done) return;
      done = true;
      fn();
    },
  };
}

/**
 * A set of disposables released together, in the order they were added
 * (VS Code's `DisposableStore`). `clear()` releases them and keeps the store
 * usable; after `dispose()` anything added is released at once.
 */
export class DisposableStore implements Subscription {
  private readonly items = new Set<Subscription>();
  private disposedValue = false;

  get isDisposed(): boolean {
    return this.disposedValue;
  }

  add<T extends Subscription>(disposable: T): T {
    if (this.disposedValue) disposeEach([disposable]);
    else this.items.add(disposable);
    return disposable;
  }

  /** Releases everything held so far; the store takes new ones after. */
  clear(): void {
    const items = [...this.items];
    this.items.clear();
    disposeEach(items);
  }

  dispose(): void {
    if (this.disposedValue) return;
    this.disposedValue = true;
    this.clear();
  }
}

/**
 * Holds at most one disposable: setting another releases the one held
 * (VS Code's `MutableDisposable`), e.g. a timer started again.
 */
export class MutableDisposable<T extends Subscription> implements Subscription {
  private current: T | undefined;
  private disposedValue = false;

  get value(): T | undefined {
    return this.disposedValue ? undefined : this.current;
  }

  set value(value: T | undefined) {
    if (this.disposedValue) {
      if (value !== undefined) disposeEach([value]);
      return;
    }
    if (value === this.current) return;
    const old = this.current;
    this.current = value;
    if (old !== undefined) disposeEach([old]);
  }

  /** Releases the value held, if any. */
  clear(): void {
    this.value = undefined;
  }

  dispose(): void {
    if (this.disposedValue) return;
    this.clear();
    this.disposedValue = true;
  }
}

/**
 * A map whose values are released when replaced, deleted with
 * `deleteAndDispose`, or when the map is disposed (VS Code's `DisposableMap`).
 * `deleteAndLeak` takes a value out without releasing it (one that released itself).
 */
export class DisposableMap<K, V extends Subscription> implements Subscription {
  private readonly entries = new Map<K, V>();
  private disposedValue = false;

  get size(): number {
    return this.entries.size;
  }

  get(key: K): V | undefined {
    return this.entries.get(key);
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  keys(): IterableIterator<K> {
    return this.entries.keys();
  }

  values(): IterableIterator<V> {
    return this.entries.values();
  }

  /** Keeps `value` under `key`, releasing the value it replaces; after `dispose()` the value is released at once. */
  set(key: K, value: V): void {
    if (this.disposedValue) {
      disposeEach([value]);
      return;
    }
    const old = this.entries.get(key);
    this.entries.set(key, value);
    if (old !== undefined && old !== value) disposeEach([old]);
  }

  deleteAndDispose(key: K): void {
    const value = this.entries.get(key);
    if (value === undefined) return;
    this.entries.delete(key);
    disposeEach([value]);
  }

  /** Takes the value out without releasing it. */
  deleteAndLeak(key: K): V | undefined {
    const value = this.entries.get(key);
    this.entries.delete(key);
    return value;
  }

  /** Releases every value, in the order they were set; the map takes new ones after. */
  clearAndDispose(): void {
    const values = [...this.entries.values()];
    this.entries.clear();
    disposeEach(values);
  }

  dispose(): void {
    if (this.disposedValue) return;
    this.disposedValue = true;
    this.clearAndDispose();
  }
}

/** Owns disposables and releases them once, newest first (the hexeditor pattern). */
export abstract class Disposable implements Subscription {
  private readonly owned: Subscription[] = [];
  private disposedValue = false;

  protected get isDisposed(): boolean {
    return this.disposedValue;
  }

  protected _register<T extends Subscription>(disposable: T): T {
    if (this.disposedValue) disposable.dispose();
    else this.owned.push(disposable);
    return disposable;
  }

  dispose(): void {
    if (this.disposedValue) return;
    this.disposedValue = true;
    const owned = this.owned.splice(0).reverse();
    disposeEach(owned);
  }
}
