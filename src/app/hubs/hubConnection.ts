import type { StoredCommand } from '../../client/commandStore';
import type { AnswerSender, SendOutcome } from '../../client/controlSender';
import type { HubClient, ClientState, HubClientOptions, ResumeNotice } from '../../client/hubClient';
import { hubEndpoint } from '../../client/hubEndpoint';
import type { Reachability } from '../../client/rosterSnapshot';
import { Emitter, type Subscription } from '../../base/emitter';
import type { AttentionStore, ComponentLog } from './attentionStore';
import { connectionInputs, needsRebuild, type ConnectionInputs } from './connectionInputs';
import { Disposable, DisposableStore, toDisposable } from '../../base/disposable';
import { hubLabel, type HubConfig } from './hubList';
import type { Settings } from './settings';
import { tokenKeyOf, type TokenStore } from './tokens';
import { failureLogLine, lostLogLine } from '../../client/connectionFailure';

/** The connection as the UI shows it: the client's own states plus the one where there is no client. */
export type ConnectionState =
  | ClientState
  /** The user disconnected; nothing reconnects until they connect again. */
  | { kind: 'disconnected' };

export interface RestoredOutcome {
  outcome: SendOutcome;
  /** The answered request: its id, and the `source` of its emitter. */
  requestId: string;
  source: string;
}

/** The settings as a connection reads them (settings.ts SettingsService is one; a test passes its own). */
export interface SettingsSource {
  readonly value: Settings;
  onDidChange(listener: (settings: Settings) => void): Subscription;
}

/** Where a connection finds its hub's token (tokens.ts TokenStore is one). */
export type TokenSource = Pick<TokenStore, 'get' | 'onDidChange'>;

/** Client options a test tightens (backoff); the rest come from the settings. */
export type ClientTuning = Pick<HubClientOptions, 'backoffBaseMs' | 'backoffCapMs'>;

export interface ReplayGap {
  session: string;
  at: number;
}

/**
 * One hub's connection (hubs.ts keeps one per hub the window names): owns its
 * client, rebuilds it when what it is made of changes (connectionInputs.ts,
 * and this hub's token); other settings take effect without it. The client
 * feeds this hub's attention store (attentionStore.ts); the UI reads the
 * connection's state here, requests there.
 */
export class HubConnection extends Disposable {
  private client: HubClient | undefined;
  /** What this connection hears of its current client; cleared as the client stops. */
  private readonly clientSubscriptions = new DisposableStore();
  // start() follows construction at once (hubs.ts): until its token is read, the hub is about to connect.
  private stateValue: ConnectionState = { kind: 'connecting', attempt: 1 };
  private userDisconnected = false;
  private generation = 0;
  /** The settings the last rebuild read; undefined before the first. */
  private builtFrom: ConnectionInputs | undefined;
  readonly gaps: ReplayGap[] = [];
  /** The latest way this connection resumes with less than everything (shown in the status tooltip). */
  private resumeNoticeValue: ResumeNotice | undefined;

  private readonly stateChanges: Emitter<ConnectionState>;
  private readonly rosterChanges: Emitter<void>;
  private readonly restoredOutcomes: Emitter<RestoredOutcome>;
  readonly onDidChangeState;
  readonly onDidChangeRoster;
  /** An answer an earlier client left awaiting its ack (before a reload or rebuild) settled. */
  readonly onDidSettleRestored;

  constructor(
    private configValue: HubConfig,
    private readonly settings: SettingsSource,
    private readonly tokens: TokenSource,
    readonly store: AttentionStore,
    private readonly log: ComponentLog,
    /** The client's code, loaded with the first connection (hubs.ts, one load for every hub); undefined when it did not load (logged and told there). */
    private readonly clientCode: () => Promise<typeof HubClient | undefined>,
    private readonly tuning: ClientTuning = {},
    /** What is waited for before the token is read and the client made (HubsOptions.loaded). */
    private readonly loaded: () => Promise<void> = () => Promise.resolve(),
  ) {
    super();
    const onListenerError = (error: unknown) => log.for('connection').error(`listener failed: ${String(error)}`);
    this.stateChanges = this._register(new Emitter<ConnectionState>(onListenerError));
    this.rosterChanges = this._register(new Emitter<void>(onListenerError));
    this.restoredOutcomes = this._register(new Emitter<RestoredOutcome>(onListenerError));
    this.onDidChangeState = this.stateChanges.event;
    this.onDidChangeRoster = this.rosterChanges.event;
    this.onDidSettleRestored = this.restoredOutcomes.event;
    // Not on every change: a rebuild drops the connection; answers awaiting their ack are kept and resent after it (commandStore.ts).
    this._register(settings.onDidChange(() => this.rebuildIfChanged('settings changed')));
    // Only this hub's token: setting another hub's must not drop this connection.
    this._register(
      tokens.onDidChange((key) => {
        // Its own, or its origin's, which a hub with a path may be offered (tokens.ts).
        const own = tokenKeyOf(this.configValue.hubUrl);
        if (own && (key === own.base || key === own.origin)) void this.rebuild('token changed');
      }),
    );
    this._register(toDisposable(() => this.stopClient()));
  }

  /** The hub's base URL (or a digest of its address, when unusable): what tells hubs apart (hubList.ts hubId). */
  get id(): string {
    return this.configValue.id;
  }

  get config(): HubConfig {
    return this.configValue;
  }

  /** The hub in a log line: its base URL, never the address as written, which may carry a query. */
  private get logName(): string {
    return this.store.base ?? 'an unusable hub address';
  }

  /** How the hub is named on every surface. */
  get label(): string {
    return hubLabel(this.configValue);
  }

  /** The settings changed what names this hub (a label, its filter, its folders): rebuilt only if its client is made of what changed. */
  update(config: HubConfig): void {
    this.configValue = config;
    this.rebuildIfChanged('settings changed');
  }

  private rebuildIfChanged(reason: string): void {
    // A hub removed in the same settings change may still hear it.
    if (this.isDisposed) return;
    if (this.builtFrom === undefined || needsRebuild(this.builtFrom, connectionInputs(this.configValue, this.settings.value))) void this.rebuild(reason);
  }

  get state(): ConnectionState {
    return this.stateValue;
  }

  /** The hub's base URL in the current settings (the store holds its requests); undefined when unusable. */
  get base(): string | undefined {
    return this.store.base;
  }

  /** The hub refuses every answer from here (src/client/watchOnly.ts): nothing is sent to it. */
  get watchOnly(): boolean {
    return this.client?.watchOnly ?? false;
  }

  reachability(session: string): Reachability {
    return this.client?.reachability(session) ?? { state: 'unknown' };
  }

  /** Starts (or restarts) for the current settings. */
  async start(): Promise<void> {
    await this.rebuild('start');
  }

  async connect(): Promise<void> {
    this.userDisconnected = false;
    await this.rebuild('connect');
  }

  disconnect(): void {
    this.userDisconnected = true;
    this.stopClient();
    this.setState({ kind: 'disconnected' });
    this.log.for('connection').info(`${this.logName}: disconnected by the user`);
  }

  retryNow(): void {
    if (this.client) this.client.retryNow();
    else void this.connect();
  }

  /** Where this hub's answers go now (the current client's control sender); undefined while there is no client. */
  get sender(): AnswerSender | undefined {
    return this.client?.answers;
  }

  /** Answers kept unsettled for this hub (commandStore.ts): in flight, or timed out and open to "Send again". */
  keptAnswers(): StoredCommand[] {
    return this.store.persistence?.commands.list() ?? [];
  }

  /** Whether an answer sent now goes out at once (false: it waits for the connection). */
  get isConnected(): boolean {
    return this.client?.isConnected ?? false;
  }

  private async rebuild(reason: string): Promise<void> {
    const generation = ++this.generation;
    const log = this.log.for('connection');
    const settings = this.settings.value;
    const inputs = connectionInputs(this.configValue, settings);
    this.builtFrom = inputs;
    const endpoint = hubEndpoint(inputs.hubUrl, inputs.allowInsecureRemote);
    const base = endpoint.ok ? endpoint.value.base : undefined;
    if (base !== this.store.base) {
      // The client feeds the inbox being replaced: it goes first.
      this.stopClient();
      this.gaps.length = 0;
      this.store.switchTo(base, inputs.captureCeiling);
    }
    if (this.userDisconnected) {
      this.stopClient();
      this.setState({ kind: 'disconnected' });
      return;
    }
    // The client (and ws under it) is loaded with the first connection, not at activation.
    const [Client] = await Promise.all([this.clientCode(), this.loaded()]);
    if (generation !== this.generation || this.isDisposed || this.userDisconnected) return;
    if (Client === undefined) {
      // Nothing to connect with: the hub says why until the next connect, which loads again.
      this.stopClient();
      this.setState({ kind: 'failed', failure: { code: 'client-not-loaded' } });
      return;
    }
    const found = endpoint.ok ? await this.tokens.get({ base: endpoint.value.base, origin: endpoint.value.origin }) : undefined;
    const token = found?.token;
    if (generation !== this.generation || this.isDisposed) return; // a newer rebuild started meanwhile
    this.stopClient();
    const tokenWords = !found ? ', without a token' : found.from === 'origin' ? `, with the token of ${endpoint.ok ? endpoint.value.origin : 'its origin'}, as agreed` : ', with a token';
    log.info(`${reason}: ${base ?? 'an unusable hub address'} (${this.configValue.source})${tokenWords}`);
    this.startClient(Client, inputs, token);
  }

  private startClient(Client: typeof HubClient, settings: ConnectionInputs, token: string | undefined): void {
    // Without an origin (an unusable URL) nothing is persisted; the client reports why it cannot connect.
    const persistence = this.store.persistence;
    const inbox = this.store.inbox;
    // A changed ceiling alone rebuilds the client, not the inbox: requests from now on are read under it.
    inbox.setCaptureCeiling(settings.captureCeiling);
    inbox.setRecentActions(settings.beforeAsking);
    const client = new Client({
      hubUrl: settings.hubUrl,
      ...(token ? { token } : {}),
      allowInsecureRemote: settings.allowInsecureRemote,
      filter: settings.filter,
      ...(settings.captureCeiling ? { captureCeiling: settings.captureCeiling } : {}),
      beforeAsking: settings.beforeAsking,
      senderName: settings.senderName,
      inbox,
      positions: persistence ?? { load: () => [], record: () => undefined },
      ...(persistence ? { commands: persistence.commands } : {}),
      onRestoredOutcome: (outcome, command) => {
        const item = inbox.findRequest(command.target.session, command.subject, command.target.source);
        const log = this.log.for('answers');
        const line = `answer ${outcome.commandId} (kept from before a restart) to ${item?.agent ?? 'an agent'}'s request ${command.subject}: ${outcome.kind}`;
        if (outcome.kind === 'accepted' || outcome.kind === 'awaiting-ack') log.info(line);
        else log.warn(line);
        this.restoredOutcomes.fire({ outcome, requestId: command.subject, source: command.target.source });
      },
      log: this.log.for('client'),
      ...this.tuning,
    });
    this.client = client;
    this.clientSubscriptions.add(client.onDidChangeState((state) => this.setState(state)));
    this.clientSubscriptions.add(client.onDidReplayGap((gap) => {
      this.gaps.push({ session: gap.session, at: Date.now() });
      if (this.gaps.length > 20) this.gaps.shift();
      this.stateChanges.fire(this.stateValue);
    }));
    this.clientSubscriptions.add(client.onDidNoteResume((notice) => {
      this.resumeNoticeValue = notice;
      this.stateChanges.fire(this.stateValue);
    }));
    this.clientSubscriptions.add(client.onDidChangeRoster(() => this.rosterChanges.fire()));
    client.start();
  }

  get resumeNotice(): ResumeNotice | undefined {
    return this.resumeNoticeValue;
  }

  private stopClient(): void {
    this.resumeNoticeValue = undefined;
    this.clientSubscriptions.clear();
    this.client?.dispose();
    this.client = undefined;
  }

  private setState(state: ConnectionState): void {
    this.stateValue = state;
    this.stateChanges.fire(state);
    this.log.for('connection').info(`${this.logName} state: ${describeState(state)}`);
  }
}

export function describeState(state: ConnectionState): string {
  switch (state.kind) {
    case 'backing-off':
      return `backing off (attempt ${state.attempt}): ${lostLogLine(state.lost)}`;
    case 'failed':
      return `failed: ${failureLogLine(state.failure)}`;
    case 'connecting':
      return `connecting (attempt ${state.attempt})`;
    default:
      return state.kind;
  }
}
