import type { Logger } from './logger';

/**
 * A command handed to the sender and not yet settled, as it is kept across a
 * window reload or a client rebuild: the exact serialized envelope, so a
 * resend goes out byte-identical under the same id (AEP-0004 §2.3).
 */
export interface StoredCommand {
  id: string;
  /** The command's `type` and `subject` (the request id), for log lines and the open-request check. */
  type: string;
  subject: string;
  /** The envelope exactly as first written. */
  text: string;
  target: { session: string; source: string };
  ackWindowMs: number;
  /** Its ack window ran out: kept so "Send again" repeats this id, not resent on its own. */
  timedOut?: boolean;
}

/** Where the sender keeps its unsettled commands; every change is written at once. */
export interface UnsettledCommands {
  list(): StoredCommand[];
  put(command: StoredCommand): void;
  markTimedOut(id: string): void;
  remove(id: string): void;
}

/** The part of `vscode.Memento` this store needs (no vscode import in the protocol core). */
export interface KeyValueStorage {
  get<T>(key: string, fallback: T): T;
  update(key: string, value: unknown): PromiseLike<void>;
}

export interface CommandStoreLimits {
  maxCommands?: number;
  /** Characters of stored JSON. */
  maxBytes?: number;
}

export const MAX_STORED_COMMANDS = 64;
export const MAX_STORED_COMMAND_BYTES = 1024 * 1024;

/**
 * The unsettled commands of one hub origin in a key-value storage
 * (`workspaceState`), bounded by count and size: the oldest go first, with a
 * log line, since a person answers a handful of requests at a time, not
 * hundreds. Written on every change, not debounced: a reload may come at any
 * moment and the point is that no command is lost to it.
 */
export class CommandStore implements UnsettledCommands {
  private readonly commands = new Map<string, StoredCommand>();
  private readonly maxCommands: number;
  private readonly maxBytes: number;

  constructor(
    private readonly storage: KeyValueStorage,
    private readonly key: string,
    private readonly log: Logger,
    limits: CommandStoreLimits = {},
  ) {
    this.maxCommands = limits.maxCommands ?? MAX_STORED_COMMANDS;
    this.maxBytes = limits.maxBytes ?? MAX_STORED_COMMAND_BYTES;
    let saved: unknown;
    try {
      saved = storage.get<unknown>(key, []);
    } catch (error) {
      log.error(`could not read the unsettled answers: ${describeError(error)}`);
    }
    let skipped = 0;
    for (const raw of Array.isArray(saved) ? saved : []) {
      const command = readStored(raw);
      if (command) this.commands.set(command.id, command);
      else skipped++;
    }
    if (skipped > 0) log.warn(`skipped ${skipped} saved unsettled answers that could not be read`);
    if (this.trim()) this.save();
  }

  get size(): number {
    return this.commands.size;
  }

  list(): StoredCommand[] {
    return [...this.commands.values()].map((command) => ({ ...command, target: { ...command.target } }));
  }

  put(command: StoredCommand): void {
    this.commands.delete(command.id);
    this.commands.set(command.id, { ...command, target: { ...command.target } });
    this.trim();
    this.save();
  }

  markTimedOut(id: string): void {
    const command = this.commands.get(id);
    if (!command || command.timedOut) return;
    command.timedOut = true;
    this.save();
  }

  remove(id: string): void {
    if (this.commands.delete(id)) this.save();
  }

  /** Drops the oldest beyond the bounds; true when any went. */
  private trim(): boolean {
    let bytes = 0;
    for (const command of this.commands.values()) bytes += sizeOf(command);
    let dropped = false;
    while (this.commands.size > 0 && (this.commands.size > this.maxCommands || bytes > this.maxBytes)) {
      const oldest = this.commands.values().next().value;
      if (oldest === undefined) break;
      this.commands.delete(oldest.id);
      bytes -= sizeOf(oldest);
      dropped = true;
      this.log.warn(
        `no longer keeping answer ${oldest.id} for request ${oldest.subject} across a reload: more than ${this.maxCommands} unsettled answers or ${Math.round(this.maxBytes / 1024)} KB`,
      );
    }
    return dropped;
  }

  private save(): void {
    const failed = (error: unknown) => this.log.error(`could not save the unsettled answers: ${describeError(error)}`);
    try {
      Promise.resolve(this.storage.update(this.key, [...this.commands.values()])).catch(failed);
    } catch (error) {
      failed(error);
    }
  }
}

function sizeOf(command: StoredCommand): number {
  return JSON.stringify(command).length;
}

/** A saved value is data from an older run (or another version): checked field by field. */
function readStored(raw: unknown): StoredCommand | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const value = raw as Record<string, unknown>;
  const target = value['target'];
  if (typeof target !== 'object' || target === null) return undefined;
  const { session, source } = target as Record<string, unknown>;
  const { id, type, subject, text, ackWindowMs, timedOut } = value;
  if (typeof id !== 'string' || typeof type !== 'string' || typeof subject !== 'string' || typeof text !== 'string') return undefined;
  if (typeof session !== 'string' || typeof source !== 'string') return undefined;
  if (typeof ackWindowMs !== 'number' || !Number.isFinite(ackWindowMs) || ackWindowMs <= 0) return undefined;
  return { id, type, subject, text, target: { session, source }, ackWindowMs, ...(timedOut === true ? { timedOut: true } : {}) };
}

function describeError(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
