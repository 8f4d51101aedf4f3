import { homedir } from 'node:os';
import { addSecretValue, readSecretValues, writeSecretValues, type AddSecretValue } from '../../aep/alwaysSecret';
import type { RedactionOptions } from '../../aep/redaction';
import { setStoredSecretValues } from '../../aep/secretAsking';
import { describeError, type Logger } from '../../base/logger';
import { Disposable } from '../../base/disposable';
import { Emitter } from '../../base/emitter';

const KEY = 'aepAttention.alwaysSecretValues';
/** The shortest hub token masked (maskHubToken); a value the person lists may be shorter (MIN_SECRET_VALUE_LENGTH). */
export const MIN_HUB_TOKEN_LENGTH = 8;

/** What this class needs of `vscode.SecretStorage` (which fits it), so that it runs in plain Node. */
export interface SecretValueStorage {
  get(key: string): PromiseLike<string | undefined>;
  store(key: string, value: string): PromiseLike<void>;
  delete(key: string): PromiseLike<void>;
  onDidChange(listener: (event: { readonly key: string }) => unknown): { dispose(): unknown };
}

/**
 * A command that waits for the always-secret values before it runs: what a
 * person starts can open a page, send an answer, export the history or
 * change the values, and all of them mask with the values (nothing that
 * runs only after them is held up, the first read takes a few milliseconds).
 */
export function afterLoaded<A extends unknown[]>(values: Pick<AlwaysSecretValues, 'loaded'>, run: (...args: A) => unknown): (...args: A) => Promise<unknown> {
  return async (...args: A) => {
    await values.loaded();
    return run(...args);
  };
}

/**
 * The values the user lists as always secret (§9.4 rule b), in secret
 * storage, held in memory for the pipeline, which runs synchronously. Every
 * place that runs the pipeline asks `redaction()` here, so the page, the
 * quick input and the command sent use the same values.
 *
 * Activation does not wait for the read (on desktop it goes to the system
 * keychain): `start()` begins it, and what needs the values waits for
 * `loaded()` itself: every connection before it reads its token (so nothing
 * a hub sends is shown, notified, kept or answered before), the commands and
 * a page restored after a reload. `redaction()` before then is a mistake and
 * throws rather than mask with nothing.
 *
 * The hub tokens this window reads or files are masked as the listed values
 * are, without being listed (`maskHubToken`): a person who types a hub's
 * token into an agent's plain question (one asking in our words for "the
 * token") sends `[REDACTED:secret]`, not the token, at capture `redacted`,
 * and no draft, history entry or export keeps it. A token shorter than
 * MIN_HUB_TOKEN_LENGTH is not masked (it would replace ordinary words), and
 * the log says so.
 */
export class AlwaysSecretValues extends Disposable {
  /** Undefined until the first read succeeds. */
  private list: string[] | undefined;
  /** Hub tokens seen in this window (tokens.ts), masked with the list for the window's life, never stored with it. */
  private readonly hubTokens = new Set<string>();
  private shortTokenTold = false;
  private readonly first: Promise<void>;
  private readonly changes = new Emitter<void>();
  /** Fires when what is masked changed: the values read, added or cleared (here or in another window), a hub token added. */
  readonly onDidChange = this.changes.event;
  private markLoaded!: () => void;

  constructor(
    private readonly secrets: SecretValueStorage,
    private readonly log: Logger,
  ) {
    super();
    this.first = new Promise<void>((resolve) => (this.markLoaded = resolve));
    // Another window may add or clear them.
    this._register(
      secrets.onDidChange((event) => {
        if (event.key === KEY) void this.load();
      }),
    );
  }

  /** Begins the first read; returns at once. */
  start(): void {
    void this.load();
  }

  /** Settles once the values are known (never rejects; a failed read is logged, and the next change of the values reads them again). */
  loaded(): Promise<void> {
    return this.first;
  }

  private async load(): Promise<void> {
    let stored: string | undefined;
    try {
      stored = await this.secrets.get(KEY);
    } catch (error) {
      this.log.error(`could not read the always-secret values, so no hub is connected: ${describeError(error)}`, { code: 'secret-values-unreadable' });
      return;
    }
    const { values, problem } = readSecretValues(stored);
    if (problem) this.log.warn(problem);
    this.use(values);
  }

  /** What the pipeline runs with, and what every store masks with. */
  private use(values: string[]): void {
    this.list = values;
    setStoredSecretValues(this.masked(values));
    this.markLoaded();
    this.changes.fire();
  }

  private masked(values: readonly string[]): string[] {
    return [...values, ...[...this.hubTokens].filter((token) => !values.includes(token))];
  }

  /**
   * Masks a hub token from now on, wherever the values are masked. A short
   * token ("test", "local", a development hub's) would replace those words in
   * every answer and history entry without the person ever having listed it,
   * and is left; no hub issues tokens that short.
   */
  maskHubToken(token: string): void {
    if (this.hubTokens.has(token)) return;
    if ([...token].length < MIN_HUB_TOKEN_LENGTH) {
      if (!this.shortTokenTold) this.log.warn(`a hub's token is shorter than ${MIN_HUB_TOKEN_LENGTH} characters, so answers are not masked for it: typed into an agent's question, it would be sent as typed`, { code: 'hub-token-short' });
      this.shortTokenTold = true;
      return;
    }
    this.hubTokens.add(token);
    if (!this.list) return;
    setStoredSecretValues(this.masked(this.list));
    this.changes.fire();
  }

  /** How many the person listed (hub tokens are not counted); 0 until they are loaded (the commands that word it wait for `loaded()`). */
  get count(): number {
    return this.list?.length ?? 0;
  }

  /** The pipeline's options: the user's home (rule c) and these values with the hub tokens (rule b). Only after `loaded()`. */
  redaction(): RedactionOptions {
    if (!this.list) throw new Error('always-secret values not read yet');
    return { home: homedir(), secretValues: this.masked(this.list) };
  }

  async add(value: string): Promise<AddSecretValue> {
    // Added to the values stored, never to an empty list read too late: that would store the new one alone.
    await this.first;
    const added = addSecretValue(this.list ?? [], value);
    if (added.ok) {
      await this.secrets.store(KEY, writeSecretValues(added.values));
      this.use(added.values);
    }
    return added;
  }

  async clear(): Promise<void> {
    // After the first read, which would otherwise bring the cleared values back.
    await this.first;
    await this.secrets.delete(KEY);
    this.use([]);
  }
}
