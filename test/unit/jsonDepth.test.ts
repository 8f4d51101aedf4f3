// The nesting cap of parseUntrustedJson: one linear pass over the text before
// JSON.parse, strings skipped whole. Nothing here is timed: "fast" means the
// 100 000-deep inputs finish at all, without a stack overflow.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseWireMessage } from '../../src/aep/frames';
import { JsonTooDeepError, MAX_JSON_DEPTH, nestsDeeperThan, parseUntrustedJson } from '../../src/base/json';

const arrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const objects = (depth: number) => `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;
const envelope = (extra: string) =>
  `{"aep":"0.1","id":"Q","type":"attention.requested","time":"t","source":"aep://h/agent/a","agent":"a","session":"s","seq":0,${extra}"data":{"kind":"input","prompt":"May I?"}}`;

describe('the nesting cap', () => {
  test(`the limit is ${MAX_JSON_DEPTH}: that deep is read, one more level is refused`, () => {
    assert.equal(MAX_JSON_DEPTH, 64);
    assert.doesNotThrow(() => parseUntrustedJson(arrays(64)));
    assert.doesNotThrow(() => parseUntrustedJson(objects(64)));
    assert.throws(() => parseUntrustedJson(arrays(65)), JsonTooDeepError);
    assert.throws(() => parseUntrustedJson(objects(65)), JsonTooDeepError);
  });

  for (const [shape, text] of [['arrays', arrays(100_000)], ['objects', objects(100_000)], ['mixed', `${'[{"a":'.repeat(50_000)}1${'}]'.repeat(50_000)}`]] as const) {
    test(`100 000 levels of ${shape} are refused without a stack overflow, naming the limit`, () => {
      assert.throws(() => parseUntrustedJson(text), (error: unknown) => {
        assert.ok(error instanceof JsonTooDeepError, String(error));
        assert.equal(error.limit, 64);
        assert.match(error.message, /nested more than 64 levels deep \(AEP Attention reads at most 64\)/);
        return true;
      });
    });
  }

  test('an event nested too deep is reported by parseWireMessage in words, not as "not JSON"', () => {
    const text = envelope(`"deepnest":${arrays(100_000)},`);
    const message = parseWireMessage(text);
    assert.equal(message.kind, 'invalid');
    if (message.kind !== 'invalid') return;
    assert.equal(message.problem, `a message of ${text.length} characters with arrays and objects nested more than 64 levels deep (AEP Attention reads at most 64)`);
  });

  test('an event whose deepest value is at level 64 is read', () => {
    // The envelope is level 1; its member's arrays take levels 2 to 64.
    const message = parseWireMessage(envelope(`"deepnest":${arrays(63)},`));
    assert.equal(message.kind, 'event', message.kind === 'invalid' ? message.problem : '');
    assert.equal(parseWireMessage(envelope(`"deepnest":${arrays(64)},`)).kind, 'invalid');
  });

  test('brackets inside strings are not nesting, whatever the escapes around them', () => {
    const inside = '['.repeat(100_000) + '{'.repeat(100_000);
    assert.deepEqual(parseUntrustedJson(JSON.stringify({ s: inside })), { s: inside });
    // An escaped quote does not end the string; the brackets after it are still inside.
    const escapedQuote = `{"s":"a\\"${'['.repeat(1_000)}"}`;
    assert.deepEqual(parseUntrustedJson(escapedQuote), { s: `a"${'['.repeat(1_000)}` });
    // Runs of backslashes: an even run before a quote leaves the quote closing the string.
    for (const run of [1, 2, 3, 4, 7, 8]) {
      const value = { s: `${'\\'.repeat(run)}"${'['.repeat(200)}`, t: '\\'.repeat(run) };
      const text = JSON.stringify(value);
      assert.equal(nestsDeeperThan(text, MAX_JSON_DEPTH), false, `a run of ${run}`);
      assert.deepEqual(parseUntrustedJson(text), value);
    }
    // After a string ending in an escaped backslash, real brackets count again.
    assert.throws(() => parseUntrustedJson(`["a\\\\",${arrays(64)}]`), JsonTooDeepError);
    assert.doesNotThrow(() => parseUntrustedJson(`["a\\\\",${arrays(63)}]`));
  });

  test('\\u escapes spelling brackets are string content', () => {
    const text = `{"s":"${'\\u005b'.repeat(1_000)}"}`;
    assert.deepEqual(parseUntrustedJson(text), { s: '['.repeat(1_000) });
  });

  test('text that is not JSON is still a SyntaxError, including an unterminated string', () => {
    assert.throws(() => parseUntrustedJson('{"s":"[[['), SyntaxError);
    assert.throws(() => parseUntrustedJson(']]]]'), SyntaxError);
    assert.throws(() => parseUntrustedJson('nope'), SyntaxError);
  });

  test('the verdict matches the real depth of random JSON (differential)', () => {
    let state = 0x9e3779b9;
    const random = (n: number) => {
      state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
      return state % n;
    };
    const strings = ['', '[', ']', '{', '}', '"', '\\', '\\"', 'a\\\\', '[{"x":1}]', '\u2028'];
    let over = 0;
    for (let round = 0; round < 400; round++) {
      const target = random(80) + 1;
      let value: unknown = strings[random(strings.length)];
      let depth = 0;
      while (depth < target) {
        value = random(2) === 0 ? [strings[random(strings.length)], value, random(10)] : { [strings[random(strings.length)] ?? 'k']: value, n: null };
        depth++;
      }
      const text = JSON.stringify(value);
      assert.equal(nestsDeeperThan(text, MAX_JSON_DEPTH), depth > MAX_JSON_DEPTH, text.slice(0, 200));
      // The same verdict through the parser, whose bracket count skips the scan for text with 64 openers or fewer.
      const refused = (() => {
        try {
          parseUntrustedJson(text);
          return false;
        } catch (error) {
          if (error instanceof JsonTooDeepError) return true;
          throw error;
        }
      })();
      assert.equal(refused, depth > MAX_JSON_DEPTH, text.slice(0, 200));
      if (depth > MAX_JSON_DEPTH) over++;
    }
    assert.ok(over > 0 && over < 400, `${over} of 400 were too deep`);
  });
});
