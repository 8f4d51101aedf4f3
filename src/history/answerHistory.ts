import type { SendOutcome } from '../client/controlSender';
import { describeError, type Logger } from '../base/logger';
import type { RespondCommand } from '../aep/control';
import { Emitter } from '../base/emitter';
import { isOpenStatus, type AttentionItem } from '../inbox/inbox';
import type { SentAnswer } from '../inbox/recordedAnswer';
import { StorageSlot, type KeyValueStorage } from '../base/storageSlot';
import {
  agentOutcomes,
  answeredFor,
  endedWithoutAnswer,
  historyEntryId,
  historyOutcome,
  keptSends,
  newHistoryEntry,
  newHistorySend,
  checkHistoryEntry,
  historyEntrySchema,
  renameAckTimeouts,
  remaskEntry,
  type HistoryEntry,
  type HistorySend,
  type HubRef,
} from './historyEntry';

export interface HistoryLimits {
  maxEntries: number;
  maxAgeDays: number;
}

export const DEFAULT_HISTORY_LIMITS: HistoryLimits = { maxEntries: 200, maxAgeDays: 30 };
/** Characters of stored JSON: `workspaceState` is rewritten whole on every change. */
export const DEFAULT_HISTORY_MAX_BYTES = 2 * 1024 * 1024;
/** A request closed sooner than this after it arrived was replayed already closed, not seen open here. */
export const DEFAULT_MIN_OPEN_MS = 1_000;
export const HISTORY_STORAGE_KEY = 'answerHistory';
/**
 * 2: answers to `auth` requests and every secret-asking field masked whole;
 * 3: words to a form with a secret-asking field too. Older versions are read and masked so.
 * 4: an ack timeout is `ack-timed-out`, no longer `timed-out` (renameAckTimeouts).
 */
const HISTORY_VERSION = 4;
const UNMASKED_HISTORY_VERSION = 1;
const WORDS_UNMASKED_HISTORY_VERSION = 2;
const ACK_TIMEOUT_UNNAMED_HISTORY_VERSION = 3;
const SAVE_DELAY_MS = 500;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface AnswerHistoryOptions {
  /** Read at construction and on each `applyLimits` (a setting changed). */
  limits?: () => HistoryLimits;
  now?: () => number;
  /** Largest stored history, in characters of JSON; the oldest entries go first. */
  maxBytes?: number;
  /** See `noteItem`. */
  minOpenMs?: number;
}

/**
 * The answer history of one workspace, kept in `workspaceState` under one
 * key: every request answered from this window, newest first, with what was
 * sent and every outcome, and the requests that ended here without an answer
 * from here. Bounded by count, age and size. Nothing stored holds a secret
 * (see historyEntry.ts). Writes are debounced; `dispose` writes what is
 * pending and `clear` writes at once. A storage that fails is logged, never thrown.
 */
export class AnswerHistory {
  /** Newest first. */
  private list: HistoryEntry[] = [];
  private readonly byId = new Map<string, HistoryEntry>();
  private readonly byCommand = new Map<string, { entry: HistoryEntry; send: HistorySend }>();
  /**
   * Requests that ended without an answer from here, not made into entries
   * yet (see `noteItem`): making one masks its whole event, and a fleet's mass
   * timeout ends thousands at once, of which the bound keeps a few.
   */
  private readonly endedQueue = new Map<string, { hub: HubRef; item: Readonly<AttentionItem>; endedAt: number }>();
  private readonly now: () => number;
  private readonly limitsSource: (() => HistoryLimits) | undefined;
  private limits: HistoryLimits;
  private readonly minOpenMs: number;
  private readonly slot: StorageSlot<HistoryEntry>;
  /** Entries an older version stored that the masking changed as they were read. */
  private remasked = 0;
  /** The stored history is read on first use, not at construction: the extension's activation does not wait for it. */
  private loaded = false;
  private readonly changes: Emitter<void>;
  readonly onDidChange;

  constructor(
    storage: KeyValueStorage,
    private readonly log: Logger,
    options: AnswerHistoryOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.limitsSource = options.limits;
    this.slot = new StorageSlot<HistoryEntry>(
      storage,
      {
        key: HISTORY_STORAGE_KEY,
        label: 'the answer history',
        noun: ['answer history entry', 'answer history entries'],
        version: HISTORY_VERSION,
        schema: historyEntrySchema,
        check: checkHistoryEntry,
        // Versions 1 and 2 are version 3 before the masking knew `auth` answers and secret-asking fields, then words to
        // forms with such a field: masked as they are read (masking what is masked changes nothing). Their ack
        // timeouts are renamed first, so the schema the masking reads them with reads them.
        migrations: {
          [UNMASKED_HISTORY_VERSION]: (raw) => this.remask(renameAckTimeouts(raw)),
          [WORDS_UNMASKED_HISTORY_VERSION]: (raw) => this.remask(renameAckTimeouts(raw)),
          [ACK_TIMEOUT_UNNAMED_HISTORY_VERSION]: renameAckTimeouts,
        },
        keys: (entry) => [entry.id, ...entry.sends.map((send) => `command ${send.commandId}`)],
        // Newest first: the oldest go (see `prune`, which applies it to the list in memory as well).
        cap: { maxChars: options.maxBytes ?? DEFAULT_HISTORY_MAX_BYTES, dropFrom: 'last' },
        describe: (entry) => `the answer history entry for ${entry.agent}'s request ${entry.requestId}`,
        debounceMs: SAVE_DELAY_MS,
        source: () => {
          this.drainEnded();
          return this.list;
        },
        // Measured once per change to it (`changed`): a flood of closing requests must not re-serialize the whole history each time.
        cacheSizes: true,
      },
      log,
    );
    this.minOpenMs = options.minOpenMs ?? DEFAULT_MIN_OPEN_MS;
    this.changes = new Emitter<void>((error) => log.error(`an answer history listener failed: ${describeError(error)}`));
    this.onDidChange = this.changes.event;
    this.limits = this.readLimits();
  }

  /** Reads what was stored, once, before anything else touches the entries. */
  private ready(): void {
    if (this.loaded) return;
    this.loaded = true;
    const repaired = this.load();
    const pruned = this.prune();
    // Text an older version kept readable is not left on disk for the debounce.
    if (repaired === 'now') this.slot.flush();
    else if (pruned || repaired === 'later') this.slot.schedule();
  }

  entries(): readonly HistoryEntry[] {
    this.ready();
    this.drainEnded();
    return [...this.list];
  }

  entry(id: string): HistoryEntry | undefined {
    this.ready();
    this.drainEnded();
    return this.byId.get(id);
  }

  /**
   * What was sent from here for a request, as kept (masked: historyEntry.ts `keptSends`): after a window
   * reload the only memory of our commands, so a record caused by one still reads as ours (recordedAnswer.ts).
   */
  sentAnswers(hub: Pick<HubRef, 'id'>, itemKey: string): SentAnswer[] {
    const entry = this.entry(historyEntryId(hub, itemKey));
    return entry ? keptSends(entry) : [];
  }

  /** A command handed to the sender: a new send in the request's entry (the same command id sent again is the same send). */
  recordSent(hub: HubRef, item: Readonly<AttentionItem>, command: RespondCommand): void {
    this.ready();
    this.drainEnded();
    if (this.byCommand.has(command.id)) return;
    const now = this.now();
    const entry = this.entryFor(hub, item, now);
    const send = newHistorySend(command, answeredFor(item.request, entry.kind), now);
    entry.sends.push(send);
    delete entry.ended;
    this.byCommand.set(send.commandId, { entry, send });
    this.touch(entry, now);
    // Sends and their outcomes are written at once, not debounced: a reload right after
    // answering (which a web workbench does not wait for) must not lose what was sent.
    this.slot.flush();
  }

  /** How a recorded send ended; an id not recorded (or pruned since) is ignored. */
  recordOutcome(commandId: string, outcome: SendOutcome): void {
    this.ready();
    const known = this.byCommand.get(commandId);
    if (!known) return;
    // Said again after each reload while its request stays open: once is the fact.
    if (outcome.kind === 'not-kept' && known.send.outcomes.some((o) => o.kind === 'not-kept')) return;
    known.send.outcomes.push(historyOutcome(outcome, this.now()));
    this.changed(known.entry);
    this.slot.flush();
  }

  /**
   * An item changed in the inbox. What the agent's side said of it
   * (answered, then resolved / timeout / session-ended) is added to its
   * entry once each. An item that closed (or was answered elsewhere) with no
   * send from here gets an entry of its own, saying how it ended, but only
   * when it was open here at least `minOpenMs`: a replayed request that
   * arrives already answered was never the person's to answer here.
   */
  noteItem(hub: HubRef, item: Readonly<AttentionItem>): void {
    this.ready();
    const now = this.now();
    const id = historyEntryId(hub, item.key);
    const entry = this.byId.get(id);
    if (entry) {
      if (this.addAgentOutcomes(entry, item, now)) this.changed(entry);
      return;
    }
    // Already queued: the item is the same object, read again when its entry is made.
    if (this.endedQueue.has(id) || endedWithoutAnswer(item) === undefined) return;
    const endedAt = isOpenStatus(item.status) ? now : (item.closedAt ?? now);
    if (endedAt - item.receivedAt < this.minOpenMs) return;
    this.endedQueue.set(id, { hub, item, endedAt });
    this.slot.schedule();
    this.changes.fire();
  }

  /** The person dismissed the request here: listed as dismissed, unless it was answered from here. */
  noteDismissed(hub: HubRef, item: Readonly<AttentionItem>): void {
    this.ready();
    this.drainEnded();
    const existing = this.byId.get(historyEntryId(hub, item.key));
    if (existing && (existing.sends.length > 0 || existing.ended !== undefined)) return;
    const now = this.now();
    const entry = this.entryFor(hub, item, now);
    entry.ended = 'dismissed';
    this.addAgentOutcomes(entry, item, now);
    this.touch(entry, now);
  }

  /** Reads the limits again (a setting changed) and drops what they no longer allow. */
  applyLimits(): void {
    this.ready();
    this.drainEnded();
    this.limits = this.readLimits();
    if (!this.prune()) return;
    this.slot.schedule();
    this.changes.fire();
  }

  /** Empties the history, in storage at once. */
  clear(): void {
    // Nothing stored may come back after a clear.
    this.loaded = true;
    this.endedQueue.clear();
    const had = this.list.length > 0;
    this.list = [];
    this.byId.clear();
    this.byCommand.clear();
    this.slot.clear();
    if (had) this.changes.fire();
  }

  /** Writes pending changes. */
  dispose(): void {
    this.slot.dispose();
    this.changes.dispose();
  }

  // ---- entries ------------------------------------------------------------------

  /**
   * Makes entries of the queued ended requests, newest first, and only as
   * many as the bound can keep (at most half of maxEntries are such entries,
   * and the queue is newer than any of them): the rest would be dropped at once.
   */
  private drainEnded(): void {
    if (this.endedQueue.size === 0) return;
    // Newest first; of those that ended at once, the one noted last first (a stable sort of the reversed queue).
    const queued = [...this.endedQueue.values()].reverse().sort((a, b) => b.endedAt - a.endedAt).slice(0, Math.floor(this.limits.maxEntries / 2));
    this.endedQueue.clear();
    const now = this.now();
    // Oldest first, so the newest ends up first, as one by one would have left them.
    for (const { hub, item, endedAt } of queued.reverse()) {
      const ended = endedWithoutAnswer(item);
      if (ended === undefined || this.byId.has(historyEntryId(hub, item.key))) continue;
      const entry = this.entryFor(hub, item, endedAt);
      entry.ended = ended;
      this.addAgentOutcomes(entry, item, now);
      this.touch(entry, endedAt);
    }
  }

  private entryFor(hub: HubRef, item: Readonly<AttentionItem>, at: number): HistoryEntry {
    const id = historyEntryId(hub, item.key);
    const existing = this.byId.get(id);
    if (existing) return existing;
    const entry = newHistoryEntry(hub, item, at);
    this.byId.set(id, entry);
    this.list.unshift(entry);
    return entry;
  }

  /** Adds the agent outcomes the entry does not have yet; true when it added one. */
  private addAgentOutcomes(entry: HistoryEntry, item: Readonly<AttentionItem>, now: number): boolean {
    let added = false;
    for (const outcome of agentOutcomes(item, now, keptSends(entry))) {
      if (entry.agentOutcomes.some((known) => known.kind === outcome.kind)) continue;
      entry.agentOutcomes.push(outcome);
      added = true;
    }
    return added;
  }

  /** The entry's last activity is now: it moves to the front. */
  private touch(entry: HistoryEntry, at: number): void {
    entry.at = Math.max(entry.at, at);
    const index = this.list.indexOf(entry);
    if (index > 0) {
      this.list.splice(index, 1);
      this.list.unshift(entry);
    }
    this.changed(entry);
  }

  private changed(entry: HistoryEntry): void {
    this.slot.changed(entry);
    this.prune();
    this.slot.schedule();
    this.changes.fire();
  }

  // ---- bounds -------------------------------------------------------------------

  private readLimits(): HistoryLimits {
    let limits = DEFAULT_HISTORY_LIMITS;
    try {
      if (this.limitsSource) limits = this.limitsSource();
    } catch (error) {
      this.log.warn(`could not read the answer history limits, using the defaults: ${describeError(error)}`);
    }
    const { maxEntries, maxAgeDays } = limits;
    return {
      maxEntries: Number.isFinite(maxEntries) && maxEntries >= 0 ? Math.floor(maxEntries) : DEFAULT_HISTORY_LIMITS.maxEntries,
      maxAgeDays: Number.isFinite(maxAgeDays) && maxAgeDays > 0 ? maxAgeDays : DEFAULT_HISTORY_LIMITS.maxAgeDays,
    };
  }

  /**
   * Drops entries older than `maxAgeDays`, then all but the newest
   * `maxEntries`, then the oldest until the stored JSON fits `maxBytes`.
   * True when it dropped any.
   */
  private prune(): boolean {
    const cutoff = this.now() - this.limits.maxAgeDays * DAY_MS;
    // Stable: entries of the same time keep their order, the one touched last first.
    const ordered = [...this.list].sort((a, b) => b.at - a.at);
    // Requests that ended without an answer from here take at most half: a fleet's mass
    // timeout must not push what the person answered out of "what did I answer?".
    const maxEnded = Math.floor(this.limits.maxEntries / 2);
    let ended = 0;
    const kept: HistoryEntry[] = [];
    for (const entry of ordered) {
      if (kept.length >= this.limits.maxEntries) break;
      if (entry.at < cutoff) continue;
      if (entry.sends.length === 0 && ended++ >= maxEnded) continue;
      kept.push(entry);
    }
    // Then what the storage slot's size cap keeps: the newest that fit.
    kept.splice(0, kept.length, ...this.slot.fit(kept).kept);
    const dropped = ordered.length - kept.length;
    this.list = kept;
    if (dropped === 0) return false;
    const keep = new Set(kept);
    for (const entry of ordered) {
      if (keep.has(entry)) continue;
      this.byId.delete(entry.id);
      for (const send of entry.sends) this.byCommand.delete(send.commandId);
    }
    return true;
  }

  // ---- storage ------------------------------------------------------------------

  /** Reads the stored history; whether what was stored needs writing again: entries skipped (`later`), or masked again (`now`). */
  private load(): 'no' | 'later' | 'now' {
    const read = this.slot.read();
    for (const entry of read.entries) {
      this.byId.set(entry.id, entry);
      for (const send of entry.sends) this.byCommand.set(send.commandId, { entry, send });
      this.list.push(entry);
    }
    const remasked = this.remasked;
    if (remasked > 0) this.log.info(`masked ${remasked} saved answer history entr${remasked === 1 ? 'y' : 'ies'} that held text this version does not keep`, { code: 'history-remasked', data: { entries: remasked } });
    // What an older version stored may hold what this one masks: written back at once.
    if (read.form === 'older') return 'now';
    return read.skipped > 0 ? 'later' : 'no';
  }

  /** Version 1 to 2: the entry masked as a new one is; one that cannot be read is left to the schema to refuse. */
  private remask(raw: unknown): unknown {
    const parsed = historyEntrySchema.safeParse(raw);
    if (!parsed.success) return raw;
    if (remaskEntry(parsed.data)) this.remasked++;
    return parsed.data;
  }
}
