// The one rule for agent items beside ours (src/answer/ownItems.ts) and the
// surfaces that ask it: notification buttons (distinctOptions) and the
// inline quick input's item lists (src/words/inlineWords.ts mixedItems).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { distinctOptions, lookAlikeKey, readAlike, readingKey, readsLikeOurs } from '../../src/answer/ownItems';
import { mixedItems, optionButtons, type AgentItem, type ListItem } from '../../src/words/inlineWords';
import { forSurface } from '../../src/words/untrustedText';

const OURS = ['Reply with text…', 'Open as page'];

describe('an agent label that reads like one of our items', () => {
  const colliding: Array<[string, string]> = [
    ['the same text', 'Reply with text…'],
    ['other case', 'REPLY WITH TEXT…'],
    ['three dots for the ellipsis', 'Reply with text...'],
    ['no ellipsis', 'Reply with text'],
    ['a trailing dot', 'Open as page.'],
    ['spaced dots', 'Open as page . . .'],
    ['leading and trailing spaces', '  Open as page  '],
    ['runs of inner whitespace, a tab, a no-break space', 'Open\tas\u00a0 page'],
    ['full-width letters', 'Ｏｐｅｎ ａｓ ｐａｇｅ'],
    ['an ideographic space', 'Open\u3000as page'],
    ['a zero-width space', 'Op\u200ben as page'],
    ['a zero-width joiner and a word joiner', 'Open\u200d as\u2060 page'],
    ['a BOM and bidi marks', '\ufeff\u202eOpen as page\u202c'],
    ['a soft hyphen', 'Open as pa\u00adge'],
    ['a variation selector', 'Open\ufe0f as page'],
    ['a long s for s', 'Open a\u017f page'],
    ['one full-width letter among plain ones', 'Reply with te\uff58t…'],
    ['Cyrillic letters drawn like Latin ones', '\u041e\u0440\u0435n \u0430s \u0440age'],
    ['Greek capitals drawn like Latin ones', '\u039fPEN AS PAGE'],
    ['a digit and a capital for letters close to them', '0pen as page'],
    ['a Hangul filler inside a word', 'Op\u3164en as page'],
    ['a braille blank and a combining grapheme joiner', 'Open as\u2800 pa\u034fge'],
  ];
  for (const [why, label] of colliding) {
    test(`collides: ${why} (${JSON.stringify(label)})`, () => assert.equal(readsLikeOurs(label, OURS), true));
  }

  const distinct: Array<[string, string]> = [
    ['another word', 'Reply later'],
    ['more words', 'Reply with text now'],
    ['a part of ours', 'Open'],
    ['a different letter', 'Open as pages'],
    ['plain options', 'Allow'],
    ['empty', ''],
  ];
  for (const [why, label] of distinct) {
    test(`does not collide: ${why} (${JSON.stringify(label)})`, () => assert.equal(readsLikeOurs(label, OURS), false));
  }

  test('the reading key reads letters of other scripts drawn like Latin ones as those, and nothing merely close', () => {
    assert.equal(readingKey('Y\u0435s'), 'yes');
    assert.equal(readingKey('\u0391LLOW'), 'allow');
    assert.notEqual(readingKey('AIIow'), readingKey('Allow'), 'I and l are other letters when deciding sameness');
    assert.equal(lookAlikeKey('AIIow'), lookAlikeKey('Allow'), 'but close enough to be taken for each other');
    assert.equal(lookAlikeKey('N0'), lookAlikeKey('No'));
  });

  test('characters that draw nothing read as nothing: Hangul fillers, the grapheme joiner, the braille blank', () => {
    const blanks = ['\u3164', '\u115f', '\u1160', '\uffa0', '\u034f', '\u2800', '\u{16fe4}', '\u{1d159}', '\u17b4', '\u180b', '\u{1d173}'];
    for (const blank of blanks) {
      const code = `U+${blank.codePointAt(0)?.toString(16).toUpperCase()}`;
      assert.equal(readingKey(`Y${blank}es`), 'yes', `Y${code}es`);
      assert.equal(readingKey(`Yes${blank}`), 'yes', `Yes${code}`);
      assert.equal(readingKey(blank.repeat(3)), '', `${code} alone reads as nothing`);
      assert.equal(readsLikeOurs(`${blank} ${blank}`, OURS), false, `${code} alone reads like nothing of ours`);
    }
    const shown = (label: string) => forSurface('notificationButton', label);
    const options = [{ id: 'a', label: '\u3164\u2800' }, { id: 'b', label: 'Allow' }, { id: 'c', label: 'Allow\u3164' }, { id: 'd', label: 'Deny' }];
    assert.deepEqual(distinctOptions(options, [], shown).map((option) => option.id), ['d'], 'a blank label is no button; a filler makes no other words');
  });

  test('the key folds compatibility forms and look-alike punctuation', () => {
    assert.equal(readingKey('ﬁle'), 'file');
    assert.equal(readingKey('\u212a\u017fip'), 'ksip');
    assert.equal(readingKey('Don\u2019t \u201csend\u201d \u2014 ok'), 'don\'t "send" - ok');
  });
});

describe('notification buttons', () => {
  test('an option becomes a button only if it reads unlike ours and unlike every other option', () => {
    const options = [
      { id: 'a', label: 'Allow' },
      { id: 'b', label: 'Allow\u200b' },
      { id: 'c', label: 'open' },
      { id: 'd', label: '\u0000\u202e' },
      { id: 'e', label: 'Deny' },
      { id: 'f', label: 'Deny once [Docs](command:x)' },
      { id: 'g', label: 'Ｏｐｅｎ' },
      { id: 'h', label: 'Answer...' },
      { id: 'i', label: 'Allow always' },
    ];
    const shown = (label: string) => forSurface('notificationButton', label);
    assert.deepEqual(distinctOptions(options, ['Answer', 'Open'], shown).map((option) => option.id), ['e', 'f', 'i']);
  });

  test('no button reads like the inline answer\'s own items either', () => {
    const options = [{ id: 'always_allow', label: 'Reply with text…' }, { id: 'p', label: 'open as page.' }, { id: 'allow', label: 'Allow' }];
    assert.deepEqual(optionButtons(options).map((option) => option.id), ['allow']);
  });

  test('an option whose label a button would cut is no button: its unread words would be sent at one click', () => {
    const options = [
      { id: 'cut', label: 'Allow writes to /etc and all of its subfolders' },
      { id: 'exact', label: 'x'.repeat(32) },
      { id: 'spaced', label: `  ${'y'.repeat(31)}\n ` },
      { id: 'dots', label: 'Allow…' },
      { id: 'deny', label: 'Deny' },
    ];
    assert.deepEqual(optionButtons(options).map((option) => option.id), ['exact', 'spaced', 'dots', 'deny']);
  });

  test('two labels alike in the characters a button shows are alike', () => {
    const long = 'Allow this command to run in the workspace';
    const options = [{ id: 'a', label: `${long} once` }, { id: 'b', label: `${long} always` }, { id: 'c', label: 'Deny' }];
    const shown = (label: string) => forSurface('notificationButton', label);
    assert.deepEqual(distinctOptions(options, ['Open'], shown).map((option) => option.id), ['c']);
  });
});

describe('the quick input: the agent\'s items, then ours apart', () => {
  type V = { kind: 'option'; id: string } | { kind: 'reply' } | { kind: 'page' };
  const agent = (id: string, label: string): AgentItem<V> => ({ id, label, value: { kind: 'option', id } });
  const reply: ListItem<V> = { label: 'Reply with text…', icon: 'comment', value: { kind: 'reply' } };
  const page: ListItem<V> = { label: 'Open as page', icon: 'go-to-file', value: { kind: 'page' } };

  const items = mixedItems([agent('allow', 'Allow'), agent('always_allow', 'Reply with text…'), agent('p', 'Open as page')], [reply, page]);

  test('agent items first, a separator, then ours, each with its icon; agent items have none', () => {
    assert.deepEqual(items.map((item) => ('separator' in item ? '—' : item.label)).slice(3), ['—', 'Reply with text…', 'Open as page']);
    const theirs = items.slice(0, 3);
    for (const item of theirs) assert.ok(!('separator' in item) && item.icon === undefined);
    const ours = items.slice(4);
    for (const item of ours) assert.ok(!('separator' in item) && item.icon !== undefined);
  });

  test('an agent label that reads like ours says it is the agent\'s, and reads unlike ours', () => {
    const labels = items.slice(0, 3).map((item) => ('separator' in item ? '' : item.label));
    assert.deepEqual(labels, ['Allow', 'Reply with text… (from the agent: id always_allow)', 'Open as page (from the agent: id p)']);
    for (const label of labels) assert.equal(readsLikeOurs(label, OURS), false);
  });

  test('typed words that begin one of ours rank ours first (VS Code: the shorter of two prefix matches)', () => {
    for (const item of items) {
      if ('separator' in item || item.icon !== undefined) continue;
      const own = [reply, page].find((o) => readsLikeOurs(item.label.split(' (from the agent')[0] ?? '', [o.label]));
      if (own) assert.ok(forSurface('quickPickLabel', item.label).length > own.label.length, item.label);
    }
  });

  test('an agent label with `$(icon)` syntax shows no icon', () => {
    const [shown] = mixedItems([agent('x', '$(check) Reply with text…')], [reply]);
    assert.ok(shown && !('separator' in shown));
    assert.doesNotMatch(forSurface('quickPickLabel', shown.label), /\$\(/);
  });

  test('no separator when only ours are listed', () => {
    assert.deepEqual(mixedItems([], [reply, page]), [reply, page]);
  });
});

describe('two of the agent\'s items that read alike are told apart by their ids, wherever they are offered', () => {
  test('readAlike: alike by the look-alike key, or reading as nothing; the rest are not', () => {
    assert.deepEqual(readAlike(['Allow', 'Deny', 'ALLOW', 'Allow\u202e', 'Aliow', '\u200b', 'Once']), [true, false, true, true, true, true, false]);
    assert.deepEqual(readAlike(['Allow', 'Deny']), [false, false]);
  });

  test('the quick input names each with its id, and leaves the others as the agent wrote them', () => {
    const agent: Array<AgentItem<string>> = [
      { id: 'allow_once', label: 'Allow', value: 'allow_once' },
      { id: 'allow_always', label: 'Allow', value: 'allow_always' },
      { id: 'deny', label: 'Deny', value: 'deny' },
    ];
    const labels = mixedItems(agent, []).map((item) => ('label' in item ? item.label : ''));
    assert.deepEqual(labels, ['Allow (from the agent: id allow_once)', 'Allow (from the agent: id allow_always)', 'Deny']);
    assert.equal(new Set(labels).size, labels.length, 'every row reads differently');
  });
});
