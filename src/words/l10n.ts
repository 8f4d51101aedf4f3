// The one way the extension words a message: `l10n.t` of '@vscode/l10n'
// (`import * as l10n from '@vscode/l10n'`), in every host file, the shared
// words and the page alike. Not `vscode.l10n.t`: the words of describe.ts,
// outcomeMessages.ts and the like run (and are tested) in plain Node. Not a
// `t` of our own: `npm run l10n:export` finds only `l10n.t(...)` on that
// import. Activation hands over the bundle VS Code loaded for the display
// language (`vscode.l10n.bundle`, keyed by the English message, the keys of
// l10n/bundle.l10n.json); without one, the English is used as written.
import * as l10n from '@vscode/l10n';

export type StringBundle = Record<string, string>;

/** Call once at activation, before any sentence is built. */
export function configureHostStrings(bundle: StringBundle | undefined): void {
  l10n.config({ contents: bundle ?? {} });
}
