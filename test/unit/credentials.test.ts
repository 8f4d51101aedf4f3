import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { credentialIn, freeTexts } from '../../src/aep/credentials';

test('credentialIn recognises the AEP-0003 §9.4 secret class', () => {
  const cases: Array<[string, string]> = [
    ['-----BEGIN RSA PRIVATE KEY-----\nMIIE...', 'private key'],
    ['-----BEGIN OPENSSH PRIVATE KEY-----', 'private key'],
    ['use AKIAIOSFODNN7EXAMPLE for the bucket', 'AWS access key'],
    ['Authorization: Bearer abcdef0123456789', 'bearer token'],
    ['password=hunter2', 'password or key assignment'],
    ['API_KEY: sk-123', 'password or key assignment'],
    ['token = x', 'password or key assignment'],
    ['eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJl', 'JSON Web Token'],
  ];
  for (const [text, kind] of cases) assert.equal(credentialIn(text), kind, text);
});

test('credentialIn leaves ordinary answers alone', () => {
  for (const text of ['billing-api', 'deploy to eu-west-1 first', 'the password policy is fine', 'Bearer', 'AKIA', 'tokens are rotated weekly', 'eyJ alone', '']) {
    assert.equal(credentialIn(text), undefined, text);
  }
});

test('freeTexts collects the reply and every string value, including strings inside arrays', () => {
  assert.deepEqual(freeTexts({ text: 'why', values: { a: 'x', b: 3, c: true, d: ['1', 'own answer', 2] } }), ['why', 'x', '1', 'own answer']);
  assert.deepEqual(freeTexts({}), []);
});
