import type { Subscription } from './emitter';

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
    while (this.owned.length > 0) {
      try {
        this.owned.pop()?.dispose();
      } catch {
        // One failing dispose must not keep the rest alive.
      }
    }
  }
}
