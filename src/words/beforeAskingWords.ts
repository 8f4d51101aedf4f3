import * as l10n from '@vscode/l10n';
import type { PageAction, PageBeforeAsking } from '../shared/beforeAsking';
import { agoRounded } from '../shared/timeText';
import { piece, PIECES } from './untrustedText';

/** The tool's name is the agent's: quoted, as other agent text in a line of ours, so it cannot read as our words. */
function outcomeWords(action: PageAction): string {
  const run = action.kind === 'run';
  const name = piece(action.name, PIECES.kind);
  switch (action.outcome.state) {
    case 'running':
      return run ? l10n.t('run started') : l10n.t('"{0}" requested', name);
    case 'done':
      return run ? l10n.t('run finished') : l10n.t('"{0}" done', name);
    case 'failed':
      return run ? l10n.t('run failed') : l10n.t('"{0}" failed', name);
    case 'denied':
      return l10n.t('"{0}" denied', name);
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

/**
 * A surface's one line with the last action after it ("agent: prompt · after:
 * Bash failed · 2 min ago"), where both fit in the surface's `cap`; else the
 * line alone: the request's own words are never cut for it.
 */
export function withLastAction(line: string, after: string | undefined, cap: number): string;
/** A surface with no line of its own yet (a quick input's empty placeholder): the last action alone, where it fits. */
export function withLastAction(line: string | undefined, after: string | undefined, cap: number): string | undefined;
export function withLastAction(line: string | undefined, after: string | undefined, cap: number): string | undefined {
  if (after === undefined) return line;
  const joined = line === undefined ? after : l10n.t('{0} · {1}', line, after);
  return joined.length <= cap ? joined : line;
}
