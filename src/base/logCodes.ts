/**
 * The typed codes of the log lines a person (or a test) looks for: one table,
 * so a code used anywhere is one of these and a typo does not compile. A code
 * names the event, never its wording: the sentence beside it may change, the
 * code may not without a reason. Written into the line after the component
 * ("[client] connection-lost: the hub has been silent …"), so the log can be
 * filtered by it too. Lines nobody needs to find carry none.
 */
export const LOG_CODES = [
  // client: the connection and its subscription
  'subscribing',
  'subscription-refused',
  'ack-subscription-refused',
  'connection-lost',
  'connection-failed',
  'hub-error',
  'replay-gap',
  'roster-ignored',
  'ack-window-clamped',
  // client: how a connection resumes (resumeTracker.ts ResumeNotice, whose codes these are)
  'no-replay-all',
  'left-out',
  'replay-all-cut-short',
  'replay-all-unverifiable',
  // client: answers on the wire and across reloads
  'command-sent',
  'command-dropped',
  'command-restored',
  'ack-misrouted',
  'answer-refused-storage',
  'answer-evicted',
  'answer-text-unkept',
  // storage: every versioned slot
  'storage-read-failed',
  'storage-unreadable',
  'storage-newer-version',
  'storage-newer-kept',
  'storage-entries-skipped',
  'storage-entry-unserializable',
  'storage-trimmed',
  'storage-gather-failed',
  'storage-write-failed',
  // the window's stores over the slots
  'positions-trimmed',
  'requests-restored',
  'history-remasked',
  'secret-values-unreadable',
  'hub-token-short',
  // the pages
  'page-message-invalid',
  'page-message-stale',
  'page-message-malformed',
  'page-message-read-only',
  // the parts loaded when first needed (onFirstNeed.ts)
  'part-load-failed',
  // system notifications across windows (noticeClaims.ts): another window gives this request's
  'os-notice-elsewhere',
] as const;

export type LogCode = (typeof LOG_CODES)[number];
