// Whether words may be shown where anyone near can read them: a system
// notification, on a lock screen or a shared display. The one rule every
// part of a notification asks (the prompt, the agent's name, the hub's).
import { readingKey } from '../base/readingKey';
import { redactText, type RedactionOptions } from './redaction';
import { namesSecret } from './secretAsking';

/**
 * Short words for a secret that are also ordinary words ("Run pwd?", "Press
 * any key to continue", "Pass the tests?", "Solve the MDP?"): they count only
 * with what looks like a value after them ("pwd hunter2", "key: x"), never
 * inside a path or a name ("src/key.ts", "monkey"). After `pass` and `mdp` a
 * value is an assignment or a word with a digit in it: a bare word after
 * them is mostly the verb, or the abbreviation of something else.
 */
const SHORT_SECRET_NAME = /(?<![\p{L}\p{N}_/.\\-])(?:(?:pwd|pw|key)(?:\s*[:=]\s*\S|\s+\S{4,})|(?:pass|mdp)(?:\s*[:=]\s*\S|\s+(?=\S*\p{N})\S{4,}))/u;

/**
 * A user and a password as a pair after a cue for logging in (`curl -u
 * admin:hunter2`, "Log in with admin/hunter2"): `user:pass` and `user/pass`
 * alone are also hosts with ports, branches and paths, so only the cue
 * tells them apart. A URL's scheme (`with https://…`) is not a pair.
 */
const LOGIN_PAIR = /(?:(?<![\p{L}\p{N}_-])-u|--user|log\s?-?in|sign\s?-?in|credentials?|creds)\s*[:=]?\s*(?:(?:with|as|using)\s+)?[^\s:/]+[:/](?!\/)\S/u;

/** A one-time code given with its name ("Enter code 481516"): four to eight digits, as codes are sent. */
const CODE_VALUE = /code\s*[:=#]?\s*\d{4,8}(?![\p{N}.,])/u;

/** Punctuation a word may end or start with in prose, not part of it. */
const EDGE_PUNCTUATION = /^[\s"'()[\]{}<>.,;:!?]+|[\s"'()[\]{}<>.,;:!?]+$/gu;
/** Symbols that make a word password-shaped: not the ones paths, versions and names are built of. */
const SYMBOL = /[^\p{L}\p{N}\s./\\_:-]/u;

/**
 * A word shaped like a chosen password with no name beside it ("admin /
 * Tr0ub4dor&3"): eight characters or more with small and capital letters,
 * a digit and a symbol. Identifiers, versions and paths rarely have all four.
 */
function hasPasswordShapedWord(text: string): boolean {
  return text.normalize('NFKC').split(/\s+/u).some((raw) => {
    const word = raw.replace(EDGE_PUNCTUATION, '');
    return word.length >= 8 && /\p{Ll}/u.test(word) && /\p{Lu}/u.test(word) && /\p{N}/u.test(word) && SYMBOL.test(word);
  });
}

/**
 * True only when `text` may be shown to whoever is near: the AEP-0003 §9.4
 * pipeline, run with the options of what we send (the user's home and
 * always-secret values) and PII on whatever they say, would change nothing
 * in it, and nothing in it names or looks like a secret. Stricter than the
 * pipeline, which replaces only what its floor names (`password: x`,
 * `token=x`): prose about a password, token, key or one-time code, in any of
 * several languages or spelt with look-alike letters, and a word shaped like
 * a password, are enough. Withholding a text that holds none costs the
 * person a click; showing one that does cannot be undone.
 */
export function mayShowInPublic(text: string, redaction: RedactionOptions): boolean {
  const read = readingKey(text);
  if (namesSecret(text) || [SHORT_SECRET_NAME, LOGIN_PAIR, CODE_VALUE].some((rule) => rule.test(read)) || hasPasswordShapedWord(text)) return false;
  return redactText(text, { ...redaction, pii: true }).replacements.length === 0;
}
