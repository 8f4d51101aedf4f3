// A request's state in a few words, written once for every surface that says
// it briefly: the request page's header, the quick input's "closed before you
// answered" and the History's rows. Each side's bundle has its own
// `@vscode/l10n`, loaded with the same strings (src/words/l10n.ts,
// webview/l10n.ts), so this module works on both. Which word a surface picks
// is its own; the words are these.
import * as l10n from '@vscode/l10n';

/**
 * `timed-out`: the agent's `attention.timeout` (AEP-0002 §7), never an ack
 * timeout; `unanswered`: the agent ended it and no answer was recorded.
 */
export type StatusWord = 'timed-out' | 'session-ended' | 'unanswered' | 'answered' | 'answered-elsewhere';

export function statusWord(word: StatusWord): string {
  switch (word) {
    case 'timed-out': return l10n.t('timed out');
    case 'session-ended': return l10n.t('session ended');
    case 'unanswered': return l10n.t('ended without an answer');
    case 'answered': return l10n.t('answered');
    case 'answered-elsewhere': return l10n.t('answered elsewhere');
  }
}
