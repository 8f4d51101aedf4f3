import * as l10n from '@vscode/l10n';
import { confirm } from '../surfaces';

/**
 * The question tokens.ts asks before a hub behind a path is sent the token
 * filed for its origin: modal, because the answer decides where a secret
 * goes, and naming both addresses, as the settings spell them, in plain text.
 */
export function askToUseOriginToken(hub: string, origin: string): Promise<boolean> {
  return confirm(
    l10n.t(
      '{0} has no token of its own. Send it the token saved for {1}? Only if both are one service you trust: it is then saved for {0} too.',
      hub,
      origin,
    ),
    l10n.t('Use That Token'),
  );
}
