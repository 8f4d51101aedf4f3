import { PAGE_INIT_ELEMENT } from '../../shared/webviewMessages';

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
  /**
   * The page's first render (an `init`), drawn by the page as soon as its
   * script runs, without the round trip of `ready` and an `init` message.
   * Data, never markup: JSON in an inert script element (see `scriptJson`).
   */
  init?: unknown;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * JSON to go inside a `<script type="application/json">`: every `<`, `>` and
 * `&` written as a JSON escape, so no text in it (an agent's prompt saying
 * `</script>` or `<!--`) can end the element or change how the HTML parser
 * reads it; U+2028 and U+2029 too. The page reads the element's text and
 * parses it as JSON: the same value, checked as any message is.
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * The request page: a strict CSP from `default-src 'none'` (no remote
 * content, no inline script, no eval), one nonce'd script and stylesheet.
 * The page's first render may come with it, as data (`init`).
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
${page.init === undefined ? '' : `<script type="application/json" id="${PAGE_INIT_ELEMENT}">${scriptJson(page.init)}</script>\n`}<script nonce="${page.nonce}" src="${escapeHtml(page.scriptUri)}"></script>
</body>
</html>`;
}
