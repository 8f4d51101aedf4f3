// Ports for the demo: the default one or the next free one above it, and a
// loopback TCP forwarder that gives the editor a port of the user's choosing
// (code-server itself listens on a Unix socket of this user's only).
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { PortChoice } from './args';
import { gateVerdict, loginResponse, MAX_HEAD_BYTES, refusedResponse } from './editorGate';

/** How many ports above a busy default are tried. */
const SCAN = 20;

function inUse(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'EADDRINUSE';
}

export class PortError extends Error {
  override readonly name = 'PortError';
}

/**
 * Calls `listen` with the chosen port; a default port that is busy moves on to
 * the next one (up to 20 tries). Resolves with what `listen` made and whether
 * the port had to move.
 */
export async function listenOnFreePort<T>(what: string, choice: PortChoice, listen: (port: number) => Promise<T>): Promise<{ value: T; moved: boolean }> {
  const last = choice.explicit || choice.port === 0 ? choice.port : Math.min(choice.port + SCAN - 1, 65_535);
  for (let port = choice.port; port <= last; port++) {
    try {
      return { value: await listen(port), moved: port !== choice.port };
    } catch (error) {
      if (!inUse(error)) throw error;
    }
  }
  throw new PortError(
    choice.explicit
      ? `the ${what} port ${choice.port} is in use on 127.0.0.1; choose another one (0 picks any free port)`
      : `the ${what} ports ${choice.port}-${last} are all in use on 127.0.0.1; choose one with its option (0 picks any free port)`,
  );
}

export interface Forwarder {
  readonly port: number;
  /** Stops listening and cuts every forwarded connection. */
  close(): Promise<void>;
}

/**
 * Listens on 127.0.0.1:`port` and pipes a connection to the editor's Unix
 * socket once its first request passes the gate (editorGate.ts) for `key`.
 */
export function startForwarder(port: number, socketPath: string, key: string, onError: (error: Error) => void): Promise<Forwarder> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    sockets.add(client);
    const chunks: Buffer[] = [];
    let size = 0;
    const forget = () => {
      client.destroy();
      sockets.delete(client);
    };
    client.on('error', forget).on('close', forget);
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      const buffered = Buffer.concat(chunks);
      const end = buffered.indexOf('\r\n\r\n');
      if (end < 0) {
        if (size > MAX_HEAD_BYTES) client.end(refusedResponse());
        return;
      }
      client.off('data', onData);
      const verdict = gateVerdict(buffered.subarray(0, end).toString('latin1'), key);
      if (verdict.kind === 'refuse') return void client.end(refusedResponse());
      if (verdict.kind === 'login') return void client.end(loginResponse(verdict.location, key));
      client.pause();
      const upstream = connect(socketPath);
      sockets.add(upstream);
      const cut = () => {
        forget();
        upstream.destroy();
        sockets.delete(upstream);
      };
      client.on('close', cut);
      upstream.on('error', cut).on('close', cut);
      upstream.write(buffered);
      client.pipe(upstream);
      upstream.pipe(client);
      client.resume();
    };
    client.on('data', onData);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      server.on('error', onError);
      let closing: Promise<void> | undefined;
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () =>
          (closing ??= new Promise<void>((done) => {
            server.close(() => done());
            for (const socket of sockets) socket.destroy();
            sockets.clear();
          })),
      });
    });
  });
}
