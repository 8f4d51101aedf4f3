import { formatLogLine, type LogCode, type Logger, type LogLevel, type LogNote } from '../../src/base/logger';

/** One line as it was logged: what tests compare (the level and the code, the data it names), never the sentence. */
export interface LogEntry {
  readonly level: LogLevel;
  /** Set when the line was logged through `for(component)`, as the extension's log tags it. */
  readonly component?: string;
  readonly code?: LogCode;
  readonly message: string;
  readonly data: Readonly<Record<string, string | number | boolean>>;
}

/** What to match: a level, a code, a component, or any of them together. */
export interface LogQuery {
  level?: LogLevel;
  code?: LogCode;
  component?: string;
}

/**
 * A logger that keeps every entry, for assertions, and every line as the
 * extension's log would write it, for the checks about text on purpose (no
 * token, no secret) and for reading a failed test. Also a `ComponentLog`:
 * `for(component)` logs into the same record, tagged.
 */
export class RecordingLogger implements Logger {
  constructor(private readonly component?: string, readonly entries: LogEntry[] = []) {}

  trace = (message: string, note?: LogNote) => this.record('trace', message, note);
  debug = (message: string, note?: LogNote) => this.record('debug', message, note);
  info = (message: string, note?: LogNote) => this.record('info', message, note);
  warn = (message: string, note?: LogNote) => this.record('warn', message, note);
  error = (message: string, note?: LogNote) => this.record('error', message, note);

  /** The same record, each entry tagged with `component` (as `ExtensionLog.for` tags its lines). */
  for(component: string): RecordingLogger {
    return new RecordingLogger(component, this.entries);
  }

  /** Every line as the log would hold it: "warn [client] connection-lost: …". For diagnostics and for checks about the text itself. */
  get lines(): string[] {
    return this.entries.map((entry) => `${entry.level} ${formatLogLine(entry.component, entry.message, entry.code)}`);
  }

  /** The entries that match every part of `query`. */
  find(query: LogQuery): LogEntry[] {
    return this.entries.filter((entry) =>
      (query.level === undefined || entry.level === query.level) &&
      (query.code === undefined || entry.code === query.code) &&
      (query.component === undefined || entry.component === query.component));
  }

  /** Whether a line at `level` with `code` was logged. */
  has(level: LogLevel, code: LogCode): boolean {
    return this.find({ level, code }).length > 0;
  }

  /** How many lines at `level` with `code` were logged. */
  count(level: LogLevel, code: LogCode): number {
    return this.find({ level, code }).length;
  }

  /** The data of each line at `level` with `code`, in order: the ids and counts a test compares as values. */
  dataOf(level: LogLevel, code: LogCode): Array<LogEntry['data']> {
    return this.find({ level, code }).map((entry) => entry.data);
  }

  /** "level code" of each coded entry (at `levels`, when given), in order: a compact shape to `deepEqual`. */
  codes(...levels: LogLevel[]): string[] {
    return this.entries
      .filter((entry) => entry.code !== undefined && (levels.length === 0 || levels.includes(entry.level)))
      .map((entry) => `${entry.level} ${entry.code ?? ''}`);
  }

  /** The levels logged, in order, coded or not. */
  levels(): LogLevel[] {
    return this.entries.map((entry) => entry.level);
  }

  private record(level: LogLevel, message: string, note: LogNote | undefined): void {
    this.entries.push({
      level,
      ...(this.component === undefined ? {} : { component: this.component }),
      ...(note === undefined ? {} : { code: note.code }),
      message,
      data: note?.data ?? {},
    });
  }
}
