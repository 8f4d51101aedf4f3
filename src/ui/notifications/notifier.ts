import * as l10n from '@vscode/l10n';
import type { AttentionItem } from '../../inbox/inbox';
import { NotifiedRequests } from '../../inbox/notifiedRequests';
import { textHonesty } from '../../aep/labels';
import { showsToast } from '../../inbox/toastPolicy';
import { sendingBlockedBy } from '../../aep/reachability';
import { hubToastPolicy } from '../../app/hubs/connectionInputs';
import { agentName, promptLine } from '../../words/describe';
import { lastActionLine, withLastAction } from '../../words/beforeAskingWords';
import { SURFACES } from '../../words/untrustedText';
import { optionButtons } from '../../words/inlineWords';
import { BurstBatcher } from '../../base/burstBatcher';
import { Disposable, toDisposable } from '../../base/disposable';
import type { Hub, Hubs } from '../../app/hubs/hubs';
import type { SettingsService } from '../services/settings';
import { notify, toastBudget, type Choice } from '../surfaces';
import type { OsNotificationsOnDemand } from './osNotificationsOnDemand';
import { similarOffers } from '../../answer/similarRequests';
import { windowGroups } from '../../app/answering/similarAnswers';
import { OWN_ACTIONS } from '../../shared/ownActionWords';

// The first request after a quiet spell is shown LEAD_MS after it reached the inbox (with any
// that came with it, so a replay's request and its resolution make no toast); later ones of the
// burst are coalesced per COALESCE_MS window.
const LEAD_MS = 50;
const COALESCE_MS = 400;
const MAX_OPTION_BUTTONS = 3;

export interface NotifierActions {
  open(item: Readonly<AttentionItem>): void;
  /** Whether the request is answered in the quick input (issue 15): then the notification leads with "Answer". */
  fitsInline(item: Readonly<AttentionItem>): boolean;
  answerInline(item: Readonly<AttentionItem>): void;
  showInbox(): void;
  answerWithOption(item: Readonly<AttentionItem>, optionId: string): void;
  /** Answer Similar Requests…, from this request. */
  answerSimilar(item: Readonly<AttentionItem>): void;
}

/**
 * One information message per new request, the first of a burst at once and
 * the rest coalesced per agent ("5 requests from claude-code"), never repeated for a request
 * already notified (redelivery, reconnect, reload). Plain information
 * messages, so VS Code's Do Not Disturb applies; never escalated.
 */
export class Notifier extends Disposable {
  private readonly notified = new NotifiedRequests<Hub>();
  /** Pairs of hubs already said to deliver the same requests. */
  private readonly heldTwiceSaid = new Set<string>();
  /** The requests of this burst, from one quiet spell to the next: those that "arrive together". */
  private readonly together = new Set<string>();
  private readonly burst = new BurstBatcher<Readonly<AttentionItem>>((items) => this.flush(items), LEAD_MS, COALESCE_MS, () => this.together.clear());
  private readonly waiting = new Set<ReturnType<typeof setTimeout>>();

  constructor(
    private readonly hubs: Hubs,
    private readonly settings: SettingsService,
    private readonly actions: NotifierActions,
    /** The system notification and sound beside each toast, given at once: they do not wait for the toast's turn. */
    private readonly alerts?: Pick<OsNotificationsOnDemand, 'alert'>,
  ) {
    super();
    for (const hub of hubs.list()) this.notified.restore(hub, hub.store.visibleItems().map((item) => item.key));
    this._register(
      hubs.onDidChangeInbox(({ hub, change }) => {
        if (change === undefined) {
          // A restored inbox (a hub added, or the window reloaded): what it holds was notified before.
          this.notified.restore(hub, hub.store.visibleItems().map((item) => item.key));
          return;
        }
        const fresh = this.notified.observe(hub, change);
        if (!fresh) return;
        // A copy another hub delivered first was notified by its hub's settings: this one is not notified again.
        const first = this.hubs.heldAlso(fresh);
        if (first && this.wants(first)) this.heldTwice(first, fresh);
        else if (this.wants(fresh)) this.burst.push(fresh);
      }),
    );
    this._register(this.burst);
    this._register(toDisposable(() => this.waiting.forEach((timer) => clearTimeout(timer))));
  }

  /**
   * A request another hub delivered first is not notified again; the person is told once per pair
   * of hubs (in either order) why it is listed twice, and what to change.
   */
  private heldTwice(first: Readonly<AttentionItem>, again: Readonly<AttentionItem>): void {
    const pair = [first.hub, again.hub].sort().join('\u0000');
    if (this.heldTwiceSaid.has(pair)) return;
    this.heldTwiceSaid.add(pair);
    void notify('info', l10n.t(
      '{0} and {1} both delivered a request from {2}: they may be one hub under two addresses. The inbox lists such a request under each, and it is notified once; to list it once, remove one address from hubUrl or aepAttention.hubs.',
      this.hubs.of(first)?.label ?? first.hub, this.hubs.of(again)?.label ?? again.hub, agentName(again.agent),
    ), []);
  }

  private wants(item: Readonly<AttentionItem>): boolean {
    // A hub of the user's own list notifies as the user said, whatever the workspace says.
    return showsToast(hubToastPolicy(this.hubs.of(item)?.config, this.settings.value), item);
  }

  private flush(items: Array<Readonly<AttentionItem>>): void {
    const still = items.filter((item) => this.stillWaiting(item));
    const byAgent = new Map<string, Array<Readonly<AttentionItem>>>();
    for (const item of still) {
      const key = `${item.hub}\u0000${item.agent}`;
      byAgent.set(key, [...(byAgent.get(key) ?? []), item]);
    }
    for (const item of still) this.together.add(item.key);
    // A later batch of the same burst counts its earlier ones: three asks that straddle a batch still arrive together.
    const similar = this.together.size < 2 ? new Map<string, number>() : similarOffers(windowGroups(this.hubs), this.together, still);
    for (const items of byAgent.values()) {
      this.alerts?.alert(items, this.hubName(items[0]));
      this.whenToastShows(items, similar);
    }
  }

  /** A request resolved or dismissed meanwhile (a replay catching up, an answer elsewhere) is not worth a notification. */
  private stillWaiting(item: Readonly<AttentionItem>): boolean {
    return this.hubs.isWaiting(item);
  }

  /**
   * Shows a request's notification once VS Code would still make it a toast:
   * past its limit (our own confirmations count too) it would go to the
   * notification center only, and the agent would wait unseen.
   */
  private whenToastShows(items: Array<Readonly<AttentionItem>>, similar: ReadonlyMap<string, number>): void {
    const wait = toastBudget.waitBefore(Date.now());
    if (wait > 0) {
      const timer = setTimeout(() => {
        this.waiting.delete(timer);
        this.whenToastShows(items.filter((item) => this.stillWaiting(item)), similar);
      }, wait);
      this.waiting.add(timer);
      return;
    }
    const [first] = items;
    if (items.length === 1 && first) void this.showOne(first, similar.get(first.key));
    else if (first) void this.showMany(first, items.length, similar.get(first.key));
  }

  private similarChoice<T>(count: number | undefined, value: T): Array<Choice<T>> {
    return count === undefined ? [] : [{ title: OWN_ACTIONS.answerSimilar.words(count), value }];
  }

  /** With several hubs, a notification says which one the agent asked through. */
  private hubName(item: Readonly<AttentionItem> | undefined): string | undefined {
    return item && this.hubs.size > 1 ? this.hubs.of(item)?.label : undefined;
  }

  private async showMany(first: Readonly<AttentionItem>, count: number, similar: number | undefined): Promise<void> {
    const hub = this.hubName(first);
    const message = hub === undefined
      ? l10n.t('{0} requests from {1}', count, agentName(first.agent))
      : l10n.t('{0} requests from {1} via {2}', count, agentName(first.agent), hub);
    const choice = await notify('info', message, [{ title: OWN_ACTIONS.openInbox.words(), value: 'inbox' }, ...this.similarChoice(similar, 'similar')]);
    if (choice === 'inbox') this.actions.showInbox();
    else if (choice === 'similar') this.actions.answerSimilar(first);
  }

  private async showOne(item: Readonly<AttentionItem>, similar: number | undefined): Promise<void> {
    type Action = { kind: 'answer' } | { kind: 'open' } | { kind: 'option'; id: string } | { kind: 'similar' };
    const open: Choice<Action> = { title: OWN_ACTIONS.open.words(), value: { kind: 'open' } };
    // "Answer" first, so the notification's primary action answers in the quick input; "Open" keeps the page one click away.
    const ours: Array<Choice<Action>> = this.actions.fitsInline(item) ? [{ title: OWN_ACTIONS.answer.words(), value: { kind: 'answer' } }, open] : [open];
    const request = item.request;
    // Option buttons only when the answer goes through the hub, the agent takes answers from
    // editors (the roster's `accepts`), and the labels are real text: at capture metadata a
    // label is a placeholder ("1"), not something to click blind.
    const options =
      request && request.kind === 'permission' && request.answerableHere && textHonesty(request.capture) !== 'structural' &&
      sendingBlockedBy(this.hubs.reachability(item).state) === undefined
        ? optionButtons(request.options).slice(0, MAX_OPTION_BUTTONS)
        : [];
    // "agent: prompt": provenance first, then the agent's words (e2e tests match this shape); "agent via hub: prompt" with several hubs.
    const hub = this.hubName(item);
    const asked = hub === undefined
      ? l10n.t('{0}: {1}', agentName(item.agent), promptLine(item))
      : l10n.t('{0} via {1}: {2}', agentName(item.agent), hub, promptLine(item));
    // What the agent did last before asking, where it fits in the one line a notification has.
    const message = withLastAction(asked, lastActionLine(this.hubs.beforeAsking(item), Date.now()), SURFACES.notificationMessage.cap);
    const choice = await notify<Action>('info', message, [
      ...ours,
      ...options.map((option) => ({ title: option.label, value: { kind: 'option' as const, id: option.id } })),
      ...this.similarChoice<Action>(similar, { kind: 'similar' }),
    ]);
    if (choice?.kind === 'answer') this.actions.answerInline(item);
    else if (choice?.kind === 'open') this.actions.open(item);
    // A toast outlives its request (VS Code cannot take one back): the pipeline refuses a closed one and says how it ended.
    else if (choice?.kind === 'option') this.actions.answerWithOption(item, choice.id);
    else if (choice?.kind === 'similar') this.actions.answerSimilar(item);
  }
}
