/**
 * `workspaceState` as VS Code keeps it: JSON text by key, so a stored value
 * is serialized on `update` (and fails there, as it would in the editor) and
 * every `get` returns a fresh copy. A real, small implementation of the
 * `vscode.Memento` interface for tests that run in plain Node.
 */
export class MemoryMemento {
  protected readonly values = new Map<string, string>();

  keys(): readonly string[] {
    return [...this.values.keys()];
  }

  get<T>(key: string, fallback?: T): T {
    const value = this.values.get(key);
    return value === undefined ? (fallback as T) : (JSON.parse(value) as T);
  }

  update(key: string, value: unknown): Promise<void> {
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, JSON.stringify(value));
    return Promise.resolve();
  }

  /** Characters of JSON held in all, as the storage would write them. */
  get storedChars(): number {
    let chars = 0;
    for (const text of this.values.values()) chars += text.length;
    return chars;
  }
}

/** A storage that fails for some keys: `update` throws for those in `throwsFor`, and returns a rejected promise for those in `rejectsFor`. */
export class FailingMemento extends MemoryMemento {
  constructor(
    private readonly throwsFor: (key: string) => boolean,
    private readonly rejectsFor: (key: string) => boolean,
  ) {
    super();
  }

  override update(key: string, value: unknown): Promise<void> {
    if (this.throwsFor(key)) throw new RangeError('Maximum call stack size exceeded');
    if (this.rejectsFor(key)) return Promise.reject(new Error('the storage is full'));
    return super.update(key, value);
  }
}
