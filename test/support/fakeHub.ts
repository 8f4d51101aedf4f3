import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

/** What a fake hub does with each frame a client sends it. */
export type FakeHubScript = (ws: WebSocket, frame: Record<string, unknown>) => void;

export interface FakeHub {
  /** `http://127.0.0.1:{port}`, as a client's hub URL. */
  url: string;
  connections: () => number;
  close: () => Promise<void>;
}

/** A WebSocket server on loopback that runs `script` on every JSON frame a client sends. */
export async function fakeHub(script: FakeHubScript, options: { maxPayload?: number } = {}): Promise<FakeHub> {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1', ...options });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  let connections = 0;
  wss.on('connection', (ws) => {
    connections++;
    ws.on('message', (data: Buffer) => script(ws, JSON.parse(data.toString('utf8')) as Record<string, unknown>));
  });
  return {
    url: `http://127.0.0.1:${(wss.address() as AddressInfo).port}`,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const ws of wss.clients) ws.terminate();
        wss.close(() => resolve());
      }),
  };
}

export const FAKE_HUB_HELLO = { type: 'hello', versions: ['0.1'], role: 'both', identity: { agent: 'fake-hub' }, capabilities: {} };

/** Answers hello with hello and subscribe with subscribed. */
export const politeHub: FakeHubScript = (ws, frame) => {
  if (frame['type'] === 'hello') ws.send(JSON.stringify(FAKE_HUB_HELLO));
  if (frame['type'] === 'subscribe') ws.send(JSON.stringify({ type: 'subscribed', id: frame['id'] }));
};
