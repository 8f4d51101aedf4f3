import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A loopback TCP proxy in front of the hub that a test can sever (cut every
 * open connection at once) and block (refuse new ones) to simulate a network
 * drop between the client and the hub.
 */
export class TcpProxy {
  private readonly pairs = new Set<[Socket, Socket]>();
  private blocked = false;
  /** While set, what the hub sends is thrown away: the client hears nothing (a lost ack). */
  droppingDownstream = false;
  /** While set, what the client sends is thrown away: the hub hears nothing of it (an agent's ack lost on its way). */
  droppingUpstream = false;
  connections = 0;
  /** Bytes passed from the hub to the client, over every connection (what a replay costs on the wire). */
  bytesDownstream = 0;
  /** Set by `severAfter`: how many bytes from the hub may still pass before every connection is cut, and who waits for it. */
  private cut: { left: number; done: () => void } | undefined;

  private constructor(private readonly server: Server, readonly port: number) {}

  static async start(targetPort: number, targetHost = '127.0.0.1'): Promise<TcpProxy> {
    let proxy: TcpProxy | undefined;
    const server = createServer((client) => {
      if (!proxy || proxy.blocked) {
        client.destroy();
        return;
      }
      proxy.connections++;
      const upstream = connect(targetPort, targetHost);
      const pair: [Socket, Socket] = [client, upstream];
      proxy.pairs.add(pair);
      const end = () => {
        client.destroy();
        upstream.destroy();
        proxy?.pairs.delete(pair);
      };
      client.on('error', end).on('close', end);
      upstream.on('error', end).on('close', end);
      client.on('data', (chunk: Buffer) => {
        if (!proxy || proxy.droppingUpstream) return;
        upstream.write(chunk);
      });
      upstream.on('data', (chunk: Buffer) => {
        if (!proxy || proxy.droppingDownstream) return;
        const cut = proxy.cut;
        const passed = cut ? chunk.subarray(0, cut.left) : chunk;
        proxy.bytesDownstream += passed.length;
        client.write(passed);
        if (!cut) return;
        cut.left -= passed.length;
        if (cut.left > 0) return;
        proxy.cut = undefined;
        proxy.sever(true);
        cut.done();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    proxy = new TcpProxy(server, (server.address() as AddressInfo).port);
    return proxy;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Cuts every open connection; with `block`, new ones are refused until `restore()`. */
  sever(block = true): void {
    this.blocked = block;
    for (const [client, upstream] of this.pairs) {
      client.destroy();
      upstream.destroy();
    }
    this.pairs.clear();
  }

  /**
   * Cuts every open connection as `sever()` does, once `bytes` more have passed from the hub
   * to the client: a drop at a set point of what the hub sends, however fast the machine
   * reads it. Resolves once cut.
   */
  severAfter(bytes: number): Promise<void> {
    return new Promise((done) => (this.cut = { left: bytes, done }));
  }

  restore(): void {
    this.blocked = false;
    this.droppingDownstream = false;
    this.droppingUpstream = false;
  }

  async close(): Promise<void> {
    this.sever(true);
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
