import type { Subscription } from './emitter';
import { describeError, type Logger } from './logger';

/** The parts loaded when first needed: what the log names and the person is told could not be loaded. */
export type LazyPart = 'request-pages' | 'history-pages' | 'answer-similar' | 'history-export' | 'os-notifications' | 'quick-input' | 'hub-client';

/**
 * A part of the extension loaded when it is first needed (a dynamic
 * `import()`, which esbuild.js makes a chunk of its own), not at activation.
 * Every caller shares the one load. A load that fails is logged with its
 * code, never swallowed, and told to the person once (`told`, worded by the
 * caller): the next need tries again, and a part needed in the background
 * (a system notification per burst) must not raise a toast each time. The
 * load imports; the part is made from what it imported only if this owner is
 * still alive then, so a window closing mid-load makes nothing.
 */
export class OnFirstNeed<T> implements Subscription {
  private value: T | undefined;
  private loading: Promise<T | undefined> | undefined;
  private disposed = false;
  private toldOnce = false;

  constructor(
    private readonly part: LazyPart,
    /** Imports what the part needs; resolves with how to make the part from it (called only while this owner is alive). */
    private readonly load: () => Promise<() => T>,
    private readonly log: Logger,
    /** Tells the person the part could not be loaded (only the UI words it). */
    private readonly told: () => void,
    /** Releases what the load made, when this owner is disposed. */
    private readonly release: (value: T) => void = () => undefined,
  ) {}

  /** The part when it is loaded already; undefined before (what asks synchronously answers without it). */
  get now(): T | undefined {
    return this.value;
  }

  /** The part, loaded on the first call; undefined when the load failed (logged and told) or this owner is disposed. */
  get(): Promise<T | undefined> {
    if (this.disposed) return Promise.resolve(undefined);
    if (this.value !== undefined) return Promise.resolve(this.value);
    this.loading ??= this.load().then(
      (make) => {
        if (this.disposed) return undefined;
        const value = make();
        this.value = value;
        return value;
      },
      (error: unknown) => {
        this.loading = undefined;
        if (this.disposed) return undefined;
        this.log.error(`could not load ${this.part}: ${describeError(error)}`, { code: 'part-load-failed', data: { part: this.part } });
        if (!this.toldOnce) {
          this.toldOnce = true;
          this.told();
        }
        return undefined;
      },
    );
    return this.loading;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const value = this.value;
    this.value = undefined;
    if (value !== undefined) this.release(value);
  }
}
