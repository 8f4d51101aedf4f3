import * as l10n from '@vscode/l10n';
import type { AnswerRecord, AnswerResult, AnswerSurface } from '../../answer/answerPipeline';
import type { Answer, AttentionRequest } from '../../aep/attention';
import type { CaptureChoice } from '../../aep/capture';
import type { SendOutcome } from '../../client/controlSender';
import type { Logger } from '../../base/logger';
import type { Subscription } from '../../base/emitter';
import type { Reachability } from '../../client/rosterSnapshot';
import type { AttentionItem } from '../../inbox/inbox';
import type { RedactionOptions } from '../../aep/redaction';
import type { PageDraft, PageInit, PageRecorded } from '../../shared/webviewMessages';
import { outcomeMessage, recordMessages, sendingMessage, sentAfterTimeout, type OutcomeMessage } from '../../words/answerOutcomes';
import { type StringBundle } from '../../words/l10n';
import { refusalChoices } from '../answering/refusalChoices';
import { pageReachability, pageRecorded, pageRequest } from './pageContent';
import { withoutReordering } from '../../base/invisibleText';
import type { PageBeforeAsking } from '../../shared/beforeAsking';
import { DisposableStore, MutableDisposable, toDisposable } from '../../base/disposable';
import { PageHost, type Listen, type PageMessage, type PageWebview } from './pageHost';

/** What a request page reads of the window's hubs; hubs.ts `Hubs` is one. */
export interface RequestPageHubs {
  item(key: string): Readonly<AttentionItem> | undefined;
  reachability(item: Readonly<AttentionItem>): Reachability;
  isConnected(item: Readonly<AttentionItem>): boolean;
  /** The pipeline's record of the answer to this request (the one home of what became of it). */
  answerRecord(item: Readonly<AttentionItem>): AnswerRecord | undefined;
  /** What the agent recorded of the request, against what was sent from here (src/answer/recordedAnswer.ts). */
  recorded(item: Readonly<AttentionItem>): PageRecorded;
  /** What the request's session did just before it asked; undefined when "Before asking" is off (Hubs.beforeAsking). */
  beforeAsking(item: Readonly<AttentionItem>): PageBeforeAsking | undefined;
  readonly size: number;
  of(item: Pick<AttentionItem, 'hub'>): { readonly label: string } | undefined;
  readonly onDidChangeInbox: Listen<{ hub: { readonly id: string }; change: { item: { readonly key: string } } | undefined }>;
  readonly onDidChangeRoster: Listen<{ readonly id: string }>;
  readonly onDidChangeState: Listen<{ readonly id: string }>;
  /** An answer no Send here awaits settled: one kept across a reload, or one that settled after its ack window ran out. */
  readonly onDidSettleLater: Listen<{ hub: { readonly id: string }; outcome: SendOutcome; requestId: string; source: string }>;
  /** An answer was handed to its hub, from whichever surface. */
  readonly onDidSendAnswer: Listen<{ hub: { readonly id: string }; item: { readonly key: string }; command: { readonly id: string }; surface: AnswerSurface }>;
  /** What became of an answer sent from this window. */
  readonly onDidSettleAnswer: Listen<{ hub: { readonly id: string }; outcome: SendOutcome }>;
}

/** The page's way into the answer pipeline (src/answer): `Hubs.answer` for the surface `page`. */
export type PageAnswer = (item: Readonly<AttentionItem>, answer: Answer, choice: CaptureChoice) => AnswerResult;
/** "Send again" of a command, same id (AEP-0004 §2 item 3). */
export type PageResend = (item: Readonly<AttentionItem>, commandId: string) => Promise<SendOutcome>;

export interface RequestPageDeps {
  hubs: RequestPageHubs;
  answer: PageAnswer;
  resend: PageResend;
  log: Logger;
  /** The always-secret values and home directory the pipeline redacts with, as they are now. */
  redaction: () => RedactionOptions;
  /** Fires when the values `redaction` gives changed: the page is told, and masks its kept draft with them. */
  onDidChangeRedaction?: (listener: () => void) => Subscription;
  /** A partial answer from the quick input waiting for this page, handed over once. */
  takeDraft: () => PageDraft | undefined;
  /** The strings of the display language (`vscode.l10n.bundle`); undefined in English. */
  strings: StringBundle | undefined;
  closeWhenResolved: () => boolean;
  showLog: () => void;
  setToken: (hubId: string) => void;
  /** Opens the setting that withholds a request's content (the capture ceiling). */
  openSettings: () => void;
  /** The person typed in the page or sent from it: not to be reused for another request. */
  pin?: () => void;
}

/** How long a resolved request's page stays up, when the user chose to close it, so the outcome can be read. */
export const CLOSE_AFTER_RESOLVED_MS = 2_000;

/** Send Again offers remembered per page; the page shows one at a time, a few older ones cover messages crossing. */
const MAX_OFFERS = 8;

function pipelineOptions(options: RedactionOptions): { home?: string; secretValues?: string[] } {
  return { ...(options.home ? { home: options.home } : {}), ...(options.secretValues?.length ? { secretValues: [...options.secretValues] } : {}) };
}

/**
 * The page of one live request: renders it, keeps it current as its inbox
 * item, its hub's roster and state change, and sends what the person answers
 * through the answer pipeline, posting what became of it.
 */
export class RequestPageController {
  readonly host: PageHost;
  private item: Readonly<AttentionItem>;
  /** The hubs' events and the close timer, released when the page's host lets go. */
  private readonly owned = new DisposableStore();
  /** Set once the request is resolved and the person chose to close its page then. */
  private readonly closeTimer = this.owned.add(new MutableDisposable());
  /** The command each "Send again" this page was offered is about, by the `submitId` it was offered under. */
  private readonly offers = new Map<string, string>();
  /** Answers to this request sent from another surface (a notification's button, the quick input, Answer Similar), newest last. */
  private readonly elsewhere = new Set<string>();

  /** `alreadyLoaded`: the webview shows a loaded page already (PageHostOptions). */
  constructor(item: Readonly<AttentionItem>, webview: PageWebview, private readonly deps: RequestPageDeps, alreadyLoaded = false) {
    this.item = item;
    this.host = new PageHost(webview, deps.log, {
      name: 'request page', init: () => this.init(), afterInit: () => this.postKeptAnswers(), onMessage: (message) => this.onMessage(message), alreadyLoaded,
    });
    const { hubs } = deps;
    const mine = (hub: { readonly id: string }) => hub.id === this.item.hub;
    this.owned.add(hubs.onDidChangeInbox(({ hub, change }) => {
      if (change === undefined ? mine(hub) : change.item.key === this.item.key) this.pushUpdate();
    }));
    this.owned.add(hubs.onDidChangeRoster((hub) => mine(hub) && this.pushUpdate()));
    if (deps.onDidChangeRedaction) this.owned.add(deps.onDidChangeRedaction(() => this.pushUpdate()));
    // Its hub's hello says whether it is watch-only (src/client/watchOnly.ts); a token set rebuilds the connection.
    this.owned.add(hubs.onDidChangeState((hub) => mine(hub) && this.pushUpdate()));
    // An answer sent before a reload or rebuild, resent since, or one that timed out and settled after all
    // (a late ack, a late refusal by the hub): its outcome belongs on this page, in place of "no acknowledgement".
    this.owned.add(hubs.onDidSettleLater(({ hub, outcome, requestId, source }) => {
      const request = this.item.request;
      if (request && mine(hub) && requestId === this.item.requestId && source === this.item.source) this.postOutcome(outcome.commandId, request, outcome, this.item.agent);
    }));
    // An answer given elsewhere while this page is open: the page shows it on its way, which withdraws an
    // older Send Again it offered, rather than learning of the replacement only when that button is pressed.
    this.owned.add(hubs.onDidSendAnswer(({ hub, item, command, surface }) => {
      if (surface === 'page' || !mine(hub) || item.key !== this.item.key) return;
      this.elsewhere.add(command.id);
      for (const oldest of this.elsewhere) {
        if (this.elsewhere.size <= MAX_OFFERS) break;
        this.elsewhere.delete(oldest);
      }
      this.postKeptAnswers();
    }));
    // Only while it is still the request's answer: an older command settling late (a late ack after a newer
    // answer from this page) must not take the page's one status line from the answer that stands.
    this.owned.add(hubs.onDidSettleAnswer(({ hub, outcome }) => {
      const request = this.item.request;
      const current = this.deps.hubs.answerRecord(this.item)?.commandId === outcome.commandId;
      if (request && mine(hub) && current && this.elsewhere.has(outcome.commandId)) this.postOutcome(outcome.commandId, request, outcome, this.item.agent);
    }));
    this.host.onDidDispose(() => this.owned.dispose());
    this.host.refresh();
  }

  dispose(): void {
    this.host.dispose();
  }

  private onMessage(message: PageMessage): void {
    switch (message.type) {
      case 'showLog':
        this.deps.showLog();
        return;
      case 'setToken':
        this.deps.setToken(this.item.hub);
        return;
      case 'openSettings':
        this.deps.openSettings();
        return;
      case 'pin':
        this.deps.pin?.();
        return;
      case 'submit':
        void this.submit(message.submitId, message.answer, message.verbatim === true);
        return;
      case 'retry':
        void this.retry(message.submitId);
        return;
    }
  }

  /**
   * Whatever the page did, the answer pipeline (src/answer) checks again:
   * the answer against the request, an answer of ours still in flight, and
   * the free text against the AEP-0003 §9.4 pipeline. Text the pipeline would
   * change goes only if the user chose to send it as typed (`verbatim`,
   * capture `full`); `redacted` is never declared for it.
   */
  private async submit(submitId: string, answer: Answer, verbatim: boolean): Promise<void> {
    const current = this.deps.hubs.item(this.item.key) ?? this.item;
    const result = this.deps.answer(current, answer, { verbatim, redaction: this.deps.redaction() });
    if (result.kind === 'refused') {
      const { refusal } = result;
      // What every surface offers (refusalChoices); the page is what "Open" opens, so only Send Again is left to offer.
      const offer = refusalChoices(refusal, current.agent);
      // An answer in flight keeps the page waiting on it; the rest leave the page open to a fixed answer.
      this.postAbout(offer.commandId, {
        type: 'outcome', submitId, phase: refusal.code === 'answer-in-flight' ? 'awaiting-ack' : 'cancelled',
        message: offer.message,
        ...(offer.actions.includes('send-again') ? { canRetry: true } : {}),
        ...(refusal.code === 'invalid' && refusal.fieldId ? { fieldId: refusal.fieldId } : {}),
      });
      return;
    }
    this.host.post(sentAfterTimeout(sendingMessage(submitId, current.agent, this.deps.hubs.isConnected(this.item)), result, current.agent));
    const outcome = await result.outcome;
    const request = current.request;
    if (request) this.postAbout(outcome.commandId, sentAfterTimeout(outcomeMessage(submitId, outcome, current.agent, request.fields.map((f) => f.id)), result, current.agent));
  }

  /**
   * "Send again" as the page offered it: the command that offer was about,
   * never whichever the request's answer is now (another surface may have
   * sent a newer one since); the pipeline sends nothing if it was replaced.
   */
  private async retry(submitId: string): Promise<void> {
    const current = this.deps.hubs.item(this.item.key) ?? this.item;
    const commandId = this.offers.get(submitId);
    const request = current.request;
    if (!commandId || !request) {
      this.host.post({ type: 'outcome', submitId, phase: 'cancelled', message: l10n.t('That answer can no longer be sent again; send a new one.') });
      return;
    }
    this.postSending(submitId, this.item.agent);
    this.postOutcome(submitId, request, await this.deps.resend(current, commandId), this.item.agent);
  }

  /** Posts an outcome about `commandId`; one offering "Send again" is remembered, so the page's retry resends that command. */
  private postAbout(commandId: string | undefined, message: OutcomeMessage): void {
    if (message.canRetry && commandId) {
      this.offers.delete(message.submitId);
      this.offers.set(message.submitId, commandId);
      for (const oldest of this.offers.keys()) {
        if (this.offers.size <= MAX_OFFERS) break;
        this.offers.delete(oldest);
      }
    }
    this.host.post(message);
  }

  /** What the page renders when it loads: the request, the user's language, a draft from the quick input if one waits. */
  private init(): PageInit {
    const draft = this.deps.takeDraft();
    const { strings } = this.deps;
    return {
      type: 'init',
      // The page previews the pipeline as the host will run it; the values stay in its memory, never in its saved state.
      request: {
        ...pageRequest(this.item, this.deps.hubs.reachability(this.item), this.hubName(), this.deps.hubs.recorded(this.item), this.deps.hubs.beforeAsking(this.item)),
        ...pipelineOptions(this.deps.redaction()),
      },
      now: Date.now(),
      ...(strings ? { l10n: strings } : {}),
      ...(draft ? { draft } : {}),
    };
  }

  /** The hub's name, when the window has several: the page then says which one the request came through. */
  private hubName(): string | undefined {
    return this.deps.hubs.size > 1 ? this.deps.hubs.of(this.item)?.label : undefined;
  }

  private postSending(submitId: string, agent: string): void {
    this.host.post(sendingMessage(submitId, agent, this.deps.hubs.isConnected(this.item)));
  }

  private postOutcome(submitId: string, request: AttentionRequest, outcome: SendOutcome, agent: string): void {
    this.postAbout(outcome.commandId, outcomeMessage(submitId, outcome, agent, request.fields.map((f) => f.id)));
  }

  /**
   * A page that has just loaded (after a window reload, or rebuilt on show)
   * knows nothing of answers already sent to its request: it is told of those
   * still unsettled, under their command ids, so it offers what the page that
   * sent them did, "Send again" of the same command included.
   */
  private postKeptAnswers(): void {
    const record = this.deps.hubs.answerRecord(this.item);
    const fieldIds = this.item.request?.fields.map((f) => f.id);
    for (const message of recordMessages(record, this.item.agent, this.deps.hubs.isConnected(this.item), fieldIds)) this.postAbout(record?.commandId, message);
  }

  private pushUpdate(): void {
    const latest = this.deps.hubs.item(this.item.key);
    if (latest) this.item = latest;
    if (this.item.status === 'resolved' && this.deps.closeWhenResolved() && !this.closeTimer.value) {
      const timer = setTimeout(() => this.dispose(), CLOSE_AFTER_RESOLVED_MS);
      this.closeTimer.value = toDisposable(() => clearTimeout(timer));
    }
    const { secretValues } = this.deps.redaction();
    this.host.post({
      type: 'update',
      status: this.item.status,
      // A hub's token read since the page loaded (after a reload, a page is restored before its hub connects) masks its draft
      // too; values cleared since are cleared there too.
      secretValues: [...(secretValues ?? [])],
      ...(this.item.resolution ? { resolution: withoutReordering(this.item.resolution) } : {}),
      recorded: pageRecorded(this.deps.hubs.recorded(this.item)),
      reachability: pageReachability(this.deps.hubs.reachability(this.item)),
      now: Date.now(),
    });
  }
}
