// One registry of our own action words (src/shared/ownActionWords.ts) and
// the one rule that reads from it (src/answer/ownItems.ts): every entry, in
// the spellings an agent could use, is marked as the agent's on every
// surface that puts our words beside agent text (the notification's buttons,
// the quick input's items, Answer Similar's pick, the request page); and
// every button or item those surfaces word is an entry, so one added later
// cannot be forgotten.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import ts from 'typescript';
import { optionPassesForOurs, readsLikeOurs } from '../../src/answer/ownItems';
import { ANY_COUNT, OWN_ACTIONS, ownActionWords } from '../../src/shared/ownActionWords';
import { similarOptionName } from '../../src/words/similarWords';
import { mixedItems, optionButtons } from '../../src/words/inlineWords';
import { repoRoot } from '../support/fixtures';

/** Spellings of `words` a reader takes for them: case, dots for the ellipsis, full width, Cyrillic and Greek letters, invisibles. */
function spellings(words: string): string[] {
  const fullWidth = [...words].map((ch) => (ch >= '!' && ch <= '~' ? String.fromCharCode(ch.charCodeAt(0) + 0xfee0) : ch)).join('');
  const cyrillic = words.replace(/[aeopcxy]/g, (ch) => ({ a: 'а', e: 'е', o: 'о', p: 'р', c: 'с', x: 'х', y: 'у' })[ch] ?? ch);
  const greek = words.replace(/[AEOT]/g, (ch) => ({ A: 'Α', E: 'Ε', O: 'Ο', T: 'Τ' })[ch] ?? ch);
  return [words, words.toUpperCase(), words.toLowerCase(), words.replace(/…$/u, '...'), `${words}.`, fullWidth, cyrillic, greek, `\u200b${words.replace(' ', ' \u200d')}\u2060`];
}

/** Each entry as an agent could write it: a number in every form an agent might put in its place. */
function agentSpellings(name: keyof typeof OWN_ACTIONS): string[] {
  const entry: { words: (count: number | string) => string } = OWN_ACTIONS[name];
  const template = entry.words(ANY_COUNT);
  const filled = template.includes(ANY_COUNT) ? ['2', '99', '１２', '٣', '1,000', 'all'].map((count) => template.replace(ANY_COUNT, count)) : [template];
  return filled.flatMap(spellings);
}

describe('every entry of the registry, as an agent would spell it, is marked as the agent\'s on every surface', () => {
  for (const name of Object.keys(OWN_ACTIONS) as Array<keyof typeof OWN_ACTIONS>) {
    test(name, () => {
      for (const label of agentSpellings(name)) {
        const shown = JSON.stringify(label);
        assert.equal(readsLikeOurs(label), true, `${shown} reads like ours`);
        // The quick input and the page ask this one rule before sending it: the extra step.
        assert.equal(optionPassesForOurs(label), true, `${shown} needs the extra step`);
        // The notification: never a one-click button.
        assert.deepEqual(optionButtons([{ id: 'x', label }, { id: 'deny', label: 'Deny' }]).map((option) => option.id), ['deny'], `${shown} is no button`);
        // The quick input: it says whose it is, so it needs the extra step.
        const [item] = mixedItems([{ id: 'x', label, value: 'x' }], []);
        assert.ok(item && 'label' in item && item.label.endsWith('(from the agent: id x)'), `${shown} in the quick input: ${JSON.stringify(item)}`);
        // Answer Similar's pick says it too.
        assert.match(similarOptionName({ id: 'x', label, position: 1 }), /\(from the agent: id x\)$/, `${shown} in Answer Similar`);
      }
    });
  }

  test('the issue\'s case: an option "Answer 2 Similar…" (id allow_always) is no notification button', () => {
    const options = [{ id: 'allow', label: 'Allow' }, { id: 'allow_always', label: 'Answer 2 Similar…' }, { id: 'deny', label: 'Deny' }];
    assert.deepEqual(optionButtons(options).map((option) => option.id), ['allow', 'deny']);
  });

  test('words merely close to ours are caught too (I and l, 0 and O); words unlike ours are not', () => {
    for (const label of ['0pen', 'Open lnbox', 'Answer 2 Simi1ar', 'Rep1y with text…', 'Send rep|y only']) assert.equal(readsLikeOurs(label), true, label);
    for (const label of ['Allow', 'Deny', 'Allow always', 'Open the file', 'Answer later', 'Similar', 'Yes', 'No']) assert.equal(readsLikeOurs(label), false, label);
  });

  test('an option withheld at capture is named in our words by place and id: it passes for nothing of ours', () => {
    assert.equal(optionPassesForOurs(undefined), false);
    for (const label of ['Allow', 'Deny', 'Yes']) assert.equal(optionPassesForOurs(label), false, label);
  });

  test('the registry words every entry, and each on some surface', () => {
    assert.equal(ownActionWords().length, Object.keys(OWN_ACTIONS).length);
    for (const [name, entry] of Object.entries(OWN_ACTIONS)) {
      assert.ok(entry.surfaces.length > 0, name);
      assert.notEqual(entry.words(2).trim(), '', name);
    }
  });
});

// ---- every word the surfaces give our buttons is an entry ----------------------

/** The files that put our buttons or items beside an agent's options. */
const SURFACE_FILES = [
  'src/ui/notifications/notifier.ts',
  'src/ui/notifications/osNotifications.ts',
  'src/ui/answering/answerSimilarFlow.ts',
  'src/words/similarWords.ts',
  'src/app/answering/inlineFlow.ts',
  'src/ui/answering/quickInputs.ts',
  'webview/answerForm.ts',
  'webview/sendConfirmation.ts',
];

/**
 * Words in those files that are no action of ours beside the agent's: the
 * boolean field's Yes/No (a pick of ours only), the steps after the person's
 * own answer (edit, send redacted or as typed), a request's row in Answer
 * Similar's checklist (the agent's name, "agent via hub").
 */
const NOT_BESIDE_AGENT_TEXT = new Set(['Yes', 'No', 'Edit answer', 'Send redacted', 'Send as typed', 'Send', '{0} via {1}']);

/**
 * Where a button's or an item's words are given: `title:` or `label:` of a
 * choice or item (it has a `value`), `tooltip:` of a quick input button (it
 * has an `iconPath`), `button(…)`, `confirm(…, action)`.
 */
function ownWordsIn(file: string): string[] {
  const source = ts.createSourceFile(file, fs.readFileSync(path.join(repoRoot(), file), 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const isL10n = (node: ts.Node): node is ts.CallExpression =>
    ts.isCallExpression(node) && node.expression.getText(source) === 'l10n.t' && node.arguments[0] !== undefined && ts.isStringLiteralLike(node.arguments[0]);
  const visit = (node: ts.Node): void => {
    if (isL10n(node)) {
      let at: ts.Node = node;
      while (ts.isConditionalExpression(at.parent) || ts.isParenthesizedExpression(at.parent)) at = at.parent;
      const parent = at.parent;
      const sibling = (name: string) => ts.isObjectLiteralExpression(parent.parent) && parent.parent.properties.some((property) => property.name?.getText(source) === name);
      const asButton =
        (ts.isPropertyAssignment(parent) && ['title', 'label'].includes(parent.name.getText(source)) && sibling('value')) ||
        (ts.isPropertyAssignment(parent) && parent.name.getText(source) === 'tooltip' && sibling('iconPath')) ||
        (ts.isCallExpression(parent) && ['button', 'confirm'].includes(parent.expression.getText(source)) && parent.arguments.indexOf(at as ts.Expression) === (parent.expression.getText(source) === 'confirm' ? 1 : 0));
      const literal = node.arguments[0];
      if (asButton && literal && ts.isStringLiteralLike(literal)) found.push(literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

test('every button and item word of the surfaces beside agent text is in the registry', () => {
  const registry = new Set(Object.values(OWN_ACTIONS).map((entry: { words: (count: string) => string }) => entry.words('{0}')));
  const seen: string[] = [];
  const missing: string[] = [];
  for (const file of SURFACE_FILES) {
    for (const words of ownWordsIn(file)) {
      seen.push(words);
      if (!registry.has(words) && !NOT_BESIDE_AGENT_TEXT.has(words)) missing.push(`${file}: ${JSON.stringify(words)}`);
    }
  }
  assert.ok(seen.length >= 5, `found ${seen.length} words`);
  assert.deepEqual(missing, [], 'add these to src/shared/ownActionWords.ts (or say here why they never stand beside an agent\'s words)');
});
