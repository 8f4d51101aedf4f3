import * as vscode from 'vscode';

/** The command that stores a hub's token (commands/tokenCommands.ts). */
export const SET_TOKEN_COMMAND = 'aepAttention.setToken';

/** Asks for the token of the hub `hubId` names, as the inbox row's "Set Hub Token" does (`{ hub: { id } }`, app/hubs/commandTargets.ts hubFrom). */
export function setHubToken(hubId: string): Thenable<unknown> {
  return vscode.commands.executeCommand(SET_TOKEN_COMMAND, { hub: { id: hubId } });
}
