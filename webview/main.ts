// First: its mark is the moment the bundle starts running.
import './scriptStart';
import * as l10n from '@vscode/l10n';
import type { Answer } from '../src/aep/attention';
import { sendingBlockedBy } from '../src/aep/reachability';
import type { AttentionStatus } from '../src/aep/requestStatus';
import { shownStatus, statusKey, type OurAnswer, type ShownStatus } from '../src/shared/shownStatus';
import { statusWord } from '../src/shared/statusWords';
import { hostToWebviewSchema, PAGE_INIT_ELEMENT, webviewStateSchema, type HostToWebview, type PageDraft, type PageRecorded, type PageRender, type PageRequest, type RequestMessageBody, type WebviewState, type WebviewToHost } from '../src/shared/webviewMessages';
import { draftIsEmpty } from '../src/answer/inlinePlan';
import { AnswerArea } from './answerForm';
import { recordedBlock } from './answerSummary';
import { contextBlock } from './contextBlock';
import { beforeAskingBlock } from './beforeAskingBlock';
import { el } from './dom';
import { Header } from './header';
import { captureMark, promptBlock } from './honestText';
import { configureStrings } from './l10n';
import { registerComponents, warmComponentsSoon } from './toolkit';
import { PAGE_MARKS } from './pageTimings';

interface VsCodeApi {
  postMessage(message: WebviewToHost): void;
  getState(): unknown;
  setState(state: WebviewState): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

performance.mark(PAGE_MARKS.modulesEvaluated);
const vscode = acquireVsCodeApi();
registerComponents();
performance.mark(PAGE_MARKS.componentsRegistered);
const firstRender = renderInHtml();
// One drawn at once pays the components' first-use costs itself: they are warmed only while an `init` is awaited.
if (!firstRender) warmComponentsSoon();
// Whether, and when, the editor gave the page focus: "focused" is the first field focused in a focused document.
window.addEventListener('focus', () => performance.mark(PAGE_MARKS.windowFocused));

/** What the status line says; built when shown, once the strings are configured. */
function statusText(shown: ShownStatus): string {
  switch (shown.kind) {
    // AEP-0002 §7: the agent, not this clock, ends a request; past its deadline it stays answerable.
    case 'open': return shown.deadline === 'passed' ? l10n.t('The deadline has passed by this computer\'s clock. You can still send an answer; the agent may refuse it.') : '';
    case 'answered':
    case 'resolved':
      if (shown.by === 'elsewhere') return l10n.t('Answered elsewhere (another window, or the agent\'s own interface). Nothing more can be sent from here.');
      // AEP-0002 §5.3: the recorded answer is what the agent applied, and it is not the one sent from here.
      if (shown.differs) {
        return shown.kind === 'answered'
          ? l10n.t('The agent recorded an answer that differs from the one you sent (shown below). Waiting for the agent to resolve the request.')
          : l10n.t('Resolved, with an answer that differs from the one you sent (shown below).');
      }
      if (shown.kind === 'answered') return l10n.t('Answered. Waiting for the agent to resolve the request.');
      return shown.resolution ? l10n.t('Resolved ({0}).', shown.resolution) : l10n.t('Resolved.');
    case 'unanswered':
      switch (shown.ending) {
        case 'dismissed': return l10n.t('The agent dismissed the request; no answer was recorded. Nothing more can be sent.');
        case 'auto': return l10n.t('The agent resolved the request on its own (auto); no answer was recorded. Nothing more can be sent.');
        case 'other': return l10n.t('The agent ended the request without an answer ({0}). Nothing more can be sent.', shown.resolution);
      }
    case 'timed-out': return l10n.t('The agent stopped waiting (timeout). Nothing more can be sent.');
    case 'session-ended': return l10n.t('The agent\'s session ended. Nothing more can be sent.');
  }
}

let page: {
  /** The render this is (the request's key, the host's generation): every message about the request names it. */
  about: PageRender;
  header: Header;
  answer: AnswerArea;
  status: HTMLElement;
  request: PageRequest;
  /** This page's own answer: whether one is on its way, or was accepted (the rest of the state is the host's). */
  ours: OurAnswer;
  /** `expires_at` has passed by this computer's clock (the request is still open). */
  deadlinePassed: boolean;
} | undefined;
let submitCounter = 0;
/** Whether the host was told this page is the person's (`pin`) since it last rendered. */
let pinned = false;

function pin(about: PageRender): void {
  if (pinned) return;
  pinned = true;
  post(about, { type: 'pin' });
}

/**
 * Every message about the request names the render it was composed on, not
 * whatever the page shows when it goes: the host drops it if the page has
 * since been reused for another request or rendered again.
 */
function post(about: PageRender, message: RequestMessageBody): void {
  vscode.postMessage({ ...message, ...about });
}
let timer: ReturnType<typeof setInterval> | undefined;

function render(request: PageRequest, now: number, handed: PageDraft | undefined, generation: number): void {
  const app = document.getElementById('app');
  if (!app) return;
  const about: PageRender = { key: request.key, generation };
  // The render, readable where the page's own API is not (the code-server tests post past the page as it would).
  app.dataset['key'] = about.key;
  app.dataset['generation'] = String(generation);
  const header = new Header(request, now);
  const answer = new AnswerArea(request, (message: Answer, verbatim: boolean) => submit(about, message, verbatim), () => post(about, { type: 'openSettings' }));
  const status = el('div', { class: 'status', id: 'status', role: 'status' });
  const agentRegion = el(
    'section',
    { class: 'from-agent', 'aria-label': l10n.t('What {0} asks', request.agent) },
    // The page's one heading is the question; a request that cannot be shown has none, so the heading says who asks.
    request.problem ? el('h1', {}, l10n.t('{0} asks', request.agent)) : promptBlock(request.prompt, request.capture),
    el('p', { class: 'asked-by' }, l10n.t('Asked by {0} · session {1} · {2}', request.agent, request.session, request.hub ?? request.host ?? request.source)),
    request.problem ? undefined : captureMark(request.capture),
  );
  // What a person reads first: the question, who asks, what it is about, the answer; the details last.
  const context = request.problem ? undefined : contextBlock(request.context, request.contextWithheld === true, request.agent);
  // What the agent did just before: beside the question, before the answer.
  const before = beforeAskingBlock(request.beforeAsking, now);
  app.replaceChildren(agentRegion, ...(context ? [context] : []), ...(before ? [before] : []), status, answer.element, header.element);
  page = { about, header, answer, status, request, ours: 'none', deadlinePassed: header.tick() };
  pinned = false;
  keepDrafts(about, answer, handed);
  answer.setBlocked(sendingBlockedBy(request.reachability.state), setTokenOf(about));
  applyStatus(request.status, request.resolution);
  performance.mark(PAGE_MARKS.rendered);
  answer.focusFirst();
  performance.mark(PAGE_MARKS.fieldFocused, { detail: { documentFocused: document.hasFocus() } });
  if (timer) clearInterval(timer);
  timer = setInterval(() => {
    if (!page) return;
    const passed = page.header.tick();
    if (passed === page.deadlinePassed) return;
    page.deadlinePassed = passed;
    if (page.request.status === 'pending') applyStatus('pending');
  }, 1_000);
}

/**
 * Unsent input survives the panel being hidden (the page is rebuilt on
 * show) and a window reload (the serializer restores the panel with this
 * state): what the user typed is put back, and saved again on every change,
 * but for what asks for a secret (`keptDraft`), since this state is kept on disk.
 * A draft the host hands over (typed in the quick input, then left with
 * Escape or "Open as page") is newer than anything saved here: it goes on
 * top, field by field.
 */
function keepDrafts(about: PageRender, answer: AnswerArea, handed: PageDraft | undefined): void {
  const { key } = about;
  const saved = webviewStateSchema.safeParse(vscode.getState());
  const restored = saved.success && saved.data.key === key ? saved.data : undefined;
  if (restored) answer.restoreDraft(restored);
  if (handed) answer.restoreDraft(handed);
  // A page holding unsent input is never reused for another request.
  if ((restored && !draftIsEmpty(restored)) || (handed && !draftIsEmpty(handed))) pin(about);
  vscode.setState({ key, ...answer.keptDraft() });
  answer.onDidChangeDraft(() => {
    pin(about);
    vscode.setState({ key, ...answer.keptDraft() });
  });
}

function applyStatus(status: AttentionStatus, resolution?: string, recorded?: PageRecorded): void {
  if (!page) return;
  page.request = { ...page.request, status, ...(resolution !== undefined ? { resolution } : {}), ...(recorded !== undefined ? { recorded } : {}) };
  // An answer of ours still in flight may be the one that resolved it: its outcome decides, and re-applies this.
  const shown = shownStatus(status, {
    resolution: page.request.resolution, deadlinePassed: page.deadlinePassed, hasDeadline: page.request.expiresAt !== undefined, ours: page.ours,
    recorded: page.request.recorded?.verdict,
  });
  const endedBy = shown.kind === 'unanswered' ? page.request.recorded?.endedBy : undefined;
  page.status.textContent = statusText(shown) + (endedBy !== undefined ? ` ${l10n.t('Ended by {0}.', endedBy)}` : '');
  showRecorded(page.request.recorded);
  page.status.dataset['status'] = statusKey(shown);
  if (shown.kind === 'open') {
    if (shown.deadline === 'none') delete page.status.dataset['deadline'];
    else page.status.dataset['deadline'] = shown.deadline === 'passed' ? 'passed' : 'ahead';
    return;
  }
  delete page.status.dataset['deadline'];
  page.answer.close();
  // The agent's own timeout may arrive before or after this page's clock reaches expires_at.
  page.header.end(statusWord(shown.kind === 'timed-out' || shown.kind === 'session-ended' || shown.kind === 'unanswered' ? shown.kind : 'answered'));
  if ((shown.kind === 'answered' || shown.kind === 'resolved') && shown.by === 'here') {
    page.answer.showSummary();
    // Sent and accepted: the draft has done its job.
    vscode.setState({ key: page.request.key });
  }
}

/** The answer the agent recorded, when it is not the one sent from here: shown beside ours, as the agent's text. */
function showRecorded(recorded: PageRecorded | undefined): void {
  if (!page) return;
  const shown = recorded && (recorded.verdict === 'differs' || recorded.verdict === 'unconfirmed' || recorded.verdict === 'elsewhere') ? recordedBlock(page.request, recorded) : undefined;
  const before = page.answer.element.querySelector('.recorded');
  if (shown) {
    if (before) before.replaceWith(shown);
    else page.answer.element.append(shown);
  } else before?.remove();
}

/** An entry of the answer history (issue 16): read-only, with what was sent and everything that became of it. */
function showHistory(history: NonNullable<Extract<HostToWebview, { type: 'init' }>['history']>): void {
  if (!page) return;
  page.answer.close();
  page.header.hideDelivery();
  // An accepted answer from here is what answered it: the status line says so, not "answered elsewhere".
  if (history.accepted) {
    page.ours = 'accepted';
    applyStatus(page.request.status, page.request.resolution);
  }
  if (history.sent) page.answer.showSummary({ answer: history.sent, note: history.note });
  const list = el('ol', {});
  for (const line of history.lines) list.append(el('li', {}, line));
  page.answer.element.append(el('section', { class: 'history', 'aria-label': l10n.t('From your answer history') }, el('h3', {}, l10n.t('From your answer history')), list));
  page.answer.keepOnlySummary();
}

function submit(about: PageRender, answer: Answer, verbatim: boolean): void {
  if (!page) return;
  page.answer.setBusy(true);
  page.ours = 'in-flight';
  pin(about);
  post(about, { type: 'submit', submitId: `submit-${++submitCounter}`, answer, ...(verbatim ? { verbatim: true } : {}) });
}

/** "Send again" of the answer posted under `submitId`: the host repeats its command, same id. */
function retryOf(about: PageRender, submitId: string): () => void {
  return () => {
    page?.answer.offerRetry(undefined);
    page?.answer.setBusy(true);
    if (page) page.ours = 'in-flight';
    post(about, { type: 'retry', submitId });
  };
}

function onMessage(message: HostToWebview): void {
  switch (message.type) {
    case 'init':
      configureStrings(message.l10n);
      render(message.request, message.now, message.draft, message.generation);
      if (message.history) showHistory(message.history);
      return;
    case 'update':
      if (!page) return;
      if (message.secretValues) {
        page.answer.setSecretValues(message.secretValues);
        // What was kept before these values were known is kept again, masked with them (the page keeps its request's draft from its render on: keepDrafts).
        vscode.setState({ key: page.about.key, ...page.answer.keptDraft() });
      }
      page.header.setReachability(message.reachability.state, message.reachability.detail);
      page.answer.setBlocked(sendingBlockedBy(message.reachability.state), setTokenOf(page.about));
      applyStatus(message.status, message.resolution, message.recorded);
      return;
    case 'outcome': {
      if (!page) return;
      const waiting = message.phase === 'sending' || message.phase === 'queued' || message.phase === 'awaiting-ack';
      const tone = message.phase === 'accepted' ? 'success' : waiting ? 'info' : 'error';
      page.answer.showMessage(message.message, tone);
      if (waiting) {
        // Also when this page did not send it (a reload, the page rebuilt on show): while the
        // agent may still act on that command, a new answer would be a second command, and
        // "Send again" of an older one would compete with it.
        page.ours = 'in-flight';
        // The one exception: Send Again of that same command, same id (AEP-0004 §2 item 3), which the host offers.
        page.answer.offerRetry(message.canRetry ? retryOf(page.about, message.submitId) : undefined);
        page.answer.setBusy(true);
        return;
      }
      // Once accepted, ours stays accepted; anything else leaves no answer of ours on its way.
      if (message.phase === 'accepted') page.ours = 'accepted';
      else if (page.ours === 'in-flight') page.ours = 'none';
      // Accepted: the agent will try; wait for it to resolve. Anything else: the user may try again.
      page.answer.setBusy(message.phase === 'accepted');
      if (message.fieldId) page.answer.markField(message.fieldId, message.message);
      if (message.canRetry) page.answer.offerRetry(retryOf(page.about, message.submitId));
      // A command that settled (a late ack, a late refusal after "no acknowledgement") has nothing left to send
      // again; a refusal here before sending ('cancelled') leaves an earlier answer's Send again as it was.
      else if (message.phase !== 'cancelled') page.answer.offerRetry(undefined);
      if (page.request.status !== 'pending') applyStatus(page.request.status, page.request.resolution);
      return;
    }
  }
}

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  if ((event.data as { type?: unknown } | null)?.type === 'init') performance.mark(PAGE_MARKS.initReceived);
  const message = hostToWebviewSchema.safeParse(event.data);
  if (!message.success) {
    console.error('AEP Attention: ignored a malformed message from the extension', message.error.issues);
    return;
  }
  onMessage(message.data);
});

// Ready first, naming the render about to be drawn: what the page posts while drawing it (a pin for a handed draft) must find the host knowing it.
vscode.postMessage({ type: 'ready', ...(firstRender && { shows: { key: firstRender.request.key, generation: firstRender.generation } }) });
performance.mark(PAGE_MARKS.readyPosted);
if (firstRender) onMessage(firstRender);

/**
 * The first render the host put in the page's HTML (src/app/page/webviewHtml.ts),
 * checked as a message is; drawn at once, before `ready`, so the first screen
 * needs no round trip to the host. Only on the page's first load: a page that
 * saved state is one VS Code rebuilt (shown again after being hidden, or
 * restored after a reload) from HTML whose render may be stale, and it waits
 * for a fresh `init` instead.
 */
function renderInHtml(): Extract<HostToWebview, { type: 'init' }> | undefined {
  const held = document.getElementById(PAGE_INIT_ELEMENT);
  const saved: unknown = vscode.getState();
  if (!held || (saved !== undefined && saved !== null)) return undefined;
  performance.mark(PAGE_MARKS.initReceived);
  try {
    const checked = hostToWebviewSchema.safeParse(JSON.parse(held.textContent ?? ''));
    if (checked.success && checked.data.type === 'init') return checked.data;
  } catch {
    // Not JSON: ignored as a malformed message is.
  }
  console.error('AEP Attention: ignored a malformed first render in the page');
  return undefined;
}

/** A watch-only hub's "Set Hub Token": the host asks for the token; nothing is sent to the hub. */
function setTokenOf(about: PageRender): () => void {
  return () => post(about, { type: 'setToken' });
}
