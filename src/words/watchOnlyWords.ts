// No `vscode` here: outcomeMessages.ts words a refused answer with this sentence in plain Node.
import * as l10n from '@vscode/l10n';

/**
 * The one sentence every surface says of a watch-only hub (src/client/watchOnly.ts
 * decides it), before anything is sent: the page, the quick input, the inbox, a refused answer.
 */
export function watchOnlySentence(): string {
  return l10n.t('This hub is watch-only: set a token to answer.');
}
