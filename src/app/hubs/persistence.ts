import type { Subscription } from '../../base/emitter';
import * as z from 'zod/mini';
import { CommandStore, type KeyValueStorage } from '../../client/commandStore';
import { describeError, type Logger } from '../../base/logger';
import { keptKey, MAX_KEPT_POSITIONS, RecentPositions, type KeptPosition, type PositionStore } from '../../client/positionStore';
import { epochOf, parseEnvelope, type AepEvent } from '../../aep/envelope';
import { AppliedPositions, MAX_SAVED_RUNS } from '../../inbox/appliedPositions';
import type { Position } from '../../inbox/position';
import { keptPositionSchema } from '../../aep/frames';
import type { AttentionItem, Inbox } from '../../inbox/inbox';
import { parsedOk, parsedProblem, type Parsed } from '../../base/result';
import { capWords, StorageSlot } from '../../base/storageSlot';

const SAVE_DELAY_MS = 1_000;
const MAX_SAVED_ITEMS = 1_000;
/** The saved open requests, as JSON text: `workspaceState` is rewritten whole on every change. */
const DEFAULT_MAX_SNAPSHOT_BYTES = 8 * 1024 * 1024;
/**
 * The storage key of the local dismissals. It says "hidden", the code's old word: windows
 * before the rename saved dismissals under it, and a new name would lose them on update.
 */
const DISMISSED_KEY = 'hidden';
/** Where version 0 kept when each open request arrived, beside the requests: version 1 keeps it in each entry. */
const LEGACY_RECEIVED_KEY = 'received';

export interface PersistenceOptions {
  /** Largest snapshot of open requests, in characters of JSON; the newest requests are kept. */
  maxSnapshotBytes?: number;
}

/** One open request as saved: its own event, then the answer seen for it, and when it first arrived. */
interface SavedRequest {
  events: AepEvent[];
  receivedAt?: number;
}

const savedRequestSchema = z.object({
  events: z.array(z.unknown()).check(z.minLength(1), z.maxLength(2)),
  /** Not a reason to lose the request: one that is no time is dated by the reload. */
  receivedAt: z.optional(z.unknown()),
});

function readSavedRequest(saved: z.infer<typeof savedRequestSchema>): Parsed<SavedRequest> {
  const events: AepEvent[] = [];
  for (const [index, raw] of saved.events.entries()) {
    const event = parseEnvelope(raw);
    if (!event.ok) return parsedProblem(`event ${index}: ${event.problem}`);
    events.push(event.value);
  }
  const { receivedAt } = saved;
  return parsedOk({ events, ...(typeof receivedAt === 'number' && Number.isFinite(receivedAt) ? { receivedAt } : {}) });
}

/**
 * What survives a window reload, per hub (its base URL, hubList.ts hubId:
 * for a hub with no path its origin, the key of versions before paths told
 * hubs apart), in `workspaceState`: the
 * resume positions and the open requests (their own events), so a reload
 * shows pending requests at once and resumes without a gap or a second
 * notification. Each is a storage slot of its own (src/aep/storage): a
 * value that cannot be stored, or a storage that refuses, stops no other,
 * least of all the resume positions. Writes are debounced; `flush` runs on dispose.
 */
export class WorkspacePersistence implements PositionStore, Subscription {
  /** Only sessions the inbox still tracks, newest 1 000 (see RecentPositions): a fleet's ended sessions must not pile up. */
  private readonly positions: RecentPositions;
  private inbox: Inbox | undefined;
  private dismissed = new Set<string>();
  /** Answers not yet acknowledged, written at once (not debounced): a reload must not lose one (AEP-0004 §2.3). */
  readonly commands: CommandStore;
  private readonly positionSlot: StorageSlot<KeptPosition>;
  private readonly openSlot: StorageSlot<SavedRequest, z.infer<typeof savedRequestSchema>>;
  private readonly dismissedSlot: StorageSlot<string>;
  /** Version 0's arrival times, read once when its requests are; removed once version 1 is written. */
  private legacyReceived: Record<string, unknown> | undefined;

  constructor(
    private readonly memento: KeyValueStorage,
    private readonly hub: string,
    private readonly log: Logger,
    options: PersistenceOptions = {},
  ) {
    this.commands = new CommandStore(memento, this.key('commands'), log);
    // Version 0 is the bare list; positions saved before they named their emitter (`{session, epoch, seq}`) are read as kept without a source.
    const bareList = (raw: unknown) => (Array.isArray(raw) ? raw : undefined);
    this.positionSlot = new StorageSlot<KeptPosition>(
      memento,
      {
        key: this.key('positions'),
        label: `the resume positions for ${hub}`,
        noun: ['resume position', 'resume positions'],
        version: 1,
        schema: keptPositionSchema,
        legacy: bareList,
        // Least recently advanced first: those go. RecentPositions holds the list to this (and to its size) already.
        cap: { maxEntries: MAX_KEPT_POSITIONS, dropFrom: 'first' },
        debounceMs: SAVE_DELAY_MS,
        source: () => this.positionsToSave(),
      },
      log,
    );
    const valid = this.positionSlot.read().entries;
    // A list saved before positions were bounded may hold every session ever seen: its newest end is kept.
    this.positions = new RecentPositions(valid);
    if (this.positions.size < valid.length) {
      log.info(`kept the ${this.positions.size} most recently advanced of ${valid.length} saved resume positions`, { code: 'positions-trimmed', data: { kept: this.positions.size, total: valid.length } });
      this.positionSlot.schedule();
    }
    const maxChars = options.maxSnapshotBytes ?? DEFAULT_MAX_SNAPSHOT_BYTES;
    this.openSlot = new StorageSlot(
      memento,
      {
        key: this.key('open'),
        label: `the open requests for ${hub}`,
        noun: ['open request', 'open requests'],
        version: 1,
        schema: savedRequestSchema,
        check: readSavedRequest,
        legacy: bareList,
        // Version 0: a bare list of events, their arrival times under a key of their own.
        migrations: { 0: (event) => this.fromVersion0(event) },
        // Oldest first: the oldest go; they come back only if the hub still holds them.
        cap: { maxEntries: MAX_SAVED_ITEMS, maxChars, dropFrom: 'first' },
        describe: ({ events: [event] }) => (event ? `${event.agent}'s request ${event.id} in session ${event.session ?? ''}` : 'an empty entry'),
        droppedLine: ({ kept, dropped }, total) =>
          `saved the ${kept.length} newest of ${total} open requests for a window reload; the ${dropped.length} oldest did not fit in ` +
          `${capWords({ maxChars })} (or ${MAX_SAVED_ITEMS} requests) and will come back when the hub replays them, if it still holds them`,
        debounceMs: SAVE_DELAY_MS,
        source: () => this.savedRequests(),
      },
      log,
    );
    // Keys saved before they named their hub lack the hub the inbox now puts first (InboxOptions.hub).
    const scope = `${hub}\u0000`;
    this.dismissedSlot = new StorageSlot<string>(
      memento,
      {
        key: this.key(DISMISSED_KEY),
        label: `the dismissed requests for ${hub}`,
        noun: ['dismissed request', 'dismissed requests'],
        version: 1,
        schema: z.string(),
        legacy: bareList,
        migrations: { 0: (key) => (typeof key === 'string' && !key.startsWith(scope) ? scope + key : key) },
        debounceMs: SAVE_DELAY_MS,
        source: () => this.dismissedToSave(),
      },
      log,
    );
    for (const key of this.dismissedSlot.read().entries) this.dismissed.add(key);
  }

  load(): readonly KeptPosition[] {
    return this.positions.list();
  }

  record(position: KeptPosition): void {
    this.positions.record(position);
    this.positionSlot.schedule();
  }

  forget(source: string, session: string): void {
    const before = this.positions.size;
    this.positions.forget(source, session);
    if (this.positions.size !== before) this.positionSlot.schedule();
  }

  /** Requests the user dismissed locally (nothing was sent); left out of this inbox only. */
  get dismissedKeys(): ReadonlySet<string> {
    return this.dismissed;
  }

  dismiss(key: string): void {
    this.dismissed.add(key);
    this.dismissedSlot.schedule();
  }

  /** Replays the saved open requests into a fresh inbox, then keeps the snapshot current. */
  restoreInto(inbox: Inbox): number {
    this.inbox = inbox;
    let restored = 0;
    for (const { events, receivedAt } of this.openSlot.read().entries) {
      for (const event of events) {
        try {
          if (inbox.apply(event, { receivedAt }).applied) restored++;
        } catch (error) {
          this.log.warn(`skipped a saved request that could not be restored: ${describeError(error)}`, { code: 'storage-entries-skipped', data: { slot: this.key('open'), skipped: 1 } });
        }
      }
    }
    return restored;
  }

  inboxChanged(): void {
    this.openSlot.schedule();
    this.dismissedSlot.schedule();
  }

  flush(): void {
    this.positionSlot.flush();
    if (this.inbox) {
      const written = this.openSlot.flush();
      if (written && this.legacyReceived !== undefined && !this.openSlot.readOnly) {
        this.legacyReceived = undefined;
        this.write(LEGACY_RECEIVED_KEY, undefined);
      }
    }
    this.dismissedSlot.flush();
  }

  dispose(): void {
    this.flush();
  }

  /**
   * The positions with what each session applied, less the open requests the
   * snapshot leaves out (its bound): a reload does not restore those, so their
   * positions must not hold them back when the hub replays them. Under the
   * floor an open request is never listed as applied (Inbox.positionOf), so it
   * comes back without a hole; above it, at most 2 × MAX_SAVED_RUNS runs.
   */
  private positionsToSave(): KeptPosition[] {
    const list = this.positions.list();
    if (!this.inbox) return list;
    const { dropped, unstorable } = this.openSlot.fit(this.savedRequests(), true);
    const left = [...dropped, ...unstorable];
    if (left.length === 0) return list;
    const holes = new Map<string, Position[]>();
    for (const { events } of left) {
      for (const event of events) {
        if (event.session === undefined || event.seq === undefined) continue;
        const key = keptKey(event.source, event.session);
        const positions = holes.get(key) ?? [];
        positions.push({ epoch: epochOf(event), seq: event.seq });
        holes.set(key, positions);
      }
    }
    return list.map((kept) => {
      const punched = kept.applied && holes.get(keptKey(kept.source, kept.session));
      if (!kept.applied || !punched) return kept;
      const applied = new AppliedPositions(kept.applied, Number.MAX_SAFE_INTEGER);
      for (const position of punched) applied.remove(position);
      return { ...kept, applied: applied.saved(2 * MAX_SAVED_RUNS) };
    });
  }

  /** The open requests to save, oldest first, each with its answer and when it first arrived (so its age survives a reload). */
  private savedRequests(): SavedRequest[] {
    const inbox = this.inbox;
    if (!inbox) return [];
    return inbox.open().map((item: Readonly<AttentionItem>) => ({
      events: item.answeredEvent ? [item.requestEvent, item.answeredEvent] : [item.requestEvent],
      receivedAt: item.receivedAt,
    }));
  }

  /** The dismissals still worth keeping: those of requests still open (saved or not). */
  private dismissedToSave(): string[] {
    if (this.inbox) {
      try {
        const openKeys = new Set(this.inbox.open().map((item) => item.key));
        for (const key of this.dismissed) if (!openKeys.has(key)) this.dismissed.delete(key);
      } catch (error) {
        this.log.error(`could not read the open requests to keep their dismissals: ${describeError(error)}`);
      }
    }
    return [...this.dismissed];
  }

  /** A version 0 entry (one event) as version 1 has it, with the arrival time version 0 kept beside it. */
  private fromVersion0(event: unknown): unknown {
    if (this.legacyReceived === undefined) {
      let received: unknown;
      try {
        received = this.memento.get<unknown>(this.key(LEGACY_RECEIVED_KEY), {});
      } catch (error) {
        this.log.warn(`could not read when the saved requests arrived; they are dated now: ${describeError(error)}`);
      }
      this.legacyReceived = typeof received === 'object' && received !== null ? (received as Record<string, unknown>) : {};
    }
    const { source, id } = typeof event === 'object' && event !== null ? (event as Record<string, unknown>) : {};
    const at = typeof source === 'string' && typeof id === 'string' ? this.legacyReceived[`${source}\u0000${id}`] : undefined;
    return { events: [event], ...(typeof at === 'number' && Number.isFinite(at) ? { receivedAt: at } : {}) };
  }

  /** Writes one key; a storage that fails is logged. */
  private write(name: string, value: unknown): void {
    const failed = (error: unknown) => this.log.error(`could not save ${name} for ${this.hub}: ${describeError(error)}`, { code: 'storage-write-failed', data: { slot: this.key(name) } });
    try {
      Promise.resolve(this.memento.update(this.key(name), value)).catch(failed);
    } catch (error) {
      failed(error);
    }
  }

  private key(name: string): string {
    return `aepAttention.${name}:${this.hub}`;
  }
}
