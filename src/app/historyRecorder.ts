import { DisposableStore } from '../base/disposable';
import type { Subscription } from '../base/emitter';
import type { AnswerHistory } from '../history/answerHistory';
import type { HubRef } from '../history/historyEntry';
import type { Hub, Hubs } from './hubs/hubs';
import type { SettingsSource } from './hubs/hubConnection';

function hubRef(hub: Hub): HubRef {
  return { id: hub.id, label: hub.label };
}

/**
 * Feeds the answer history from the hubs: every answer as it is handed over,
 * every outcome (restored ones included), every change of a request (so its
 * end is noted, or it is listed as ended without an answer from here), every
 * dismissal; and the limits again when the settings change.
 */
export function recordAnswers(hubs: Hubs, history: AnswerHistory, settings: Pick<SettingsSource, 'onDidChange'>): Subscription {
  const subscriptions = new DisposableStore();
  for (const subscription of [
    hubs.onDidSendAnswer(({ hub, item, command }) => history.recordSent(hubRef(hub), item, command)),
    hubs.onDidSettleAnswer(({ outcome }) => history.recordOutcome(outcome.commandId, outcome)),
    hubs.onDidChangeItem(({ hub, item }) => history.noteItem(hubRef(hub), item)),
    hubs.onDidDismiss(({ hub, item }) => history.noteDismissed(hubRef(hub), item)),
    settings.onDidChange(() => history.applyLimits()),
  ]) subscriptions.add(subscription);
  return subscriptions;
}
