import type { Reachability } from '../../client/rosterSnapshot';
import { sourceHost } from '../../aep/envelope';
import type { AttentionItem } from '../../inbox/inbox';
import { honestRequestText } from '../../aep/labels';
import type { PageField, PageReachability, PageRecorded, PageRequest, PageText } from '../../shared/webviewMessages';
import { withoutReordering } from '../../base/invisibleText';
import { shownContext } from '../../shared/contextView';
import type { PageBeforeAsking } from '../../shared/beforeAsking';
import { withheldText } from '../../words/withheldWords';

export function pageReachability(reach: Reachability): PageReachability {
  switch (reach.state) {
    case 'ambiguous':
      return { state: 'ambiguous', detail: `${reach.claimants} connections claim this session; the hub will refuse answers until one remains` };
    case 'reachable':
      return { state: 'reachable', ...(reach.agent ? { detail: reach.agent } : {}) };
    case 'unreachable':
      return { state: 'unreachable', detail: 'no agent connected to the hub owns this session right now' };
    case 'not-accepting':
      // The page says the sentence and disables sending; this is the fact behind it (AEP-0004 §4.2).
      return { state: 'not-accepting', detail: reach.accepts.length === 0 ? 'it accepts no commands' : 'its control.accepts does not list control.attention.respond' };
    case 'unknown':
      return { state: 'unknown' };
    case 'watch-only':
      // The page says the sentence, disables sending and offers to set the token.
      return { state: 'watch-only' };
  }
}

/**
 * Everything the webview needs to render one request; agent text stays text, tagged with what it really is.
 * `hub`: its hub's name, when there are several. `recorded`: what the agent recorded (src/answer/recordedAnswer.ts).
 */
export function pageRequest(item: Readonly<AttentionItem>, reach: Reachability, hub?: string, recorded?: PageRecorded, beforeAsking?: PageBeforeAsking): PageRequest {
  const host = sourceHost(item.source);
  const base = {
    ...(hub === undefined ? {} : { hub }),
    key: item.key,
    requestId: item.requestId,
    agent: withoutReordering(item.agent),
    session: withoutReordering(item.session),
    source: withoutReordering(item.source),
    ...(host ? { host: withoutReordering(host) } : {}),
    receivedAt: item.receivedAt,
    status: item.status,
    ...(item.resolution ? { resolution: withoutReordering(item.resolution) } : {}),
    ...(recorded ? { recorded: pageRecorded(recorded) } : {}),
    ...(beforeAsking ? { beforeAsking } : {}),
    reachability: pageReachability(reach),
  };
  const request = item.request;
  if (!request) {
    const event = item.requestEvent;
    return {
      ...base,
      kind: typeof event.data?.['kind'] === 'string' ? withoutReordering(event.data['kind']) : 'unknown',
      renderKind: 'other',
      severity: event.severity ?? 'info',
      capture: event.capture ?? 'metadata',
      prompt: { text: '', honesty: 'structural' },
      options: [],
      fields: [],
      answerableHere: false,
      ...(item.problem?.withheld
        ? { problem: withheldText(item.problem.withheld), withheld: item.problem.withheld.by }
        : { problem: withoutReordering(item.problem?.message ?? 'this request could not be read') }),
    };
  }
  const text = honestRequestText(request);
  const fields: PageField[] = request.fields.map((spec, index) => ({
    spec,
    label: drawn(text.fields[index]?.label ?? { text: spec.label, honesty: 'structural' }),
    choices: (text.fields[index]?.choices ?? []).map((choice) => ({ id: choice.id, label: drawn(choice.label) })),
  }));
  return {
    ...base,
    kind: withoutReordering(request.kind),
    renderKind: request.renderKind,
    severity: request.severity,
    capture: request.capture,
    ...(request.expiresAt !== undefined ? { expiresAt: request.expiresAt } : {}),
    prompt: drawn(text.prompt),
    options: text.options.map((option) => ({ id: option.id, label: drawn(option.label) })),
    fields,
    answerableHere: request.answerableHere,
    ...(request.respondVia ? { respondVia: request.respondVia } : {}),
    ...contextFields(shownContext(request)),
  };
}

// Agent text reaches the page without the bidi controls that reorder what is drawn (withoutReordering), so that the page
// draws the words its checks and the host's read: a label that a right-to-left override draws as "password", or as one of
// our own buttons, reads as what it is. Ids are left as sent: they are what an answer names.
function drawn(text: PageText): PageText {
  return { text: withoutReordering(text.text), honesty: text.honesty };
}

/** What the agent recorded, as the page draws it (the request and history pages, on init and on every update). */
export function pageRecorded(recorded: PageRecorded): PageRecorded {
  const shown = { ...recorded };
  for (const key of ['via', 'by', 'endedBy'] as const) {
    const text = recorded[key];
    if (text !== undefined) shown[key] = withoutReordering(text);
  }
  const text = recorded.answer?.text;
  if (text !== undefined) shown.answer = { ...recorded.answer, text: withoutReordering(text) };
  return shown;
}

function contextFields(context: ReturnType<typeof shownContext>): Pick<PageRequest, 'context' | 'contextWithheld'> {
  if (context === undefined) return {};
  if (context === 'withheld') return { contextWithheld: true };
  const rows = context.rows.map((row) => ({ ...row, key: withoutReordering(row.key), ...(row.text === undefined ? {} : { text: withoutReordering(row.text) }) }));
  return { context: { ...context, rows } };
}
