import { parsedOk, parsedProblem, type Parsed } from '../result';

/** Where and how to reach a hub, derived from the configured hub URL. */
export interface HubEndpoint {
  /** `http(s)://host[:port]`: the key tokens are stored under. */
  origin: string;
  /** `{hub}/socket` as ws:// or wss:// (AEP-0003 §3.5). */
  socketUrl: string;
  loopback: boolean;
}

/**
 * True only for literal loopback: `localhost` exactly, 127.0.0.0/8 and `::1`,
 * as the URL parser normalised them. Never `*.localhost` or any other name:
 * what a name resolves to is up to DNS (and whoever controls it), so plain
 * `ws://` to it could leave the machine.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host === '::1') return true;
  const octets = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  return octets !== null && octets.slice(1).every((octet) => Number(octet) <= 255);
}

/**
 * Reads the configured hub URL. Plain `http`/`ws` to another machine is
 * refused unless the user explicitly allowed it: AEP-0003 §8.1 requires TLS
 * for any off-host binding, and the token would otherwise cross the network
 * in clear text.
 */
export function hubEndpoint(hubUrl: string, allowInsecureRemote = false): Parsed<HubEndpoint> {
  let url: URL;
  try {
    url = new URL(hubUrl.trim());
  } catch {
    // The value is not echoed: a mistyped URL may carry a token, and problems are logged.
    return parsedProblem('the hub address is not a URL; use the hub\'s address, e.g. http://127.0.0.1:8787');
  }
  const secure = url.protocol === 'https:' || url.protocol === 'wss:';
  if (!secure && url.protocol !== 'http:' && url.protocol !== 'ws:') {
    return parsedProblem(`the hub URL must start with http://, https://, ws:// or wss://, not ${url.protocol}//`);
  }
  if (url.username || url.password) {
    return parsedProblem('put the token in the token store (AEP Attention: Set Hub Token), not in the hub URL');
  }
  if (url.searchParams.has('access_token') || url.searchParams.has('token')) {
    return parsedProblem('the hub URL must not carry a token: URLs end up in logs and settings. Use AEP Attention: Set Hub Token');
  }
  const loopback = isLoopbackHost(url.hostname);
  if (!secure && !loopback && !allowInsecureRemote) {
    return parsedProblem(
      `refusing unencrypted ${url.protocol}// to ${url.hostname}: AEP requires TLS off this machine (AEP-0003 §8.1). ` +
        'Use https:// (or wss://), or set aepAttention.allowInsecureRemote if you accept the risk',
    );
  }
  // The hub's base may carry a path prefix (a hub behind a reverse proxy).
  const base = url.pathname.replace(/\/+$/, '').replace(/\/socket$/, '');
  const origin = `${secure ? 'https' : 'http'}://${url.host}`;
  const socketUrl = `${secure ? 'wss' : 'ws'}://${url.host}${base}/socket`;
  return parsedOk({ origin, socketUrl, loopback });
}
