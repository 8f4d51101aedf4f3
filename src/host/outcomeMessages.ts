import * as vscode from 'vscode';
import type { SendOutcome } from '../aep/client/controlSender';

const HUB_CODES: Record<string, string> = {
  'no-route': 'no agent connected to the hub owns that session right now',
  ambiguous: 'more than one agent claims that session, so the hub will not guess',
  unsupported: 'that agent does not accept answers through the hub',
  unauthorized: 'the hub does not allow this client to send answers (watch-only hub, or a token without that right)',
};

/** One sentence for what became of an answer, for notifications and the form. */
export function describeOutcome(outcome: SendOutcome, agent: string): { ok: boolean; message: string } {
  switch (outcome.kind) {
    case 'accepted':
      return { ok: true, message: vscode.l10n.t('{0} accepted the answer.', agent) };
    case 'rejected':
      return {
        ok: false,
        message:
          outcome.reason === 'invalid'
            ? vscode.l10n.t('{0} refused the answer as invalid{1}. The request is still open: fix the answer and send again.', agent, outcome.detail ? `: ${outcome.detail}` : '')
            : vscode.l10n.t('{0} refused the answer ({1}){2}.', agent, outcome.reason, outcome.detail ? `: ${outcome.detail}` : ''),
      };
    case 'refused-by-hub': {
      const why = HUB_CODES[outcome.code];
      return {
        ok: false,
        message: vscode.l10n.t('The hub did not deliver the answer ({0}): {1}.', outcome.code, outcome.detail ?? why ?? outcome.code),
      };
    }
    case 'timeout':
      return {
        ok: false,
        message: vscode.l10n.t('{0} did not acknowledge the answer within {1} s. It may still arrive; the request stays open until the agent resolves it.', agent, Math.round(outcome.afterMs / 1000)),
      };
    case 'cancelled':
      return { ok: false, message: vscode.l10n.t('The answer was not sent: {0}', outcome.reason) };
  }
}
