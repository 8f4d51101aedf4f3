import type { Answer } from '../src/aep/attention';
import { hostToWebviewSchema, webviewStateSchema, type HostToWebview, type PageDraft, type PageRequest, type WebviewState, type WebviewToHost } from '../src/shared/webviewMessages';
import { AnswerArea } from './answerForm';
import { el } from './dom';
import { Header } from './header';
import { promptBlock } from './honestText';
import { configureStrings, t } from './l10n';
import { registerComponents } from './toolkit';

interface VsCodeApi {
  postMessage(message: WebviewToHost): void;
  getState(): unknown;
  setState(state: WebviewState): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
registerComponents();

/** What the status line says; built when shown, once the strings are configured. */
function statusText(status: string): string | undefined {
  switch (status) {
    case 'pending': return '';
    case 'answered': return t('Answered. Waiting for the agent to resolve the request.');
    case 'answered-elsewhere': return t('Answered elsewhere (another window, or the agent\'s own interface). Nothing more can be sent from here.');
    case 'resolved': return t('Resolved.');
    case 'timed-out': return t('The agent stopped waiting (timeout). Nothing more can be sent.');
    // AEP-0002 §7: the agent, not this clock, ends a request; past its deadline it stays answerable.
    case 'deadline-passed': return t('The deadline has passed by this computer\'s clock. You can still send an answer; the agent may refuse it.');
    case 'session-ended': return t('The agent\'s session ended. Nothing more can be sent.');
    default: return undefined;
  }
}

let page: {
  header: Header;
  answer: AnswerArea;
  status: HTMLElement;
  request: PageRequest;
  acceptedHere: boolean;
  inFlight: boolean;
  /** `expires_at` has passed by this computer's clock (the request is still open). */
  deadlinePassed: boolean;
} | undefined;
let submitCounter = 0;
let timer: ReturnType<typeof setInterval> | undefined;

function render(request: PageRequest, now: number, handed: PageDraft | undefined): void {
  const app = document.getElementById('app');
  if (!app) return;
  const header = new Header(request, now);
  const answer = new AnswerArea(request, (message: Answer, verbatim: boolean) => submit(message, verbatim));
  const status = el('div', { class: 'status', id: 'status', role: 'status' });
  const agentRegion = el(
    'section',
    { class: 'from-agent', 'aria-label': t('What {0} asks', request.agent) },
    el('h2', {}, t('{0} asks', request.agent)),
    request.problem ? undefined : promptBlock(request.prompt, request.capture),
  );
  app.replaceChildren(header.element, agentRegion, status, answer.element);
  page = { header, answer, status, request, acceptedHere: false, inFlight: false, deadlinePassed: header.tick() };
  keepDrafts(request.key, answer, handed);
  answer.setBlocked(request.reachability.state === 'not-accepting');
  applyStatus(request.status, request.resolution);
  answer.focusFirst();
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
 * state): what the user typed is put back, and saved again on every change.
 * A draft the host hands over (typed in the quick input, then left with
 * Escape or "Open as page") is newer than anything saved here: it goes on
 * top, field by field.
 */
function keepDrafts(key: string, answer: AnswerArea, handed: PageDraft | undefined): void {
  const saved = webviewStateSchema.safeParse(vscode.getState());
  if (saved.success && saved.data.key === key) answer.restoreDraft(saved.data);
  if (handed) answer.restoreDraft(handed);
  vscode.setState({ key, ...answer.draft() });
  answer.onDidChangeDraft(() => vscode.setState({ key, ...answer.draft() }));
}

function applyStatus(status: string, resolution?: string): void {
  if (!page) return;
  page.request = { ...page.request, status: status as PageRequest['status'], ...(resolution !== undefined ? { resolution } : {}) };
  const over = status === 'answered' || status === 'resolved';
  // An answer of ours still in flight may be the one that resolved it: its outcome decides, and re-applies this.
  const elsewhere = over && !page.acceptedHere && !page.inFlight;
  const words = elsewhere ? statusText('answered-elsewhere') : statusText(status) ?? status;
  page.status.textContent = status === 'resolved' && resolution && !elsewhere ? t('Resolved ({0}).', resolution) : words ?? status;
  page.status.dataset['status'] = elsewhere ? 'answered-elsewhere' : status;
  if (status === 'pending') {
    if (page.deadlinePassed) page.status.textContent = statusText('deadline-passed') ?? '';
    if (page.request.expiresAt !== undefined) page.status.dataset['deadline'] = page.deadlinePassed ? 'passed' : 'ahead';
    return;
  }
  delete page.status.dataset['deadline'];
  page.answer.close();
  // The agent's own timeout may arrive before or after this page's clock reaches expires_at.
  page.header.end(status === 'timed-out' ? t('timed out') : status === 'session-ended' ? t('session ended') : t('answered'));
  if (over && page.acceptedHere) {
    page.answer.showSummary();
    // Sent and accepted: the draft has done its job.
    vscode.setState({ key: page.request.key });
  }
}

function submit(answer: Answer, verbatim: boolean): void {
  if (!page) return;
  page.answer.setBusy(true);
  page.inFlight = true;
  vscode.postMessage({ type: 'submit', submitId: `submit-${++submitCounter}`, answer, ...(verbatim ? { verbatim: true } : {}) });
}

function onMessage(message: HostToWebview): void {
  switch (message.type) {
    case 'init':
      configureStrings(message.l10n);
      render(message.request, message.now, message.draft);
      return;
    case 'update':
      if (!page) return;
      page.header.setReachability(message.reachability.state, message.reachability.detail);
      page.answer.setBlocked(message.reachability.state === 'not-accepting');
      applyStatus(message.status, message.resolution);
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
        page.inFlight = true;
        page.answer.offerRetry(undefined);
        page.answer.setBusy(true);
        return;
      }
      page.inFlight = false;
      if (message.phase === 'accepted') page.acceptedHere = true;
      // Accepted: the agent will try; wait for it to resolve. Anything else: the user may try again.
      page.answer.setBusy(message.phase === 'accepted');
      if (message.fieldId) page.answer.markField(message.fieldId, message.message);
      if (message.canRetry) {
        const submitId = message.submitId;
        page.answer.offerRetry(() => {
          page?.answer.offerRetry(undefined);
          page?.answer.setBusy(true);
          if (page) page.inFlight = true;
          vscode.postMessage({ type: 'retry', submitId });
        });
      }
      if (page.request.status !== 'pending') applyStatus(page.request.status, page.request.resolution);
      return;
    }
  }
}

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const message = hostToWebviewSchema.safeParse(event.data);
  if (!message.success) {
    console.error('AEP Attention: ignored a malformed message from the extension', message.error.issues);
    return;
  }
  onMessage(message.data);
});

vscode.postMessage({ type: 'ready' });
