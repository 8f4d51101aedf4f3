// Free text that looks like a credential. Answers are recorded in the
// session's history (and relayed to every watcher the hub allows), so the
// form asks before sending one. The patterns are the secret class of the
// AEP-0003 §9.4 redaction pipeline (rule a), the floor every adapter
// redacts: what an adapter would have to hide, a person should not send by
// accident.

export type CredentialKind = 'private key' | 'AWS access key' | 'bearer token' | 'password or key assignment' | 'JSON Web Token';

const PATTERNS: ReadonlyArray<{ kind: CredentialKind; pattern: RegExp }> = [
  { kind: 'private key', pattern: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----/ },
  { kind: 'AWS access key', pattern: /\bAKIA[0-9A-Z]{16}\b/ },
  { kind: 'bearer token', pattern: /\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/ },
  { kind: 'password or key assignment', pattern: /\b(password|passwd|secret|api[_-]?key|token)\s*[=:]\s*\S+/i },
  { kind: 'JSON Web Token', pattern: /\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}/ },
];

/** Which kind of credential `text` seems to hold, or undefined. Bounded input keeps the scan linear. */
export function credentialIn(text: string): CredentialKind | undefined {
  const bounded = text.length > 100_000 ? text.slice(0, 100_000) : text;
  return PATTERNS.find(({ pattern }) => pattern.test(bounded))?.kind;
}

/** Every free-text string in an answer (the reply text and string values, including `other` texts in arrays). */
export function freeTexts(answer: { text?: string | undefined; values?: Record<string, unknown> | undefined }): string[] {
  const texts: string[] = [];
  if (answer.text) texts.push(answer.text);
  for (const value of Object.values(answer.values ?? {})) {
    if (typeof value === 'string') texts.push(value);
    else if (Array.isArray(value)) texts.push(...value.filter((v): v is string => typeof v === 'string'));
  }
  return texts;
}
