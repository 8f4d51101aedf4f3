// `npm run demo`'s small parts: its options, the busy-port fallback, the editor's
// gated port forwarder, and the workspace it writes. The whole command runs in
// test/e2e/demo.e2e.test.ts.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { connect, createServer, type AddressInfo, type Server } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { SCENARIOS } from '../peers/agent/scenarios';
import { DEFAULT_EDITOR_PORT, DEFAULT_EVERY_MS, DEFAULT_HUB_PORT, UsageError, parseDemoArgs } from '../peers/demo/args';
import { GATE_COOKIE, LOGIN_PREFIX, MAX_HEAD_BYTES, REFUSED_BODY, gateVerdict } from '../peers/demo/editorGate';
import { PortError, listenOnFreePort, startForwarder } from '../peers/demo/ports';
import { prepareWorkspace } from '../peers/demo/workspace';

test('demo options: defaults, flags, and refusals', () => {
  const defaults = parseDemoArgs([], '/repo');
  assert.deepEqual(defaults, {
    help: false,
    editor: true,
    desktop: false,
    editorCli: undefined,
    hubPort: { port: DEFAULT_HUB_PORT, explicit: false },
    editorPort: { port: DEFAULT_EDITOR_PORT, explicit: false },
    scenarios: [...SCENARIOS],
    everyMs: DEFAULT_EVERY_MS,
    dir: path.resolve('/repo/.cache/demo'),
  });
  const given = parseDemoArgs(['--no-editor', '--port', '0', '--editor-port', '9000', '--scenario', 'form', '--scenario', 'form', '--every', '500', '--dir', '/x'], '/repo');
  assert.equal(given.editor, false);
  assert.deepEqual(given.hubPort, { port: 0, explicit: true });
  assert.deepEqual(given.editorPort, { port: 9000, explicit: true });
  assert.deepEqual(given.scenarios, ['form']);
  assert.equal(given.everyMs, 500);
  assert.equal(given.dir, path.resolve('/x'));
  assert.equal(parseDemoArgs(['-h'], '/repo').help, true);
  assert.equal(parseDemoArgs(['--desktop'], '/repo').desktop, true);
  const cli = parseDemoArgs(['--editor-cli', 'codium'], '/repo');
  assert.deepEqual([cli.desktop, cli.editorCli], [true, 'codium'], '--editor-cli implies --desktop');
  for (const bad of [['--no-editor', '--desktop'], ['--no-editor', '--editor-cli', 'code'], ['--editor-cli', ' '], ['--port', '70000'], ['--port', ''], ['--every', '0'], ['--scenario', 'nope'], ['--bogus'], ['extra']]) {
    assert.throws(() => parseDemoArgs(bad, '/repo'), UsageError, bad.join(' '));
  }
});

async function occupy(): Promise<Server> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return server;
}

const listenOn = (port: number) =>
  new Promise<Server>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });

test('a busy default port moves to the next free one; a busy explicit port is an error', async () => {
  const busy = await occupy();
  const port = (busy.address() as AddressInfo).port;
  try {
    const moved = await listenOnFreePort('hub', { port, explicit: false }, listenOn);
    assert.equal(moved.moved, true);
    assert.ok((moved.value.address() as AddressInfo).port > port);
    moved.value.close();
    await assert.rejects(listenOnFreePort('hub', { port, explicit: true }, listenOn), (error: unknown) => {
      assert.ok(error instanceof PortError);
      assert.match(error.message, new RegExp(`the hub port ${port} is in use`));
      return true;
    });
  } finally {
    busy.close();
  }
});

/** Sends `request` to 127.0.0.1:`port` and reads until the far end closes or `until` matches. */
function exchange(port: number, request: string, until?: RegExp): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const client = connect(port, '127.0.0.1');
    let reply = '';
    client.once('error', reject);
    client.on('data', (data) => {
      reply += data.toString('latin1');
      if (until?.test(reply)) {
        client.destroy();
        resolve(reply);
      }
    });
    client.once('close', () => resolve(reply));
    client.write(request);
  });
}

test('the editor gate: the printed key logs in once, the cookie passes, anything else is refused', () => {
  const key = 'k3y-of-this-run';
  const head = (line: string, ...headers: string[]) => [line, 'Host: 127.0.0.1:1', ...headers].join('\r\n');
  assert.deepEqual(gateVerdict(head(`GET ${LOGIN_PREFIX}${key}?folder=/w HTTP/1.1`), key), { kind: 'login', location: '/?folder=/w' });
  assert.deepEqual(gateVerdict(head(`GET ${LOGIN_PREFIX}${key} HTTP/1.1`), key), { kind: 'login', location: '/' });
  assert.deepEqual(gateVerdict(head('GET /stable/x.js HTTP/1.1', `Cookie: a=b; ${GATE_COOKIE}=${key}`), key), { kind: 'pass' });
  assert.deepEqual(gateVerdict(head('GET /x HTTP/1.1', `cookie:${GATE_COOKIE}=${key}`), key), { kind: 'pass' });
  for (const refused of [
    head('GET /?folder=/w HTTP/1.1'),
    head(`GET ${LOGIN_PREFIX}wrong?folder=/w HTTP/1.1`),
    head(`GET ${LOGIN_PREFIX}${key}x HTTP/1.1`),
    head(`POST ${LOGIN_PREFIX}${key} HTTP/1.1`),
    head('GET / HTTP/1.1', `Cookie: ${GATE_COOKIE}=${key.slice(1)}`),
    head('GET / HTTP/1.1', `Cookie: x${GATE_COOKIE}=${key}`),
    head('GET / HTTP/1.1', `X-Cookie: ${GATE_COOKIE}=${key}`),
    'not http at all',
    '',
  ]) {
    assert.deepEqual(gateVerdict(refused, key), { kind: 'refuse' }, refused);
  }
});

test('the editor port forwarder: a stranger gets 403, the printed address sets the cookie, the cookie reaches the editor both ways', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aep-fwd-'));
  const socketPath = path.join(dir, 'editor.sock');
  const echo = createServer((socket) => socket.pipe(socket));
  await new Promise<void>((resolve) => echo.listen(socketPath, () => resolve()));
  const key = 'the-key-0123456789';
  const forwarder = await startForwarder(0, socketPath, key, (error) => assert.fail(error));
  t.after(async () => {
    await forwarder.close();
    echo.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const stranger = await exchange(forwarder.port, 'GET /?folder=/w HTTP/1.1\r\nHost: x\r\n\r\n');
  assert.match(stranger, /^HTTP\/1\.1 403 /);
  assert.ok(stranger.endsWith(REFUSED_BODY));

  const login = await exchange(forwarder.port, `GET ${LOGIN_PREFIX}${key}?folder=%2Fw HTTP/1.1\r\nHost: x\r\n\r\n`);
  assert.match(login, /^HTTP\/1\.1 302 /);
  assert.match(login, /\r\nLocation: \/\?folder=%2Fw\r\n/);
  assert.match(login, new RegExp(`\\r\\nSet-Cookie: ${GATE_COOKIE}=${key}; Path=/; HttpOnly; SameSite=Strict\\r\\n`));

  // The request head arrives in two pieces; the editor gets it whole, then what follows.
  const request = `GET /x HTTP/1.1\r\nHost: x\r\nCookie: ${GATE_COOKIE}=${key}\r\n\r\nbody`;
  const passed = await new Promise<string>((resolve, reject) => {
    const client = connect(forwarder.port, '127.0.0.1');
    let reply = '';
    client.once('error', reject);
    client.on('data', (data) => {
      reply += data.toString('latin1');
      if (reply.length >= request.length) resolve(reply);
    });
    client.write(request.slice(0, 20), () => setTimeout(() => client.write(request.slice(20)), 20));
  });
  assert.equal(passed, request);

  const tooLong = await exchange(forwarder.port, `GET /x HTTP/1.1\r\nX: ${'a'.repeat(MAX_HEAD_BYTES)}`);
  assert.match(tooLong, /^HTTP\/1\.1 403 /);

  // Closing cuts a connection that is open.
  const open = connect(forwarder.port, '127.0.0.1');
  await new Promise<void>((resolve) => open.once('connect', () => resolve()));
  const closed = new Promise<void>((resolve) => open.once('close', () => resolve()));
  open.on('error', () => undefined);
  await forwarder.close();
  await closed;
});

test('the demo workspace: a README, and hubUrl merged into existing settings (never the token)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aep-demo-unit-'));
  try {
    fs.mkdirSync(path.join(dir, '.vscode'));
    fs.writeFileSync(path.join(dir, '.vscode', 'settings.json'), '{ "editor.fontSize": 15, "aepAttention.hubUrl": "http://old" }');
    const facts = { hubUrl: 'http://127.0.0.1:8787', scenarios: SCENARIOS, everyMs: 8_000, expireMs: 30_000, oobMs: 10_000 };
    const settings = prepareWorkspace(dir, facts);
    assert.deepEqual(settings, { 'editor.fontSize': 15, 'aepAttention.hubUrl': 'http://127.0.0.1:8787' });
    const readme = fs.readFileSync(path.join(dir, 'README.md'), 'utf8');
    assert.match(readme, /every 8 s/);
    assert.match(readme, /expires\*\* after 30 s/);
    assert.match(readme, /http:\/\/127\.0\.0\.1:8787/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
