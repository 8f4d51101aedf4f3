import type { Logger } from '../../src/base/logger';

/** A logger that keeps every line, for assertions (and for reading a failed test). */
export class RecordingLogger implements Logger {
  readonly lines: string[] = [];
  trace = (message: string) => this.lines.push(`trace ${message}`);
  debug = (message: string) => this.lines.push(`debug ${message}`);
  info = (message: string) => this.lines.push(`info ${message}`);
  warn = (message: string) => this.lines.push(`warn ${message}`);
  error = (message: string) => this.lines.push(`error ${message}`);
}
