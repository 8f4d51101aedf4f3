import type { SendOutcome } from '../client/controlSender';
import type { KeyValueStorage } from '../client/commandStore';
import { describeError, type Logger } from '../client/logger';
import type { RespondCommand } from '../control';
import { Emitter } from '../emitter';
import { isOpenStatus, type AttentionItem } from '../inbox/inbox';
import {
  agentOutcomes,
  answeredFor,
  endedWithoutAnswer,
  historyEntryId,
  historyOutcome,
  newHistoryEntry,
  newHistorySend,
  readHistoryEntry,
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
/** 2: answers to `auth` requests and every secret-asking field masked whole; version 1 is read and masked so. */
const HISTORY_VERSION = 2;
const UNMASKED_HISTORY_VERSION = 1;
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
  /** Characters of JSON each entry stores, measured once per change to it: a flood of closing requests must not re-serialize the whole history each time. */
  private readonly sizes = new WeakMap<HistoryEntry, number>();
  private readonly now: () => number;
  private readonly limitsSource: (() => HistoryLimits) | undefined;
  private limits: HistoryLimits;
  private readonly maxBytes: number;
  private readonly minOpenMs: number;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;
  /** The stored history is read on first use, not at construction: the extension's activation does not wait for it. */
  private loaded = false;
  private readonly changes: Emitter<void>;
  readonly onDidChange;

  constructor(
    private readonly storage: KeyValueStorage,
    private readonly log: Logger,
    options: AnswerHistoryOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.limitsSource = options.limits;
    this.maxBytes = options.maxBytes ?? DEFAULT_HISTORY_MAX_BYTES;
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
    if (repaired === 'now') this.flush();
    else if (pruned || repaired === 'later') this.schedule();
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
    this.flush();
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
    this.flush();
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
    this.schedule();
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
    this.schedule();
    this.changes.fire();
  }

  /** Empties the history, in storage at once. */
  clear(): void {
    // Nothing stored may come back after a clear.
    this.loaded = true;
    this.cancelSave();
    this.endedQueue.clear();
    const had = this.list.length > 0;
    this.list = [];
    this.byId.clear();
    this.byCommand.clear();
    this.write(undefined);
    if (had) this.changes.fire();
  }

  /** Writes pending changes. */
  dispose(): void {
    if (this.timer) this.flush();
    this.disposed = true;
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
    for (const outcome of agentOutcomes(item, now)) {
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
    this.sizes.delete(entry);
    this.prune();
    this.schedule();
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
    let bytes = JSON.stringify(storedJson([])).length;
    let fits = 0;
    for (const entry of kept) {
      const size = this.sizeOf(entry);
      if (size === undefined || bytes + size + (fits > 0 ? 1 : 0) > this.maxBytes) break;
      bytes += size + (fits > 0 ? 1 : 0);
      fits++;
    }
    kept.length = fits;
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

  private sizeOf(entry: HistoryEntry): number | undefined {
    let size = this.sizes.get(entry);
    if (size !== undefined) return size;
    try {
      size = JSON.stringify(entry).length;
    } catch (error) {
      this.log.warn(`an answer history entry cannot be stored as JSON, so it and older ones are dropped: ${describeError(error)}`);
      return undefined;
    }
    this.sizes.set(entry, size);
    return size;
  }

  // ---- storage ------------------------------------------------------------------

  /** Reads the stored history; whether what was stored needs writing again: entries skipped (`later`), or masked again (`now`). */
  private load(): 'no' | 'later' | 'now' {
    let saved: unknown;
    try {
      saved = this.storage.get<unknown>(HISTORY_STORAGE_KEY, undefined);
    } catch (error) {
      this.log.error(`could not read the answer history: ${describeError(error)}`);
      return 'no';
    }
    if (saved === undefined) return 'no';
    const stored = typeof saved === 'object' && saved !== null ? (saved as Record<string, unknown>) : {};
    const version = stored['version'];
    if ((version !== HISTORY_VERSION && version !== UNMASKED_HISTORY_VERSION) || !Array.isArray(stored['entries'])) {
      this.log.warn('the saved answer history is in a form this version does not read; it starts empty');
      return 'no';
    }
    // What an older version stored may hold what this one masks: masked now, and written back at once.
    const unmasked = version === UNMASKED_HISTORY_VERSION;
    let skipped = 0;
    let remasked = 0;
    for (const raw of stored['entries'] as unknown[]) {
      const entry = readHistoryEntry(raw);
      if (!entry || this.byId.has(entry.id) || entry.sends.some((send) => this.byCommand.has(send.commandId))) {
        skipped++;
        continue;
      }
      if (unmasked && remaskEntry(entry)) remasked++;
      this.byId.set(entry.id, entry);
      for (const send of entry.sends) this.byCommand.set(send.commandId, { entry, send });
      this.list.push(entry);
    }
    if (skipped > 0) this.log.warn(`skipped ${skipped} saved answer history entr${skipped === 1 ? 'y' : 'ies'} that could not be read`);
    if (remasked > 0) this.log.info(`masked ${remasked} saved answer history entr${remasked === 1 ? 'y' : 'ies'} that held text this version does not keep`);
    if (unmasked) return 'now';
    return skipped > 0 ? 'later' : 'no';
  }

  private schedule(): void {
    if (this.disposed) {
      this.write(storedJson(this.list));
      return;
    }
    if (this.timer) return;
    this.timer = setTimeout(() => this.flush(), SAVE_DELAY_MS);
  }

  private cancelSave(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private flush(): void {
    this.drainEnded();
    this.cancelSave();
    this.write(storedJson(this.list));
  }

  /** One write; a storage that throws or rejects is logged, and the history in memory stays. */
  private write(value: unknown): void {
    const failed = (error: unknown) => this.log.error(`could not save the answer history: ${describeError(error)}`);
    try {
      Promise.resolve(this.storage.update(HISTORY_STORAGE_KEY, value)).catch(failed);
    } catch (error) {
      failed(error);
    }
  }
}

function storedJson(entries: readonly HistoryEntry[]): { version: number; entries: readonly HistoryEntry[] } {
  return { version: HISTORY_VERSION, entries };
}
