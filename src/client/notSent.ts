/**
 * Why an answer was not sent (SendOutcome `cancelled`), as a code with what
 * the wording needs: the UI words it in the person's language
 * (src/words/outcomeMessages.ts) and chooses what to offer from the code.
 */
export type NotSentReason =
  /** The hub is watch-only (watchOnly.ts): it refuses every command, so none is sent to it. */
  | { code: 'watch-only' }
  /** The extension stopped before the agent acknowledged it, and nothing keeps it for the next start. */
  | { code: 'client-stopped' }
  /** The command store holds its most (`limit`) unsettled answers already (commandStore.ts). */
  | { code: 'store-full'; limit: 'count'; maxCommands: number }
  | { code: 'store-full'; limit: 'size'; maxKb: number }
  /** This one answer is larger than the store keeps across a reload. */
  | { code: 'too-large-to-keep'; maxKb: number }
  /** The redaction pipeline would change `parts` parts of the text and nobody chose to send it as typed (AEP-0004 §5). */
  | { code: 'would-redact'; parts: number }
  /** "Send Again" of an older command while another to the same request awaits its ack. */
  | { code: 'other-answer-in-flight' }
  /** No client for the hub: not connected. */
  | { code: 'not-connected' }
  /**
   * "Send Again" of a command a newer answer to the same request took the
   * place of: sending the older one again would undo the person's later choice.
   */
  | { code: 'answer-replaced' }
  /** "Send Again" of a command the client no longer holds. */
  | { code: 'cannot-resend' }
  /** The hub the request came through was removed from the settings. */
  | { code: 'hub-removed' };

export type NotSentCode = NotSentReason['code'];
