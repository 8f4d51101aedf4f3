import WebSocket from 'ws';

/** A JSON frame or event as received, with its exact text. */
export interface Received {
  value: Record<string, unknown>;
  text: string;
}

/**
 * A bare WebSocket peer for tests: sends frames, records everything received,
 * and waits for what a test expects (with a deadline, so a test fails rather
 * than hangs).
 */
export class WsPeer {
  readonly received: Received[] = [];
  private waiters: Array<() => void> = [];
  closed = false;
  private markers = 0;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data: Buffer) => {
      const text = data.toString('utf8');
      let value: Record<string, unknown>;
      try {
        value = JSON.parse(text) as Record<string, unknown>;
      } catch {
        value = { nonJson: text };
      }
      this.received.push({ value, text });
      this.wake();
    });
    ws.on('close', () => {
      this.closed = true;
      this.wake();
    });
  }

  static async open(hubUrl: string, token?: string): Promise<WsPeer> {
    const url = hubUrl.replace(/^http/, 'ws') + '/socket';
    const ws = new WebSocket(url, token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } });
    const peer = new WsPeer(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
      ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    });
    return peer;
  }

  /** Opens, says hello with `role`, and waits for the hub's hello. */
  static async connect(
    hubUrl: string,
    options: { token?: string; role?: 'emitter' | 'consumer' | 'both'; agent?: string; capabilities?: Record<string, unknown> } = {},
  ): Promise<WsPeer> {
    const peer = await WsPeer.open(hubUrl, options.token);
    peer.send({
      type: 'hello', versions: ['0.1'], role: options.role ?? 'consumer',
      identity: { agent: options.agent ?? 'test-peer', instance: 'test' }, capabilities: options.capabilities ?? {},
    });
    await peer.waitFor((r) => r.value['type'] === 'hello');
    return peer;
  }

  send(value: unknown): void {
    this.ws.send(typeof value === 'string' ? value : JSON.stringify(value));
  }

  /** Resolves with the first received message (from `from` on) matching, or rejects after `timeoutMs`. */
  async waitFor(match: (received: Received) => boolean, timeoutMs = 10_000, from = 0): Promise<Received> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.received.slice(from).find(match);
      if (found) return found;
      if (this.closed) throw new Error(`connection closed before the expected message; got ${this.describe()}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting; got ${this.describe()}`);
      await new Promise<void>((resolve) => {
        // The deadline only: the next message or the close wakes this waiter at once.
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Waits until `count` messages match, then returns them. */
  async waitForCount(match: (received: Received) => boolean, count: number, timeoutMs = 10_000): Promise<Received[]> {
    await this.waitFor(() => this.received.filter(match).length >= count, timeoutMs);
    return this.received.filter(match);
  }

  /**
   * Resolves once the hub has handled everything this peer sent before it: a ping and
   * its pong, which the hub answers in order on the same socket (AEP-0003 §3.5.5).
   */
  async handled(timeoutMs = 10_000): Promise<void> {
    const t = ++this.markers;
    const from = this.received.length;
    this.send({ type: 'ping', t });
    await this.waitFor((r) => r.value['type'] === 'pong' && r.value['t'] === t, timeoutMs, from);
  }

  events(): Array<Record<string, unknown>> {
    return this.received.map((r) => r.value).filter((v) => typeof v['type'] === 'string' && (v['type'] as string).includes('.'));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    const closed = new Promise<void>((resolve) => this.ws.once('close', () => resolve()));
    this.ws.close();
    // A bound on the close handshake, not a wait: past it the socket is terminated.
    await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 1_000))]);
    if (!this.closed) this.ws.terminate();
  }

  private describe(): string {
    return JSON.stringify(this.received.slice(-5).map((r) => r.text.slice(0, 160)));
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}
