import { commandHoldsSecret } from '../secretAsking';
import { describeError, type Logger } from './logger';
import type { NotSentReason } from './notSent';

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
  /** The envelope exactly as first written; empty when `withheld`. */
  text: string;
  target: { session: string; source: string };
  ackWindowMs: number;
  /** Its ack window ran out: kept so "Send again" repeats this id, not resent on its own. */
  timedOut?: boolean;
  /**
   * Known never to have been written (queued offline). Absent means it may
   * have reached the agent, which is also what an entry saved before this
   * flag existed means: an unknown outcome is "sent, awaiting its ack", never "not sent".
   */
  unsent?: boolean;
  /**
   * Its answer holds text that is never stored readable (sent at capture
   * `full`, or a secret asked for: src/aep/secretAsking.ts): the envelope is
   * kept in memory only. Masking it on disk would make a resend a different
   * envelope under the same id (AEP-0004 §2.3 forbids it), so on disk it is
   * kept without its text, to say after a reload that it was not sent again.
   */
  memoryOnly?: boolean;
  /** Read back after a reload without its text (it was `memoryOnly`): it cannot be sent again, and `text` is empty. */
  withheld?: boolean;
}

/** Whether the store took a command; when not, why, as a code the UI words for the person who answered. */
export type PutResult = { ok: true } | { ok: false; problem: Extract<NotSentReason, { code: 'store-full' | 'too-large-to-keep' }> };

/** Where the sender keeps its unsettled commands; every change is written at once. */
export interface UnsettledCommands {
  list(): StoredCommand[];
  /** Refused when it would not fit: the caller must not send a command it cannot keep. */
  put(command: StoredCommand): PutResult;
  /** It was written at least once: from now on its outcome is unknown until it settles. */
  markWritten(id: string): void;
  markTimedOut(id: string): void;
  /** Its text is no longer written to disk (found to hold a secret after it was stored); it stays in memory. */
  keepInMemoryOnly(id: string): void;
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

/**
 * Far above what a person answers between two acknowledgements, even offline
 * for a day; the byte bound is what keeps a write of the whole list cheap.
 */
export const MAX_STORED_COMMANDS = 1024;
export const MAX_STORED_COMMAND_BYTES = 1024 * 1024;

/**
 * The unsettled commands of one hub origin in a key-value storage
 * (`workspaceState`), bounded by count and size. A command awaiting its ack
 * is never dropped to make room: one that is not kept can neither be resent
 * after a reload nor have its ack matched, and nobody would be told. So when
 * full, the oldest timed-out commands go first (their outcome is already
 * shown as unknown; what is lost is "Send again" after a reload), and if that
 * is not enough the new command is refused, and the caller does not send it.
 * Written on every change, not debounced: a reload may come at any moment
 * and the point is that no command is lost to it.
 */
export class CommandStore implements UnsettledCommands {
  private readonly commands = new Map<string, StoredCommand>();
  private readonly maxCommands: number;
  private readonly maxBytes: number;
  /** Characters of JSON held, kept as commands come and go rather than re-serialized on every put. */
  private bytes = 0;

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
    let unmasked = 0;
    for (const raw of Array.isArray(saved) ? saved : []) {
      const command = readStored(raw);
      if (!command) skipped++;
      else {
        // Stored by an older version with text sent at capture `full`: from now on in memory only.
        if (!command.withheld && commandHoldsSecret(command.text, undefined)) {
          command.memoryOnly = true;
          unmasked++;
        }
        this.delete(command.id);
        this.set(command);
      }
    }
    if (skipped > 0) log.warn(`skipped ${skipped} saved unsettled answers that could not be read`);
    if (unmasked > 0) log.info(`no longer keeping the text of ${unmasked} saved unsettled answer${unmasked === 1 ? '' : 's'} on disk: sent as typed (capture full), it is kept in memory only`);
    if (this.trimSaved() || unmasked > 0) this.save();
  }

  get size(): number {
    return this.commands.size;
  }

  list(): StoredCommand[] {
    return [...this.commands.values()].map((command) => ({ ...command, target: { ...command.target } }));
  }

  put(command: StoredCommand): PutResult {
    const existing = this.commands.get(command.id);
    // The same id is the same bytes (AEP-0004 §2.3): once written, it stays "may have been sent".
    const next: StoredCommand = { ...command, target: { ...command.target } };
    if (existing && !existing.unsent) delete next.unsent;
    // Once its text is kept off disk, it stays off.
    if (existing?.memoryOnly) next.memoryOnly = true;
    const size = sizeOf(next);
    const count = this.commands.size - (existing ? 1 : 0) + 1;
    const bytes = this.bytes - (existing ? sizeOf(existing) : 0) + size;
    const room = size > this.maxBytes ? tooLarge(this.maxBytes) : this.makeRoom(count, bytes, command.id);
    if (!room.ok) {
      this.log.warn(`refused to take answer ${command.id} for request ${command.subject}: ${room.why}`);
      return { ok: false, problem: room.problem };
    }
    for (const old of room.drop) {
      this.delete(old.id);
      this.log.warn(
        `no longer keeping timed-out answer ${old.id} for request ${old.subject} across a reload, to make room for answer ${command.id}: ` +
          `after a reload it cannot be sent again under its id`,
      );
    }
    if (existing) this.delete(command.id);
    this.set(next);
    this.save();
    return { ok: true };
  }

  markWritten(id: string): void {
    const command = this.commands.get(id);
    if (!command?.unsent) return;
    this.bytes -= sizeOf(command);
    delete command.unsent;
    this.bytes += sizeOf(command);
    this.save();
  }

  markTimedOut(id: string): void {
    const command = this.commands.get(id);
    if (!command || command.timedOut) return;
    this.bytes -= sizeOf(command);
    command.timedOut = true;
    delete command.unsent;
    this.bytes += sizeOf(command);
    this.save();
  }

  keepInMemoryOnly(id: string): void {
    const command = this.commands.get(id);
    if (!command || command.memoryOnly || command.withheld) return;
    this.bytes -= sizeOf(command);
    command.memoryOnly = true;
    this.bytes += sizeOf(command);
    this.save();
  }

  remove(id: string): void {
    if (this.delete(id)) this.save();
  }

  /**
   * Which timed-out commands (oldest first) must go for `count` commands of
   * `bytes` to fit; none go unless that is enough. Never one awaiting its ack.
   */
  private makeRoom(count: number, bytes: number, keep: string):
    | { ok: true; drop: StoredCommand[] }
    | { ok: false; problem: Extract<NotSentReason, { code: 'store-full' }>; why: string } {
    const drop: StoredCommand[] = [];
    for (const command of this.commands.values()) {
      if (count <= this.maxCommands && bytes <= this.maxBytes) break;
      if (!command.timedOut || command.id === keep) continue;
      drop.push(command);
      count--;
      bytes -= sizeOf(command);
    }
    if (count <= this.maxCommands && bytes <= this.maxBytes) return { ok: true, drop };
    const kb = Math.round(this.maxBytes / 1024);
    const full = count > this.maxCommands ? `${this.maxCommands} answers` : `${kb} KB of answers`;
    return {
      ok: false,
      why: `${full} already await their acknowledgement`,
      problem: count > this.maxCommands ? { code: 'store-full', limit: 'count', maxCommands: this.maxCommands } : { code: 'store-full', limit: 'size', maxKb: kb },
    };
  }

  /**
   * A list saved under larger bounds (another version) is cut to these: the
   * timed-out go first, then the oldest. Nobody can be told in a page yet,
   * so each goes with a log line.
   */
  private trimSaved(): boolean {
    let dropped = false;
    const over = () => this.commands.size > this.maxCommands || this.bytes > this.maxBytes;
    for (const timedOutFirst of [true, false]) {
      for (const command of [...this.commands.values()]) {
        if (!over()) return dropped;
        if (timedOutFirst && !command.timedOut) continue;
        this.delete(command.id);
        dropped = true;
        this.log.warn(
          `no longer keeping saved answer ${command.id} for request ${command.subject}${command.timedOut ? ' (timed out)' : ''}: ` +
            `more than ${this.maxCommands} unsettled answers or ${Math.round(this.maxBytes / 1024)} KB were saved`,
        );
      }
    }
    return dropped;
  }

  private set(command: StoredCommand): void {
    this.commands.set(command.id, command);
    this.bytes += sizeOf(command);
  }

  private delete(id: string): boolean {
    const command = this.commands.get(id);
    if (!command) return false;
    this.commands.delete(id);
    this.bytes -= sizeOf(command);
    return true;
  }

  private save(): void {
    const failed = (error: unknown) => this.log.error(`could not save the unsettled answers: ${describeError(error)}`);
    try {
      Promise.resolve(this.storage.update(this.key, [...this.commands.values()].map(storedForm))).catch(failed);
    } catch (error) {
      failed(error);
    }
  }
}

function tooLarge(maxBytes: number): { ok: false; problem: Extract<NotSentReason, { code: 'too-large-to-keep' }>; why: string } {
  const kb = Math.round(maxBytes / 1024);
  return { ok: false, why: `larger than the ${kb} KB kept across a reload`, problem: { code: 'too-large-to-keep', maxKb: kb } };
}

/** What goes to disk: a `memoryOnly` command without its text, marked `withheld`. */
function storedForm(command: StoredCommand): StoredCommand | Omit<StoredCommand, 'text'> {
  if (!command.memoryOnly && !command.withheld) return command;
  const { text: _text, memoryOnly: _memoryOnly, ...rest } = command;
  return { ...rest, withheld: true };
}

/** Characters of JSON it takes on disk. */
function sizeOf(command: StoredCommand): number {
  return JSON.stringify(storedForm(command)).length;
}

/** A saved value is data from an older run (or another version): checked field by field. */
function readStored(raw: unknown): StoredCommand | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const value = raw as Record<string, unknown>;
  const target = value['target'];
  if (typeof target !== 'object' || target === null) return undefined;
  const { session, source } = target as Record<string, unknown>;
  const { id, type, subject, text, ackWindowMs, timedOut, unsent, withheld } = value;
  if (typeof id !== 'string' || typeof type !== 'string' || typeof subject !== 'string') return undefined;
  // A withheld command's text was never stored; one stored with text anyway is read without it.
  if (withheld !== true && typeof text !== 'string') return undefined;
  if (typeof session !== 'string' || typeof source !== 'string') return undefined;
  if (typeof ackWindowMs !== 'number' || !Number.isFinite(ackWindowMs) || ackWindowMs <= 0) return undefined;
  return {
    id, type, subject, text: withheld === true ? '' : (text as string), target: { session, source }, ackWindowMs,
    ...(timedOut === true ? { timedOut: true } : {}),
    ...(unsent === true && timedOut !== true ? { unsent: true } : {}),
    ...(withheld === true ? { withheld: true } : {}),
  };
}
