import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { webviewHtml } from './webviewHtml';

// The request page's webview, as the live request panel (requestPanel.ts) and
// the answer history's read-only page (historyPanel.ts) both load it.

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

/** The page's HTML for `webview`, with a fresh nonce. */
export function requestPageHtml(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  const roots = pageRoots(extensionUri);
  return webviewHtml({
    cspSource: webview.cspSource,
    scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(roots.script, 'webview.js')).toString(),
    styleUri: webview.asWebviewUri(vscode.Uri.joinPath(roots.style, 'form.css')).toString(),
    nonce: nonce(),
    lang: vscode.env.language,
    title: vscode.l10n.t('AEP request'),
    loading: vscode.l10n.t('Loading the request…'),
  });
}
