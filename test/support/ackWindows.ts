// Ack windows the tests declare for their agents.

/**
 * For a test whose steps must happen inside the window (a second try refused while the answer is
 * in flight, an ack or a re-ack that must arrive before the window ends): room for a busy machine's
 * round trips. A test that only waits for the timeout uses the protocol's smallest (MIN_ACK_WINDOW_MS, 1 s).
 */
export const ROOMY_ACK_WINDOW_MS = 4_000;
