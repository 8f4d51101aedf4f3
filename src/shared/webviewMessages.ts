import * as z from 'zod/mini';
import { answerSchema, fieldSpecSchema, KNOWN_KINDS } from '../aep/attention';
import { TEXT_HONESTIES } from '../aep/labels';
import { CAPTURE_LEVELS, SEVERITIES } from '../aep/levels';
import { REACHABILITY_STATES } from '../aep/reachability';
import { ATTENTION_STATUSES } from '../aep/requestStatus';
import { contextViewSchema } from './contextView';
import { pageBeforeAskingSchema } from './beforeAsking';

// The one message protocol between the extension host and the request
// webview. Both sides import this module and validate every message they
// receive with these schemas: the webview is a separate, less trusted
// context, and everything agent-authored in it is rendered as text.

const honestText = z.object({ text: z.string(), honesty: z.enum(TEXT_HONESTIES) });
export type PageText = z.infer<typeof honestText>;

const pageChoice = z.object({ id: z.string(), label: honestText });

/**
 * One form field: the spec the host parsed, which the page validates answers
 * with as the host will, and beside it the spec's label and choice labels
 * tagged with what they really are at the request's capture (`choices` is
 * empty unless the field is a select).
 */
export const pageFieldSchema = z.object({
  spec: fieldSpecSchema,
  label: honestText,
  choices: z.array(pageChoice),
});
export type PageField = z.infer<typeof pageFieldSchema>;

const pageReachability = z.object({
  state: z.enum(REACHABILITY_STATES),
  detail: z.optional(z.string()),
});
export type PageReachability = z.infer<typeof pageReachability>;

/**
 * What the agent recorded of the request (`attention.answered`, AEP-0002 §5.3: what it applied), against what
 * was sent from here, as src/inbox/recordedAnswer.ts decides it: `none` recorded, ours `as-sent`, ours but it
 * `differs` (`answer` and `via` are the recorded ones), ours with text that cannot be compared (`unconfirmed`),
 * or someone else's (`elsewhere`: its cause is no command of ours).
 * `endedBy`: whom the agent's `attention.resolved` is cause-linked to. Agent text, shown as text.
 */
export const RECORDED_VERDICTS = ['none', 'as-sent', 'differs', 'unconfirmed', 'elsewhere'] as const;
export const pageRecordedSchema = z.object({
  verdict: z.enum(RECORDED_VERDICTS),
  answer: z.optional(answerSchema),
  via: z.optional(z.string()),
  by: z.optional(z.string()),
  endedBy: z.optional(z.string()),
});
export type PageRecorded = z.infer<typeof pageRecordedSchema>;

export const pageRequestSchema = z.object({
  key: z.string(),
  requestId: z.string(),
  agent: z.string(),
  session: z.string(),
  source: z.string(),
  host: z.optional(z.string()),
  /** The hub the request came through, named when the window has several (its answer goes back through it). */
  hub: z.optional(z.string()),
  kind: z.string(),
  renderKind: z.enum(KNOWN_KINDS),
  severity: z.enum(SEVERITIES),
  capture: z.enum(CAPTURE_LEVELS),
  /** Local clock when the request arrived (epoch ms). */
  receivedAt: z.number(),
  expiresAt: z.optional(z.number()),
  prompt: honestText,
  options: z.array(pageChoice),
  fields: z.array(pageFieldSchema),
  answerableHere: z.boolean(),
  respondVia: z.optional(z.array(z.string())),
  status: z.enum(ATTENTION_STATUSES),
  resolution: z.optional(z.string()),
  recorded: z.optional(pageRecordedSchema),
  /** The `context` the agent attached (AEP-0002 §5.3), as rows (contextView.ts); only at capture `full`, the one level it may come at. */
  context: z.optional(contextViewSchema),
  /** The agent attached `context` at a capture below `full`: it is not shown, and the page says so. */
  contextWithheld: z.optional(z.boolean()),
  /** What the session did just before it asked (beforeAsking.ts); absent when the person turned it off. */
  beforeAsking: z.optional(pageBeforeAskingSchema),
  /** Set when the request could not be read; nothing else is rendered but provenance. */
  problem: z.optional(z.string()),
  /**
   * Set beside `problem` when nothing is wrong with the request: its content was withheld at capture `none`
   * (src/aep/withheldRequest.ts), by this window's own ceiling setting (`own-ceiling`: the page offers the settings) or before.
   */
  withheld: z.optional(z.enum(['own-ceiling', 'upstream'])),
  reachability: pageReachability,
  /** The user's home directory, so the page runs the redaction pipeline (AEP-0003 §9.4 rule c) as the host will. */
  home: z.optional(z.string()),
  /** The values the user lists as always secret (rule b): in the page's memory only, for the same preview. */
  secretValues: z.optional(z.array(z.string())),
});
export type PageRequest = z.infer<typeof pageRequestSchema>;

/**
 * Which render of the page a message is about: the request it showed (its
 * key) and the generation the host gave that render (`init.generation`). A
 * preview page is reused for another request, and a page renders again on a
 * handed-over draft, while a click on what it showed before may still be on
 * its way: the host acts only on a message about what the page shows now.
 */
const pageRenderShape = {
  key: z.string().check(z.minLength(1)),
  generation: z.number().check(z.int(), z.positive()),
};
export type PageRender = { key: string; generation: number };

/** Messages the webview sends to the host. */
export const webviewToHostSchema = z.discriminatedUnion('type', [
  /**
   * The webview's script has loaded and can receive `init` (ready handshake).
   * `shows`: the render the host put in the page's HTML, which the page drew
   * at once, without waiting for an `init` (src/app/page/webviewHtml.ts).
   */
  z.object({ type: z.literal('ready'), shows: z.optional(z.object(pageRenderShape)) }),
  /**
   * The user sent an answer; `submitId` correlates the outcome. `verbatim`:
   * the user chose to send text the redaction pipeline would change as typed,
   * at capture `full` (AEP-0004 §5); without it the host refuses such text.
   */
  z.object({ type: z.literal('submit'), submitId: z.string().check(z.minLength(1), z.maxLength(64)), answer: answerSchema, verbatim: z.optional(z.boolean()), ...pageRenderShape }),
  z.object({ type: z.literal('showLog') }),
  /**
   * The person typed in the page, or sent from it: it is theirs now, and the
   * next Open of another request takes a page of its own instead of this one
   * (a preview page is reused, as VS Code reuses a preview editor).
   */
  z.object({ type: z.literal('pin'), ...pageRenderShape }),
  /** The hub is watch-only: the person asked to set its token (nothing else is sent). */
  z.object({ type: z.literal('setToken'), ...pageRenderShape }),
  /** The request's content is withheld by this window's capture ceiling: the person asked to open that setting. */
  z.object({ type: z.literal('openSettings'), ...pageRenderShape }),
  /** Send the timed-out answer `submitId` again, as the same command (AEP-0004 §2.3: same id, so the agent dedupes). */
  z.object({ type: z.literal('retry'), submitId: z.string().check(z.minLength(1), z.maxLength(64)), ...pageRenderShape }),
]);
export type WebviewToHost = z.infer<typeof webviewToHostSchema>;

/** A message about the request the page shows (all but `ready` and `showLog`): it names its render. */
export type RequestMessage = Extract<WebviewToHost, PageRender>;
/** Such a message as the page composes it, before it is stamped with the render it was composed on. */
export type RequestMessageBody = RequestMessage extends infer M ? (M extends RequestMessage ? Omit<M, keyof PageRender> : never) : never;

/** Whether the page's message is about a request (and so names a render the host must still show). */
export function isRequestMessage(message: WebviewToHost): message is RequestMessage {
  return 'generation' in message;
}

/** `awaiting-ack`: the client stopped before the agent's ack; the same command goes out again when connected. */
export const OUTCOME_PHASES = ['sending', 'queued', 'awaiting-ack', 'accepted', 'rejected', 'refused', 'timeout', 'cancelled'] as const;

const draftValue = z.union([z.string(), z.boolean(), z.array(z.string())]);

/** The user's unsent input, field by field (each as its control holds it), and the free-text reply. */
const draftShape = {
  fields: z.optional(z.record(z.string(), z.object({ value: z.optional(draftValue), other: z.optional(z.string()) }))),
  reply: z.optional(z.string()),
};

/**
 * What the page keeps with `setState`: the request it shows (so a restored
 * panel finds its request again after a window reload) and the user's
 * unsent input, field by field. Read back through this schema on both sides,
 * since a state saved by an older version may have any shape.
 */
export const webviewStateSchema = z.object({ key: z.string(), ...draftShape });
export type WebviewState = z.infer<typeof webviewStateSchema>;
export type FieldDraft = NonNullable<WebviewState['fields']>[string];

/** Unsent input without the request key: what the quick input hands the page (`init.draft`). */
export const pageDraftSchema = z.object(draftShape);
export type PageDraft = z.infer<typeof pageDraftSchema>;

/**
 * A select's "Other…" entry as its control holds it in a draft (webview/fields.ts
 * uses this same value): NUL cannot be a choice id an agent meant to send.
 */
export const OTHER_CHOICE_DRAFT = '\u0000other';

/** Messages the host sends to the webview. */
export const hostToWebviewSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('init'),
    request: pageRequestSchema,
    /**
     * This render's number, new on every `init` of every page of the window;
     * the page names it, with the request's key, in every message about the
     * request (PageRender), so the host can tell a click on what it showed before.
     */
    generation: pageRenderShape.generation,
    now: z.number(),
    /** The extension's loaded bundle for the display language (`vscode.l10n.bundle`), keyed by the English message; absent in English. */
    l10n: z.optional(z.record(z.string(), z.string())),
    /**
     * A partial answer typed in the quick input (issue 15: left with Escape or
     * "Open as page"), handed over once. It was typed after anything the page
     * saved with `setState`, so the page puts it on top of its own draft.
     */
    draft: z.optional(pageDraftSchema),
    /**
     * Set when the page shows an entry of the answer history (issue 16): read-only,
     * nothing can be sent from it. `sent` is the answer as the history keeps it
     * (masked); `accepted`: the agent accepted it, so an answer is ours; `note` and
     * `lines` (every outcome, with its time) are worded by the host.
     */
    history: z.optional(z.object({ sent: z.optional(answerSchema), accepted: z.boolean(), note: z.optional(z.string()), lines: z.array(z.string()) })),
  }),
  /** Lifecycle and reachability changes while the panel is open. */
  z.object({
    type: z.literal('update'),
    status: z.enum(ATTENTION_STATUSES),
    /** The values the page masks with now: they may have changed since `init` (a hub's token read after a reload restored the page). */
    secretValues: z.optional(z.array(z.string())),
    resolution: z.optional(z.string()),
    recorded: z.optional(pageRecordedSchema),
    reachability: pageReachability,
    now: z.number(),
  }),
  /** What became of a submitted answer. */
  z.object({
    type: z.literal('outcome'),
    submitId: z.string(),
    phase: z.enum(OUTCOME_PHASES),
    message: z.string(),
    /** Field-level problems when the agent refused the answer as invalid and named a field. */
    fieldId: z.optional(z.string()),
    /** After a timeout: the same command can be sent again (`retry`). */
    canRetry: z.optional(z.boolean()),
  }),
]);

export type HostToWebview = z.infer<typeof hostToWebviewSchema>;
/** The id of the inert element of the page's HTML that holds its first render, an `init` as JSON (src/app/page/webviewHtml.ts). */
export const PAGE_INIT_ELEMENT = 'page-init';

/** An `init` as a page's owner builds it: the page host (src/app/page/pageHost.ts) gives it its generation. */
export type PageInit = Omit<Extract<HostToWebview, { type: 'init' }>, 'generation'>;
