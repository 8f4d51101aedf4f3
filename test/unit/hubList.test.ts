// Which hubs a window connects to, from what its folders, the user's list and the environment name.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { hubEndpoint } from '../../src/client/hubEndpoint';
import { hubId, hubLabel, hubList, isUnusableHubId, type HubListInput, type NamedHub } from '../../src/app/hubs/hubList';

const NO_DEFAULTS: HubListInput['defaults'] = { filter: undefined, captureCeiling: undefined };

function folder(name: string, hubUrl: string, extra: Partial<NamedHub> = {}): NamedHub {
  return { hubUrl, source: 'folder', folder: name, filter: undefined, captureCeiling: undefined, ...extra };
}

describe('hubList', () => {
  test('one folder naming one hub is one hub, as before several hubs', () => {
    const { hubs, problems } = hubList({ named: [folder('api', 'http://127.0.0.1:8787')], list: undefined, defaults: NO_DEFAULTS });
    assert.deepEqual(problems, []);
    assert.equal(hubs.length, 1);
    assert.deepEqual(hubs[0], {
      id: 'http://127.0.0.1:8787', hubUrl: 'http://127.0.0.1:8787', source: 'folder', label: undefined, folders: ['api'], filter: undefined, captureCeiling: undefined,
    });
  });

  test('two folders naming two hubs are two hubs, each with its own filter and ceiling, in folder order', () => {
    const { hubs } = hubList({
      named: [
        folder('api', 'http://127.0.0.1:8787', { filter: { agent: 'claude-code' }, captureCeiling: 'redacted' }),
        folder('web', 'https://hub.example.com', { captureCeiling: 'metadata' }),
      ],
      list: [],
      defaults: NO_DEFAULTS,
    });
    assert.deepEqual(hubs.map((hub) => [hub.id, hub.folders, hub.filter, hub.captureCeiling]), [
      ['http://127.0.0.1:8787', ['api'], { agent: 'claude-code' }, 'redacted'],
      ['https://hub.example.com', ['web'], undefined, 'metadata'],
    ]);
  });

  test('two spellings of one origin are one hub (one connection, one token); the folders naming it are all listed', () => {
    const { hubs } = hubList({
      named: [folder('api', 'http://127.0.0.1:8787'), folder('web', 'ws://127.0.0.1:8787/'), folder('docs', 'http://127.0.0.1:8787')],
      list: undefined,
      defaults: NO_DEFAULTS,
    });
    assert.equal(hubs.length, 1);
    assert.deepEqual(hubs[0]?.folders, ['api', 'web', 'docs']);
    assert.equal(hubs[0]?.hubUrl, 'http://127.0.0.1:8787', 'the first spelling is the one connected to');
  });

  test('the user list comes first and wins for a hub a folder also names; entries take the user defaults unless they set their own', () => {
    const { hubs, problems } = hubList({
      named: [folder('api', 'http://127.0.0.1:8787', { captureCeiling: 'full' })],
      list: [
        { url: 'http://127.0.0.1:8787', label: '  laptop  ' },
        { url: 'https://team.example.com', label: 'team', filter: { agent: 'codex' }, captureCeiling: 'metadata' },
        { url: 'https://other.example.com', filter: null, captureCeiling: null },
      ],
      defaults: { filter: { session: 's1' }, captureCeiling: 'redacted' },
    });
    assert.deepEqual(problems, []);
    assert.deepEqual(hubs.map((hub) => [hub.id, hub.source, hub.label, hub.folders, hub.filter, hub.captureCeiling]), [
      ['http://127.0.0.1:8787', 'list', 'laptop', ['api'], { session: 's1' }, 'redacted'],
      ['https://team.example.com', 'list', 'team', [], { agent: 'codex' }, 'metadata'],
      // null says "none for this hub", not "the default".
      ['https://other.example.com', 'list', undefined, [], undefined, undefined],
    ]);
  });

  test('a list that is not a list, and entries that cannot be used, are left out with a reason each; the rest still connect', () => {
    const notAList = hubList({ named: [folder('api', 'http://127.0.0.1:8787')], list: { url: 'http://127.0.0.1:9000' }, defaults: NO_DEFAULTS });
    assert.equal(notAList.hubs.length, 1);
    assert.match(notAList.problems[0] ?? '', /must be a list of hubs/);
    const { hubs, problems } = hubList({
      named: [],
      list: [{ url: 'http://127.0.0.1:9000' }, { label: 'no url' }, 'http://127.0.0.1:9001', { url: 'ws://127.0.0.1:9000/socket' }, { url: 'http://127.0.0.1:9002', captureCeiling: 'everything' }],
      defaults: NO_DEFAULTS,
    });
    assert.deepEqual(hubs.map((hub) => hub.id), ['http://127.0.0.1:9000']);
    assert.equal(problems.length, 4, problems.join('\n'));
    assert.match(problems[0] ?? '', /entry 2 was left out/);
    assert.match(problems[1] ?? '', /entry 3 was left out/);
    assert.match(problems[2] ?? '', /entry 4 names http:\/\/127\.0\.0\.1:9000 again/);
    assert.match(problems[3] ?? '', /entry 5 was left out/);
  });

  test('an address that is not a usable URL is still a hub (it reports why it cannot connect), told apart by a digest of its text, never the text', () => {
    const secret = 'https://me:hunter2-password@hub.example.com';
    const { hubs } = hubList({ named: [folder('api', 'not a url'), folder('web', 'ftp://x'), folder('docs', secret), folder('more', 'not a url')], list: undefined, defaults: NO_DEFAULTS });
    assert.equal(hubs.length, 3, 'the same unusable text twice is one hub');
    for (const hub of hubs) {
      assert.ok(isUnusableHubId(hub.id), hub.id);
      assert.ok(!hub.id.includes('hunter2') && !hub.id.includes('not a url'), hub.id);
      assert.equal(hubLabel(hub), '(invalid hub URL)');
    }
    assert.equal(new Set(hubs.map((hub) => hub.id)).size, 3);
    assert.equal(hubs[2]?.hubUrl, secret, 'the address itself is kept, for the client to say why it cannot connect');
  });

  test('two paths on one origin are two hubs (AEP-0003 §3.4: a hub is at {base}/socket), each with its own id, folders and label', () => {
    const { hubs } = hubList({
      named: [folder('a', 'https://proxy.example.com/teamA'), folder('b', 'https://proxy.example.com/teamB'), folder('root', 'https://proxy.example.com')],
      list: undefined,
      defaults: NO_DEFAULTS,
    });
    assert.deepEqual(hubs.map((hub) => [hub.id, hub.folders]), [
      ['https://proxy.example.com/teamA', ['a']],
      ['https://proxy.example.com/teamB', ['b']],
      ['https://proxy.example.com', ['root']],
    ]);
    assert.deepEqual(hubs.map((hub) => hubLabel(hub)), ['proxy.example.com/teamA', 'proxy.example.com/teamB', 'proxy.example.com']);
  });

  test('a base URL is normalized: scheme and host case, default port, ws/wss, trailing slashes and one endpoint name; the path keeps its case', () => {
    const spellings = [
      'https://proxy.example.com/teamA',
      'HTTPS://Proxy.Example.COM:443/teamA/',
      'wss://proxy.example.com/teamA/socket',
      'https://proxy.example.com/teamA/events',
      'https://proxy.example.com/teamA/stream/',
      'https://proxy.example.com/teamA//',
      'https://proxy.example.com/teamA?x=1#y',
    ];
    for (const spelling of spellings) assert.equal(hubId(spelling), 'https://proxy.example.com/teamA', spelling);
    assert.notEqual(hubId('https://proxy.example.com/TeamA'), hubId('https://proxy.example.com/teamA'), 'a path is case-sensitive');
    assert.equal(hubId('https://proxy.example.com:8443/teamA'), 'https://proxy.example.com:8443/teamA');
    assert.equal(hubId('https://proxy.example.com/teamA/socket/more'), 'https://proxy.example.com/teamA/socket/more', 'only a last endpoint name is dropped');
    const { hubs } = hubList({ named: spellings.map((url, index) => folder(`f${index}`, url)), list: undefined, defaults: NO_DEFAULTS });
    assert.equal(hubs.length, 1, 'every spelling is one hub');
  });

  test("a hub with no path keeps the id its saved state and token were filed under before paths told hubs apart (its origin)", () => {
    for (const spelling of ['http://127.0.0.1:8787', 'http://127.0.0.1:8787/', 'ws://127.0.0.1:8787/socket', 'HTTP://LOCALHOST:8787', 'https://hub.example.com:443/']) {
      const endpoint = hubEndpoint(spelling);
      assert.ok(endpoint.ok, spelling);
      assert.equal(hubId(spelling), endpoint.value.origin, spelling);
    }
  });

  test('a hub is named by its label, else its host and port', () => {
    assert.equal(hubLabel({ id: 'http://127.0.0.1:8787', label: 'laptop' }), 'laptop');
    assert.equal(hubLabel({ id: 'http://127.0.0.1:8787', label: undefined }), '127.0.0.1:8787');
    assert.equal(hubLabel({ id: 'https://hub.example.com', label: undefined }), 'hub.example.com');

  });

  test('a label is capped, so a long one cannot crowd a row or a notification', () => {
    const { hubs } = hubList({ named: [], list: [{ url: 'http://127.0.0.1:9000', label: 'x'.repeat(500) }], defaults: NO_DEFAULTS });
    assert.equal(hubs[0]?.label?.length, 64);
  });
});
