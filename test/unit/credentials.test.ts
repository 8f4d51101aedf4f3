// The credential detector (src/aep/credentials.ts): the secret rules of the
// AEP-0003 §9.4 pipeline, naming only what looks like a real secret. True
// positives are tokens people actually paste; false positives are answers
// people actually type.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CREDENTIAL_KINDS, credentialIn, credentialsIn, type CredentialKind } from '../../src/aep/credentials';
import { redactText } from '../../src/aep/redaction';

const FOUND: Array<[string, CredentialKind]> = [
  ['-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7bq\n-----END RSA PRIVATE KEY-----', 'private key'],
  ['-----BEGIN OPENSSH PRIVATE KEY-----', 'private key'],
  ['-----BEGIN EC PRIVATE KEY----- MHcCAQEEIB', 'private key'],
  ['use AKIAIOSFODNN7EXAMPLE for the bucket', 'AWS access key'],
  ['temporary ASIAY34FZKBOKMUTVV7A', 'AWS access key'],
  ['clone with ghp_AbCdEfGhIjKlMnOpQrStUvWxYz012345', 'GitHub token'],
  ['github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMN', 'GitHub token'],
  ['push with glpat-AbCdEfGhIjKlMnOpQrSt', 'GitLab token'],
  ['xoxb-123456789012-ABCDEFabcdef', 'Slack token'],
  ['https://hooks.slack.com/services/T0000/B0000/XXXXXXXXXXXXXXXXXXXXXXXX', 'Slack token'],
  ['OPENAI_API_KEY is sk-proj-AbCdEf123456GhIjKl789012', 'OpenAI key'],
  ['sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWx-yz', 'Anthropic key'],
  ['stripe sk_live_51HaBcDeFgHiJkLmN', 'Stripe key'],
  ['maps key AIzaSyA1bC2dE3fG4hI5jK6lM7nO8pQ9rS0tUvW', 'Google API key'],
  ['//registry.npmjs.org/:_authToken=npm_abcdefghijklmnopqrstuvwxyz0123456789', 'npm token'],
  ['hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567', 'Hugging Face token'],
  ['twine upload -p pypi-AgEIcHlwaS5vcmcCJGFiY2RlZmdoLWlqa2wtbW5vcC1xcnN0', 'PyPI token'],
  ['SG.abcdefghijklmnop0123.ABCDEFGHIJKLMNOP0123456789', 'SendGrid key'],
  ['dckr_pat_AbCdEfGhIjKlMnOpQrStUvWx', 'Docker token'],
  ['eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJl', 'JSON Web Token'],
  ['Authorization: Bearer abcdef0123456789', 'bearer token'],
  ['authorization: bearer abc123DEF456ghi789', 'bearer token'],
  ['-H "Authorization: Basic dXNlcjpwYXNzd29yZA=="', 'Basic auth'],
  ['postgres://user:pass@db.example.com/app', 'connection string with password'],
  ['mongodb+srv://admin:Tr0ub4dor@cluster0.example.net', 'connection string with password'],
  ['password=hunter2', 'password assignment'],
  ['DB_PASSWORD=s3cretPass!', 'password assignment'],
  ['{"password": "correct horse battery staple"}', 'password assignment'],
  ['API_KEY: sk-123abc456def', 'key or token assignment'],
  ['export GITHUB_TOKEN="tok_9f8e7d6c5b4a"', 'key or token assignment'],
  ['client_secret = 8f14e45fceea167a5a36dedd4bea2543', 'key or token assignment'],
  ['Authorization: token 0123456789abcdef', 'authorization header'],
  // Said in words, on a command line, under short names, in full-width forms.
  ['my password is hunter2sequel', 'password assignment'],
  ['the password was "Tr0ub4dor&3" yesterday', 'password assignment'],
  ['pass: hunter2sequel', 'password assignment'],
  ['pwd=s3cretPass!', 'password assignment'],
  ['mysql -u root -pS3cretPass! mydb', 'password assignment'],
  ['sshpass -p Hunter2pass ssh root@host', 'password assignment'],
  ['sshpass -p\'Hunter2pass\' ssh root@host', 'password assignment'],
  ['deploy --password Hunter2pass --force', 'password assignment'],
  ['password：hunter2sequel', 'password assignment'],
  ['ｐａｓｓｗｏｒｄ＝hunter2sequel', 'password assignment'],
  ['DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==;EndpointSuffix=core.windows.net', 'key or token assignment'],
  ['https://acme.blob.core.windows.net/c/f?sv=2022-11-02&ss=b&sig=Xc8yHnT0%2BqZ3kLmN9pR7sV1wY5uA4bC6dE8fG2hJ%3D', 'key or token assignment'],
  ['aws_secret wJalrXUtnFEMI/K7MDENG/bPxRfiCYzz1122KEYA', 'AWS secret key'],
  ['ya29.a0AfH6SMBx3kLmN9pR7sV1wY5uA4bC6dE8fG2hJ', 'Google OAuth token'],
  ['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', 'Shopify token'],
  ['dop_v1_4f7a9c2e1b8d6f3a0e5c7b9d1f2a4c6e4f7a9c2e1b8d6f3a0e5c7b9d1f2a4c6e', 'DigitalOcean token'],
  ['lin_api_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCd', 'Linear key'],
  ['sbp_4f7a9c2e1b8d6f3a0e5c7b9d1f2a4c6e4f7a9c2e', 'Supabase token'],
];

const NOT_FOUND: string[] = [
  '',
  'billing-api',
  'deploy to eu-west-1 first',
  'the password policy is fine',
  'Bearer',
  'AKIA',
  'tokens are rotated weekly',
  'eyJ alone',
  'token: none yet',
  'password: <enter it later>',
  'password: TBD',
  'token = x',
  'api_key: ${API_KEY}',
  'secret: $DB_SECRET',
  'password: ********',
  'token: your_token_here',
  'the bearer of good news arrived',
  'bearer instruments are fine',
  'Basic Understanding of the system',
  'max_tokens: 100',
  'passwordless: true',
  'postgres://db.example.com:5432/app',
  'postgres://user:****@db.example.com',
  'https://example.com/path?page=2',
  'sk-learn is a library',
  'use the ghp_ prefix for classic tokens',
  'a secret: we ship on Friday',
  'upgraded to node 22.11.0 and pnpm 9.14.2',
  'contact jane.doe@example.com',
  'copied to /home/alice/project/file.txt',
  'Token: see the wiki',
  'pass: 3 tests, fail: 0',
  'my password is too short, says the form',
  'commit 9fceb02d0ae598e95dc970b74767f19372d61af8',
  'mysql -u root -p mydb',
];

describe('credential detector: what people paste is named', () => {
  assert.ok(FOUND.length >= 25 && NOT_FOUND.length >= 25);
  for (const [text, kind] of FOUND) {
    test(`${kind}: ${JSON.stringify(text.slice(0, 60))}`, () => {
      assert.equal(credentialIn(text), kind);
      // The pipeline replaces it too: detector and pipeline share their rules.
      assert.ok(redactText(text).replacements.some((r) => r.kind === kind && r.confident), 'the pipeline replaces what the detector names');
    });
  }
  test('every kind that can be found in text has a row', () => {
    const textKinds = CREDENTIAL_KINDS.filter((k) => k !== 'PEM block' && k !== 'field named like a credential' && k !== 'configured secret');
    for (const kind of textKinds) assert.ok(FOUND.some(([, k]) => k === kind), `a row for ${kind}`);
  });
});

describe('credential detector: what people type is not called a credential', () => {
  for (const text of NOT_FOUND) {
    test(JSON.stringify(text), () => {
      assert.equal(credentialIn(text), undefined);
    });
  }
});

test('credentialsIn names each kind once, in order', () => {
  assert.deepEqual(
    credentialsIn('ghp_AbCdEfGhIjKlMnOpQrStUvWxYz012345 and password=hunter2 and ghp_ZyXwVuTsRqPoNmLkJiHgFeDcBa987654'),
    ['GitHub token', 'password assignment'],
  );
});

test('a certificate is replaced (the floor redacts every PEM block) but is not called a credential', () => {
  const cert = '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU\n-----END CERTIFICATE-----';
  assert.equal(redactText(cert).text, '[REDACTED:secret]');
  assert.equal(credentialIn(cert), undefined);
});
