// Who may reach the demo's editor. code-server runs without a password (its
// login page leaves webviews blank in the first page it opens), on a Unix
// socket only this user's processes can open; the demo's loopback port in front
// of it lets a connection through only when its first request carries the key
// made for this run: in the printed address once, then in a cookie. A
// connection is gated on its first request alone, since whoever opened it
// showed the key there.
import { timingSafeEqual } from 'node:crypto';

export const GATE_COOKIE = 'aep-demo';
export const LOGIN_PREFIX = '/aep-demo/';
/** A request head larger than this is refused (browsers send a few KiB). */
export const MAX_HEAD_BYTES = 64 * 1024;

export type GateVerdict =
  /** Forward the connection as it is. */
  | { kind: 'pass' }
  /** The printed address: set the cookie and send the browser on to `location`. */
  | { kind: 'login'; location: string }
  | { kind: 'refuse' };

function sameKey(given: string, key: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(key);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The verdict on a request head (request line and headers, up to the blank line). */
export function gateVerdict(head: string, key: string): GateVerdict {
  const [requestLine = '', ...headerLines] = head.split('\r\n');
  const target = /^[A-Z]+ (\S+) HTTP\/1\.[01]$/.exec(requestLine)?.[1];
  if (target === undefined) return { kind: 'refuse' };
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    if (colon < 0 || line.slice(0, colon).trim().toLowerCase() !== 'cookie') continue;
    for (const pair of line.slice(colon + 1).split(';')) {
      const eq = pair.indexOf('=');
      if (eq > 0 && pair.slice(0, eq).trim() === GATE_COOKIE && sameKey(pair.slice(eq + 1).trim(), key)) return { kind: 'pass' };
    }
  }
  if (requestLine.startsWith('GET ') && target.startsWith(LOGIN_PREFIX)) {
    const query = target.indexOf('?');
    const given = target.slice(LOGIN_PREFIX.length, query < 0 ? undefined : query);
    if (sameKey(given, key)) return { kind: 'login', location: `/${query < 0 ? '' : target.slice(query)}` };
  }
  return { kind: 'refuse' };
}

export function loginResponse(location: string, key: string): string {
  return (
    'HTTP/1.1 302 Found\r\n' +
    `Location: ${location}\r\n` +
    `Set-Cookie: ${GATE_COOKIE}=${key}; Path=/; HttpOnly; SameSite=Strict\r\n` +
    'Cache-Control: no-store\r\nContent-Length: 0\r\nConnection: close\r\n\r\n'
  );
}

export const REFUSED_BODY = 'This editor belongs to an AEP Attention demo: open the address the demo printed.\n';

export function refusedResponse(): string {
  return (
    'HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(REFUSED_BODY)}\r\nConnection: close\r\n\r\n${REFUSED_BODY}`
  );
}
