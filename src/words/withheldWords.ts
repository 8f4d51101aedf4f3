import * as l10n from '@vscode/l10n';
import type { WithheldContent } from '../aep/withheldRequest';

/** The setting that asks the hub for a capture ceiling (package.json); a hub entry of `aepAttention.hubs` may set its own. */
export const CAPTURE_CEILING_SETTING = 'aepAttention.captureCeiling';

/**
 * Why a request shows nothing, and what can still be done: the person's own
 * setting is named as the cause, never the agent (AEP-0001 §8.2).
 */
export function withheldText(withheld: WithheldContent): string {
  if (withheld.by === 'own-ceiling') {
    return l10n.t(
      'Its content is withheld by this window\'s own setting {0} (none). Open the settings and raise it to see and answer this request.',
      CAPTURE_CEILING_SETTING,
    );
  }
  return l10n.t('Its content was withheld before it reached this window (capture none), so it cannot be answered here.');
}
