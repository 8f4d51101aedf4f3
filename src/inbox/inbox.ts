import { parseAttentionRequest, readAnswered, readResolved, readRouted } from '../aep/attention';
import { boundEvent } from '../aep/bounds';
import { Emitter } from '../base/emitter';
import { dedupeKey, epochOf, sessionKey, type AepEvent } from '../aep/envelope';
import type { ResumePosition } from '../aep/frames';
import type { CaptureLevel } from '../aep/levels';
import { isOpenStatus, NO_ROUTERS, type AttentionItem, type AttentionStatus, type InboxChange } from './attentionItem';
import { BoundedKeySet } from '../base/boundedKeySet';
import { describeBytes } from '../base/byteSize';
import { canonicalJson } from '../base/json';
import { DeadlineNotes } from './deadlines';
import { MemoryBudget, type Reclaimable } from './memoryBudget';
import { ParkedEvents } from './parkedEvents';
import { comparePositions, type Position } from './position';
import { AgentStatuses, type AgentStatus } from './agentStatuses';
import { AppliedPositions, MAX_SAVED_REQUESTS, MAX_SAVED_RUNS, type SavedApplied } from './appliedPositions';
import { SessionIndex, type PositionTaken, type SessionState } from './sessionIndex';
import type { TimelineEvent } from './sessionTimeline';
import { isActionType, RecentActions, type SessionActions } from './recentActions';

// The inbox's parts live beside it; what its users import stays importable from here.
export { deadlinePassed, isOpenStatus, type AttentionItem, type AttentionStatus, type ClosedStatus, type InboxChange } from './attentionItem';
export { ITEM_BYTES } from './memoryBudget';
export type { PositionTaken } from './sessionIndex';
export type { AgentStatus } from './agentStatuses';

export type ApplyOutcome =
  /**
   * Its `(source, id)` was applied already (AEP-0001 dedupes by it). `changed`: a request still held
   * came again with other content, which is not applied either; `first` when it is the first such
   * for the request, the one to report.
   */
  | { applied: false; reason: 'duplicate'; changed?: { first: boolean } }
  /**
   * Another event of its emitter's session holds its `(epoch, seq)` (AEP-0001
   * §7.2): the first stands. `first`: the session's first such refusal, the
   * one to report; `taken` is kept for the session (`positionTaken`).
   */
  | { applied: false; reason: 'position-taken'; taken: Readonly<PositionTaken>; first: boolean }
  /**
   * Past a per-event bound that cannot be met by cutting (src/aep/bounds.ts): not stored, `problem` says why.
   * (A request past what is shown is applied instead, as one that cannot be answered here.)
   */
  | { applied: false; reason: 'refused'; problem: string }
  | { applied: true; problem?: string; positionAdvanced: boolean };

export interface InboxOptions {
  /**
   * The hub this inbox is fed by (its origin). It goes into every item's `hub`
   * and `key`, so items of two hubs relaying the same session never share a key.
   */
  hub?: string;
  /**
   * The capture ceiling this window asks the hub for (AEP-0003 §6.4): a
   * request that comes without content under it was withheld by the
   * person's own setting, not broken by its agent (src/aep/withheldRequest.ts).
   */
  captureCeiling?: CaptureLevel | undefined;
  /**
   * Keep each session's recent tool calls and runs, shown beside its requests
   * as "Before asking" (src/inbox/recentActions.ts). Off: action events are
   * applied (dedupe, positions) and nothing of them is kept.
   */
  recentActions?: boolean;
  now?: () => number;
  /** `(source, id)` keys remembered for dedupe. */
  dedupeCapacity?: number;
  /** Events of recent history kept per session. */
  timelineLimit?: number;
  /** Sessions tracked at once; the least recently active one without open requests is forgotten first. */
  maxSessions?: number;
  /** Closed requests kept so late lifecycle events and the UI can still find them. */
  maxClosed?: number;
  /** Lifecycle events waiting for a request that has not arrived yet. */
  maxParked?: number;
  /**
   * Open requests held at once. Past it a new request is reported as a
   * problem rather than added, so a flood of unanswered requests cannot grow
   * memory without bound.
   */
  maxOpen?: number;
  /**
   * Memory budget, in bytes as `approximateBytes` estimates them, for
   * everything the inbox holds: items, parked lifecycle events, timelines.
   * Past it the least useful go first (closed requests, then parked events,
   * then session history); open requests are never dropped, so a new request
   * that would take them past the budget is reported as a problem instead.
   */
  maxBytes?: number;
  onListenerError?: (error: unknown) => void;
}

/** Routers remembered per request. */
const MAX_ROUTERS = 16;

const LIFECYCLE_TYPES = new Set(['attention.answered', 'attention.resolved', 'attention.timeout', 'attention.routed']);

/**
 * The consumer-side reducer: takes every event the hub delivers, once, and
 * derives the attention inbox from it (AEP-0001 §7, AEP-0002 §7, AEP-0004).
 * Pure protocol logic with no I/O; the client feeds it and records each
 * emitter's session's `positionOf`; the UI listens to `onDidChange`.
 */
export class Inbox {
  private readonly now: () => number;
  private readonly hub: string;
  private ceiling: CaptureLevel | undefined;
  private readonly seen: BoundedKeySet;
  private readonly maxSessions: number;
  private readonly maxClosed: number;
  private readonly maxParked: number;
  private readonly maxOpen: number;
  private openTotal = 0;
  private readonly budget: MemoryBudget;
  private readonly sessions: SessionIndex;
  private readonly items = new Map<string, AttentionItem>();
  /** Requests that came again with other content, said once each (`duplicate`). */
  private readonly changedAgain = new WeakSet<AttentionItem>();
  /** Open items per `(source, session)`, so a session's end does not scan every item. */
  private readonly openBySession = new Map<string, Set<AttentionItem>>();
  private readonly closedOrder: string[] = [];
  private readonly deadlines = new DeadlineNotes();
  private readonly parked: ParkedEvents;
  /** What an earlier window applied, per `(source, session)`, until the session is tracked here (`seedApplied`). */
  private readonly appliedEarlier = new Map<string, AppliedPositions>();
  /** The sessions `seedApplied` has taken (at most the kept positions' bound per load, MAX_KEPT_POSITIONS). */
  private readonly seeded = new Set<string>();
  private readonly agentStatuses = new AgentStatuses();
  private readonly actions: RecentActions;
  private actionsOn: boolean;
  /** What the budget may take back, in the order it takes it. */
  private readonly reclaimable: Reclaimable;

  private readonly changes: Emitter<InboxChange>;
  private readonly forgotten: Emitter<{ source: string; session: string }>;
  /**
   * An emitter's session the inbox no longer tracks (evicted): its resume
   * position is worth nothing more and can be dropped (the client's position
   * store listens). Per `(source, session)`: another emitter's session of the
   * same name keeps its own.
   */
  readonly onDidForgetSession;
  /** Fires for every incremental change to the set of open requests or an item's outcome. */
  readonly onDidChange;

  /** An item's key: unique across hubs, since the hub is part of it (InboxOptions.hub). */
  private itemKey(sessionStateKey: string, requestId: string): string {
    const key = `${sessionStateKey}\u0000${requestId}`;
    return this.hub ? `${this.hub}\u0000${key}` : key;
  }

  constructor(options: InboxOptions = {}) {
    this.hub = options.hub ?? '';
    this.ceiling = options.captureCeiling;
    this.now = options.now ?? Date.now;
    this.seen = new BoundedKeySet(options.dedupeCapacity ?? 50_000);
    this.maxSessions = options.maxSessions ?? 5_000;
    this.maxClosed = options.maxClosed ?? 1_000;
    this.maxParked = options.maxParked ?? 10_000;
    this.maxOpen = options.maxOpen ?? 50_000;
    this.budget = new MemoryBudget(options.maxBytes ?? 64 * 1024 * 1024, this.now);
    this.actions = new RecentActions(this.budget.onActionBytes);
    this.actionsOn = options.recentActions ?? true;
    const actions = this.actions;
    this.parked = new ParkedEvents((event) => this.budget.sizeOf(event));
    const parked = this.parked;
    this.reclaimable = {
      forgetOldestClosed: () => this.forgetOldestClosed(),
      dropOldestParked: () => parked.dropOldest(),
      historiesByUse: () => this.sessions.historiesByUse(),
      dropQuietActions: () => actions.dropQuiet(),
      dropHeldActions: () => actions.dropHeld(),
      get parkedBytes() {
        return parked.bytes;
      },
    };
    this.sessions = new SessionIndex(
      options.timelineLimit ?? 200,
      this.budget.onTimelineBytes,
      (key) => this.openBySession.get(key)?.size ?? 0,
      (key) => this.takeAppliedEarlier(key) ?? new AppliedPositions(),
    );
    this.changes = new Emitter<InboxChange>(options.onListenerError);
    this.onDidChange = this.changes.event;
    this.forgotten = new Emitter<{ source: string; session: string }>(options.onListenerError);
    this.onDidForgetSession = this.forgotten.event;
  }

  /** The capture ceiling asked for from now on (InboxOptions.captureCeiling); requests already read keep what they were read under. */
  setCaptureCeiling(ceiling: CaptureLevel | undefined): void {
    this.ceiling = ceiling;
  }

  /** Keeps recent actions from now on, or stops and forgets them (InboxOptions.recentActions). */
  setRecentActions(on: boolean): void {
    this.actionsOn = on;
    if (!on) this.actions.clear();
  }

  /**
   * Applies one event. `restored`: the event comes from this extension's own
   * storage (an earlier session of the editor), not from a hub, and
   * `receivedAt` is when its request first arrived, when that was saved.
   */
  apply(event: AepEvent, restored?: { receivedAt?: number | undefined }): ApplyOutcome {
    const receivedAt = restored?.receivedAt;
    // An action is summarised from what the agent sent, not from the bounded event: bounding drops a
    // large argument whole, where its summary keeps its start and says how long it was (recentActions.ts).
    const isAction = isActionType(event.type);
    const actionData = isAction && this.actionsOn && typeof event.data === 'object' && event.data !== null ? { ...event.data } : undefined;
    const refused = boundEvent(event, restored ? 'stored' : 'wire'); // in place: what is stored below is the bounded event
    // A request past what is shown stays, as one that cannot be answered here, so its person sees it.
    if (refused !== undefined && !refused.kept) return { applied: false, reason: 'refused', problem: refused.problem };
    const key = dedupeKey(event);
    if (this.seen.has(key)) return this.duplicate(event);
    // An emitter's position is applied once: past the `(source, id)` window (a full replay is
    // longer than it) and across a reload, the position says what was applied already.
    const position = event.session !== undefined && event.seq !== undefined ? { epoch: epochOf(event), seq: event.seq } : undefined;
    if (position !== undefined && event.session !== undefined) {
      const taken = this.positionHeld(event, event.session, position);
      // A refused second event is judged once: its redelivery is a duplicate of it.
      if (taken?.applied === false && taken.reason === 'position-taken') this.seen.add(key);
      if (taken !== undefined) return taken;
    }
    this.seen.add(key);
    let positionAdvanced = false;
    let state: SessionState | undefined;
    if (event.session === undefined) this.agentStatuses.note(event);
    else if (position !== undefined) {
      state = this.sessions.own(event.source, event.session, event.agent);
      state.owned = true;
      const before = state.applied.highest;
      state.applied.add(position, event.type === 'attention.requested');
      state.timeline.addSequenced(event, position);
      positionAdvanced = before === undefined || comparePositions(position, before) > 0;
    } else {
      state = this.foreignHome(event, event.session);
      state.timeline.addUnsequenced(event);
    }
    if (state && this.actionsOn && (isAction || event.type === 'session.started')) {
      this.actions.note(state.key, actionData === undefined ? event : { ...event, data: actionData }, this.ceiling, this.now());
    }

    let problem: string | undefined;
    if (event.type === 'attention.requested') problem = this.onRequested(event, receivedAt);
    else if (LIFECYCLE_TYPES.has(event.type)) problem = this.onLifecycle(event);
    else if (event.type === 'session.ended' && state && position !== undefined) this.onSessionEnded(state, position);
    if (event.type === 'attention.answered' || event.type === 'attention.routed') this.recountLifecycle(event);
    this.sessions.evictBeyond(this.maxSessions, (forgotten) => {
      // Its saved position goes too (onDidForgetSession): nothing of it is left to seed from.
      this.seeded.delete(forgotten.key);
      this.actions.forget(forgotten.key);
      this.forgotten.fire({ source: forgotten.source, session: forgotten.session });
    });
    const notice = this.budget.keepWithin(this.reclaimable);
    if (notice !== undefined) problem = problem === undefined ? notice : `${problem}; ${notice}`;
    return problem === undefined ? { applied: true, positionAdvanced } : { applied: true, problem, positionAdvanced };
  }

  /**
   * Reports, once each, open requests whose `expires_at` has passed by this
   * clock since the last call, as `updated`, so the UI can say the deadline
   * has passed. They stay open (see AttentionStatus, AEP-0002 §7 rule 2): only
   * the emitter's terminal or the session's end closes them. Call it on a timer.
   */
  noteDeadlinesPassed(): void {
    const now = this.now();
    for (const open of this.openBySession.values()) {
      for (const item of this.deadlines.newlyPassed(open, now)) this.changes.fire({ kind: 'updated', item });
    }
  }

  /** Open requests (pending, or answered and awaiting resolution), oldest first. */
  open(): Array<Readonly<AttentionItem>> {
    const open: Array<Readonly<AttentionItem>> = [];
    for (const item of this.items.values()) if (isOpenStatus(item.status)) open.push(item);
    return open;
  }

  /** How many requests are open, without listing them (a badge, a status bar count). */
  get openCount(): number {
    return this.openTotal;
  }

  /** The sessions holding open requests, by key (envelope.ts `sessionKey`): what another hub's inbox may hold open too. */
  get openSessionKeys(): Pick<ReadonlyMap<string, unknown>, 'keys' | 'has'> {
    return this.openBySession;
  }

  item(key: string): Readonly<AttentionItem> | undefined {
    return this.items.get(key);
  }

  /** Finds a request by session string and id, as lifecycle and command events address it. */
  findRequest(session: string, requestId: string, source?: string): Readonly<AttentionItem> | undefined {
    return this.lookup(session, requestId, source);
  }

  /**
   * Where one emitter's session stands: the highest of its own sequenced
   * events applied (an earlier window's included), and which positions up to
   * there were applied, for a reload (`seedApplied`).
   */
  positionOf(source: string, session: string): (ResumePosition & { source: string; applied: SavedApplied }) | undefined {
    const state = this.sessions.of(source, session);
    const position = state?.owned ? state.applied.highest : undefined;
    if (position === undefined || !state) return undefined;
    // Built only when asked: `saved` asks about requests under a floor, and a session delivered in order
    // (one run, no floor) never does, while this runs after nearly every applied event (issue 40).
    let open: Set<string> | undefined;
    const applied = state.applied.saved(MAX_SAVED_RUNS, MAX_SAVED_REQUESTS, ({ epoch, seq }) =>
      (open ??= new Set([...(this.openBySession.get(state.key) ?? [])].map(({ requestEvent }) => `${epochOf(requestEvent)}:${requestEvent.seq ?? ''}`))).has(`${epoch}:${seq}`),
    );
    return { source, session, ...position, applied };
  }

  /** Whether the emitter's session holds an open request (its resume position is the one most worth sending). */
  holdsOpen(source: string, session: string): boolean {
    return (this.openBySession.get(sessionKey(source, session))?.size ?? 0) > 0;
  }

  /** Where the emitter's session ended (its latest `session.ended`), if it did. */
  endOf(source: string, session: string): Position | undefined {
    return this.sessions.of(source, session)?.endedAt;
  }

  /**
   * What an earlier window applied in an emitter's session (its saved
   * `positionOf`): those positions are not applied again, every other one is.
   * A session already tracked (its saved open requests restored) adds them to its own.
   */
  seedApplied(source: string, session: string, applied: SavedApplied): void {
    const key = sessionKey(source, session);
    // Once per session: a client rebuilt later in this window reads back this inbox's own positions,
    // a coarser copy (runs folded into the floor to be saved) of what it holds exactly already.
    if (this.seeded.has(key)) return;
    this.seeded.add(key);
    const tracked = this.sessions.get(key);
    if (tracked) tracked.applied.absorb(applied);
    else this.appliedEarlier.set(key, new AppliedPositions(applied));
  }

  /** The emitters heard from outside any session, each with its latest agent-scoped event of each type. */
  agents(): AgentStatus[] {
    return this.agentStatuses.list();
  }

  /** The emitter's latest agent-scoped event of `type` (its last `agent.presence`, `agent.health`, …). */
  agentStatus(source: string, type: string): AepEvent | undefined {
    return this.agentStatuses.latest(source, type);
  }

  /** The event the emitter's session refused for a position another event held first, if any (AEP-0001 §7.2). */
  positionTaken(source: string, session: string): Readonly<PositionTaken> | undefined {
    return this.sessions.of(source, session)?.positionTaken;
  }

  /**
   * One session's recent history in session order; foreign events sit where
   * they arrived. Envelopes only: `data` lives on the items (see TimelineEvent).
   */
  timeline(source: string, session: string): TimelineEvent[] {
    return this.sessions.of(source, session)?.timeline.events() ?? [];
  }

  /**
   * Follows `cause` one hop within the event's session view, across the
   * control boundary (a command's outcome names the command, AEP-0004 §6).
   */
  resolveCause(event: AepEvent): TimelineEvent | undefined {
    if (event.cause === undefined || event.session === undefined) return undefined;
    for (const state of this.sessions.named(event.session)) {
      const found = state.timeline.find(event.cause);
      if (found) return found;
    }
    return undefined;
  }

  /** Whether recent actions are kept (InboxOptions.recentActions). */
  get recentActionsOn(): boolean {
    return this.actionsOn;
  }

  /**
   * What one emitter's session did recently (its tool calls and runs, newest
   * last), while kept: "Before asking" beside its requests, with the capture
   * ceiling now, which applies to what was kept under a higher one too.
   * Undefined when nothing is kept (turned off, never seen, or forgotten).
   */
  recentActions(source: string, session: string): SessionActions | undefined {
    const kept = this.actionsOn ? this.actions.of(sessionKey(source, session)) : undefined;
    return kept === undefined ? undefined : { ...kept, ...(this.ceiling !== undefined ? { ceiling: this.ceiling } : {}) };
  }

  /** Sizes of every bounded structure, for tests and diagnostics. */
  stats() {
    let timelineEvents = 0;
    for (const state of this.sessions.values()) timelineEvents += state.timeline.size;
    return {
      dedupeKeys: this.seen.size,
      sessions: this.sessions.size,
      agents: this.agentStatuses.size,
      items: this.items.size,
      open: this.openTotal,
      parked: this.parked.count,
      timelineEvents,
      actionSessions: this.actions.sessions,
      actionBytes: this.actions.bytes,
      /** Estimated bytes held in all, and by open requests (see `maxBytes`). */
      bytes: this.budget.held(this.reclaimable),
      openBytes: this.budget.openBytes,
    };
  }

  dispose(): void {
    this.changes.dispose();
    this.forgotten.dispose();
  }

  // ---- sessions ---------------------------------------------------------------

  /**
   * Why a sequenced event whose id is new here is not applied: its position
   * was applied already. The same event again, once its id left the window or
   * from before a reload, is a duplicate; another event there, when the
   * history still names the first, is a second event at one position.
   */
  private positionHeld(event: AepEvent, session: string, position: Position): ApplyOutcome | undefined {
    const key = sessionKey(event.source, session);
    const state = this.sessions.get(key);
    const applied = state?.applied ?? this.appliedEarlier.get(key);
    if (applied === undefined || !this.heldBack(event, applied, position)) return undefined;
    const kept = state?.timeline.idAt(position);
    if (state === undefined || kept === undefined || kept === event.id) return { applied: false, reason: 'duplicate' };
    if (state.positionTaken) {
      state.positionTaken.count++;
      return { applied: false, reason: 'position-taken', taken: state.positionTaken, first: false };
    }
    state.positionTaken = { epoch: position.epoch, seq: position.seq, kept, refused: event.id, count: 1 };
    return { applied: false, reason: 'position-taken', taken: state.positionTaken, first: true };
  }

  /**
   * Under the floor (what a bound let go of) a position is known applied or
   * not only for requests (AppliedPositions.hasRequest): a request never
   * applied there is applied now. A lifecycle event there for a request this
   * inbox holds open is applied too: the request may be one applied just now
   * from under the floor, and its emitter's terminal must close it (applied
   * twice it changes nothing). Anything else under the floor may be a repeat,
   * and is held back.
   */
  private heldBack(event: AepEvent, applied: AppliedPositions, position: Position): boolean {
    if (event.type === 'attention.requested') return applied.hasRequest(position);
    if (!applied.has(position)) return false;
    if (!LIFECYCLE_TYPES.has(event.type) || !applied.underFloor(position) || event.session === undefined || event.subject === undefined) return true;
    const item = this.lookup(event.session, event.subject, event.type === 'attention.routed' ? undefined : event.source);
    return item === undefined || !isOpenStatus(item.status);
  }

  private takeAppliedEarlier(key: string): AppliedPositions | undefined {
    const earlier = this.appliedEarlier.get(key);
    this.appliedEarlier.delete(key);
    return earlier;
  }

  /**
   * A seq-less session event comes from a foreign emitter (AEP-0001 §5.2: a
   * command, `attention.routed`). Its home is the owner's session view: the
   * owner holding the request or event it refers to, else the only owner of
   * that session string, else a view of its own.
   */
  private foreignHome(event: AepEvent, session: string): SessionState {
    const owners = [...this.sessions.named(session)].filter((state) => state.owned && state.source !== event.source);
    const refs = [event.subject, event.cause].filter((ref): ref is string => ref !== undefined);
    const referenced = owners.find((state) =>
      refs.some((ref) => this.items.has(this.itemKey(state.key, ref)) || state.timeline.has(ref)),
    );
    const home = referenced ?? (owners.length === 1 ? owners[0] : undefined);
    if (home) {
      this.sessions.touch(home);
      return home;
    }
    return this.sessions.own(event.source, session, event.agent);
  }

  private onSessionEnded(state: SessionState, position: Position): void {
    if (state.endedAt === undefined || comparePositions(position, state.endedAt) > 0) state.endedAt = position;
    for (const item of [...(this.openBySession.get(state.key) ?? [])]) this.close(item, 'session-ended');
  }

  // ---- attention lifecycle -----------------------------------------------------

  private onRequested(event: AepEvent, receivedAt: number | undefined): string | undefined {
    if (event.session === undefined) {
      const parsed = parseAttentionRequest(event, { ceiling: this.ceiling });
      return parsed.ok ? undefined : parsed.problem.message;
    }
    const state = this.sessions.of(event.source, event.session);
    // The session's own key string, when it is tracked: one string for the session and its items' keys, not one per request.
    const ownKey = state?.key ?? sessionKey(event.source, event.session);
    const key = this.itemKey(ownKey, event.id);
    if (this.items.has(key)) return undefined; // redelivered after the dedupe window forgot it
    if (this.openTotal >= this.maxOpen) {
      return `${this.maxOpen} requests are already open; ${event.agent}'s request ${event.id} in session ${event.session} was not added. Answer or dismiss some, or narrow the filter`;
    }
    if (!this.budget.fitsOpen(event)) {
      // Open requests are what the user is asked to act on: never dropped to make room.
      return `${event.agent}'s request ${event.id} in session ${event.session} was not added: the inbox holds ${describeBytes(this.budget.openBytes)} of open requests, and its memory budget is ${describeBytes(this.budget.maxBytes)}. Answer some, or narrow the filter`;
    }
    const parsed = parseAttentionRequest(event, { ceiling: this.ceiling });
    // One literal, no spread into it: a spread added its properties after the object was made, a property array per item (issue 40).
    const item: AttentionItem = {
      key,
      hub: this.hub,
      requestId: event.id,
      source: event.source,
      session: event.session,
      agent: event.agent,
      status: 'pending',
      routedBy: NO_ROUTERS,
      requestEvent: event,
      receivedAt: receivedAt ?? this.now(),
      request: parsed.ok ? parsed.value : undefined,
      problem: parsed.ok ? undefined : parsed.problem,
    };
    this.items.set(key, item);
    state?.timeline.share(event);

    const position = event.seq === undefined ? undefined : { epoch: epochOf(event), seq: event.seq };
    const endedBefore =
      state?.endedAt !== undefined && (position === undefined || comparePositions(position, state.endedAt) < 0);
    // A request already past `expires_at` on arrival is still open: its emitter decides when it ends (AEP-0002 §7).
    if (endedBefore) this.closeQuietly(item, 'session-ended');
    else {
      if (state) this.sessions.opened(state);
      this.actions.hold(ownKey);
      this.openTotal++;
      let open = this.openBySession.get(ownKey);
      if (!open) this.openBySession.set(ownKey, (open = new Set()));
      open.add(item);
      this.changes.fire({ kind: 'added', item });
    }
    const refused = this.unpark(item);
    this.recount(item);
    const problems = [parsed.ok ? undefined : parsed.problem.message, refused].filter((p): p is string => p !== undefined);
    return problems.length > 0 ? problems.join('; ') : undefined;
  }

  private onLifecycle(event: AepEvent): string | undefined {
    if (event.subject === undefined || event.session === undefined) {
      return `${event.type} from ${event.agent} names no ${event.subject === undefined ? 'subject (request id)' : 'session'}; it cannot be matched to a request`;
    }
    // `attention.routed` is the one lifecycle type any consumer may emit, into the
    // original session under its own identity (AEP-0002 §7 rule 3): look for the
    // request in any session of that name. Every other lifecycle event belongs
    // to the request's emitter, whose session identity is `(source, session)`
    // (AEP-0001 §5.2; AEP-0002 §7 rule 2: the emitter owns resolution): it is
    // looked up under its own source only, so another emitter cannot close,
    // answer or time out a request it did not raise.
    const foreignAllowed = event.type === 'attention.routed';
    const item = this.lookup(event.session, event.subject, foreignAllowed ? undefined : event.source);
    if (!item) {
      // A sequenced event may precede its own emitter's request of the same id; a seq-less
      // one naming another emitter's request is a claim on that request, refused and said.
      const raisedElsewhere = foreignAllowed || event.seq !== undefined ? undefined : this.lookup(event.session, event.subject);
      if (raisedElsewhere) return spoofedLifecycle(event, raisedElsewhere);
      this.parked.park(event.session, event.subject, event, this.maxParked);
      return undefined;
    }
    return this.applyLifecycle(item, event);
  }

  private applyLifecycle(item: AttentionItem, event: AepEvent): string | undefined {
    const wasOpen = isOpenStatus(item.status);
    switch (event.type) {
      case 'attention.answered': {
        const data = readAnswered(event);
        if (!data.ok) return data.problem;
        item.answer = data.value.answer;
        item.answeredEvent = event;
        if (data.value.via !== undefined) item.answeredVia = data.value.via;
        if (data.value.by !== undefined) item.answeredBy = data.value.by;
        item.answeredCauses = this.causesOf(event);
        if (item.status === 'pending') item.status = 'answered';
        break;
      }
      case 'attention.resolved': {
        // The emitter's terminal closes its request even when its payload cannot be read
        // (AEP-0002 §7 rule 2: pending until resolved or timed out): left open, the request
        // would wait for a second terminal that its emitter never sends.
        const data = readResolved(event);
        if (data.ok) item.resolution = data.value.resolution;
        const cause = this.resolveCause(event);
        if (cause !== undefined && cause.source !== item.source) item.resolvedBy = cause.agent;
        this.settle(item, 'resolved', wasOpen);
        return data.ok ? undefined : `${data.problem}; ${item.agent}'s request ${item.requestId} in session ${item.session} is closed as resolved, with no outcome stated`;
      }
      case 'attention.timeout':
        return this.settle(item, 'timed-out', wasOpen);
      case 'attention.routed': {
        const data = readRouted(event);
        if (!data.ok) return data.problem;
        // Any consumer may route (AEP-0002 §7 rule 3): each router is named once, and a
        // flood of routers cannot grow an open request (which is never evicted) without bound.
        if (item.routedBy.includes(event.agent)) return undefined;
        if (item.routedBy.length >= MAX_ROUTERS) {
          return `ignored attention.routed from ${event.agent} for request ${item.requestId}: ${MAX_ROUTERS} routers are already recorded for it`;
        }
        // A new list per router (at most MAX_ROUTERS): most requests are never routed, and share one empty list.
        item.routedBy = [...item.routedBy, event.agent];
        break;
      }
    }
    this.changes.fire({ kind: 'updated', item });
    return undefined;
  }

  /**
   * An emitter's terminal event is authoritative: it closes an open request
   * and replaces a locally derived outcome (`session-ended`). The
   * first terminal from the emitter wins; a later one cannot reopen or flip it.
   */
  private settle(item: AttentionItem, status: 'resolved' | 'timed-out', wasOpen: boolean): undefined {
    if (wasOpen) {
      this.close(item, status);
    } else if (item.status === 'session-ended') {
      item.status = status;
      this.changes.fire({ kind: 'updated', item });
    }
    return undefined;
  }

  /** An outcome's `cause`, and the command an ack it names was for (AEP-0004 §6: either one, followed one hop). */
  private causesOf(event: AepEvent): string[] {
    if (event.cause === undefined) return [];
    const hop = this.resolveCause(event);
    return hop?.cause !== undefined && hop.type.startsWith('control.') ? [event.cause, hop.cause] : [event.cause];
  }

  /** A redelivery, or a request sent again under its id with other content, which the first stands for. */
  private duplicate(event: AepEvent): ApplyOutcome {
    const held = event.type === 'attention.requested' && event.session !== undefined ? this.lookup(event.session, event.id, event.source) : undefined;
    if (held === undefined || held.requestEvent === event || canonicalJson(held.requestEvent.data) === canonicalJson(event.data)) return { applied: false, reason: 'duplicate' };
    const first = !this.changedAgain.has(held);
    this.changedAgain.add(held);
    return { applied: false, reason: 'duplicate', changed: { first } };
  }

  private lookup(session: string, requestId: string, source?: string): AttentionItem | undefined {
    if (source !== undefined) return this.items.get(this.itemKey(sessionKey(source, session), requestId));
    for (const state of this.sessions.named(session)) {
      const item = this.items.get(this.itemKey(state.key, requestId));
      if (item) return item;
    }
    return undefined;
  }

  private close(item: AttentionItem, status: AttentionStatus): void {
    const wasOpen = isOpenStatus(item.status);
    this.closeQuietly(item, status);
    if (!wasOpen) return;
    const state = this.sessions.of(item.source, item.session);
    if (state) this.sessions.closed(state);
    this.openTotal--;
    this.budget.closed(item);
    // The session's key, built once: a key per use was a string built and hashed each time (issue 40).
    const key = sessionKey(item.source, item.session);
    const open = this.openBySession.get(key);
    open?.delete(item);
    if (open?.size === 0) {
      this.openBySession.delete(key);
      this.actions.release(key);
    }
    this.changes.fire({ kind: 'removed', item });
  }

  private closeQuietly(item: AttentionItem, status: AttentionStatus): void {
    item.status = status;
    item.closedAt = this.now();
    this.closedOrder.push(item.key);
    while (this.closedOrder.length > this.maxClosed) {
      const oldest = this.closedOrder.shift();
      const stale = oldest === undefined ? undefined : this.items.get(oldest);
      if (stale && !isOpenStatus(stale.status)) this.forget(stale);
    }
  }

  // ---- memory ----------------------------------------------------------------------

  /** Brings the item's share of the budget up to date, while the inbox holds it. */
  private recount(item: AttentionItem): void {
    if (this.items.get(item.key) === item) this.budget.recount(item);
  }

  /** `attention.answered` is kept on its request's item, and `attention.routed` adds a name to it: count them there. */
  private recountLifecycle(event: AepEvent): void {
    if (event.session === undefined || event.subject === undefined) return;
    // Found as onLifecycle finds it: routed in any session of the name, the rest under their own source.
    const item = this.lookup(event.session, event.subject, event.type === 'attention.routed' ? undefined : event.source);
    if (item) this.recount(item);
  }

  private forget(item: AttentionItem): void {
    if (this.items.get(item.key) !== item) return;
    this.items.delete(item.key);
    this.budget.forgotten(item);
    this.sessions.of(item.source, item.session)?.timeline.unshare(item.requestEvent);
  }

  private forgetOldestClosed(): 'forgot' | 'skipped' | 'none' {
    if (this.closedOrder.length === 0) return 'none';
    const key = this.closedOrder.shift();
    const item = key === undefined ? undefined : this.items.get(key);
    if (!item || isOpenStatus(item.status)) return 'skipped';
    this.forget(item);
    return 'forgot';
  }

  // ---- lifecycle events that arrived before their request ----------------------

  /** Applies the lifecycle events that waited for this request; returns why any of them was refused or could not be read. */
  private unpark(item: AttentionItem): string | undefined {
    const { mine, spoofed } = this.parked.takeFor(item);
    const problems: string[] = [];
    for (const event of mine) {
      const problem = this.applyLifecycle(item, event);
      if (problem !== undefined) problems.push(problem);
    }
    const first = spoofed[0];
    if (first !== undefined) problems.push(spoofedLifecycle(first, item) + (spoofed.length > 1 ? ` (and ${spoofed.length - 1} more such events)` : ''));
    return problems.length > 0 ? problems.join('; ') : undefined;
  }
}

/** Why a lifecycle event from another source was not applied to a request. */
function spoofedLifecycle(event: AepEvent, item: Readonly<AttentionItem>): string {
  return `ignored ${event.type} ${event.id} from ${event.agent} (${event.source}) for ${item.agent}'s request ${item.requestId} in session ${item.session}: only the request's own emitter (${item.source}) can answer, resolve or time it out (AEP-0002 §7)`;
}

