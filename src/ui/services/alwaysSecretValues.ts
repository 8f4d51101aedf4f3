import { homedir } from 'node:os';
import * as vscode from 'vscode';
import { addSecretValue, readSecretValues, writeSecretValues, type AddSecretValue } from '../../aep/alwaysSecret';
import type { RedactionOptions } from '../../aep/redaction';
import { setStoredSecretValues } from '../../aep/secretAsking';
import type { Logger } from '../../base/logger';

const KEY = 'aepAttention.alwaysSecretValues';

/**
 * The values the user lists as always secret (§9.4 rule b), in secret
 * storage, held in memory for the pipeline, which runs synchronously. Every
 * place that runs the pipeline asks `redaction()` here, so the page, the
 * quick input and the command sent use the same values.
 */
export class AlwaysSecretValues extends vscode.Disposable {
  private list: string[] = [];
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly log: Logger,
  ) {
    super(() => this.subscription.dispose());
    // Another window may add or clear them.
    this.subscription = secrets.onDidChange((event) => {
      if (event.key === KEY) void this.load();
    });
  }

  async load(): Promise<void> {
    const { values, problem } = readSecretValues(await this.secrets.get(KEY));
    if (problem) this.log.warn(problem);
    this.use(values);
  }

  /** What the pipeline runs with, and what every store masks with. */
  private use(values: string[]): void {
    this.list = values;
    setStoredSecretValues(values);
  }

  get count(): number {
    return this.list.length;
  }

  /** The pipeline's options: the user's home (rule c) and these values (rule b). */
  redaction(): RedactionOptions {
    return { home: homedir(), secretValues: [...this.list] };
  }

  async add(value: string): Promise<AddSecretValue> {
    const added = addSecretValue(this.list, value);
    if (added.ok) {
      await this.secrets.store(KEY, writeSecretValues(added.values));
      this.use(added.values);
    }
    return added;
  }

  async clear(): Promise<void> {
    await this.secrets.delete(KEY);
    this.use([]);
  }
}
