import type { Reachability } from '../../client/rosterSnapshot';
import { sourceHost } from '../../aep/envelope';
import type { AttentionItem } from '../../inbox/inbox';
import { honestRequestText } from '../../aep/labels';
import type { PageField, PageReachability, PageRecorded, PageRequest } from '../../shared/webviewMessages';
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
    agent: item.agent,
    session: item.session,
    source: item.source,
    ...(host ? { host } : {}),
    receivedAt: item.receivedAt,
    status: item.status,
    ...(item.resolution ? { resolution: item.resolution } : {}),
    ...(recorded ? { recorded } : {}),
    ...(beforeAsking ? { beforeAsking } : {}),
    reachability: pageReachability(reach),
  };
  const request = item.request;
  if (!request) {
    const event = item.requestEvent;
    return {
      ...base,
      kind: typeof event.data?.['kind'] === 'string' ? event.data['kind'] : 'unknown',
      renderKind: 'other',
      severity: event.severity ?? 'info',
      capture: event.capture ?? 'metadata',
      prompt: { text: '', honesty: 'structural' },
      options: [],
      fields: [],
      answerableHere: false,
      ...(item.problem?.withheld
        ? { problem: withheldText(item.problem.withheld), withheld: item.problem.withheld.by }
        : { problem: item.problem?.message ?? 'this request could not be read' }),
    };
  }
  const text = honestRequestText(request);
  const fields: PageField[] = request.fields.map((spec, index) => ({
    spec,
    label: text.fields[index]?.label ?? { text: spec.label, honesty: 'structural' },
    choices: text.fields[index]?.choices ?? [],
  }));
  return {
    ...base,
    kind: request.kind,
    renderKind: request.renderKind,
    severity: request.severity,
    capture: request.capture,
    ...(request.expiresAt !== undefined ? { expiresAt: request.expiresAt } : {}),
    prompt: text.prompt,
    options: text.options,
    fields,
    answerableHere: request.answerableHere,
    ...(request.respondVia ? { respondVia: request.respondVia } : {}),
    ...contextFields(shownContext(request)),
  };
}

function contextFields(context: ReturnType<typeof shownContext>): Pick<PageRequest, 'context' | 'contextWithheld'> {
  if (context === undefined) return {};
  return context === 'withheld' ? { contextWithheld: true } : { context };
}
