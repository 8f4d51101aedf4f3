import * as l10n from '@vscode/l10n';
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { PageWebview } from '../../app/page/pageHost';
import type { HostToWebview } from '../../shared/webviewMessages';
import { createWebviewPanel } from '../surfaces';
import { webviewHtml } from '../../app/page/webviewHtml';

// The webview panel the page (webview/main.ts) loads in, for the live request
// pages (requestPages.ts) and the answer history's read-only ones
// (historyPages.ts): its options, its HTML, and the panel as a PageHost sees it.

type PageLoad = Extract<HostToWebview, { type: 'init' }>;

/** A nonce per page load, from the platform CSPRNG. */
function nonce(): string {
  return randomBytes(18).toString('base64');
}

/**
 * The page loads its script from dist/webview/ and its stylesheet from
 * media/webview/; those two folders hold nothing else, and they are the only
 * parts of the extension the webview can reach.
 */
function pageRoots(extensionUri: vscode.Uri): { script: vscode.Uri; style: vscode.Uri } {
  return { script: vscode.Uri.joinPath(extensionUri, 'dist', 'webview'), style: vscode.Uri.joinPath(extensionUri, 'media', 'webview') };
}

export function requestPageOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  const { script, style } = pageRoots(extensionUri);
  return { enableScripts: true, localResourceRoots: [script, style] };
}

/** The page's HTML for `webview`, with a fresh nonce, and its first render when given. */
export function requestPageHtml(webview: vscode.Webview, extensionUri: vscode.Uri, init?: PageLoad): string {
  const roots = pageRoots(extensionUri);
  return webviewHtml({
    cspSource: webview.cspSource,
    scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(roots.script, 'webview.js')).toString(),
    styleUri: webview.asWebviewUri(vscode.Uri.joinPath(roots.style, 'form.css')).toString(),
    nonce: nonce(),
    lang: vscode.env.language,
    title: l10n.t('AEP request'),
    loading: l10n.t('Loading the request…'),
    ...(init ? { init } : {}),
  });
}

/**
 * A new panel for the page, empty until its host loads the page into it with
 * its first render (`PageHost.load`). Not retainContextWhenHidden: the page
 * keeps its drafts with setState and is rebuilt on show.
 */
export function createPagePanel(
  viewType: string,
  title: string,
  showOptions: vscode.ViewColumn | { readonly viewColumn: vscode.ViewColumn; readonly preserveFocus?: boolean },
  extensionUri: vscode.Uri,
): vscode.WebviewPanel {
  return createWebviewPanel(viewType, title, showOptions, requestPageOptions(extensionUri));
}

/** A panel VS Code restored after a reload: its options again; its host loads the page afresh. */
export function restoredPanel(panel: vscode.WebviewPanel, extensionUri: vscode.Uri): void {
  panel.webview.options = requestPageOptions(extensionUri);
}

/** The panel as a PageHost sees it. */
export function pageWebview(panel: vscode.WebviewPanel, extensionUri: vscode.Uri): PageWebview {
  return {
    load: (init) => {
      panel.webview.html = requestPageHtml(panel.webview, extensionUri, init);
    },
    postMessage: (message) => void panel.webview.postMessage(message),
    onDidReceiveMessage: (listener) => panel.webview.onDidReceiveMessage(listener),
    get visible() {
      return panel.visible;
    },
    onDidChangeVisible: (listener) => panel.onDidChangeViewState(() => listener()),
    onDidDispose: (listener) => panel.onDidDispose(listener),
    reveal: () => panel.reveal(undefined, false),
    dispose: () => panel.dispose(),
  };
}
