import type * as vscode from 'vscode';
import type { PositionStore } from '../aep/client/positionStore';
import { parseEnvelope, type AepEvent } from '../aep/envelope';
import type { ResumePosition } from '../aep/frames';
import { resumePositionSchema } from '../aep/frames';
import type { Inbox } from '../aep/inbox/inbox';

const SAVE_DELAY_MS = 1_000;
const MAX_SAVED_ITEMS = 1_000;

/**
 * What survives a window reload, per hub origin, in `workspaceState`: the
 * resume positions and the open requests (their own events), so a reload
 * shows pending requests at once and resumes without a gap or a second
 * notification. Writes are debounced; `flush` runs on dispose.
 */
export class WorkspacePersistence implements PositionStore, vscode.Disposable {
  private positions = new Map<string, ResumePosition>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private inbox: Inbox | undefined;
  private hidden = new Set<string>();

  constructor(
    private readonly memento: vscode.Memento,
    private readonly origin: string,
  ) {
    const saved = memento.get<unknown[]>(this.key('positions'), []);
    for (const raw of Array.isArray(saved) ? saved : []) {
      const position = resumePositionSchema.safeParse(raw);
      if (position.success) this.positions.set(position.data.session, position.data);
    }
    const hidden = memento.get<unknown[]>(this.key('hidden'), []);
    for (const key of Array.isArray(hidden) ? hidden : []) if (typeof key === 'string') this.hidden.add(key);
  }

  load(): readonly ResumePosition[] {
    return [...this.positions.values()];
  }

  record(position: ResumePosition): void {
    this.positions.set(position.session, position);
    this.schedule();
  }

  /** Requests the user dismissed locally (nothing was sent); hidden from this inbox only. */
  get hiddenKeys(): ReadonlySet<string> {
    return this.hidden;
  }

  hide(key: string): void {
    this.hidden.add(key);
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
      const event = parseEnvelope(raw);
      if (event.ok && inbox.apply(event.value, receivedAt(event.value)).applied) restored++;
    }
    return restored;
  }

  inboxChanged(): void {
    this.schedule();
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    void this.memento.update(this.key('positions'), [...this.positions.values()]);
    if (this.inbox) {
      const open = this.inbox.open().slice(-MAX_SAVED_ITEMS);
      const events: AepEvent[] = open.flatMap((item) => (item.answeredEvent ? [item.requestEvent, item.answeredEvent] : [item.requestEvent]));
      void this.memento.update(this.key('open'), events);
      // When each request first arrived, so its age survives a reload.
      void this.memento.update(this.key('received'), Object.fromEntries(open.map((item) => [`${item.source}\u0000${item.requestId}`, item.receivedAt])));
      // Forget dismissals of requests that are no longer open.
      const openKeys = new Set(open.map((item) => item.key));
      for (const key of this.hidden) if (!openKeys.has(key)) this.hidden.delete(key);
    }
    void this.memento.update(this.key('hidden'), [...this.hidden]);
  }

  dispose(): void {
    this.flush();
  }

  private key(name: string): string {
    return `aepAttention.${name}:${this.origin}`;
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => this.flush(), SAVE_DELAY_MS);
  }
}
