import type * as vscode from 'vscode';
import { CommandStore, type KeyValueStorage } from '../aep/client/commandStore';
import { describeError, type Logger } from '../aep/client/logger';
import { RecentPositions, type KeptPosition, type PositionStore } from '../aep/client/positionStore';
import { parseEnvelope, type AepEvent } from '../aep/envelope';
import { keptPositionSchema } from '../aep/frames';
import type { AttentionItem, Inbox } from '../aep/inbox/inbox';

const SAVE_DELAY_MS = 1_000;
const MAX_SAVED_ITEMS = 1_000;
/** The saved open requests, as JSON text: `workspaceState` is rewritten whole on every change. */
const DEFAULT_MAX_SNAPSHOT_BYTES = 8 * 1024 * 1024;
/**
 * The storage key of the local dismissals. It says "hidden", the code's old word: windows
 * before the rename saved dismissals under it, and a new name would lose them on update.
 */
const DISMISSED_KEY = 'hidden';

export interface PersistenceOptions {
  /** Largest snapshot of open requests, in characters of JSON; the newest requests are kept. */
  maxSnapshotBytes?: number;
}

/**
 * What survives a window reload, per hub (its base URL, hubList.ts hubId:
 * for a hub with no path its origin, the key of versions before paths told
 * hubs apart), in `workspaceState`: the
 * resume positions and the open requests (their own events), so a reload
 * shows pending requests at once and resumes without a gap or a second
 * notification. Writes are debounced; `flush` runs on dispose.
 *
 * Every key is written on its own and every failure is caught and logged:
 * one value that cannot be stored (or a storage that refuses) must not stop
 * the others, least of all the resume positions.
 */
export class WorkspacePersistence implements PositionStore, vscode.Disposable {
  /** Only sessions the inbox still tracks, newest 1 000 (see RecentPositions): a fleet's ended sessions must not pile up. */
  private readonly positions: RecentPositions;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private inbox: Inbox | undefined;
  private dismissed = new Set<string>();
  private readonly maxSnapshotBytes: number;
  /** Answers not yet acknowledged, written at once (not debounced): a reload must not lose one (AEP-0004 §2.3). */
  readonly commands: CommandStore;

  constructor(
    private readonly memento: KeyValueStorage,
    private readonly hub: string,
    private readonly log: Logger,
    options: PersistenceOptions = {},
  ) {
    this.maxSnapshotBytes = options.maxSnapshotBytes ?? DEFAULT_MAX_SNAPSHOT_BYTES;
    this.commands = new CommandStore(memento, this.key('commands'), log);
    const saved = memento.get<unknown[]>(this.key('positions'), []);
    const valid: KeptPosition[] = [];
    // Positions saved before they named their emitter are `{session, epoch, seq}`: read as kept without a source.
    for (const raw of Array.isArray(saved) ? saved : []) {
      const position = keptPositionSchema.safeParse(raw);
      if (position.success) valid.push(position.data);
    }
    // A list saved before positions were bounded may hold every session ever seen: its newest end is kept.
    this.positions = new RecentPositions(valid);
    if (this.positions.size < valid.length) {
      log.info(`kept the ${this.positions.size} most recently advanced of ${valid.length} saved resume positions`);
      this.schedule();
    }
    const dismissed = memento.get<unknown[]>(this.key(DISMISSED_KEY), []);
    // Keys saved before they named their hub lack the hub the inbox now puts first (InboxOptions.hub).
    const scope = `${hub}\u0000`;
    for (const key of Array.isArray(dismissed) ? dismissed : []) if (typeof key === 'string') this.dismissed.add(key.startsWith(scope) ? key : scope + key);
  }

  load(): readonly KeptPosition[] {
    return this.positions.list();
  }

  record(position: KeptPosition): void {
    this.positions.record(position);
    this.schedule();
  }

  forget(source: string, session: string): void {
    const before = this.positions.size;
    this.positions.forget(source, session);
    if (this.positions.size !== before) this.schedule();
  }

  /** Requests the user dismissed locally (nothing was sent); left out of this inbox only. */
  get dismissedKeys(): ReadonlySet<string> {
    return this.dismissed;
  }

  dismiss(key: string): void {
    this.dismissed.add(key);
    this.schedule();
  }

  /** Replays the saved open requests into a fresh inbox, then keeps the snapshot current. */
  restoreInto(inbox: Inbox): number {
    this.inbox = inbox;
    const saved = this.memento.get<unknown[]>(this.key('open'), []);
    const received = this.memento.get<unknown>(this.key('received'), {});
    const receivedAt = (event: AepEvent): number | undefined => {
      const at = typeof received === 'object' && received !== null ? (received as Record<string, unknown>)[`${event.source}\u0000${event.id}`] : undefined;
      return typeof at === 'number' && Number.isFinite(at) ? at : undefined;
    };
    let restored = 0;
    for (const raw of Array.isArray(saved) ? saved : []) {
      try {
        const event = parseEnvelope(raw);
        if (event.ok && inbox.apply(event.value, receivedAt(event.value)).applied) restored++;
      } catch (error) {
        this.log.warn(`skipped a saved request that could not be restored: ${describeError(error)}`);
      }
    }
    return restored;
  }

  inboxChanged(): void {
    this.schedule();
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.write('positions', () => this.positions.list());
    if (this.inbox) {
      const inbox = this.inbox;
      let open: ReadonlyArray<Readonly<AttentionItem>> = [];
      try {
        open = inbox.open();
      } catch (error) {
        this.log.error(`could not read the open requests to save them: ${describeError(error)}`);
      }
      const kept = this.snapshot(open);
      this.write('open', () => kept.flatMap((item) => (item.answeredEvent ? [item.requestEvent, item.answeredEvent] : [item.requestEvent])));
      // When each request first arrived, so its age survives a reload.
      this.write('received', () => Object.fromEntries(kept.map((item) => [`${item.source}\u0000${item.requestId}`, item.receivedAt])));
      // Forget dismissals of requests that are no longer open (saved or not).
      const openKeys = new Set(open.map((item) => item.key));
      for (const key of this.dismissed) if (!openKeys.has(key)) this.dismissed.delete(key);
    }
    this.write(DISMISSED_KEY, () => [...this.dismissed]);
  }

  dispose(): void {
    this.flush();
  }

  /**
   * The open requests to save, oldest first: the newest that fit in
   * `maxSnapshotBytes` (and `MAX_SAVED_ITEMS`). Each item's events are
   * serialized here, once, to measure them; one that cannot be is skipped
   * and logged, so it cannot make the whole snapshot fail in `update`.
   */
  private snapshot(open: ReadonlyArray<Readonly<AttentionItem>>): Array<Readonly<AttentionItem>> {
    const kept: Array<Readonly<AttentionItem>> = [];
    let bytes = 0;
    let skipped = 0;
    for (let i = open.length - 1; i >= 0 && kept.length < MAX_SAVED_ITEMS; i--) {
      const item = open[i];
      if (!item) continue;
      let size: number;
      try {
        size = JSON.stringify(item.requestEvent).length + (item.answeredEvent ? JSON.stringify(item.answeredEvent).length : 0);
      } catch (error) {
        skipped++;
        this.log.warn(`not saving ${item.agent}'s request ${item.requestId} in session ${item.session}: it cannot be stored as JSON (${describeError(error)})`);
        continue;
      }
      if (bytes + size > this.maxSnapshotBytes) break;
      bytes += size;
      kept.push(item);
    }
    const left = open.length - kept.length - skipped;
    if (left > 0) {
      this.log.warn(
        `saved the ${kept.length} newest of ${open.length} open requests for a window reload; the ${left} oldest did not fit in ${Math.round(this.maxSnapshotBytes / 1024)} KB (or ${MAX_SAVED_ITEMS} requests) and will come back only if the hub still holds them`,
      );
    }
    return kept.reverse();
  }

  /** Writes one key; a value that cannot be stored, or a storage that fails, is logged and the other keys still go out. */
  private write(name: string, value: () => unknown): void {
    const failed = (error: unknown) => this.log.error(`could not save ${name} for ${this.hub}: ${describeError(error)}`);
    try {
      Promise.resolve(this.memento.update(this.key(name), value())).catch(failed);
    } catch (error) {
      failed(error);
    }
  }

  private key(name: string): string {
    return `aepAttention.${name}:${this.hub}`;
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => this.flush(), SAVE_DELAY_MS);
  }
}
