import * as l10n from '@vscode/l10n';
import type { AnswerRefusal } from '../../answer/answerPipeline';
import type { SendOutcome } from '../../client/controlSender';
import { describeOutcome, describeRefusal } from '../../words/outcomeMessages';

/** What a person may do about an answer the pipeline refused. */
export type RefusalAction = 'send-again' | 'open';

/**
 * What every answering surface offers for one refusal: the same sentence,
 * the same severity and the same actions, whichever surface was refused.
 */
export interface RefusalOffer {
  severity: 'info' | 'warning';
  message: string;
  actions: RefusalAction[];
  /** The command "Send Again" repeats, same id (AEP-0004 §2 item 3); present exactly when `send-again` is offered. */
  commandId?: string;
}

/**
 * The one rule for what a refusal offers. An answer written and awaiting
 * its ack offers Send Again of that same command (the target re-acks it
 * instead of acting twice) beside waiting; one still queued offline does
 * not, since it goes out by itself once the connection is back and sending
 * it again would only wait with it. Every refusal offers the request's page,
 * where what became of the answer shows and a different answer can be
 * written once the first is settled as refused or timed out.
 */
export function refusalChoices(refusal: AnswerRefusal, agentText: string): RefusalOffer {
  const message = describeRefusal(refusal, agentText);
  if (refusal.code === 'answer-in-flight') {
    return refusal.sent
      ? { severity: 'info', message, actions: ['send-again', 'open'], commandId: refusal.commandId }
      : { severity: 'info', message, actions: ['open'] };
  }
  return { severity: 'warning', message, actions: ['open'] };
}

/** A refusal action's button title, the same on every surface. */
export function refusalActionTitle(action: RefusalAction): string {
  return action === 'send-again' ? l10n.t('Send Again') : l10n.t('Open');
}

/** A notification as surfaces.ts `notify` shows one; injected, so what uses it runs in plain Node. */
export type Notify = <T>(severity: 'info' | 'warning' | 'error', message: string, choices?: ReadonlyArray<{ readonly title: string; readonly value: T }>) => Promise<T | undefined>;

export interface RefusalSurface {
  notify: Notify;
  /** The request's page. */
  open(): void;
  /** "Send Again" of `commandId` through the pipeline under the surface's own name (`Hubs.resend`). */
  sendAgain(commandId: string): PromiseLike<SendOutcome>;
}

/**
 * A refusal as a notification, for the surfaces that show it in one (the
 * notification's buttons, Answer Next, the quick input): the offer of
 * `refusalChoices`, and what the person chose done, Send Again's outcome said.
 */
export async function offerRefusal(surface: RefusalSurface, refusal: AnswerRefusal, agentText: string): Promise<void> {
  const offer = refusalChoices(refusal, agentText);
  const choice = await surface.notify(offer.severity, offer.message, offer.actions.map((action) => ({ title: refusalActionTitle(action), value: action })));
  if (choice === 'open') surface.open();
  else if (choice === 'send-again' && offer.commandId !== undefined) {
    const described = describeOutcome(await surface.sendAgain(offer.commandId), agentText);
    void surface.notify(described.ok ? 'info' : 'warning', described.message);
  }
}
