// Agent and hub text in log lines (src/base/logger.ts): every message the
// extension logs goes through lineLogger, so what an agent names itself cannot
// forge a line, colour a terminal, or reorder what a reader sees.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { lineLogger, logLine, type Logger } from '../../src/base/logger';

/** A sink that keeps what each level was given. */
function recorder(): { sink: Logger; lines: Array<[string, string]> } {
  const lines: Array<[string, string]> = [];
  const at = (level: string) => (message: string) => void lines.push([level, message]);
  return { lines, sink: { trace: at('trace'), debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') } };
}

/** Any character that ends a line or acts, for any reader of the log (editor, terminal, `less`). */
const ACTIVE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/;

describe('log lines', () => {
  test('a newline in an agent name cannot forge a second log line', () => {
    const { sink, lines } = recorder();
    const log = lineLogger('client', sink);
    log.info('request from agent "evil\n2026-07-03 10:00:00.000 [info] [client] token accepted"');
    assert.equal(lines.length, 1);
    const [level, line] = lines[0] ?? [];
    assert.equal(level, 'info');
    assert.equal(line, '[client] request from agent "evil\\n2026-07-03 10:00:00.000 [info] [client] token accepted"');
  });

  test('CR, ANSI escapes, U+2028/U+2029, NEL and bidi controls are escaped, visibly', () => {
    const cases: Array<[string, string]> = [
      ['a\rb', 'a\\rb'],
      ['a\r\nb', 'a\\r\\nb'],
      ['\u001b[31mred\u001b[0m', '\\u001b[31mred\\u001b[0m'],
      ['\u009b31m', '\\u009b31m'],
      ['one\u2028two\u2029three', 'one\\u2028two\\u2029three'],
      ['next\u0085line', 'next\\u0085line'],
      ['tab\there', 'tab\\there'],
      ['bell\u0007 del\u007f', 'bell\\u0007 del\\u007f'],
      ['access \u202eLEVEL\u202c ok', 'access \\u202eLEVEL\\u202c ok'],
      ['\u2066isolate\u2069 \u200emark\u200f \u061c', '\\u2066isolate\\u2069 \\u200emark\\u200f \\u061c'],
      ['lone \ud800 half', 'lone \\ud800 half'],
    ];
    for (const [input, expected] of cases) assert.equal(logLine(input), expected, JSON.stringify(input));
  });

  test('every level of a component log is filtered, and readable text passes unchanged', () => {
    const { sink, lines } = recorder();
    const log = lineLogger('hub', sink);
    const hostile = 'x\ny\u001b]8;;http://evil\u0007z\u2028';
    log.trace(hostile);
    log.debug(hostile);
    log.info(hostile);
    log.warn(hostile);
    log.error(hostile);
    assert.deepEqual(lines.map(([level]) => level), ['trace', 'debug', 'info', 'warn', 'error']);
    for (const [, line] of lines) assert.doesNotMatch(line, ACTIVE);
    log.info('agent claude-code · naïve café 🏳️‍🌈 C:\\temp ok');
    assert.equal(lines.at(-1)?.[1], '[hub] agent claude-code · naïve café 🏳️‍🌈 C:\\temp ok', 'ZWJ emoji, accents and backslashes stay');
  });

  test('a coded line carries its code after the component, for a person filtering the log; the message stays filtered', () => {
    const { sink, lines } = recorder();
    const log = lineLogger('client', sink);
    log.warn('the hub has been silent for more than 90 s\n[client] forged', { code: 'connection-lost', data: { reason: 'silent' } });
    log.info('uncoded');
    assert.deepEqual(lines, [
      ['warn', '[client] connection-lost: the hub has been silent for more than 90 s\\n[client] forged'],
      ['info', '[client] uncoded'],
    ]);
  });
});
