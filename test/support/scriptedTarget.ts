import type { AepEvent } from '../../src/aep/envelope';
import { makeEvent, makeRequest, sourceFor, type EventFields, type RequestData } from './events';
import { WsPeer, type Received } from './wsPeer';

/**
 * A control-capable emitter whose every move the test scripts: it owns one
 * session, raises requests, and acks or stays silent as told. The demo agent
 * is the real target; this one exists to provoke cases a well-behaved agent
 * never produces (silence, lost acks at a chosen moment).
 */
export class ScriptedTarget {
  private seq = 0;

  private constructor(readonly peer: WsPeer, readonly session: string, readonly agent: string) {}

  /** The source its events carry. */
  get source(): string {
    return sourceFor(this.session, this.agent);
  }

  static async start(
    hubUrl: string,
    token: string | undefined,
    session: string,
    options: { agent?: string; ackWindowMs?: number; accepts?: string[] } = {},
  ): Promise<ScriptedTarget> {
    const agent = options.agent ?? 'scripted-agent';
    const peer = await WsPeer.connect(hubUrl, {
      ...(token === undefined ? {} : { token }), role: 'emitter', agent,
      capabilities: { control: { accepts: options.accepts ?? ['control.attention.respond'], ack_window_ms: options.ackWindowMs ?? 10_000 } },
    });
    const target = new ScriptedTarget(peer, session, agent);
    target.emit('session.started', { client: { name: agent } });
    return target;
  }

  /** Emits the next sequenced event of the session; returns it. */
  emit(type: string, data?: Record<string, unknown>, fields: EventFields = {}): AepEvent {
    return this.send(makeEvent(type, this.session, this.seq++, { ...(data === undefined ? {} : { data }), ...fields }, this.agent));
  }

  /** Raises a request (capture `redacted`, severity `notice` unless `fields` say otherwise); returns its id. */
  raise(data: RequestData, fields: Omit<EventFields, 'type' | 'data'> = {}): string {
    return this.send(makeRequest(this.session, this.seq++, data, { capture: 'redacted', severity: 'notice', ...fields }, this.agent)).id;
  }

  private send(event: AepEvent): AepEvent {
    this.peer.send(event);
    return event;
  }

  commands(): Received[] {
    return this.peer.received.filter((r) => String(r.value['type']).startsWith('control.'));
  }

  async nextCommand(index = 0, timeoutMs = 10_000): Promise<Received> {
    const all = await this.peer.waitForCount((r) => String(r.value['type']).startsWith('control.'), index + 1, timeoutMs);
    const found = all[index];
    if (!found) throw new Error('no command');
    return found;
  }

  accept(command: Received): void {
    this.emit('control.accepted', undefined, { cause: idOf(command) });
  }

  reject(command: Received, reason: string, detail?: string): void {
    this.emit('control.rejected', { reason, ...(detail === undefined ? {} : { detail }) }, { cause: idOf(command) });
  }

  /** The outcome events after an accepted answer (AEP-0002 §7). */
  answerAndResolve(command: Received): void {
    const requestId = String(command.value['subject']);
    const data = command.value['data'] as { answer: unknown };
    const answered = this.emit('attention.answered', { answer: data.answer, via: 'control' }, { subject: requestId, cause: idOf(command) });
    this.emit('attention.resolved', { resolution: 'answered' }, { subject: requestId, cause: answered.id });
  }

  close(): Promise<void> {
    return this.peer.close();
  }
}

/** A command's id, which the outcome events name as their `cause` (AEP-0004 §6). */
function idOf(command: Received): string {
  const id = command.value['id'];
  if (typeof id !== 'string') throw new Error(`the command has no id: ${JSON.stringify(command.value).slice(0, 200)}`);
  return id;
}
