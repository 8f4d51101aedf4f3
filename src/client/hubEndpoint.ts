import { hubBase } from '../aep/hubBase';

/** Where and how to reach a hub, derived from the configured hub URL. */
export interface HubEndpoint {
  /** `http(s)://host[:port]`, lowercase, default port dropped. */
  origin: string;
  /** The hub's base URL (src/aep/hubBase.ts): what tells hubs apart. A hub with no path has its origin as base. */
  base: string;
  /** `{hub}/socket` as ws:// or wss:// (AEP-0003 §3.5). */
  socketUrl: string;
  loopback: boolean;
}

/** Why a hub URL cannot be used, as a code the UI words; `addressProblemText` is the English. */
export type AddressProblem =
  | { code: 'not-a-url' }
  | { code: 'unsupported-scheme'; scheme: string }
  /** A token or credentials in the URL: it belongs in the token store. */
  | { code: 'token-in-url' }
  /** Plain http/ws off this machine without aepAttention.allowInsecureRemote (AEP-0003 §8.1). */
  | { code: 'insecure-remote'; scheme: string; host: string };

export type EndpointResult = { ok: true; value: HubEndpoint } | { ok: false; problem: AddressProblem };

export function addressProblemText(problem: AddressProblem): string {
  switch (problem.code) {
    case 'not-a-url':
      return 'the hub address is not a URL; use the hub\'s address, e.g. http://127.0.0.1:8787';
    case 'unsupported-scheme':
      return `the hub URL must start with http://, https://, ws:// or wss://, not ${problem.scheme}//`;
    case 'token-in-url':
      return 'the hub URL must not carry a token or credentials: URLs end up in logs and settings. Use AEP Attention: Set Hub Token';
    case 'insecure-remote':
      return (
        `refusing unencrypted ${problem.scheme}// to ${problem.host}: AEP requires TLS off this machine (AEP-0003 §8.1). ` +
        'Use https:// (or wss://), or set aepAttention.allowInsecureRemote if you accept the risk'
      );
  }
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
export function hubEndpoint(hubUrl: string, allowInsecureRemote = false): EndpointResult {
  let url: URL;
  try {
    url = new URL(hubUrl.trim());
  } catch {
    // The value is not echoed: a mistyped URL may carry a token, and problems are logged.
    return { ok: false, problem: { code: 'not-a-url' } };
  }
  const parts = hubBase(url);
  if (parts === undefined) return { ok: false, problem: { code: 'unsupported-scheme', scheme: url.protocol } };
  const { secure, origin, path, base } = parts;
  if (url.username || url.password || url.searchParams.has('access_token') || url.searchParams.has('token')) {
    return { ok: false, problem: { code: 'token-in-url' } };
  }
  const loopback = isLoopbackHost(url.hostname);
  if (!secure && !loopback && !allowInsecureRemote) {
    return { ok: false, problem: { code: 'insecure-remote', scheme: url.protocol, host: url.hostname } };
  }
  const socketUrl = `${secure ? 'wss' : 'ws'}://${url.host}${path}/socket`;
  return { ok: true, value: { origin, base, socketUrl, loopback } };
}
