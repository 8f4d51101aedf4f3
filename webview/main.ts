import { hostToWebviewSchema, type WebviewToHost } from '../src/shared/webviewMessages';
import { registerComponents } from './toolkit';

interface VsCodeApi {
  postMessage(message: WebviewToHost): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
registerComponents();

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const message = hostToWebviewSchema.safeParse(event.data);
  if (!message.success) {
    console.error('AEP Attention: ignored a malformed message from the extension', message.error.issues);
    return;
  }
  if (message.data.type === 'init') {
    const heading = document.getElementById('title');
    if (heading) heading.textContent = message.data.title;
  }
});

vscode.postMessage({ type: 'ready' });
