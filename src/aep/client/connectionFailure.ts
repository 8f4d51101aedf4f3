/**
 * Why the client stopped trying: retrying cannot help until something
 * changes. A code with its details, so the UI words it in the user's language
 * and chooses what to offer (Set Hub Token, Retry) from the code, never from
 * a sentence. `failureLogLine` is the English for the log.
 */
export type ConnectionFailure =
  /** The hub refused the token the client sent (HTTP 401 or 403 on the upgrade). */
  | { code: 'token-refused'; httpStatus: number }
  /** The hub wants a token and none is set. */
  | { code: 'token-required'; httpStatus: number }
  /** The hub speaks other AEP versions than this extension (AEP-0003 §3.5.1). */
  | { code: 'version-unsupported'; ours: string; hubVersions: readonly string[] }
  /** The hub says it never received our hello: a protocol mismatch. */
  | { code: 'hello-not-received' }
  /** `aepAttention.hubUrl` cannot be used (`detail` says why, naming no part of the URL). */
  | { code: 'bad-address'; detail: string }
  /** `aepAttention.filter` cannot be used (`detail` says why). */
  | { code: 'bad-filter'; detail: string };

export function failureLogLine(failure: ConnectionFailure): string {
  switch (failure.code) {
    case 'token-refused':
      return `the hub refused the token (HTTP ${failure.httpStatus})`;
    case 'token-required':
      return `the hub requires a token (HTTP ${failure.httpStatus})`;
    case 'version-unsupported':
      return `the hub speaks AEP ${failure.hubVersions.join(', ') || '(none named)'}, but this extension speaks ${failure.ours}`;
    case 'hello-not-received':
      return 'the hub says it never received this client\'s hello; this is a protocol mismatch between the extension and the hub';
    case 'bad-address':
    case 'bad-filter':
      return failure.detail;
  }
}

/** The failures a token can fix: the UI offers "Set Hub Token" for these. */
export function tokenCanFix(failure: ConnectionFailure): boolean {
  return failure.code === 'token-refused' || failure.code === 'token-required';
}
