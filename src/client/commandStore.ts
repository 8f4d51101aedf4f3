import * as z from 'zod/mini';
import { parsedOk, parsedProblem, type Parsed } from '../base/result';
import { commandHoldsSecret } from '../aep/secretAsking';
import { StorageSlot, type KeyValueStorage } from '../base/storageSlot';
import type { Logger } from '../base/logger';
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

export type { KeyValueStorage } from '../base/storageSlot';

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
  private readonly slot: StorageSlot<StoredCommand, StoredShape>;

  constructor(
    storage: KeyValueStorage,
    key: string,
    private readonly log: Logger,
    limits: CommandStoreLimits = {},
  ) {
    this.maxCommands = limits.maxCommands ?? MAX_STORED_COMMANDS;
    this.maxBytes = limits.maxBytes ?? MAX_STORED_COMMAND_BYTES;
    this.slot = new StorageSlot(
      storage,
      {
        key,
        label: 'the unsettled answers',
        noun: ['unsettled answer', 'unsettled answers'],
        version: COMMANDS_VERSION,
        schema: storedCommandSchema,
        check: readStored,
        stored: storedForm,
        // Version 0: the bare list, in the same shape.
        legacy: (raw) => (Array.isArray(raw) ? raw : undefined),
        // A list saved under larger bounds (another version) is cut to these: the timed-out go first, then the oldest.
        cap: { maxEntries: this.maxCommands, maxChars: this.maxBytes, dropFrom: 'first', dropSooner: (command) => command.timedOut === true },
        describe: (command) => `answer ${command.id} for request ${command.subject}`,
      },
      log,
    );
    let unmasked = 0;
    for (const command of this.slot.read().entries) {
      // Stored by an older version with text sent at capture `full`: from now on in memory only.
      if (!command.withheld && commandHoldsSecret(command.text, undefined)) {
        command.memoryOnly = true;
        unmasked++;
      }
      this.delete(command.id);
      this.set(command);
    }
    if (unmasked > 0) {
      log.info(`no longer keeping the text of ${unmasked} saved unsettled answer${unmasked === 1 ? '' : 's'} on disk: sent as typed (capture full), it is kept in memory only`, {
        code: 'answer-text-unkept',
        data: { answers: unmasked },
      });
    }
    // Nobody can be told in a page yet, so each goes with a log line.
    const { dropped } = this.slot.fit([...this.commands.values()]);
    for (const command of dropped) {
      this.delete(command.id);
      log.warn(
        `no longer keeping saved answer ${command.id} for request ${command.subject}${command.timedOut ? ' (timed out)' : ''}: ` +
          `more than ${this.maxCommands} unsettled answers or ${Math.round(this.maxBytes / 1024)} KB were saved`,
        { code: 'answer-evicted', data: { commandId: command.id, requestId: command.subject, timedOut: command.timedOut === true } },
      );
    }
    if (dropped.length > 0 || unmasked > 0) this.save();
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
    const size = this.sizeOf(next);
    const count = this.commands.size - (existing ? 1 : 0) + 1;
    const bytes = this.bytes - (existing ? this.sizeOf(existing) : 0) + size;
    const room = !this.slot.fits(1, size) ? tooLarge(this.maxBytes) : this.makeRoom(count, bytes, command.id);
    if (!room.ok) {
      this.log.warn(`refused to take answer ${command.id} for request ${command.subject}: ${room.why}`, {
        code: 'answer-refused-storage',
        data: { commandId: command.id, requestId: command.subject, problem: room.problem.code },
      });
      return { ok: false, problem: room.problem };
    }
    for (const old of room.drop) {
      this.delete(old.id);
      this.log.warn(
        `no longer keeping timed-out answer ${old.id} for request ${old.subject} across a reload, to make room for answer ${command.id}: ` +
          `after a reload it cannot be sent again under its id`,
        { code: 'answer-evicted', data: { commandId: old.id, requestId: old.subject, timedOut: true, for: command.id } },
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
    this.bytes -= this.sizeOf(command);
    delete command.unsent;
    this.bytes += this.sizeOf(command);
    this.save();
  }

  markTimedOut(id: string): void {
    const command = this.commands.get(id);
    if (!command || command.timedOut) return;
    this.bytes -= this.sizeOf(command);
    command.timedOut = true;
    delete command.unsent;
    this.bytes += this.sizeOf(command);
    this.save();
  }

  keepInMemoryOnly(id: string): void {
    const command = this.commands.get(id);
    if (!command || command.memoryOnly || command.withheld) return;
    this.bytes -= this.sizeOf(command);
    command.memoryOnly = true;
    this.bytes += this.sizeOf(command);
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
      if (this.slot.fits(count, bytes)) break;
      if (!command.timedOut || command.id === keep) continue;
      drop.push(command);
      count--;
      bytes -= this.sizeOf(command);
    }
    if (this.slot.fits(count, bytes)) return { ok: true, drop };
    const kb = Math.round(this.maxBytes / 1024);
    const full = count > this.maxCommands ? `${this.maxCommands} answers` : `${kb} KB of answers`;
    return {
      ok: false,
      why: `${full} already await their acknowledgement`,
      problem: count > this.maxCommands ? { code: 'store-full', limit: 'count', maxCommands: this.maxCommands } : { code: 'store-full', limit: 'size', maxKb: kb },
    };
  }

  private set(command: StoredCommand): void {
    this.commands.set(command.id, command);
    this.bytes += this.sizeOf(command);
  }

  private delete(id: string): boolean {
    const command = this.commands.get(id);
    if (!command) return false;
    this.commands.delete(id);
    this.bytes -= this.sizeOf(command);
    return true;
  }

  private save(): void {
    // Only a timed-out answer growing by its flag can pass the bound (put admits the rest): the slot drops timed-out
    // ones first, and what it did not keep is not kept here either, so this window says what a reload will have.
    for (const command of this.slot.write([...this.commands.values()]).dropped) {
      this.delete(command.id);
      this.log.warn(`no longer keeping timed-out answer ${command.id} for request ${command.subject} across a reload: the unsettled answers are full`, {
        code: 'answer-evicted',
        data: { commandId: command.id, requestId: command.subject, timedOut: true },
      });
    }
  }

  /** Characters of JSON it takes on disk. */
  private sizeOf(command: StoredCommand): number {
    return this.slot.charsOf(command) ?? Infinity;
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

const COMMANDS_VERSION = 1;

/** Read as `=== true`: a flag of another type is no flag, and does not cost the command. */
const flag = z.optional(z.unknown());
const storedCommandSchema = z.object({
  id: z.string(),
  type: z.string(),
  subject: z.string(),
  text: z.optional(z.unknown()),
  target: z.object({ session: z.string(), source: z.string() }),
  ackWindowMs: z.number().check(z.positive()),
  timedOut: flag,
  unsent: flag,
  withheld: flag,
});
type StoredShape = z.infer<typeof storedCommandSchema>;

/** A saved command, from the stored form: a withheld one has no text; one stored with text anyway is read without it. */
function readStored(value: StoredShape): Parsed<StoredCommand> {
  const { id, type, subject, text, target, ackWindowMs, timedOut, unsent, withheld } = value;
  if (withheld !== true && typeof text !== 'string') return parsedProblem('`text` is not a string, and the answer is not withheld');
  return parsedOk({
    id, type, subject, text: withheld === true || typeof text !== 'string' ? '' : text, target: { session: target.session, source: target.source }, ackWindowMs,
    ...(timedOut === true ? { timedOut: true } : {}),
    ...(unsent === true && timedOut !== true ? { unsent: true } : {}),
    ...(withheld === true ? { withheld: true } : {}),
  });
}
