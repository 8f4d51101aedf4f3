// Host strings outside the `vscode` module: describe.ts and outcomeMessages.ts
// word their sentences with `t`, so they run (and are tested) in plain Node.
// Activation hands over the bundle VS Code loaded for the display language
// (`vscode.l10n.bundle`), keyed by the English message as `vscode.l10n.t` is;
// without one, the English is used as written.
import * as l10n from '@vscode/l10n';

export type StringBundle = Record<string, string>;

/** Call once at activation, before any sentence is built. */
export function configureHostStrings(bundle: StringBundle | undefined): void {
  l10n.config({ contents: bundle ?? {} });
}

/** A whole message, English as written, with `{0}`, `{1}`… replaced by `args`. */
export function t(message: string, ...args: Array<string | number>): string {
  return l10n.t(message, ...args);
}
