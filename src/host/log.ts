import * as vscode from 'vscode';
import type { Logger } from '../aep/client/logger';

/**
 * One `LogOutputChannel` for the extension; each component logs through a
 * tagged view of it ("[client] connecting …"), so a log reads by component.
 * Callers never pass tokens or the free text of answers.
 */
export class ExtensionLog implements vscode.Disposable {
  readonly channel: vscode.LogOutputChannel;

  constructor() {
    this.channel = vscode.window.createOutputChannel('AEP Attention', { log: true });
  }

  for(component: string): Logger {
    const tag = (message: string) => `[${component}] ${message}`;
    return {
      trace: (message) => this.channel.trace(tag(message)),
      debug: (message) => this.channel.debug(tag(message)),
      info: (message) => this.channel.info(tag(message)),
      warn: (message) => this.channel.warn(tag(message)),
      error: (message) => this.channel.error(tag(message)),
    };
  }

  show(): void {
    this.channel.show(true);
  }

  dispose(): void {
    this.channel.dispose();
  }
}
