// Which answers ask for a secret: the one rule every surface asks. The quick
// input hides what is typed for such a field, the request page draws it as a
// password box and never keeps its draft, both confirm before it leaves, and
// what is stored (the answer history, the unsettled commands) never holds it
// readable.
import { readingKey } from '../base/readingKey';
import { answerSchema, type Answer, type AttentionRequest, type FieldSpec } from './attention';
import { freeTextParts, type AnswerPart } from './capture';
import { SECRET_FIELD_NAME } from './credentials';
import { textHonesty, type HonestText } from './labels';
import { CAPTURE_LEVELS, type CaptureLevel } from './levels';
import { redactText, type RedactionOptions } from './redaction';

/**
 * One-time codes are secrets for as long as they matter, and short enough
 * that no credential detector names them: they are asked for by name.
 * Short words stand alone (`pin`, not "spinning").
 */
const ONE_TIME_CODE_NAME = /one[\s_-]?time|passcode|verification[\s_-]?code|security[\s_-]?code|(?:^|[^a-z])(?:otp|totp|pin|2fa|mfa)(?:[^a-z]|$)/i;

/**
 * "Password" (and "secret") in the languages a person or an agent may write
 * it in. A word of an alphabet that spaces its words must start one
 * ("resenha" is not "senha"); the others stand anywhere. Marks are compared
 * away on both sides: "sifre" is "şifre" typed without its cedilla.
 */
const PASSWORD_WORDS = [
  'mot de passe', 'passwort', 'kennwort', 'geheimnis', 'contraseña', 'contrasenya', 'clave', 'senha', 'wachtwoord',
  'lösenord', 'passord', 'adgangskode', 'kodeord', 'salasana', 'hasło', 'haslo', 'heslo', 'jelszó', 'şifre', 'šifra', 'lozinka', 'geslo',
  'parolă', 'parool', 'slaptažodis',
  'mật khẩu', 'kata sandi', 'kata laluan', 'пароль', 'парола', 'лозинка', 'κωδικός πρόσβασης',
  'パスワード', '暗証番号', '密码', '密碼', '口令', '비밀번호', 'סיסמה', 'كلمة المرور', 'كلمة السر', 'رمز عبور', 'पासवर्ड', 'รหัสผ่าน',
  'jeton', 'トークン', '令牌', 'токен', '토큰',
];
const SPACED_SCRIPT = /^[\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Greek}]/u;
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Without its marks (accents, cedillas, dakuten): what a keyboard without them types. */
const withoutMarks = (read: string) => read.normalize('NFD').replace(/\p{M}/gu, '');
/** Matched against the text as read (`readingKey`) without marks, so the words are folded the same way. */
const OTHER_LANGUAGES = new RegExp(
  PASSWORD_WORDS.map((word) => {
    const read = escapeRegExp(withoutMarks(readingKey(word)));
    return SPACED_SCRIPT.test(word) ? `(?<!\\p{L})${read}` : read;
  }).join('|'),
  'u',
);

/**
 * Whether a text names a secret: a password (in any of several languages), a
 * token, key, credential or one-time code. Read as a reader reads it:
 * full-width letters, Cyrillic or Greek ones drawn like Latin, and invisible
 * characters inside the word do not hide it.
 */
export function namesSecret(text: string): boolean {
  // Look-alikes fold before case does, so a capital and a small Cyrillic letter can fold apart
  // ("ТОКЕН" reads "tokeh", "токен" keeps т): both readings are asked.
  return [readingKey(text), readingKey(text.toLocaleLowerCase())].some(
    (read) => SECRET_FIELD_NAME.test(read) || ONE_TIME_CODE_NAME.test(read) || OTHER_LANGUAGES.test(withoutMarks(read)),
  );
}

/**
 * Whether a field asks for a secret, by its id or its real label (at capture
 * `metadata`/`none` the label is a placeholder and says nothing).
 */
export function fieldAsksForSecret(fieldId: string, label: HonestText | undefined): boolean {
  return namesSecret(fieldId) || (label !== undefined && label.honesty !== 'structural' && namesSecret(label.text));
}

/** Whether every free-text part of an answer to this request may be a credential: an authentication request. */
export function requestAsksForSecret(request: { kind: string; renderKind: string }): boolean {
  // As a reader reads it: a kind the page draws as "auth" (bidi controls dropped, pageContent.ts) asks for one everywhere.
  return request.renderKind === 'auth' || readingKey(request.kind) === 'auth';
}

/** The request as this rule reads it: its kind, and each field with its label as the page shows it. */
export interface SecretAskingRequest {
  kind: string;
  renderKind: string;
  fields: ReadonlyArray<{ id: string; label: HonestText | undefined }>;
}

/** An attention request as this rule reads it, its labels tagged with what they are at its capture (as `honestRequestText` tags them). */
export function secretAskingOf(request: Pick<AttentionRequest, 'kind' | 'renderKind' | 'capture' | 'fields'>): SecretAskingRequest {
  const honesty = textHonesty(request.capture);
  const fields = request.fields.map((field) => ({ id: field.id, label: { text: field.label, honesty } }));
  return { kind: request.kind, renderKind: request.renderKind, fields };
}

/**
 * The field whose secret a form's reply in words (its `text`) may hold: the
 * first field that asks for one. Words sent instead of the fields are what the
 * person would have typed into them, so they are kept as that field's value is.
 */
export function wordsSecretField(request: SecretAskingRequest): string | undefined {
  if (request.renderKind !== 'form') return undefined;
  return request.fields.find((field) => fieldAsksForSecret(field.id, field.label))?.id;
}

/** Whether a reply in words to this request may be a secret: any reply to an `auth` request, or words to a form that asks for one. */
export function wordsAskForSecret(request: SecretAskingRequest): boolean {
  return requestAsksForSecret(request) || wordsSecretField(request) !== undefined;
}

/** Whether one free-text part of an answer is a secret asked for: any part of an `auth` answer, a secret-asking field's, or words to a form with one. */
export function partAsksForSecret(request: SecretAskingRequest, part: AnswerPart): boolean {
  if (part.kind === 'text') return wordsAskForSecret(request);
  if (requestAsksForSecret(request)) return true;
  const field = request.fields.find((f) => f.id === part.fieldId);
  return fieldAsksForSecret(part.fieldId, field?.label);
}

/**
 * Whether an answer holds text that must not be stored readable: a non-empty
 * free-text part asked for as a secret, or any free text sent at capture
 * `full` (the person chose to send it as typed; that is no reason to keep it).
 */
export function answerHoldsSecret(request: SecretAskingRequest, fields: readonly FieldSpec[], answer: Answer, capture: CaptureLevel): boolean {
  const parts = freeTextParts(answer, fields).filter((free) => free.text !== '');
  if (parts.length === 0) return false;
  return capture === 'full' || parts.some(({ part }) => partAsksForSecret(request, part));
}

/** What of a serialized command this rule reads; undefined when it is not one (another version's data). */
function commandParts(text: string): { capture: CaptureLevel; answer: Answer } | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { capture, data } = parsed as Record<string, unknown>;
  const level = CAPTURE_LEVELS.find((known) => known === (capture ?? 'metadata'));
  const answer = answerSchema.safeParse(typeof data === 'object' && data !== null ? (data as Record<string, unknown>)['answer'] : undefined);
  return level && answer.success ? { capture: level, answer: answer.data } : undefined;
}

/**
 * Whether a serialized command (as the unsettled commands keep it) holds text
 * never stored readable: sent at capture `full`, or, when its request is
 * known, a secret asked for. Text that is not a command this version reads
 * is left as it is: there is nothing in it this rule can name.
 */
export function commandHoldsSecret(text: string, request: Pick<AttentionRequest, 'kind' | 'renderKind' | 'capture' | 'fields'> | undefined): boolean {
  const parts = commandParts(text);
  if (!parts) return false;
  if (parts.capture === 'full') return true;
  return request !== undefined && answerHoldsSecret(secretAskingOf(request), request.fields, parts.answer, parts.capture);
}

/**
 * The values the user lists as always secret (§9.4 rule b). Set by whoever
 * holds them (the host from secret storage, the page from its init message),
 * so that every masking of what is kept reads the same list without each
 * store being handed it.
 */
let storedSecretValues: readonly string[] = [];

export function setStoredSecretValues(values: readonly string[]): void {
  storedSecretValues = [...values];
}

/**
 * Secret masking for what is kept on disk (the answer history, a page's
 * draft): the §9.4 secret rules, the user's always-secret values, and
 * credential-named keys whole; PII is left (it is not a credential, and the
 * result must not depend on a setting).
 */
export function storedMasking(): RedactionOptions {
  return storedSecretValues.length === 0 ? { pii: false } : { pii: false, secretValues: [...storedSecretValues] };
}

export function maskStoredText(text: string): string {
  return redactText(text, storedMasking()).text;
}
