/**
 * The user-timing measure (`performance.measure`) of the components' warm-up
 * in webview/toolkit.ts. In a file of its own, free of the DOM and the
 * toolkit, so that bench/formRender.ts (in Node) can name it too.
 */
export const WARM_MEASURE = 'aep-attention:warm-components';
