import { isIP } from 'node:net';

/** Why a tokenless hub refuses a request addressed to a name, as the 403's body. */
export const TOKENLESS_HOST_REFUSAL =
  'this hub runs without a token, so it answers only requests addressed to localhost or an IP address (a web page can point a DNS name of its own at this machine); connect by address, e.g. http://127.0.0.1:8787, or start the hub with AEP_TOKEN=<secret> and connect with that token\n';

/** `host[:port]` or `[v6][:port]`, nothing else: no user info, path, or second colon outside brackets. */
const HOST_HEADER = /^(?:\[([0-9a-f:.]+)\]|([^:[\]/@\s]+))(?::\d{1,5})?$/i;

/**
 * True when a tokenless hub may serve a request with this `Host`. A page on
 * a name its owner controls can re-point that name at 127.0.0.1 (DNS
 * rebinding): the browser then calls the hub as same-origin, so neither an
 * Origin check nor CORS stops it, but the Host it sends is still the page's
 * name. An address (loopback or not) or `localhost` is never such a name.
 */
export function tokenlessHostAllowed(host: string | undefined): boolean {
  if (host === undefined) return false;
  const match = HOST_HEADER.exec(host);
  if (match === null) return false;
  const [, bracketed, plain = ''] = match;
  if (bracketed !== undefined) return isIP(bracketed) === 6;
  return plain.toLowerCase() === 'localhost' || isIP(plain) === 4;
}
