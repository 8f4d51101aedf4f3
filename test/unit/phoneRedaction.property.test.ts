// Phone numbers among the other numbers of ordinary text, as a property: a
// line of generated parts, phone numbers in the national and international
// formats people write (test/support/redactionCorpus.ts) and the numbers the
// pipeline keeps (dates, versions, IPv4 addresses of a version's shape, times, line:col
// references, ports, durations, hashes), in any order. Every digit of every
// phone number goes, every other part reads as it was. Parts stand apart as
// text puts them (`, `, ` and `), and the shapes that stay sit right beside a
// number too (one space): they never shield one. (After a number in
// international form they go with it: `+` opens a number whatever its groups
// look like.) fast-check prints the seed and the shrunk case on failure.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { redactText } from '../../src/aep/redaction';
import { PHONE_FORMATS } from '../support/redactionCorpus';

const formats = Object.values(PHONE_FORMATS).flat();
const digit = fc.integer({ min: 0, max: 9 }).map(String);
const phone = fc
  .tuple(fc.constantFrom(...formats), fc.array(digit, { minLength: 15, maxLength: 15 }))
  .map(([format, digits]) => {
    let next = 0;
    return format.replace(/#/g, () => digits[next++] ?? '0');
  });

const upTo = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'));
const byte = fc.integer({ min: 0, max: 255 }).map(String);
const small = fc.integer({ min: 0, max: 30 }).map(String);
const date = fc
  .tuple(fc.integer({ min: 1990, max: 2039 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 }), fc.constantFrom('-', '.'))
  .map(([y, m, d, sep]) => {
    const [mm, dd] = [String(m).padStart(2, '0'), String(d).padStart(2, '0')];
    return sep === '-' ? `${y}-${mm}-${dd}` : `${dd}.${mm}.${y}`;
  });
/**
 * An address with a one-digit group, `192.168.1.10`: it stays as a version's
 * shape. One whose every group has two digits or more does not (`12.34.56.78`
 * is how Denmark writes a phone number; PHONE_FORMATS has it).
 */
const address = fc.tuple(fc.integer({ min: 1, max: 255 }), byte, fc.integer({ min: 0, max: 9 }), byte).map((p) => p.join('.'));
/** The shapes that stay (the list beside the phone rule in redaction.ts): as whole chunks, beside a phone number too. */
const standsBeside = fc.oneof(
  date,
  fc.tuple(small, fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 99999 })).map(([a, b, c]) => `${a}.${b}.${c}`),
  address,
);
/** Other ordinary numbers, kept as long as text separates them from a phone number. */
const standsApart = fc.oneof(
  standsBeside,
  fc.tuple(date, upTo(23), upTo(59), upTo(59), fc.integer({ min: 0, max: 999999 })).map(([d, h, m, s, f]) => `${d} ${h}:${m}:${s}.${f}`),
  fc.tuple(fc.stringMatching(/^[a-z]{1,8}$/), fc.integer({ min: 1, max: 99999 }), fc.integer({ min: 1, max: 200 })).map(([f, l, c]) => `src/${f}.ts:${l}:${c}`),
  fc.tuple(address, fc.integer({ min: 1, max: 65535 })).map(([ip, port]) => `${ip}:${port}`),
  fc.integer({ min: 0, max: 999999 }).map((ms) => `took ${ms} ms`),
  fc.stringMatching(/^[0-9a-f]{39}[a-f]$/).map((sha) => `commit ${sha}`),
);

test('every digit of a phone number goes; the other numbers of a line stay', () => {
  fc.assert(
    fc.property(
      fc.array(fc.oneof(phone.map((text) => ({ text, phone: true })), standsApart.map((text) => ({ text, phone: false }))), { minLength: 1, maxLength: 6 }),
      fc.array(fc.constantFrom(', ', ' and ', '; ', ' (or) '), { minLength: 6, maxLength: 6 }),
      (parts, glue) => {
        const text = parts.map((p, i) => (i === 0 ? '' : glue[i] ?? ', ') + p.text).join('');
        const out = redactText(text).text;
        const expected = parts.map((p, i) => (i === 0 ? '' : glue[i] ?? ', ') + (p.phone ? '[REDACTED:pii]' : p.text)).join('');
        // A `(` a number opens and does not close stays outside the replacement.
        assert.equal(out.replace(/\((?=\[REDACTED:pii\])/g, ''), expected.replace(/\((?=\[REDACTED:pii\])/g, ''));
      },
    ),
  );
});

test('a date, version or address right beside a phone number does not keep any of it', () => {
  fc.assert(
    fc.property(standsBeside, phone, fc.boolean(), (shape, number, before) => {
      const text = before || number.startsWith('+') ? `${shape} ${number}` : `${number} ${shape}`;
      const out = redactText(text).text;
      assert.ok(out.includes('[REDACTED:pii]'), out);
      // The phone's own digits are all gone: what is left is the shape and the replacement.
      assert.equal(out.replace('[REDACTED:pii]', '').replace(/[() ]/g, ''), shape.replace(/[() ]/g, ''), out);
    }),
  );
});
