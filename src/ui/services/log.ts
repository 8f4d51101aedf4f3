import * as vscode from 'vscode';
import { lineLogger, type Logger } from '../../base/logger';

/**
 * One `LogOutputChannel` for the extension; each component logs through a
 * tagged view of it ("[client] connecting …"), so a log reads by component;
 * lineLogger keeps each message one line, whatever agent text it quotes.
 * Callers never pass tokens or the free text of answers.
 */
export class ExtensionLog implements vscode.Disposable {
  readonly channel: vscode.LogOutputChannel;

  constructor() {
    this.channel = vscode.window.createOutputChannel('AEP Attention', { log: true });
  }

  for(component: string): Logger {
    return lineLogger(component, this.channel);
  }

  show(): void {
    this.channel.show(true);
  }

  dispose(): void {
    this.channel.dispose();
  }
}
