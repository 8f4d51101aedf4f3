import type { LogCode } from './logCodes';

export type { LogCode } from './logCodes';

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * What a line says beyond its sentence, for whoever looks for the event: its
 * `code` (logCodes.ts), and the values it names that a reader filters on (an
 * id, a count) as `data`. The sentence names them too: `data` is not written
 * into the line a second time.
 */
export interface LogNote {
  readonly code: LogCode;
  readonly data?: Readonly<Record<string, string | number | boolean>>;
}

/**
 * The logging surface the protocol core writes to. The VS Code layer passes a
 * component's `lineLogger` over the `LogOutputChannel`; tests pass a recorder
 * (test/support/recordingLogger.ts). Nothing here ever logs a token.
 */
export interface Logger {
  trace(message: string, note?: LogNote): void;
  debug(message: string, note?: LogNote): void;
  info(message: string, note?: LogNote): void;
  warn(message: string, note?: LogNote): void;
  error(message: string, note?: LogNote): void;
}

/** Where finished lines go: a `LogOutputChannel` is one. */
export type LogSink = Readonly<Record<LogLevel, (line: string) => void>>;

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
 * The text of one log line: the component, the code when there is one, the
 * message ("[client] connection-lost: the hub has been silent …"), made one
 * line by `logLine`.
 */
export function formatLogLine(component: string | undefined, message: string, code?: LogCode): string {
  return logLine(`${component === undefined ? '' : `[${component}] `}${code === undefined ? '' : `${code}: `}${message}`);
}

/**
 * The one way a log is written: each message tagged with its component
 * ("[client] …") and its code, and made one line by `logLine`, so no caller
 * has to remember to filter the agent or hub text it quotes.
 */
export function lineLogger(component: string, sink: LogSink): Logger {
  const at = (level: LogLevel) => (message: string, note?: LogNote) => sink[level](formatLogLine(component, message, note?.code));
  return { trace: at('trace'), debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** An error in one log line, bounded: the message of a failed write can quote the value. */
export function describeError(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
