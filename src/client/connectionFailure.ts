import { describeBytes } from '../base/byteSize';
import { addressProblemText, type AddressProblem } from './hubEndpoint';
import { filterProblemText, type FilterProblem } from './userFilter';

/**
 * Why the client stopped trying: retrying cannot help until something
 * changes. A code with its details, so the UI words it in the user's language
 * and chooses what to offer (Set Hub Token, Retry) from the code, never from
 * a sentence. `failureLogLine` is the English for the log.
 */
export type ConnectionFailure =
  /** The hub refused the token the client sent (HTTP 401 or 403 on the upgrade): it needs the right one. */
  | { code: 'token-refused'; httpStatus: number }
  /** The hub wants a token and the client sent none: it needs one set. */
  | { code: 'token-missing'; httpStatus: number }
  /** The hub speaks other AEP versions than this extension (AEP-0003 §3.5.1). */
  | { code: 'version-unsupported'; ours: string; hubVersions: readonly string[] }
  /** The hub says it never received our hello: a protocol mismatch. */
  | { code: 'hello-not-received' }
  /** `aepAttention.hubUrl` cannot be used (none configured: `address` undefined). */
  | { code: 'bad-address'; address?: AddressProblem }
  /** `aepAttention.filter` cannot be used. */
  | { code: 'bad-filter'; filter: FilterProblem }
  /** The client's own code (loaded with the first connection) did not load: the connection says so (app/hubs/hubConnection.ts), the client never does. */
  | { code: 'client-not-loaded' };

export function failureLogLine(failure: ConnectionFailure): string {
  switch (failure.code) {
    case 'token-refused':
      return `the hub refused the token (HTTP ${failure.httpStatus})`;
    case 'token-missing':
      return `the hub requires a token and none is set (HTTP ${failure.httpStatus})`;
    case 'version-unsupported':
      return `the hub speaks AEP ${failure.hubVersions.join(', ') || '(none named)'}, but this extension speaks ${failure.ours}`;
    case 'hello-not-received':
      return 'the hub says it never received this client\'s hello; this is a protocol mismatch between the extension and the hub';
    case 'bad-address':
      return failure.address ? addressProblemText(failure.address) : 'no hub configured';
    case 'bad-filter':
      return filterProblemText(failure.filter);
    case 'client-not-loaded':
      return 'the client\'s code did not load';
  }
}

/** The hub's 401 or 403 on the upgrade: which token problem depends on whether this client sent one. */
export function tokenFailure(sentToken: boolean, httpStatus: number): ConnectionFailure {
  return { code: sentToken ? 'token-refused' : 'token-missing', httpStatus };
}

/** The failures a token can fix: the UI offers "Set Hub Token" for these. */
export function tokenCanFix(failure: ConnectionFailure): boolean {
  return failure.code === 'token-refused' || failure.code === 'token-missing' || (failure.code === 'bad-address' && failure.address?.code === 'token-in-url');
}

/**
 * Why a connection was lost; the client backs off and retries. A code with
 * its details, for the same reason as ConnectionFailure: the UI words it.
 * `closed.reason` and `subscription-refused.detail` are hub-authored text.
 */
export type LostReason =
  | { code: 'nothing-listening' }
  | { code: 'host-not-found' }
  | { code: 'reset' }
  | { code: 'timed-out' }
  | { code: 'closed'; wsCode: number; reason: string }
  /** The hub closed with 1009: a message of ours was larger than it accepts (a very long answer). */
  | { code: 'ours-too-large' }
  /** The hub sent a frame above our limit (hubSocket.ts MAX_FRAME_BYTES). */
  | { code: 'frame-too-large'; limitBytes: number }
  | { code: 'http-status'; httpStatus: number }
  | { code: 'silent'; seconds: number }
  | { code: 'fell-behind'; messages: number }
  | { code: 'no-hello' }
  | { code: 'subscription-unconfirmed'; afterMs: number }
  | { code: 'subscription-refused'; hubCode: string; detail?: string }
  | { code: 'socket-error'; message: string };

export function lostLogLine(lost: LostReason): string {
  switch (lost.code) {
    case 'nothing-listening':
      return 'nothing is listening at the hub address (connection refused)';
    case 'host-not-found':
      return 'the hub host name does not resolve';
    case 'reset':
      return 'the connection was reset';
    case 'timed-out':
      return 'the connection timed out';
    case 'closed':
      return `the connection closed (${lost.wsCode}${lost.reason ? `: ${lost.reason}` : ''})`;
    case 'ours-too-large':
      return 'the hub closed the connection because a message from this client was larger than it accepts (WebSocket 1009); a very long answer may need to be shorter';
    case 'frame-too-large':
      return `the hub sent a message larger than ${describeBytes(lost.limitBytes)}, the most AEP Attention accepts, so the connection was closed (WebSocket 1009). If this repeats after reconnecting, an agent is sending events that large and needs to send smaller ones`;
    case 'http-status':
      return `the hub answered HTTP ${lost.httpStatus} instead of opening the socket`;
    case 'silent':
      return `the hub has been silent for more than ${lost.seconds} s`;
    case 'fell-behind':
      return `fell ${lost.messages} messages behind the hub; reconnecting to resume`;
    case 'no-hello':
      return 'the hub did not answer hello';
    case 'subscription-unconfirmed':
      return `the hub accepted the connection but never confirmed the subscription within ${describeDuration(lost.afterMs)}; check that the hub is an AEP 0.1 hub and look at its log`;
    case 'subscription-refused':
      return `the hub refused the subscription (${lost.hubCode})${lost.detail ? `: ${lost.detail}` : ''}`;
    case 'socket-error':
      return lost.message;
  }
}

/** "10 s", "1.5 s", "300 ms": how long, for a sentence. */
export function describeDuration(ms: number): string {
  return ms < 1_000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}
