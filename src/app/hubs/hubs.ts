import type { Answer } from '../../aep/attention';
import {
  AnswerPipeline, type Admission, type AnswerFacts, type AnswerRecord, type AnswerResult, type AnswerSurface, type LateSettlement,
} from '../../answer/answerPipeline';
import type { CaptureChoice } from '../../aep/capture';
import type { RedactionOptions } from '../../aep/redaction';
import type { KeyValueStorage } from '../../client/commandStore';
import type { AnswerSender, SendOutcome } from '../../client/controlSender';
import type { Reachability } from '../../client/rosterSnapshot';
import type { HubClient } from '../../client/hubClient';
import { OnFirstNeed, type LazyPart } from '../../base/onFirstNeed';
import type { RespondCommand } from '../../aep/control';
import { recordedAnswer, type SentAnswer as KeptSend } from '../../inbox/recordedAnswer';
import type { PageRecorded } from '../../shared/webviewMessages';
import type { PageBeforeAsking } from '../../shared/beforeAsking';
import { pageBeforeAsking } from '../../words/beforeAskingContent';
import { Emitter } from '../../base/emitter';
import type { AttentionItem, InboxChange, PositionTaken } from '../../inbox/inbox';
import { isOpenStatus } from '../../inbox/inbox';
import { AttentionStore, countWaiting, type AttentionStoreOptions, type ComponentLog } from './attentionStore';
import { Disposable, DisposableMap, DisposableStore, toDisposable } from '../../base/disposable';
import { HubConnection, type ClientTuning, type ConnectionState, type RestoredOutcome, type SettingsSource, type TokenSource } from './hubConnection';
import type { HubConfig } from './hubList';

export interface HubsOptions {
  store?: AttentionStoreOptions;
  client?: ClientTuning;
  /** What the answer history kept of the answers sent for a request (answerHistory.ts `sentAnswers`): all that is left of them after a reload. */
  keptSends?: (hub: Pick<Hub, 'id'>, itemKey: string) => readonly KeptSend[];
  /** The redaction pipeline's options (AlwaysSecretValues.redaction): "Before asking" shows redacted text as it would be sent. */
  redaction?: () => RedactionOptions;
  /**
   * What every connection waits for before it reads its token and connects
   * (AlwaysSecretValues.loaded): nothing a hub sends is shown, notified, kept
   * or answered before the values that mask it are known.
   */
  loaded?: () => Promise<void>;
  /** Imports the hub client, loaded with the first connection of any hub (a test passes one that fails); default: its own chunk. */
  loadClient?: () => Promise<() => typeof HubClient>;
  /** Tells the person, once, that a part could not be loaded (only the UI words it: ui/services/onDemand.ts); each hub's state says it too. */
  partNotLoaded?: (part: LazyPart) => void;
}

/**
 * The client and ws under it, a chunk of its own (esbuild.js), imported with the first connection, not at activation.
 * An import() compiles its chunk at once: the first waits a turn of the event loop, so that a hub started by
 * activate() does not compile it inside activate() (the connection waits for the secret values' read meanwhile).
 */
const loadHubClient = async (): Promise<() => typeof HubClient> => {
  await new Promise((resolve) => setImmediate(resolve));
  const { HubClient: Client } = await import('../../client/hubClient');
  return () => Client;
};

/** One hub of the window: its connection and the requests it brought (HubConnection.store). */
export type Hub = HubConnection;

export interface HubInboxChange {
  hub: Hub;
  /** As AttentionStore.onDidChangeInbox: `undefined` when the hub's whole inbox was replaced. */
  change: InboxChange | undefined;
}

export interface SentAnswer {
  hub: Hub;
  item: Readonly<AttentionItem>;
  command: RespondCommand;
  /** Which surface sent it: a request's page tells apart its own answers from those given elsewhere. */
  surface: AnswerSurface;
}

/** The window's state across hubs, for the status bar and the inbox title. */
export type OverallState = 'unconfigured' | ConnectionState['kind'];

/**
 * Every hub the window names (settings.ts `hubs`), each with its own
 * connection, token, filter, ceiling, positions and inbox. Hubs added to or
 * removed from the settings connect or disconnect at once; a hub kept keeps
 * its connection. Requests are told apart by hub (an item's `hub`, and its
 * key); an answer goes back through the hub its request came from, never another.
 */
export class Hubs extends Disposable {
  private readonly byId = new Map<string, Hub>();
  /** One record per request of the answer in flight, for every surface of the window. */
  private readonly pipeline = new AnswerPipeline({ settledLate: (late) => this.settledLate(late) });
  /** Each hub's own subscriptions, then its connection, then its store: released together, in that order. */
  private readonly perHub = new DisposableMap<Hub, DisposableStore>();
  private reportedProblems = '';
  /** The client's code, shared by the hubs' connections. */
  private readonly clientCode: OnFirstNeed<typeof HubClient>;
  private readonly onListenerError = (error: unknown) => this.log.for('hubs').error(`listener failed: ${String(error)}`);
  private readonly listProblems = this._register(new Emitter<string[]>(this.onListenerError));
  /** `aepAttention.hubs` holds entries that could not be used (each problem in words to act on). */
  readonly onDidFindListProblems = this.listProblems.event;
  private readonly inboxChanges = this._register(new Emitter<HubInboxChange>(this.onListenerError));
  private readonly stateChanges = this._register(new Emitter<Hub>(this.onListenerError));
  private readonly rosterChanges = this._register(new Emitter<Hub>(this.onListenerError));
  private readonly later = this._register(new Emitter<RestoredOutcome & { hub: Hub }>(this.onListenerError));
  private readonly listChanges = this._register(new Emitter<void>(this.onListenerError));
  private readonly sent = this._register(new Emitter<SentAnswer>(this.onListenerError));
  private readonly settled = this._register(new Emitter<{ hub: Hub; outcome: SendOutcome }>(this.onListenerError));
  private readonly itemChanges = this._register(new Emitter<{ hub: Hub; item: Readonly<AttentionItem> }>(this.onListenerError));
  private readonly dismissals = this._register(new Emitter<{ hub: Hub; item: Readonly<AttentionItem> }>(this.onListenerError));
  /** Every change of an item, dismissed ones included. */
  readonly onDidChangeItem = this.itemChanges.event;
  /** The person dismissed a request in this window. */
  readonly onDidDismiss = this.dismissals.event;
  readonly onDidChangeInbox = this.inboxChanges.event;
  readonly onDidChangeState = this.stateChanges.event;
  readonly onDidChangeRoster = this.rosterChanges.event;
  /**
   * An answer settled that no surface is awaiting: one an earlier client left
   * (a reload, a rebuild), or one that settled after its ack window ran out.
   */
  readonly onDidSettleLater = this.later.event;
  /** A hub was added or removed. */
  readonly onDidChangeHubs = this.listChanges.event;
  /** An answer was handed to its hub (before its outcome is known). */
  readonly onDidSendAnswer = this.sent.event;
  /** What became of an answer sent from this window, restored ones included. */
  readonly onDidSettleAnswer = this.settled.event;

  constructor(
    private readonly settings: SettingsSource,
    private readonly tokens: TokenSource,
    private readonly storage: KeyValueStorage,
    private readonly log: ComponentLog,
    private readonly options: HubsOptions = {},
  ) {
    super();
    // One load for every hub: a failure is logged with part-load-failed and told once; each hub's next connect loads again.
    this.clientCode = this._register(
      new OnFirstNeed('hub-client', options.loadClient ?? loadHubClient, log.for('connection'), () => options.partNotLoaded?.('hub-client')),
    );
    this._register(settings.onDidChange(() => this.reconcile()));
    this._register(toDisposable(() => this.removeAll()));
  }

  /** Creates the hubs of the current settings and starts them. */
  start(): void {
    this.reconcile();
  }

  list(): readonly Hub[] {
    return [...this.byId.values()];
  }

  get size(): number {
    return this.byId.size;
  }

  get(id: string): Hub | undefined {
    return this.byId.get(id);
  }

  /** The hub an item came through. */
  of(item: Pick<AttentionItem, 'hub'>): Hub | undefined {
    return this.byId.get(item.hub);
  }

  /** A request of any hub by key (keys name their hub: InboxOptions.hub). */
  item(key: string): Readonly<AttentionItem> | undefined {
    for (const hub of this.byId.values()) {
      const found = hub.store.inbox.item(key);
      if (found) return found;
    }
    return undefined;
  }

  /**
   * Another hub that holds the same request open: the same `(source, id)` is
   * one request (AEP-0001 §5.1), come twice because one hub is configured
   * under two addresses (127.0.0.1 and localhost), or two hubs relay its
   * agent. The notification is given once, for the copy that came first.
   */
  heldAlso(item: Readonly<AttentionItem>): Readonly<AttentionItem> | undefined {
    for (const hub of this.byId.values()) {
      if (hub.id === item.hub) continue;
      const copy = hub.store.inbox.findRequest(item.session, item.requestId, item.source);
      if (copy && isOpenStatus(copy.status)) return copy;
    }
    return undefined;
  }

  /** Open requests the user has not dismissed, hub by hub in settings order. */
  visibleItems(): Array<Readonly<AttentionItem>> {
    return this.list().flatMap((hub) => hub.store.visibleItems());
  }

  /** Requests waiting for the person, each counted once however many hubs list it (countWaiting). */
  get visibleCount(): number {
    return countWaiting([...this.byId.values()].map((hub) => hub.store));
  }

  /** Still waiting for the person: open, and not dismissed in this window (what a notification is worth). */
  isWaiting(item: Readonly<AttentionItem>): boolean {
    return isOpenStatus(item.status) && !this.isDismissed(item);
  }

  isDismissed(item: Readonly<AttentionItem>): boolean {
    return this.of(item)?.store.dismissedKeys.has(item.key) ?? false;
  }

  dismiss(item: Readonly<AttentionItem>): void {
    const hub = this.of(item);
    if (!hub) return;
    hub.store.dismiss(item);
    this.dismissals.fire({ hub, item });
  }

  /** The state across hubs: the one hub's, or for several the worst first (failed, lost, connecting), else connected. */
  get overallState(): OverallState {
    const kinds = this.list().map((hub) => hub.state.kind);
    if (kinds.length === 0) return 'unconfigured';
    for (const kind of ['failed', 'backing-off', 'connecting', 'idle'] as const) if (kinds.includes(kind)) return kind;
    return kinds.every((kind) => kind === 'disconnected') ? 'disconnected' : 'connected';
  }

  reachability(item: Readonly<AttentionItem>): Reachability {
    return this.of(item)?.reachability(item.session) ?? { state: 'unknown' };
  }

  /**
   * What the request's session did just before it asked ("Before asking"),
   * as every surface shows it (the page whole, the quick input and the
   * notification its last line); undefined when the person turned it off
   * (aepAttention.beforeAsking).
   */
  beforeAsking(item: Readonly<AttentionItem>): PageBeforeAsking | undefined {
    const inbox = this.of(item)?.store.inbox;
    if (inbox === undefined || !inbox.recentActionsOn) return undefined;
    const redaction = this.options.redaction?.();
    return pageBeforeAsking(inbox.recentActions(item.source, item.session), { seq: item.requestEvent.seq, epoch: item.requestEvent.epoch, receivedAt: item.receivedAt }, redaction ? { redaction } : {});
  }

  /** A second event at a taken position in the request's session, if its emitter sent one (AEP-0001 §7.2). */
  positionTaken(item: Readonly<AttentionItem>): Readonly<PositionTaken> | undefined {
    return this.of(item)?.store.inbox.positionTaken(item.source, item.session);
  }

  isConnected(item: Readonly<AttentionItem>): boolean {
    return this.of(item)?.isConnected ?? false;
  }

  /** What every surface tells the answer pipeline about a request: the same facts whichever surface asks. */
  answerFacts(item: Readonly<AttentionItem>): AnswerFacts {
    const latest = this.item(item.key);
    return {
      hub: item.hub, source: item.source, requestId: item.requestId, session: item.session,
      request: latest?.request ?? item.request, status: latest?.status,
      // A watch-only hub is left to the client, whose refusal offers the token that lets answers through.
      notAccepting: this.reachability(item).state === 'not-accepting',
      // A copy another hub delivered shares the request's answer (one record per (source, id)): its hub's kept commands count.
      kept: [item, this.heldAlso(item)].flatMap((copy) => (copy && this.of(copy)?.keptAnswers()) ?? []),
    };
  }

  /** Whether `surface` may offer a new answer to the request now (src/answer). */
  admit(surface: AnswerSurface, item: Readonly<AttentionItem>): Admission {
    return this.pipeline.admit(surface, this.answerFacts(item));
  }

  /** What became of the request's answer: the pipeline's record, the one every surface reads. */
  answerRecord(item: Readonly<AttentionItem>): AnswerRecord | undefined {
    return this.pipeline.record(this.answerFacts(item));
  }

  /** What the agent recorded of the request, against the answers this window sent (the one rule: recordedAnswer.ts). */
  recorded(item: Readonly<AttentionItem>): PageRecorded {
    const kept = this.options.keptSends;
    return recordedAnswer(this.item(item.key) ?? item, this.pipeline.sentAnswers(this.answerFacts(item)), () => (kept ? kept({ id: item.hub }, item.key) : []));
  }

  /**
   * The only way to answer: through the pipeline, then the hub the request came from, never another (issue 16); for a
   * request two hubs deliver, the one holding its last command, so that the same answer after a timeout is Send Again.
   */
  answer(surface: AnswerSurface, given: Readonly<AttentionItem>, answer: Answer, choice: CaptureChoice = {}): AnswerResult {
    const item = this.holding(given, this.answerRecord(given)?.commandId);
    const hub = this.of(item);
    const result = this.pipeline.submit(surface, this.answerFacts(item), answer, choice, this.senderOf(hub), {
      built: (command) => {
        if (hub) this.sent.fire({ hub, item, command, surface });
      },
    });
    return result.kind === 'sending' ? { ...result, outcome: result.outcome.then((outcome) => this.settledFrom(hub, item, outcome)) } : result;
  }

  /** "Send Again": the same command, same id (AEP-0004 §2 item 3). */
  resend(surface: AnswerSurface, item: Readonly<AttentionItem>, commandId: string): Promise<SendOutcome> {
    const copy = this.holding(item, commandId);
    const hub = this.of(copy);
    return this.pipeline.resend(surface, this.answerFacts(copy), commandId, this.senderOf(hub)).then((outcome) =>
      // Nothing went and nothing changed: the command still ends as its own ack says, which the history and pages hear then.
      outcome.kind === 'cancelled' && outcome.code === 'cannot-resend' ? outcome : this.settledFrom(hub, copy, outcome));
  }

  /** The copy of the request whose hub holds `commandId`: a request two hubs deliver is answered through one of them. */
  private holding(item: Readonly<AttentionItem>, commandId: string | undefined): Readonly<AttentionItem> {
    return (commandId && [item, this.heldAlso(item)].find((one) => one && this.of(one)?.sender?.holds(commandId))) || item;
  }

  /** The hub's current sender, or one that says by its code why nothing can go (no such hub, or no client right now). */
  private senderOf(hub: Hub | undefined): AnswerSender {
    const live = hub?.sender;
    if (live) return live;
    const code = hub ? 'not-connected' : 'hub-removed';
    const cancelled = (commandId: string): Promise<SendOutcome> => Promise.resolve({ kind: 'cancelled', commandId, code });
    return { respond: () => cancelled(''), resend: (commandId) => cancelled(commandId), holds: () => false };
  }

  private settledFrom(hub: Hub | undefined, item: Readonly<AttentionItem>, outcome: SendOutcome): SendOutcome {
    const line = `answer ${outcome.commandId} to ${item.agent}'s request ${item.requestId}: ${outcome.kind}${outcomeDetail(outcome)}`;
    if (outcome.kind === 'accepted' || outcome.kind === 'awaiting-ack') this.log.for('answers').info(line);
    else this.log.for('answers').warn(line);
    if (hub) this.settled.fire({ hub, outcome });
    return outcome;
  }

  /**
   * A command that timed out settled after all: the history hears it, and so
   * does the request's page when it is still the request's answer (a newer
   * one's page must not read the older one's ending as its own).
   */
  private settledLate({ key, outcome, current }: LateSettlement): void {
    const hub = this.byId.get(key.hub);
    if (!hub) return;
    this.log.for('answers').info(`answer ${outcome.commandId} to request ${key.requestId}, after its ack window: ${outcome.kind}${outcomeDetail(outcome)}`);
    this.settled.fire({ hub, outcome });
    if (current) this.later.fire({ hub, outcome, requestId: key.requestId, source: key.source });
  }

  /** Adds the hubs the settings now name, removes the ones they no longer do, and hands the rest their new settings. */
  private reconcile(): void {
    if (this.isDisposed) return;
    const { hubs, hubListProblems } = this.settings.value;
    this.reportProblems(hubListProblems);
    const wanted = new Map(hubs.map((config) => [config.id, config]));
    let changed = false;
    for (const [id, hub] of this.byId) {
      if (wanted.has(id)) continue;
      this.byId.delete(id);
      this.log.for('hubs').info(`${id} is no longer in the settings: disconnected`);
      this.release(hub);
      changed = true;
    }
    const ordered = new Map<string, Hub>();
    for (const config of hubs) {
      const known = this.byId.get(config.id);
      if (known) {
        known.update(config);
        ordered.set(config.id, known);
        continue;
      }
      ordered.set(config.id, this.add(config));
      changed = true;
    }
    this.byId.clear();
    for (const [id, hub] of ordered) this.byId.set(id, hub);
    if (changed) this.listChanges.fire();
  }

  private add(config: HubConfig): Hub {
    const store = new AttentionStore(this.storage, this.log, this.options.store ?? {});
    const hub = new HubConnection(config, this.settings, this.tokens, store, this.log, () => this.clientCode.get(), this.options.client ?? {}, this.options.loaded);
    const owned = new DisposableStore();
    for (const subscription of [
      store.onDidChangeInbox((change) => this.inboxChanges.fire({ hub, change })),
      store.onDidChangeItem((item) => this.itemChanges.fire({ hub, item })),
      hub.onDidChangeState(() => this.stateChanges.fire(hub)),
      hub.onDidChangeRoster(() => this.rosterChanges.fire(hub)),
      hub.onDidSettleRestored((restored) => {
        this.pipeline.noteRestored({ hub: hub.id, source: restored.source, requestId: restored.requestId }, restored.outcome);
        this.later.fire({ ...restored, hub });
        this.settled.fire({ hub, outcome: restored.outcome });
      }),
    ]) owned.add(subscription);
    // The connection stops its client before the store saves what the inbox holds.
    owned.add(hub);
    owned.add(store);
    this.perHub.set(hub, owned);
    hub.start().catch((error: unknown) => this.log.for('connection').error(`could not start ${config.id}: ${String(error)}`));
    return hub;
  }

  private reportProblems(problems: string[]): void {
    const text = problems.join(' ');
    if (text === this.reportedProblems) return;
    this.reportedProblems = text;
    for (const problem of problems) this.log.for('settings').warn(problem);
    if (problems.length > 0) this.listProblems.fire(problems);
  }

  private release(hub: Hub): void {
    this.perHub.deleteAndDispose(hub);
  }

  private removeAll(): void {
    for (const hub of this.byId.values()) this.release(hub);
    this.byId.clear();
  }
}

/** The code an outcome carries, for a log line: never the answer's text. */
function outcomeDetail(outcome: SendOutcome): string {
  if (outcome.kind === 'rejected') return ` (${outcome.reason})`;
  return outcome.kind === 'refused-by-hub' || (outcome.kind === 'cancelled' && outcome.code) ? ` (${outcome.code})` : '';
}
