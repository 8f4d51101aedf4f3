import * as vscode from 'vscode';
import type { Answer, AttentionRequest } from '../aep/attention';
import type { DecidedCapture } from '../aep/capture';
import type { StoredCommand } from '../aep/client/commandStore';
import type { SendOutcome } from '../aep/client/controlSender';
import { HubClient, type ClientState, type ResumeNotice } from '../aep/client/hubClient';
import { hubEndpoint } from '../aep/client/hubEndpoint';
import type { Reachability } from '../aep/client/rosterSnapshot';
import type { RespondCommand } from '../aep/control';
import type { AttentionStore } from './attentionStore';
import { connectionInputs, needsRebuild, type ConnectionInputs } from './connectionInputs';
import { Disposable } from './disposable';
import type { ExtensionLog } from './log';
import { hubLabel, type HubConfig } from './hubList';
import type { SettingsService } from './settings';
import { tokenKeyOf, type TokenStore } from './tokens';
import { failureLogLine, lostLogLine } from '../aep/client/connectionFailure';

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
  private clientSubscriptions: vscode.Disposable[] = [];
  // start() follows construction at once (hubs.ts): until its token is read, the hub is about to connect.
  private stateValue: ConnectionState = { kind: 'connecting', attempt: 1 };
  private userDisconnected = false;
  private generation = 0;
  /** The settings the last rebuild read; undefined before the first. */
  private builtFrom: ConnectionInputs | undefined;
  readonly gaps: ReplayGap[] = [];
  /** The latest way this connection resumes with less than everything (shown in the status tooltip). */
  private resumeNoticeValue: ResumeNotice | undefined;

  private readonly stateChanges = this._register(new vscode.EventEmitter<ConnectionState>());
  private readonly rosterChanges = this._register(new vscode.EventEmitter<void>());
  private readonly restoredOutcomes = this._register(new vscode.EventEmitter<RestoredOutcome>());
  readonly onDidChangeState = this.stateChanges.event;
  readonly onDidChangeRoster = this.rosterChanges.event;
  /** An answer an earlier client left awaiting its ack (before a reload or rebuild) settled. */
  readonly onDidSettleRestored = this.restoredOutcomes.event;

  constructor(
    private configValue: HubConfig,
    private readonly settings: SettingsService,
    private readonly tokens: TokenStore,
    readonly store: AttentionStore,
    private readonly log: ExtensionLog,
  ) {
    super();
    // Not on every change: a rebuild drops the connection; answers awaiting their ack are kept and resent after it (commandStore.ts).
    this._register(settings.onDidChange(() => this.rebuildIfChanged('settings changed')));
    // Only this hub's token: setting another hub's must not drop this connection.
    this._register(
      tokens.onDidChange((key) => {
        // Its own, or its origin's, which a hub with a path falls back to (tokens.ts).
        const own = tokenKeyOf(this.configValue.hubUrl);
        if (own && (key === own.base || key === own.origin)) void this.rebuild('token changed');
      }),
    );
    this._register({ dispose: () => this.stopClient() });
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

  /** The hub refuses every answer from here (src/aep/client/watchOnly.ts): nothing is sent to it. */
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

  respond(request: AttentionRequest, answer: Answer, choice: DecidedCapture, onBuilt?: (command: RespondCommand) => void): Promise<SendOutcome> {
    if (!this.client) {
      return Promise.resolve({ kind: 'cancelled', commandId: '', code: 'not-connected' });
    }
    return this.client.respond(request, answer, choice, onBuilt).then((outcome) => this.logOutcome(request, outcome));
  }

  /** Sends a timed-out answer again under the same command id (AEP-0004 §2.3). */
  resend(request: AttentionRequest, commandId: string): Promise<SendOutcome> {
    const again = this.client?.resend(commandId);
    if (!again) return Promise.resolve({ kind: 'cancelled', commandId, code: 'cannot-resend' });
    return again.then((outcome) => this.logOutcome(request, outcome));
  }

  /** Answers kept unsettled for this hub (commandStore.ts): in flight, or timed out and open to "Send again". */
  keptAnswers(): StoredCommand[] {
    return this.store.persistence?.commands.list() ?? [];
  }

  /** Whether an answer sent now goes out at once (false: it waits for the connection). */
  get isConnected(): boolean {
    return this.client?.isConnected ?? false;
  }

  private logOutcome(request: AttentionRequest, outcome: SendOutcome): SendOutcome {
    // The outcome, never the answer's text.
    const log = this.log.for('answers');
    const detail = outcome.kind === 'rejected' ? ` (${outcome.reason})` : outcome.kind === 'refused-by-hub' || (outcome.kind === 'cancelled' && outcome.code) ? ` (${outcome.code})` : '';
    const line = `answer ${outcome.commandId} to ${request.agent}'s request ${request.id}: ${outcome.kind}${detail}`;
    if (outcome.kind === 'accepted' || outcome.kind === 'awaiting-ack') log.info(line);
    else log.warn(line);
    return outcome;
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
      this.store.switchTo(base);
    }
    if (this.userDisconnected) {
      this.stopClient();
      this.setState({ kind: 'disconnected' });
      return;
    }
    const found = endpoint.ok ? await this.tokens.get({ base: endpoint.value.base, origin: endpoint.value.origin }) : undefined;
    const token = found?.token;
    if (generation !== this.generation || this.isDisposed) return; // a newer rebuild started meanwhile
    this.stopClient();
    const tokenWords = !found ? ', without a token' : found.from === 'origin' ? `, with the token filed for ${endpoint.ok ? endpoint.value.origin : 'its origin'} (it has none of its own)` : ', with a token';
    log.info(`${reason}: ${base ?? 'an unusable hub address'} (${this.configValue.source})${tokenWords}`);
    this.startClient(inputs, token);
  }

  private startClient(settings: ConnectionInputs, token: string | undefined): void {
    // Without an origin (an unusable URL) nothing is persisted; the client reports why it cannot connect.
    const persistence = this.store.persistence;
    const inbox = this.store.inbox;
    const client = new HubClient({
      hubUrl: settings.hubUrl,
      ...(token ? { token } : {}),
      allowInsecureRemote: settings.allowInsecureRemote,
      filter: settings.filter,
      ...(settings.captureCeiling ? { captureCeiling: settings.captureCeiling } : {}),
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
    });
    this.client = client;
    this.clientSubscriptions = [
      toDisposable(client.onDidChangeState((state) => this.setState(state))),
      toDisposable(client.onDidReplayGap((gap) => {
        this.gaps.push({ session: gap.session, at: Date.now() });
        if (this.gaps.length > 20) this.gaps.shift();
        this.stateChanges.fire(this.stateValue);
      })),
      toDisposable(client.onDidNoteResume((notice) => {
        this.resumeNoticeValue = notice;
        this.stateChanges.fire(this.stateValue);
      })),
      toDisposable(client.onDidChangeRoster(() => this.rosterChanges.fire())),
    ];
    client.start();
  }

  get resumeNotice(): ResumeNotice | undefined {
    return this.resumeNoticeValue;
  }

  private stopClient(): void {
    this.resumeNoticeValue = undefined;
    for (const subscription of this.clientSubscriptions) subscription.dispose();
    this.clientSubscriptions = [];
    this.client?.dispose();
    this.client = undefined;
  }

  private setState(state: ConnectionState): void {
    this.stateValue = state;
    this.stateChanges.fire(state);
    this.log.for('connection').info(`${this.logName} state: ${describeState(state)}`);
  }
}

function toDisposable(subscription: { dispose(): void }): vscode.Disposable {
  return { dispose: () => subscription.dispose() };
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
