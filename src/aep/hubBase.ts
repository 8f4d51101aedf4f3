// What one hub is, whichever way its address is written: its base URL
// (AEP-0003 §3.4 puts its endpoints at `{base}/events`, `{base}/stream`,
// `{base}/socket`). The connection, the saved state, the token and the claims
// windows share are all keyed by it, so two spellings of one hub are one.

/** A hub address's parts, as every surface keys the hub. */
export interface HubBase {
  readonly secure: boolean;
  /** `http(s)://host[:port]`, lowercase, default port dropped; ws/wss as http/https. */
  readonly origin: string;
  /** The path before the endpoints, with no trailing slash; empty for a hub at the root. */
  readonly path: string;
  /** `origin + path`: what tells hubs apart (two hubs behind one proxy at `/teamA` and `/teamB` are two). */
  readonly base: string;
}

/** The base of a parsed hub URL; undefined when its scheme is none of http, https, ws, wss. */
export function hubBase(url: URL): HubBase | undefined {
  const secure = url.protocol === 'https:' || url.protocol === 'wss:';
  if (!secure && url.protocol !== 'http:' && url.protocol !== 'ws:') return undefined;
  const origin = `${secure ? 'https' : 'http'}://${url.host}`;
  const path = basePath(url.pathname);
  return { secure, origin, path, base: origin + path };
}

/**
 * One hub's identity from however it was written: its base when the text is
 * a hub URL, else the text itself (an id that already names no address, such
 * as the digest of an unusable one).
 */
export function hubIdentity(hub: string): string {
  try {
    return hubBase(new URL(hub.trim()))?.base ?? hub;
  } catch {
    return hub;
  }
}

/**
 * The path of a hub's base: the URL's path less its trailing slashes and one
 * trailing endpoint name (`/socket`, `/events` or `/stream`), so a hub named
 * by its base or by one of its endpoints is one hub. The case is kept: a
 * path, unlike a host, is case-sensitive.
 */
function basePath(pathname: string): string {
  return pathname.replace(/\/+$/, '').replace(/\/(?:socket|events|stream)$/, '').replace(/\/+$/, '');
}
