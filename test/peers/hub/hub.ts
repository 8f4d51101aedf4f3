import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { AEP_VERSION } from '../../../src/aep/envelope';
import { CAPTURE_LEVELS } from '../../../src/aep/levels';
import type { Admitted } from './admission';
import { ClaimRegistry } from './claims';
import { DEFAULT_CONFIG, type HubConfig } from './config';
import { Fanout } from './fanout';
import { TOKENLESS_HOST_REFUSAL, tokenlessHostAllowed } from './hostCheck';
import { handleHttp, type HttpServices } from './httpRoutes';
import { SessionStore, type StoredEvent } from './sessionStore';
import { SocketConnection, type SocketServices } from './socketConnection';

export interface RunningHub {
  /** `http://host:port`, the base URL clients configure. */
  readonly url: string;
  readonly port: number;
  /** Sends `closing` to every socket, ends every stream, and stops listening. */
  close(reason?: string): Promise<void>;
}

/** Bearer header, or `?access_token=` for clients that cannot set headers (AEP-0003 §8.1). */
function presentedToken(req: IncomingMessage, url: URL): string | undefined {
  const header = req.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer\s+(.+)$/i.exec(header) : null;
  return match?.[1] ?? url.searchParams.get('access_token') ?? undefined;
}

/** Why a tokenless hub refuses a socket opened by a web page, as the 403's body. */
export const TOKENLESS_ORIGIN_REFUSAL =
  'this hub runs without a token, so it refuses WebSocket connections from web pages (the request carries an Origin header); start it with AEP_TOKEN=<secret> and connect with that token\n';

/** A complete HTTP/1.1 response with a plain-text body, written to a socket that never became a WebSocket. */
function plainResponse(status: number, statusText: string, body: string): string {
  return `HTTP/1.1 ${status} ${statusText}\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`;
}

function tokenMatches(expected: string, presented: string | undefined): boolean {
  if (presented === undefined) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(presented);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The local AEP hub: an AEP-0003 relay (HTTP emit, SSE, discovery,
 * WebSocket with hello, attr-match subscriptions, capture ceilings, bounded
 * replay, roster) that routes AEP-0004 commands to the single live claimant.
 */
export async function startHub(options: Partial<HubConfig> = {}): Promise<RunningHub> {
  const config: HubConfig = { ...DEFAULT_CONFIG, ...options };
  const store = new SessionStore(config.buffer, config.maxSessions);
  const fanout = new Fanout();
  const claims = new ClaimRegistry();
  const sockets = new Set<SocketConnection>();
  const streams = new Set<ServerResponse>();

  const capabilities = {
    filters: ['attr-match'],
    replay: { buffer: config.buffer, all: true },
    capture: [...CAPTURE_LEVELS],
    // The routing surface exists only with a token: without one the hub is watch-only.
    ...(config.token !== undefined ? { control: { accepts: [] } } : {}),
    roster: {},
  };
  const ingest = (admitted: Admitted, owner?: string): StoredEvent => {
    const { entry } = store.admit(admitted, owner);
    fanout.publish(entry);
    return entry;
  };
  const socketServices: SocketServices = {
    config, store, fanout, claims, ingest,
    helloFrame: {
      type: 'hello', versions: [AEP_VERSION], role: 'both',
      identity: { agent: 'aep-attention-hub', instance: `${process.pid}` }, capabilities,
    },
  };
  const httpServices: HttpServices = {
    config, store, fanout, ingest, streams,
    discovery: () => ({
      aep: [AEP_VERSION], role: 'collector',
      endpoints: { events: '/events', stream: '/stream', socket: '/socket' }, capabilities,
    }),
    health: () => ({ ok: true, sessions: store.sessionCount, sockets: sockets.size, streams: streams.size }),
  };

  const authorized = (req: IncomingMessage, url: URL) =>
    config.token === undefined || tokenMatches(config.token, presentedToken(req, url));
  /** Without a token, a request addressed to a name may come from a web page that rebound that name to us. */
  const misaddressed = (req: IncomingMessage): boolean => {
    if (config.token !== undefined || tokenlessHostAllowed(req.headers.host)) return false;
    config.log(`hub: refused a request addressed to Host ${JSON.stringify((req.headers.host ?? '').slice(0, 200))}: no token is set`);
    return true;
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://hub.invalid');
    if (misaddressed(req)) {
      res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' });
      res.end(TOKENLESS_HOST_REFUSAL);
      req.resume();
      return;
    }
    if (url.pathname !== '/healthz' && !authorized(req, url)) {
      const text = JSON.stringify({ error: 'unauthorized', detail: 'send Authorization: Bearer <token>' });
      res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer' });
      res.end(text);
      req.resume();
      return;
    }
    try {
      handleHttp(req, res, url, httpServices);
    } catch (error) {
      config.log(`hub: internal error on ${url.pathname}: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'internal' }));
    }
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: config.maxBody });
  let nextSocket = 0;
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://hub.invalid');
    if (misaddressed(req)) {
      socket.end(plainResponse(403, 'Forbidden', TOKENLESS_HOST_REFUSAL));
      return;
    }
    if (url.pathname !== '/socket') {
      socket.end('HTTP/1.1 404 Not Found\r\nconnection: close\r\n\r\n');
      return;
    }
    if (config.token === undefined && req.headers.origin !== undefined) {
      // A browser always names the page that opens a socket; without a token
      // nothing else would stop any web page the person visits from reading
      // every request and emitting its own. Our clients (the extension, the
      // demo agent, the checker) run in Node and send no Origin. HTTP needs
      // no such check: a page on another origin cannot read a response
      // without CORS headers, and POST /events needs AEP-Version, which it
      // cannot send unasked; a page that rebinds its own name to us is
      // same-origin, and the Host check above stops it.
      socket.end(plainResponse(403, 'Forbidden', TOKENLESS_ORIGIN_REFUSAL));
      config.log(`hub: refused a WebSocket from a web page (Origin ${JSON.stringify(req.headers.origin.slice(0, 200))}): no token is set`);
      return;
    }
    if (!authorized(req, url)) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nwww-authenticate: Bearer\r\nconnection: close\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const connection = new SocketConnection(ws, socketServices, `#${++nextSocket}`);
      sockets.add(connection);
      ws.on('close', () => sockets.delete(connection));
    });
  });

  const pinger = setInterval(() => {
    const now = Date.now();
    for (const connection of sockets) connection.ping(now);
  }, config.pingMs);
  pinger.unref();

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;

  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${port}`,
    port,
    close(reason = 'shutdown') {
      closing ??= new Promise<void>((resolve) => {
        clearInterval(pinger);
        for (const connection of sockets) connection.shutdown(reason);
        for (const stream of streams) stream.end();
        wss.close();
        server.close(() => resolve());
        // Sockets that do not finish the close handshake promptly are cut.
        setTimeout(() => {
          for (const ws of wss.clients) ws.terminate();
          server.closeAllConnections();
        }, 1_000).unref();
      });
      return closing;
    },
  };
}
