/** What the request page is built from; kept free of `vscode` so tests can serve the very same page. */
export interface WebviewPage {
  /** The webview's resource origin (`webview.cspSource`). */
  cspSource: string;
  scriptUri: string;
  styleUri: string;
  nonce: string;
  lang: string;
  title: string;
  loading: string;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The request page: a strict CSP from `default-src 'none'` (no remote
 * content, no inline script, no eval), one nonce'd script and stylesheet.
 * The `csp-nonce` meta lets the component library's feature probe (a
 * `<style>` it adds for a moment) carry the nonce instead of being blocked.
 */
export function webviewHtml(page: WebviewPage): string {
  const csp = [
    "default-src 'none'",
    `style-src ${page.cspSource} 'nonce-${page.nonce}'`,
    `font-src ${page.cspSource}`,
    `img-src ${page.cspSource}`,
    `script-src 'nonce-${page.nonce}'`,
    // Not covered by default-src: without these an injected <base> or <form> could redirect.
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="${escapeHtml(page.lang)}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<meta property="csp-nonce" content="${page.nonce}">
<link rel="stylesheet" href="${escapeHtml(page.styleUri)}" nonce="${page.nonce}">
<title>${escapeHtml(page.title)}</title>
</head>
<body>
<main id="app" aria-live="polite"><p class="loading">${escapeHtml(page.loading)}</p></main>
<script nonce="${page.nonce}" src="${escapeHtml(page.scriptUri)}"></script>
</body>
</html>`;
}
