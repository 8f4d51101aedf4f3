import * as l10n from '@vscode/l10n';
import { describeBytes } from '../base/byteSize';
import { describeDuration, type ConnectionFailure, type LostReason } from '../client/connectionFailure';
import type { AddressProblem } from '../client/hubEndpoint';
import type { FilterProblem } from '../client/userFilter';
import { piece, PIECES } from './untrustedText';
import type { LazyPart } from '../base/onFirstNeed';

/**
 * A refused or missing token, as a question: the failure notification asks it
 * with its "Enter Token…" button beside it, instead of naming a command to run.
 */
export function askForToken(failure: ConnectionFailure): string | undefined {
  if (failure.code === 'token-refused') return l10n.t('the hub refused the token (HTTP {0}). Enter the right one?', failure.httpStatus);
  if (failure.code === 'token-missing') return l10n.t('the hub requires a token (HTTP {0}). Enter it?', failure.httpStatus);
  return undefined;
}

/**
 * Why the hub cannot be used, in the user's language, with the fix. The
 * hub's version list is hub-authored and enters as a capped, inert piece;
 * the setting problems are the core's own words (not yet localized).
 */
export function describeFailure(failure: ConnectionFailure): string {
  switch (failure.code) {
    case 'token-refused':
      return l10n.t('the hub refused the token (HTTP {0}). Set the right one with "AEP Attention: Set Hub Token".', failure.httpStatus);
    case 'token-missing':
      return l10n.t('the hub requires a token (HTTP {0}). Set it with "AEP Attention: Set Hub Token".', failure.httpStatus);
    case 'version-unsupported':
      return failure.hubVersions.length > 0
        ? l10n.t('the hub speaks AEP {0}, but this extension speaks {1}.', piece(failure.hubVersions.join(', '), PIECES.detail), failure.ours)
        : l10n.t('the hub does not speak AEP {0}.', failure.ours);
    case 'hello-not-received':
      return l10n.t('the hub says it never received this window\'s hello: the extension and the hub do not agree on the protocol. Show Log has the details.');
    case 'bad-address':
      return describeAddressProblem(failure.address);
    case 'bad-filter':
      return describeFilterProblem(failure.filter);
    case 'client-not-loaded':
      return l10n.t('the connection\'s code did not load. Retry, or reload the window; Show Log has the reason.');
  }
}

/** Why the hub was lost (the client is retrying), in the user's language. Hub-authored parts enter as capped, inert pieces. */
export function describeLost(lost: LostReason): string {
  switch (lost.code) {
    case 'nothing-listening':
      return l10n.t('nothing is listening at the hub address (connection refused)');
    case 'host-not-found':
      return l10n.t('the hub host name does not resolve');
    case 'reset':
      return l10n.t('the connection was reset');
    case 'timed-out':
      return l10n.t('the connection timed out');
    case 'closed':
      return lost.reason
        ? l10n.t('the connection closed ({0}: {1})', lost.wsCode, piece(lost.reason, PIECES.detail))
        : l10n.t('the connection closed ({0})', lost.wsCode);
    case 'ours-too-large':
      return l10n.t('the hub closed the connection because a message from this window was larger than it accepts (WebSocket 1009); a very long answer may need to be shorter');
    case 'frame-too-large':
      return l10n.t(
        'the hub sent a message larger than {0}, the most AEP Attention accepts, so the connection was closed (WebSocket 1009). If this repeats after reconnecting, an agent is sending events that large and needs to send smaller ones',
        describeBytes(lost.limitBytes),
      );
    case 'http-status':
      return l10n.t('the hub answered HTTP {0} instead of opening the socket', lost.httpStatus);
    case 'silent':
      return l10n.t('the hub has been silent for more than {0} s', lost.seconds);
    case 'fell-behind':
      return l10n.t('this window fell {0} messages behind the hub; reconnecting to resume', lost.messages);
    case 'no-hello':
      return l10n.t('the hub did not answer hello');
    case 'subscription-unconfirmed':
      return l10n.t('the hub accepted the connection but never confirmed the subscription within {0}; check that the hub is an AEP 0.1 hub and look at its log', describeDuration(lost.afterMs));
    case 'subscription-refused':
      return lost.detail
        ? l10n.t('the hub refused the subscription ({0}): {1}', piece(lost.hubCode, PIECES.kind), piece(lost.detail, PIECES.detail))
        : l10n.t('the hub refused the subscription ({0})', piece(lost.hubCode, PIECES.kind));
    case 'socket-error':
      return lost.message;
  }
}

export function describeAddressProblem(problem: AddressProblem | undefined): string {
  switch (problem?.code) {
    case undefined:
      return l10n.t('no hub is configured: set aepAttention.hubUrl.');
    case 'not-a-url':
      return l10n.t('aepAttention.hubUrl is not a URL; use the hub\'s address, e.g. http://127.0.0.1:8787.');
    case 'unsupported-scheme':
      return l10n.t('aepAttention.hubUrl must start with http://, https://, ws:// or wss://, not {0}//.', piece(problem.scheme, PIECES.kind));
    case 'token-in-url':
      return l10n.t('aepAttention.hubUrl must not carry a token or credentials: URLs end up in logs and settings. Use "AEP Attention: Set Hub Token".');
    case 'insecure-remote':
      return l10n.t(
        'refusing unencrypted {0}// to {1}: AEP requires TLS off this machine (AEP-0003 §8.1). Use https:// (or wss://), or set aepAttention.allowInsecureRemote if you accept the risk.',
        piece(problem.scheme, PIECES.kind),
        piece(problem.host, PIECES.source),
      );
  }
}

function describeFilterProblem(problem: FilterProblem): string {
  switch (problem.code) {
    case 'invalid':
      // attr-match's own words: the same sentence a hub sends with invalid-filter (not yet localized).
      return l10n.t('aepAttention.filter is not a valid attr-match filter: {0}', problem.detail);
    case 'matches-nothing':
      return l10n.t('aepAttention.filter can match no event: {0}', problem.detail);
    case 'names-type':
      return l10n.t('aepAttention.filter may not name `type`: the extension chooses the event types it needs. Narrow by agent, session or source instead.');
    case 'names-severity':
      return l10n.t('aepAttention.filter may not name `severity`: use aepAttention.notifications and aepAttention.notificationMinSeverity to choose what notifies you.');
  }
}

/** A part of the extension that is loaded when first needed could not be (onFirstNeed.ts): what did not happen, and where the reason is. */
export function partNotLoaded(part: LazyPart): string {
  switch (part) {
    case 'request-pages':
      return l10n.t('The request page could not be opened: its code did not load. Show Log has the reason; reloading the window may help.');
    case 'history-pages':
      return l10n.t('The history page could not be opened: its code did not load. Show Log has the reason; reloading the window may help.');
    case 'answer-similar':
      return l10n.t('Answer Similar Requests could not start: its code did not load. Show Log has the reason; reloading the window may help.');
    case 'quick-input':
      return l10n.t('The quick input could not open: its code did not load. Show Log has the reason; reloading the window may help.');
    case 'os-notifications':
      return l10n.t('System notifications and the sound could not start: their code did not load. Show Log has the reason; reloading the window may help.');
    case 'hub-client':
      return l10n.t('Connecting to the hub could not start: its code did not load. Show Log has the reason; reloading the window may help.');
    case 'history-export':
      return l10n.t('The history could not be exported: the export\'s code did not load. Show Log has the reason; reloading the window may help.');
  }
}
