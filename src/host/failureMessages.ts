import type { ConnectionFailure } from '../aep/client/connectionFailure';
import { t } from './l10n';
import { piece, PIECES } from './untrustedText';

/**
 * Why the hub cannot be used, in the user's language, with the fix. The
 * hub's version list is hub-authored and enters as a capped, inert piece;
 * the setting problems are the core's own words (not yet localized).
 */
export function describeFailure(failure: ConnectionFailure): string {
  switch (failure.code) {
    case 'token-refused':
      return t('the hub refused the token (HTTP {0}). Set the right one with "AEP Attention: Set Hub Token".', failure.httpStatus);
    case 'token-required':
      return t('the hub requires a token (HTTP {0}). Set it with "AEP Attention: Set Hub Token".', failure.httpStatus);
    case 'version-unsupported':
      return failure.hubVersions.length > 0
        ? t('the hub speaks AEP {0}, but this extension speaks {1}.', piece(failure.hubVersions.join(', '), PIECES.detail), failure.ours)
        : t('the hub does not speak AEP {0}.', failure.ours);
    case 'hello-not-received':
      return t('the hub says it never received this window\'s hello: the extension and the hub do not agree on the protocol. Show Log has the details.');
    case 'bad-address':
      return t('aepAttention.hubUrl cannot be used: {0}', failure.detail);
    case 'bad-filter':
      // Already names the setting (userFilter.ts).
      return failure.detail;
  }
}
