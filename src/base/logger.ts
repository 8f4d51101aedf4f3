/**
 * The logging surface the protocol core writes to. The VS Code layer passes a
 * `LogOutputChannel`; tests pass a recorder. Nothing here ever logs a token.
 */
export interface Logger {
  trace(message: string): void;
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export const silentLogger: Logger = {
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

/**
 * What a log line may not carry raw: C0 and C1 controls (line breaks, ANSI
 * escapes), DEL, the Unicode line and paragraph separators, bidi controls
 * (Trojan Source) and lone surrogates. Agent and hub text reaches log lines
 * (names, nack details, problems), and a newline in it would forge a line.
 */
const UNSAFE_IN_LOG = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const SHORT_ESCAPES: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** `message` as one log line: every character UNSAFE_IN_LOG names is written as its escape (`\n`, `\u001b`), so it stays readable and cannot act. */
export function logLine(message: string): string {
  return message.replace(UNSAFE_IN_LOG, (c) => SHORT_ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * The one way a log is written: each message tagged with its component
 * ("[client] …") and made one line by `logLine`, so no caller has to
 * remember to filter the agent or hub text it quotes.
 */
export function lineLogger(component: string, sink: Logger): Logger {
  const line = (message: string) => logLine(`[${component}] ${message}`);
  return {
    trace: (message) => sink.trace(line(message)),
    debug: (message) => sink.debug(line(message)),
    info: (message) => sink.info(line(message)),
    warn: (message) => sink.warn(line(message)),
    error: (message) => sink.error(line(message)),
  };
}

/** An error in one log line, bounded: the message of a failed write can quote the value. */
export function describeError(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
