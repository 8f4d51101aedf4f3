import type { WebSocket } from 'ws';
import { AEP_VERSION, severityOf } from '../../../src/aep/envelope';
import { severityRank } from '../../../src/aep/levels';
import { admitValue, isCommandType, type Admitted } from './admission';
import type { Claimant, ClaimRegistry } from './claims';
import { readFrameObject, readHello, readSubscribe, type ClientHello, type SubscribeRequest } from './clientFrames';
import type { HubConfig } from './config';
import { render, sinkWants, type Fanout, type Sink } from './fanout';
import type { SessionStore, StoredEvent } from './sessionStore';

/** What a connection needs from the hub around it. */
export interface SocketServices {
  readonly config: HubConfig;
  readonly store: SessionStore;
  readonly fanout: Fanout;
  readonly claims: ClaimRegistry;
  readonly helloFrame: Record<string, unknown>;
  /**
   * Stores (when new) and fans out an admitted event. `owner` is the source
   * of the session a routed command is addressed to (see SessionStore.admit).
   */
  ingest(admitted: Admitted, owner?: string): StoredEvent;
}

interface Subscription extends Sink {
  readonly id: string;
  /** Last position delivered per session, reported in `closing` (AEP-0003 §3.5.4). */
  readonly delivered: Map<string, { epoch: number; seq: number }>;
  dispose(): void;
}

const NOTICE = severityRank('notice');

/** One WebSocket peer of the hub (AEP-0003 §3.5, §4, §6.5; AEP-0004 §4). */
export class SocketConnection implements Claimant {
  private helloValue: ClientHello | undefined;
  private readonly subscriptions = new Map<string, Subscription>();
  /** Per claimed session, the source of the sequenced events this connection sent for it. */
  private readonly claimedSources = new Map<string, string>();
  lastHeard = Date.now();
  private closed = false;

  constructor(
    private readonly ws: WebSocket,
    private readonly services: SocketServices,
    readonly label: string,
  ) {
    ws.on('message', (data, isBinary) => this.onMessage(data, isBinary));
    ws.on('close', () => this.dispose());
    ws.on('error', (error) => this.services.config.log(`hub: socket ${this.label} error: ${error.message}`));
  }

  get hello(): ClientHello {
    if (!this.helloValue) throw new Error('no hello yet');
    return this.helloValue;
  }

  sourceOf(session: string): string | undefined {
    return this.claimedSources.get(session);
  }

  sendText(text: string): void {
    if (!this.closed && this.ws.readyState === this.ws.OPEN) this.ws.send(text);
  }

  private send(frame: Record<string, unknown>): void {
    this.sendText(JSON.stringify(frame));
  }

  ping(now: number): void {
    if (now - this.lastHeard > this.services.config.idleMs) {
      this.services.config.log(`hub: dropping ${this.label}: silent for ${now - this.lastHeard} ms`);
      this.ws.terminate();
      return;
    }
    this.send({ type: 'ping', t: now });
  }

  /** Orderly close (AEP-0003 §3.5.4): positions first, then the close handshake. */
  shutdown(reason: string): void {
    const delivered = [...this.subscriptions.values()].flatMap((sub) =>
      [...sub.delivered].map(([session, position]) => ({ sub: sub.id, session, ...position })),
    );
    this.send({ type: 'closing', reason, delivered });
    this.ws.close(1001, reason.slice(0, 100));
  }

  private dispose(): void {
    if (this.closed) return;
    this.closed = true;
    for (const sub of this.subscriptions.values()) sub.dispose();
    this.subscriptions.clear();
    this.services.claims.release(this);
  }

  private onMessage(data: unknown, isBinary: boolean): void {
    this.lastHeard = Date.now();
    const text = isBinary ? undefined : Buffer.isBuffer(data) ? data.toString('utf8') : Array.isArray(data) ? Buffer.concat(data).toString('utf8') : String(data);
    const read = text === undefined
      ? { ok: false as const, detail: 'binary frames are reserved in AEP 0.1 (AEP-0003 §3.5.2)' }
      : readFrameObject(text);
    if (!this.helloValue) {
      this.onFirstFrame(read.ok ? read.frame : undefined, read.ok ? undefined : read.detail);
      return;
    }
    if (!read.ok) {
      this.refuseFrame(read.detail);
      return;
    }
    const frame = read.frame;
    const type = frame['type'];
    if (typeof type !== 'string') {
      this.refuseFrame('a frame needs a string `type`');
      return;
    }
    if (type.includes('.')) {
      this.onEvent(frame, text ?? '');
      return;
    }
    switch (type) {
      case 'subscribe':
        this.onSubscribe(frame);
        return;
      case 'unsubscribe':
        this.onUnsubscribe(frame);
        return;
      case 'ping':
        this.send({ type: 'pong', t: frame['t'] });
        return;
      case 'roster':
        this.onRoster(frame);
        return;
      default:
        // pong, a repeated hello, and frame types from newer revisions are ignored (AEP-0003 §2).
        return;
    }
  }

  private refuseFrame(detail: string): void {
    this.send({ type: 'error', code: 'invalid-frame', detail });
  }

  /**
   * AEP-0003 §3.5.1: "Any other first frame gets an error frame
   * (hello-required) and close". Any other: text that is not a JSON object,
   * and a binary frame, are not a hello either.
   */
  private onFirstFrame(frame: Record<string, unknown> | undefined, unreadable?: string): void {
    if (frame?.['type'] !== 'hello') {
      const why = unreadable ?? (frame && typeof frame['type'] === 'string' ? `this one is ${JSON.stringify(frame['type'].slice(0, 40))}` : 'this one has no type');
      this.send({ type: 'error', code: 'hello-required', detail: `the first frame must be hello (AEP-0003 §3.5.1); ${why}` });
      this.ws.close(1008, 'hello required');
      return;
    }
    const read = readHello(frame);
    if (!read.ok) {
      this.send({ type: 'error', code: 'invalid-hello', detail: read.detail });
      this.ws.close(1008, 'invalid hello');
      return;
    }
    if (!read.hello.versions.includes(AEP_VERSION)) {
      this.send({ type: 'error', code: 'version-unsupported', versions: [AEP_VERSION], detail: `this hub speaks AEP ${AEP_VERSION}` });
      this.ws.close(1008, 'version unsupported');
      return;
    }
    this.helloValue = read.hello;
    this.send(this.services.helloFrame);
  }

  // ---- events and commands -------------------------------------------------

  private onEvent(value: unknown, text: string): void {
    const admission = admitValue(value, text);
    if (!admission.ok) {
      this.send({ type: 'error', code: 'invalid-event', ...(admission.id ? { cause: admission.id } : {}), detail: admission.problem });
      return;
    }
    const { event } = admission.value;
    if (isCommandType(event.type)) {
      this.onCommand(admission.value);
      return;
    }
    // No role gate: AEP-0003 §4 rule 2 lists the roles but gates no event on them (only the
    // roster frame refuses a role, `emitter`, §4.1 rule 2). Rule 3 is checked at hello.
    if (event.session !== undefined && event.seq !== undefined) {
      this.claimedSources.set(event.session, event.source);
      this.services.claims.claim(this, event.session);
    }
    this.services.ingest(admission.value);
    // Ending the session ends this connection's claim on it; another connection's claim stands.
    if (event.type === 'session.ended' && event.session !== undefined) {
      this.claimedSources.delete(event.session);
      this.services.claims.releaseSession(this, event.session);
    }
  }

  private onCommand(admitted: Admitted): void {
    const { event, raw } = admitted;
    const { config, claims } = this.services;
    const refuse = (code: string, detail: string) => {
      // A relay-behalf refusal is a frame to the sender, never an event in the session (AEP-0004 §4.2, §8).
      this.send({ type: 'error', cause: event.id, code, detail });
      config.log(`hub: refused ${event.type} ${event.id} for session ${event.session ?? '?'}: ${code}`);
    };
    if (config.token === undefined) {
      refuse('unauthorized', 'this hub runs without a token, so it is watch-only and refuses every command (AEP-0004 §4.1)');
      return;
    }
    const session = event.session ?? '';
    const decision = claims.route(session, event.type);
    if (!decision.ok) {
      refuse(decision.code, decision.detail);
      return;
    }
    // Byte-identical forwarding (AEP-0004 §4.4), then the command joins the history of the session it reached.
    decision.target.sendText(raw);
    config.log(`hub: routed ${event.type} ${event.id} from ${event.agent} to session ${session}`);
    this.services.ingest(admitted, decision.target.sourceOf(session));
  }

  // ---- subscriptions ---------------------------------------------------------

  private onSubscribe(frame: Record<string, unknown>): void {
    const id = typeof frame['id'] === 'string' ? frame['id'] : undefined;
    if (this.hello.role === 'emitter') {
      this.send({ type: 'error', ...(id ? { id } : {}), code: 'unauthorized', detail: 'an emitter-role connection cannot subscribe; say role "consumer" or "both"' });
      return;
    }
    const read = readSubscribe(frame, this.services.config.maxFromPositions);
    if (!read.ok) {
      this.send({ type: 'error', ...read.error });
      return;
    }
    const request = read.request;
    if (this.subscriptions.has(request.id)) {
      this.send({ type: 'error', id: request.id, code: 'invalid-filter', detail: `subscription id ${JSON.stringify(request.id)} is already in use on this connection` });
      return;
    }
    if (this.subscriptions.size >= this.services.config.maxSubscriptionsPerConnection) {
      this.send({
        type: 'error', id: request.id, code: 'limit-exceeded',
        detail: `this hub allows ${this.services.config.maxSubscriptionsPerConnection} subscriptions per connection`,
      });
      return;
    }
    this.send({ type: 'subscribed', id: request.id });
    const subscription = this.createSubscription(request);
    this.replay(subscription, request);
    this.subscriptions.set(request.id, subscription);
  }

  private createSubscription(request: SubscribeRequest): Subscription {
    const delivered = new Map<string, { epoch: number; seq: number }>();
    const sub: Subscription = {
      id: request.id,
      filter: request.filter,
      ceiling: request.capture,
      delivered,
      deliver: (entry, text) => this.deliver(sub, entry, text),
      dispose: () => removeSink(),
    };
    const removeSink = this.services.fanout.add(sub);
    return sub;
  }

  private deliver(sub: Subscription, entry: StoredEvent, text: string): void {
    // Backpressure (AEP-0003 §8.4): shed debug/info toward a slow consumer, never notice+;
    // for those the choice is deliver or disconnect so the consumer resumes exactly.
    if (this.ws.bufferedAmount > this.services.config.slowConsumerBytes) {
      if (severityRank(severityOf(entry.event)) < NOTICE) return;
      this.services.config.log(`hub: disconnecting slow consumer ${this.label}`);
      this.shutdown('slow consumer');
      return;
    }
    this.sendText(text);
    const session = entry.event.session;
    if (session !== undefined && entry.sub === 0) delivered(sub, session, entry);
  }

  private replay(sub: Subscription, request: SubscribeRequest): void {
    const { store } = this.services;
    if (request.from === undefined) return;
    if (request.from === 'all') {
      for (const entries of store.replayAll()) this.replayEntries(sub, entries);
      return;
    }
    const seen = new Set<string>();
    for (const position of request.from) {
      if (seen.has(position.session)) continue;
      seen.add(position.session);
      for (const plan of store.replay(position.session, position)) {
        if (plan.exhausted) {
          this.send({ type: 'replay-exhausted', sub: sub.id, session: position.session, earliest: plan.exhausted });
        }
        this.replayEntries(sub, plan.entries);
      }
    }
  }

  private replayEntries(sub: Subscription, entries: StoredEvent[]): void {
    for (const entry of entries) {
      if (sinkWants(sub, entry)) this.deliver(sub, entry, render(entry, sub.ceiling));
    }
  }

  private onUnsubscribe(frame: Record<string, unknown>): void {
    const id = frame['id'];
    if (typeof id !== 'string') {
      this.refuseFrame('unsubscribe needs a string `id`');
      return;
    }
    this.subscriptions.get(id)?.dispose();
    this.subscriptions.delete(id);
    this.send({ type: 'unsubscribed', id });
  }

  private onRoster(frame: Record<string, unknown>): void {
    const id = frame['id'];
    if (typeof id !== 'string' || id === '') {
      this.refuseFrame('roster needs a non-empty string `id`');
      return;
    }
    if (this.hello.role === 'emitter') {
      this.send({ type: 'error', id, code: 'unauthorized', detail: 'roster is watch-class: an emitter-role connection cannot ask for it (AEP-0003 §4.1 rule 2)' });
      return;
    }
    this.send({ type: 'roster', id, entries: this.services.claims.roster() });
  }
}

function delivered(sub: Subscription, session: string, entry: StoredEvent): void {
  const last = sub.delivered.get(session);
  if (!last || entry.epoch > last.epoch || (entry.epoch === last.epoch && entry.seq > last.seq)) {
    sub.delivered.set(session, { epoch: entry.epoch, seq: entry.seq });
  }
}
