import { makeEvent } from './events';
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
  emit(type: string, data?: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> {
    const event = makeEvent(type, this.session, this.seq++, { ...(data === undefined ? {} : { data }), ...extra }, this.agent);
    this.peer.send(event);
    return event;
  }

  raise(data: Record<string, unknown>, capture = 'redacted'): string {
    return String(this.emit('attention.requested', data, { capture, severity: 'notice' })['id']);
  }

  commands(): Received[] {
    return this.peer.received.filter((r) => String(r.value['type']).startsWith('control.'));
  }

  async nextCommand(index = 0, timeoutMs = 3_000): Promise<Received> {
    const all = await this.peer.waitForCount((r) => String(r.value['type']).startsWith('control.'), index + 1, timeoutMs);
    const found = all[index];
    if (!found) throw new Error('no command');
    return found;
  }

  accept(command: Received): void {
    this.emit('control.accepted', undefined, { cause: command.value['id'] });
  }

  reject(command: Received, reason: string, detail?: string): void {
    this.emit('control.rejected', { reason, ...(detail === undefined ? {} : { detail }) }, { cause: command.value['id'] });
  }

  /** The outcome events after an accepted answer (AEP-0002 §7). */
  answerAndResolve(command: Received): void {
    const requestId = String(command.value['subject']);
    const data = command.value['data'] as { answer: unknown };
    const answered = this.emit('attention.answered', { answer: data.answer, via: 'control' }, { subject: requestId, cause: command.value['id'] });
    this.emit('attention.resolved', { resolution: 'answered' }, { subject: requestId, cause: answered['id'] });
  }

  close(): Promise<void> {
    return this.peer.close();
  }
}
