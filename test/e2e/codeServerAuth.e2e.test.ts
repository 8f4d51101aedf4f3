// code-server with a password (startCodeServer's `password`, what `npm run demo`
// uses): nothing of the workbench is served without it, the right password is let
// in, and it never reaches the environment the extension host and terminals inherit.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { codeServerSuite } from '../support/harness';
import { startCodeServer } from './codeServer';

test('code-server with a password: a stranger gets the login page, a wrong password nothing, the right one in', { timeout: 180_000, ...codeServerSuite() }, async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'aep-cs-auth-'));
  const password = randomBytes(18).toString('base64url');
  const server = await startCodeServer({
    workspaceDir: path.join(root, 'workspace'),
    userDataDir: path.join(root, 'user-data'),
    extensionsDir: path.join(root, 'extensions'),
    password,
  });
  try {
    const stranger = await fetch(`${server.url}/?folder=${encodeURIComponent(path.join(root, 'workspace'))}`, { redirect: 'manual' });
    assert.equal(stranger.status, 302, 'the workbench is not served without the password');
    assert.match(stranger.headers.get('location') ?? '', /login/);

    const login = (guess: string) =>
      fetch(`${server.url}/login`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url },
        body: new URLSearchParams({ password: guess }).toString(),
      });
    const wrong = await login('not-the-password');
    assert.equal(wrong.headers.get('set-cookie'), null, 'a wrong password gets no session');
    const right = await login(password);
    assert.equal(right.status, 302);
    const cookie = (right.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    assert.match(cookie, /^code-server-session=/);
    const member = await fetch(`${server.url}/?folder=${encodeURIComponent(path.join(root, 'workspace'))}`, { redirect: 'manual', headers: { cookie } });
    assert.equal(member.status, 200, 'the session cookie opens the workbench');

    const environments = fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name)).flatMap((name) => {
      try {
        const cmdline = fs.readFileSync(`/proc/${name}/cmdline`, 'utf8');
        return cmdline.includes(path.join(root, 'user-data')) ? [fs.readFileSync(`/proc/${name}/environ`, 'utf8')] : [];
      } catch {
        return [];
      }
    });
    assert.ok(environments.length > 0, 'code-server found by its user data dir');
    assert.ok(environments.every((env) => !env.includes(password)), 'the password is in no code-server environment');
  } finally {
    await server.stop();
    fs.rmSync(root, { recursive: true, force: true });
  }
});
