/**
 * The page's user-timing entries (`performance.mark`, `performance.measure`):
 * the moments of its first screen that bench/openFocused.ts reads through the
 * webview's frame to break "Open → focused" into its parts, and the
 * components' warm-up that bench/formRender.ts reads. In a file of their own,
 * free of the DOM and the toolkit, so the benchmarks (in Node) can name them
 * too. A mark is a timestamp in the page's timeline and nothing else: no
 * message, no storage, nothing the page waits for.
 */
export const WARM_MEASURE = 'aep-attention:warm-components';

export const PAGE_MARKS = {
  /** The bundle's first statement runs (fetched and compiled). */
  scriptStart: 'aep:script-start',
  /** Every module the page imports has run (main.ts's own body starts). */
  modulesEvaluated: 'aep:modules-evaluated',
  /** The toolkit's components are defined. */
  componentsRegistered: 'aep:components-registered',
  /** `ready` posted to the host. */
  readyPosted: 'aep:ready-posted',
  /** An `init` reached the page (before it is checked). */
  initReceived: 'aep:init-received',
  /** The first screen is in the DOM (the page's `render` returned). */
  rendered: 'aep:rendered',
  /** The first field (or button) was given focus; `detail.documentFocused` says whether the page's document had focus then. */
  fieldFocused: 'aep:field-focused',
  /** The page's window took focus (the editor focused the webview). */
  windowFocused: 'aep:window-focused',
} as const;
