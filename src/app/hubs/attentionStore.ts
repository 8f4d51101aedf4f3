import type { KeyValueStorage } from '../../client/commandStore';
import type { Logger } from '../../base/logger';
import { Emitter } from '../../base/emitter';
import type { CaptureLevel } from '../../aep/levels';
import { Inbox, isOpenStatus, type AttentionItem, type InboxChange, type InboxOptions } from '../../inbox/inbox';
import { Disposable } from '../../base/disposable';
import { WorkspacePersistence, type PersistenceOptions } from './persistence';

/** Where the store logs, one tagged logger per component (src/ui/services/log.ts `ExtensionLog` is one). */
export interface ComponentLog {
  for(component: string): Logger;
}

export interface AttentionStoreOptions {
  /** How often open requests are checked for a deadline that has passed; default 1 s. */
  deadlineCheckMs?: number;
  /** For every inbox the store makes (bounds, a clock). */
  inbox?: Omit<InboxOptions, 'onListenerError'>;
  persistence?: PersistenceOptions;
}

const DEFAULT_DEADLINE_CHECK_MS = 1_000;
const NOTHING_DISMISSED: ReadonlySet<string> = new Set();

/**
 * The window's attention state for one hub (its base URL): the inbox, the requests
 * the user dismissed here, and what of them survives a reload (persistence.ts).
 * A different hub gets a different inbox: requests and dismissals never
 * cross hubs. The hub connection feeds the inbox; the views read it here.
 *
 * Free of `vscode` at runtime (only types come from it), so it is tested in
 * plain Node.
 */
export class AttentionStore extends Disposable {
  private inboxValue: Inbox;
  private persistenceValue: WorkspacePersistence | undefined;
  private baseValue: string | undefined;
  private deadlineTimer: ReturnType<typeof setInterval> | undefined;
  private readonly deadlineCheckMs: number;
  private readonly inboxChanges: Emitter<InboxChange | undefined>;
  private readonly itemChanges: Emitter<Readonly<AttentionItem>>;
  /** An incremental change, or `undefined` when the whole inbox was replaced (hub changed, restored). */
  readonly onDidChangeInbox;
  /** Every change of an item, dismissed ones included (onDidChangeInbox leaves those out): the answer history's feed. */
  readonly onDidChangeItem;

  constructor(
    private readonly storage: KeyValueStorage,
    private readonly log: ComponentLog,
    private readonly options: AttentionStoreOptions = {},
  ) {
    super();
    this.deadlineCheckMs = options.deadlineCheckMs ?? DEFAULT_DEADLINE_CHECK_MS;
    this.inboxChanges = this._register(new Emitter<InboxChange | undefined>((error) => log.for('inbox').error(`listener failed: ${String(error)}`)));
    this.onDidChangeInbox = this.inboxChanges.event;
    this.itemChanges = this._register(new Emitter<Readonly<AttentionItem>>((error) => log.for('inbox').error(`listener failed: ${String(error)}`)));
    this.onDidChangeItem = this.itemChanges.event;
    // Empty until a hub is known; it holds nothing until `switchTo`.
    this.inboxValue = new Inbox(options.inbox);
    this._register({
      dispose: () => {
        this.release();
        this.inboxValue.dispose();
      },
    });
  }

  get inbox(): Inbox {
    return this.inboxValue;
  }

  /** The hub base URL whose requests the store holds; undefined when none (no hub, or an unusable address). */
  get base(): string | undefined {
    return this.baseValue;
  }

  /** What the hub client resumes from and keeps its unacknowledged answers in, for this hub. */
  get persistence(): WorkspacePersistence | undefined {
    return this.persistenceValue;
  }

  /** Requests the user dismissed locally (nothing was sent). */
  get dismissedKeys(): ReadonlySet<string> {
    return this.persistenceValue?.dismissedKeys ?? NOTHING_DISMISSED;
  }

  /** Open requests the user has not dismissed locally. */
  visibleItems(): Array<Readonly<AttentionItem>> {
    const dismissed = this.dismissedKeys;
    return this.inboxValue.open().filter((item) => !dismissed.has(item.key));
  }

  /**
   * How many `visibleItems()` there are, without listing them: the open count
   * less the dismissed ones still open. O(dismissed), not O(open), so a badge
   * or the status bar can count on every change of a flooded inbox.
   */
  get visibleCount(): number {
    return countVisible(this.inboxValue, this.dismissedKeys);
  }

  /** Dismisses a request in this window only; the agent is told nothing. */
  dismiss(item: Readonly<AttentionItem>): void {
    this.persistenceValue?.dismiss(item.key);
    this.inboxChanges.fire({ kind: 'removed', item });
  }

  /**
   * Replaces the inbox with the one for `base`, restored from what the last
   * window saved for it, and fires `undefined`. Whatever fed the old inbox
   * (the hub client) must be stopped first. `captureCeiling`: what its
   * connection asks the hub for, so a request it withheld reads as such.
   */
  switchTo(base: string | undefined, captureCeiling?: CaptureLevel): void {
    this.release();
    this.inboxValue.dispose();
    // The ceiling first: requests restored below were withheld, or not, under it.
    const inbox = new Inbox({ ...this.options.inbox, ...(base ? { hub: base } : {}), captureCeiling, onListenerError: (error) => this.log.for('inbox').error(String(error)) });
    this.inboxValue = inbox;
    this.baseValue = base;
    // Without a base (an unusable URL) nothing is persisted.
    const persistence = base ? new WorkspacePersistence(this.storage, base, this.log.for('persistence'), this.options.persistence) : undefined;
    this.persistenceValue = persistence;
    const restored = persistence?.restoreInto(inbox) ?? 0;
    if (restored > 0) this.log.for('inbox').info(`restored ${restored} events of open requests from the last session`, { code: 'requests-restored', data: { events: restored } });
    inbox.onDidChange((change) => {
      this.persistenceValue?.inboxChanged();
      this.itemChanges.fire(change.item);
      if (this.persistenceValue?.dismissedKeys.has(change.item.key) && change.kind !== 'removed') return;
      this.inboxChanges.fire(change);
    });
    if (base) this.startDeadlineChecks(inbox);
    this.inboxChanges.fire(undefined);
  }

  /**
   * Saves and lets go of the hub's storage (no hub is configured any more,
   * or the window closes). The inbox stays as it is until the next `switchTo`.
   */
  release(): void {
    this.stopDeadlineChecks();
    this.persistenceValue?.dispose();
    this.persistenceValue = undefined;
    this.baseValue = undefined;
  }

  /**
   * A request past its `expires_at` stays open (AEP-0002 §7 rule 2); the
   * inbox reports it once as `updated` so the views can say so. The clock is
   * the store's, not the connection's: a disconnected window's deadlines pass too.
   */
  private startDeadlineChecks(inbox: Inbox): void {
    this.stopDeadlineChecks();
    this.deadlineTimer = setInterval(() => inbox.noteDeadlinesPassed(), this.deadlineCheckMs);
    // A check due is no reason to keep a process alive.
    this.deadlineTimer.unref?.();
  }

  private stopDeadlineChecks(): void {
    if (this.deadlineTimer) clearInterval(this.deadlineTimer);
    this.deadlineTimer = undefined;
  }
}

/**
 * How many open requests of `inbox` are not in `dismissed`, without listing
 * them: the open count less the dismissed ones still open. O(dismissed), not
 * O(open), so the status bar and the badge can count on every change of a
 * flooded inbox (of one hub, or of hubs that share no session: countWaiting).
 */
export function countVisible(inbox: Inbox, dismissed: ReadonlySet<string>): number {
  let count = inbox.openCount;
  for (const key of dismissed) {
    const item = inbox.item(key);
    if (item !== undefined && isOpenStatus(item.status)) count--;
  }
  return count;
}

/**
 * How many requests wait for the person across `stores` (one per hub), each
 * counted once: a request two hubs hold (the same session, source and id:
 * one hub under two addresses, or two hubs relaying one agent) is one request,
 * though each hub lists it, and it waits while either copy is open and not
 * dismissed. A store that holds open no session an earlier one holds open
 * (hubs relaying different agents) counts without listing (countVisible,
 * O(dismissed)) after a lookup of each of its open sessions in each earlier
 * store; only a store that shares a session has each of its requests looked
 * up in the stores before it, so a count is then O(open): about 4 ms with
 * 10,000 open in each of two (each lookup builds the request's key), against
 * microseconds otherwise.
 */
export function countWaiting(stores: readonly AttentionStore[]): number {
  let count = 0;
  stores.forEach((store, index) => {
    const earlier = stores.slice(0, index);
    if (!sharesASession(store, earlier)) count += store.visibleCount;
    else for (const item of store.visibleItems()) if (!earlier.some((other) => shows(other, item))) count++;
  });
  return count;
}

/** Whether any of `earlier` holds open a session `store` holds open: only there can a request of `store` be counted already. */
function sharesASession(store: AttentionStore, earlier: readonly AttentionStore[]): boolean {
  if (earlier.length === 0) return false;
  for (const session of store.inbox.openSessionKeys.keys()) if (earlier.some((other) => other.inbox.openSessionKeys.has(session))) return true;
  return false;
}

/** Whether `store`'s copy of `item`'s request (the same session, source and id) is open and not dismissed there. */
function shows(store: AttentionStore, item: Readonly<AttentionItem>): boolean {
  const copy = store.inbox.findRequest(item.session, item.requestId, item.source);
  return !!copy && isOpenStatus(copy.status) && !store.dismissedKeys.has(copy.key);
}
