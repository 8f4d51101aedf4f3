import * as vscode from 'vscode';

// Activation stays cheap: a log channel and a command. Connecting to a hub
// arrives with the client and settings (later work) and only when configured.
export function activate(context: vscode.ExtensionContext): void {
  const log = vscode.window.createOutputChannel('AEP Attention', { log: true });
  context.subscriptions.push(
    log,
    vscode.commands.registerCommand('aepAttention.showLog', () => log.show()),
  );
  log.info('activated');
}

export function deactivate(): void {
  // Everything is released through context.subscriptions.
}
