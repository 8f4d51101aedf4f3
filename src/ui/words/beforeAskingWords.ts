import * as l10n from '@vscode/l10n';
import type { PageAction, PageBeforeAsking } from '../../shared/beforeAsking';
import { agoRounded } from '../../shared/timeText';
import { piece, PIECES } from './untrustedText';

function outcomeWords(action: PageAction): string {
  const name = action.kind === 'tool' ? piece(action.name, PIECES.kind) : l10n.t('run');
  switch (action.outcome.state) {
    case 'running':
      return action.kind === 'tool' ? l10n.t('{0} requested', name) : l10n.t('run started');
    case 'done':
      return action.kind === 'tool' ? l10n.t('{0} done', name) : l10n.t('run finished');
    case 'failed':
      return l10n.t('{0} failed', name);
    case 'denied':
      return l10n.t('{0} denied', name);
  }
}

/**
 * The last action before a request in one line, for a surface with room for
 * one ("after: Bash failed · 2 min ago"); undefined when "Before asking" is
 * off or nothing was seen. The same view the page shows (beforeAskingContent.ts).
 */
export function lastActionLine(view: PageBeforeAsking | undefined, now: number): string | undefined {
  const last = view?.actions[0];
  if (last === undefined) return undefined;
  return l10n.t('after: {0} · {1}', outcomeWords(last), agoRounded(last.at, now));
}
