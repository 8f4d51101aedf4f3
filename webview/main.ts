import { hostToWebviewSchema, type AnswerMessage, type HostToWebview, type RequestView, type WebviewToHost } from '../src/shared/webviewMessages';
import { AnswerArea } from './answerForm';
import { el } from './dom';
import { Header } from './header';
import { promptBlock } from './honestText';
import { registerComponents } from './toolkit';

interface VsCodeApi {
  postMessage(message: WebviewToHost): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
registerComponents();

const STATUS_TEXT: Record<string, string> = {
  pending: '',
  answered: 'Answered. Waiting for the agent to resolve the request.',
  resolved: 'Resolved.',
  'timed-out': 'The agent stopped waiting (timeout). Nothing more can be sent.',
  expired: 'This request expired. Nothing more can be sent.',
  'session-ended': 'The agent\'s session ended. Nothing more can be sent.',
};

let page: { header: Header; answer: AnswerArea; status: HTMLElement; request: RequestView } | undefined;
let submitCounter = 0;
let timer: ReturnType<typeof setInterval> | undefined;

function render(request: RequestView, now: number): void {
  const app = document.getElementById('app');
  if (!app) return;
  const header = new Header(request, now);
  const answer = new AnswerArea(request, (message: AnswerMessage) => submit(message));
  const status = el('div', { class: 'status', id: 'status', role: 'status' });
  const agentRegion = el(
    'section',
    { class: 'from-agent', 'aria-label': `What ${request.agent} asks` },
    el('h2', {}, `${request.agent} asks`),
    request.problem ? undefined : promptBlock(request.prompt, request.capture),
  );
  app.replaceChildren(header.element, agentRegion, status, answer.element);
  page = { header, answer, status, request };
  applyStatus(request.status, request.resolution);
  answer.focusFirst();
  if (timer) clearInterval(timer);
  timer = setInterval(() => {
    if (page?.header.tick() && page.request.status === 'pending') applyStatus('expired');
  }, 1_000);
}

function applyStatus(status: string, resolution?: string): void {
  if (!page) return;
  page.request = { ...page.request, status: status as RequestView['status'] };
  const words = STATUS_TEXT[status] ?? status;
  page.status.textContent = status === 'resolved' && resolution ? `Resolved (${resolution}).` : words;
  page.status.dataset['status'] = status;
  if (status !== 'pending' && status !== 'answered') page.answer.close();
  if (status === 'answered') page.answer.close();
}

function submit(answer: AnswerMessage): void {
  if (!page) return;
  page.answer.setBusy(true);
  vscode.postMessage({ type: 'submit', submitId: `submit-${++submitCounter}`, answer });
}

function onMessage(message: HostToWebview): void {
  switch (message.type) {
    case 'init':
      render(message.request, message.now);
      return;
    case 'update':
      if (!page) return;
      page.header.setReachability(message.reachability.state, message.reachability.detail);
      applyStatus(message.status, message.resolution);
      return;
    case 'outcome': {
      if (!page) return;
      const tone = message.phase === 'accepted' ? 'success' : message.phase === 'sending' ? 'info' : 'error';
      page.answer.showMessage(message.message, tone);
      if (message.phase === 'sending') return;
      // Accepted: the agent will try; wait for it to resolve. Anything else: the user may try again.
      page.answer.setBusy(message.phase === 'accepted');
      if (message.fieldId) page.answer.markField(message.fieldId, message.message);
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
