import { z } from 'zod';

// The one message protocol between the extension host and a webview. Both
// sides import this module and validate every message they receive: a webview
// is a separate, less trusted context, and the host is a separate process
// from the webview's point of view.

/** Messages the webview sends to the host. */
export const webviewToHostSchema = z.discriminatedUnion('type', [
  /** The webview's script has loaded and can receive `init`. */
  z.object({ type: z.literal('ready') }),
]);
export type WebviewToHost = z.infer<typeof webviewToHostSchema>;

/** Messages the host sends to the webview. */
export const hostToWebviewSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('init'),
    /** Plain text; the webview renders it with textContent, never as HTML. */
    title: z.string(),
  }),
]);
export type HostToWebview = z.infer<typeof hostToWebviewSchema>;
