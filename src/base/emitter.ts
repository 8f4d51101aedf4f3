/** A listener registration; call `dispose()` to stop listening. */
export interface Subscription {
  dispose(): void;
}

/**
 * A minimal typed event source for the protocol core, which cannot use
 * `vscode.EventEmitter`. A listener that throws does not stop the others.
 */
export class Emitter<T> {
  private readonly listeners = new Set<(value: T) => void>();

  constructor(private readonly onListenerError: (error: unknown) => void = () => undefined) {}

  readonly event = (listener: (value: T) => void): Subscription => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };

  fire(value: T): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(value);
      } catch (error) {
        this.onListenerError(error);
      }
    }
  }

  dispose(): void {
    this.listeners.clear();
  }
}
