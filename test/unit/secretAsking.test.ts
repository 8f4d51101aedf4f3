// Which fields ask for a secret (src/aep/secretAsking.ts): the word for it
// is found as a reader reads it, in the languages a form may be written in.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fieldAsksForSecret, namesSecret } from '../../src/aep/secretAsking';

test('a field labelled password in another language, or with look-alike letters, asks for a secret', () => {
  for (const label of ['Passwort', 'Mot de passe', 'Contraseña', 'Senha', 'Wachtwoord', 'パスワード', 'Пароль', '密码', 'ｐａｓｓｗｏｒｄ', 'Раѕѕwоrd', 'ТОКЕН', 'tоkеn']) {
    assert.equal(fieldAsksForSecret('f1', { text: label, honesty: 'verbatim' }), true, label);
  }
});

test('ordinary labels do not, a word that merely contains one included', () => {
  for (const label of ['Resenha', 'Branch name', 'Keyboard layout', 'Pass the tests first?', 'Spinning up']) assert.equal(namesSecret(label), false, label);
});
