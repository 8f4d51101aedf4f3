import { OPEN_REQUEST_COMMAND } from '../inbox/inboxView';
import { STATUS_COMMAND } from '../status/statusBar';
import { SET_TOKEN_COMMAND } from '../hubs/setHubToken';

export const COMMANDS = {
  connect: 'aepAttention.connect',
  disconnect: 'aepAttention.disconnect',
  reconnect: 'aepAttention.reconnect',
  setToken: SET_TOKEN_COMMAND,
  clearToken: 'aepAttention.clearToken',
  addAlwaysSecret: 'aepAttention.addAlwaysSecret',
  clearAlwaysSecrets: 'aepAttention.clearAlwaysSecrets',
  showInbox: 'aepAttention.showInbox',
  answerNext: 'aepAttention.answerNext',
  answerSimilar: 'aepAttention.answerSimilar',
  answerInline: 'aepAttention.answerInline',
  /** While an inline answer shows: leave it for the request's page with what was typed (a keybinding, package.json). */
  openInlineAsPage: 'aepAttention.openInlineAsPage',
  openRequest: OPEN_REQUEST_COMMAND,
  dismissRequest: 'aepAttention.dismissRequest',
  showLog: 'aepAttention.showLog',
  openSettings: 'aepAttention.openSettings',
  status: STATUS_COMMAND,
} as const;

/** Registers one command of a group; commands.ts makes it (each command waits for the always-secret values) and owns what it registers. */
export type RegisterCommand = (id: string, run: (...args: unknown[]) => unknown) => void;
