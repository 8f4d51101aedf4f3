import * as l10n from '@vscode/l10n';
import { CONTEXT_FOLD_CHARS, head } from '../src/shared/contextView';
import { BEFORE_ASKING_FIRST, type PageAction, type PageActionOutcome, type PageBeforeAsking, type PageShownText } from '../src/shared/beforeAsking';
import { agoRounded, durationShort } from '../src/shared/timeText';
import { el } from './dom';

// "Before asking": what the agent's session did just before it asked, newest
// first, as far as the capture level allows (built on the host,
// src/words/beforeAskingContent.ts). Tool names, arguments and errors are
// the agent's text: text nodes only, set apart as the agent's.

function outcomeWords(action: PageAction, outcome: PageActionOutcome): string {
  const tool = action.kind === 'tool';
  switch (outcome.state) {
    case 'running':
      return tool ? l10n.t('requested, no outcome yet') : l10n.t('run started');
    case 'done': {
      const status = outcome.status !== undefined && outcome.status !== 'success' ? outcome.status : undefined;
      if (outcome.durationMs !== undefined) {
        return status !== undefined ? l10n.t('done in {0} ({1})', durationShort(outcome.durationMs), status) : l10n.t('done in {0}', durationShort(outcome.durationMs));
      }
      return status !== undefined ? l10n.t('done ({0})', status) : tool ? l10n.t('done') : l10n.t('run finished');
    }
    case 'failed': {
      const why = outcome.errorType ?? outcome.reason;
      const failed = why !== undefined ? l10n.t('failed: {0}', why) : l10n.t('failed');
      return outcome.durationMs !== undefined ? l10n.t('{0} after {1}', failed, durationShort(outcome.durationMs)) : failed;
    }
    case 'denied': {
      const by =
        outcome.by === 'policy' ? l10n.t('denied by policy')
        : outcome.by === 'user_setting' ? l10n.t('denied by a user setting')
        : outcome.by === 'runtime' ? l10n.t('denied by the runtime')
        : l10n.t('denied');
      return outcome.rule !== undefined ? l10n.t('{0}, rule {1}', by, outcome.rule) : by;
    }
  }
}

/** Free text folded like the context's long values: its start, its size, the rest on request. */
function foldedText(shown: Extract<PageShownText, { shown: 'text' }>, label: string): HTMLElement {
  const mark = shown.honesty === 'redacted' ? l10n.t('redacted') : l10n.t('verbatim');
  const cut = shown.text.length < shown.chars ? el('p', { class: 'note' }, l10n.t('Shown up to {0} of {1} characters.', shown.text.length, shown.chars)) : undefined;
  if (shown.text.length <= CONTEXT_FOLD_CHARS && cut === undefined) {
    return el('div', { class: 'action-args' }, el('span', { class: 'meta' }, `${label} (${mark}): `), el('code', { class: 'agent-text' }, shown.text));
  }
  return el(
    'details',
    { class: 'action-args' },
    el('summary', {}, el('span', { class: 'meta' }, `${label} (${mark}): `), el('code', { class: 'agent-text' }, `${head(shown.text, CONTEXT_FOLD_CHARS)}…`), ' ', el('span', { class: 'meta' }, l10n.t('({0} characters)', shown.chars))),
    el('pre', { class: 'context-full agent-text' }, shown.text),
    cut,
  );
}

function argsNode(action: PageAction): HTMLElement | undefined {
  const args = action.args;
  switch (args.shown) {
    case 'level':
      return el('div', { class: 'action-args meta' }, l10n.t('Arguments not shared at capture {0}: only the tool\'s name is shown.', action.capture));
    case 'none':
      return action.kind === 'tool' ? el('div', { class: 'action-args meta' }, l10n.t('No arguments sent.')) : undefined;
    case 'unseen':
      return el('div', { class: 'action-args meta' }, l10n.t('Its request was not seen here: its arguments are not known.'));
    case 'text':
      return foldedText(args, l10n.t('Arguments'));
  }
}

function messageNode(outcome: PageActionOutcome): HTMLElement | undefined {
  if (outcome.state !== 'failed' || outcome.message === undefined || outcome.message.shown !== 'text') return undefined;
  return foldedText(outcome.message, l10n.t('Error'));
}

function actionRow(action: PageAction, now: number): HTMLElement {
  const time = new Date(action.at);
  const when = el('time', { class: 'meta', datetime: Number.isFinite(action.at) ? time.toISOString() : '', title: agoRounded(action.at, now) }, Number.isFinite(action.at) ? time.toLocaleTimeString() : '');
  const what = action.kind === 'tool' ? el('span', { class: 'action-name agent-text' }, action.name) : el('span', { class: 'action-name' }, l10n.t('Run'));
  return el(
    'li',
    { class: `action ${action.outcome.state}` },
    el('div', { class: 'action-line' }, when, ' · ', what, ' · ', el('span', { class: 'action-outcome' }, outcomeWords(action, action.outcome))),
    argsNode(action),
    messageNode(action.outcome),
  );
}

function usageLine(usage: NonNullable<PageBeforeAsking['usage']>): HTMLElement {
  const parts: string[] = [];
  if (usage.inputTokens !== undefined) parts.push(l10n.t('{0} input tokens', usage.inputTokens.toLocaleString()));
  if (usage.outputTokens !== undefined) parts.push(l10n.t('{0} output tokens', usage.outputTokens.toLocaleString()));
  if (usage.cost) parts.push(l10n.t('{0} {1}', usage.cost.total.toLocaleString(undefined, { maximumFractionDigits: 4 }), usage.cost.currency));
  return el('p', { class: 'meta', id: 'before-asking-usage' }, l10n.t('This run so far, as the agent reports it: {0}', parts.join(' · ')));
}

function earlierNote(view: PageBeforeAsking): HTMLElement | undefined {
  if (view.earlier === 'complete') return view.actions.length === 0 ? el('p', { class: 'note' }, l10n.t('No actions since the session started.')) : undefined;
  if (view.earlier === 'beyond-kept') return el('p', { class: 'note', id: 'before-asking-earlier' }, l10n.t('Earlier steps are not kept: only the last {0} are.', view.actions.length));
  const since = view.since !== undefined ? new Date(view.since).toLocaleTimeString() : undefined;
  return el(
    'p',
    { class: 'note', id: 'before-asking-earlier' },
    since !== undefined
      ? l10n.t('Earlier steps are not available: this window has seen this session\'s actions since {0}.', since)
      : l10n.t('Earlier steps are not available: this window has seen no actions of this session.'),
  );
}

/** The "Before asking" section, or undefined when the person turned it off (no `view`). */
export function beforeAskingBlock(view: PageBeforeAsking | undefined, now: number): HTMLElement | undefined {
  if (!view) return undefined;
  const list = el('ol', { class: 'action-list', id: 'before-asking-list' });
  const shown = view.actions.slice(0, BEFORE_ASKING_FIRST);
  for (const action of shown) list.append(actionRow(action, now));
  const rest = view.actions.slice(BEFORE_ASKING_FIRST);
  const more = rest.length === 0 ? undefined : el('button', { type: 'button', class: 'link', id: 'before-asking-more' }, l10n.t('Show {0} more', rest.length));
  more?.addEventListener('click', () => {
    for (const action of rest) list.append(actionRow(action, now));
    more.remove();
  });
  const summary =
    view.actions.length === 0 ? l10n.t('Before asking')
    : view.actions.length === 1 ? l10n.t('Before asking: the last action')
    : l10n.t('Before asking: the last {0} actions, newest first', view.actions.length);
  return el(
    'details',
    { class: 'before-asking', id: 'before-asking', open: '' },
    el('summary', {}, summary),
    view.usage ? usageLine(view.usage) : undefined,
    view.actions.length > 0 ? list : undefined,
    more,
    earlierNote(view),
  );
}
