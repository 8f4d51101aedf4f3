// Which credentials a text holds, by name ("GitHub token", "password
// assignment"), so the request page can say what it found before an answer
// goes out. Built on the secret rules of the AEP-0003 §9.4 pipeline
// (secretRules.ts, rule a), one list for both: the pipeline replaces every
// match, even `token: none`, as the floor requires; the detector names only
// matches that look like a real secret (length and character mix), so
// placeholders and prose are not called credentials.
import { redactText, type Replacement } from './redaction';
import type { CredentialKind } from './secretRules';

export { CREDENTIAL_KINDS, type CredentialKind } from './secretRules';

/** A replacement of the pipeline that is a credential worth naming. */
export function isCredential(replacement: Replacement): replacement is Replacement & { kind: CredentialKind } {
  return (replacement.rule === 'secret' || replacement.rule === 'configured') && replacement.confident === true && replacement.kind !== undefined;
}

/** Every kind of credential in the replacements, once each, in the order they appear. */
export function credentialKinds(replacements: readonly Replacement[]): CredentialKind[] {
  return [...new Set(replacements.filter(isCredential).map((r) => r.kind))];
}

/** Every kind of credential `text` seems to hold, once each, in order. */
export function credentialsIn(text: string): CredentialKind[] {
  // PII and paths play no part in this question.
  return credentialKinds(redactText(text, { pii: false }).replacements);
}

/** The first kind of credential `text` seems to hold, or undefined. */
export function credentialIn(text: string): CredentialKind | undefined {
  return credentialsIn(text)[0];
}

/**
 * Field ids and labels that say the field wants a secret: its answer is
 * confirmed even when the pipeline changes nothing, on the request page and in
 * the quick input alike.
 */
export const SECRET_FIELD_NAME = /passw(?:or)?d|passwd|passphrase|secret|token|api[\s_-]?key|credential/i;
