// The README names settings, commands and the extension's own words. A name
// that drifts from package.json, package.nls.json or the l10n bundle sends a
// reader looking for something that is not there, so each is checked here.
// The two sections a person reads when wiring their agents and when something
// goes wrong ("Use it with your agents", "Troubleshooting") are held to the
// UI's words exactly: every quoted phrase and every bold label in them is one
// the extension shows.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { repoRoot } from '../support/fixtures';

function read(file: string): string {
  return fs.readFileSync(path.join(repoRoot(), file), 'utf8');
}

interface Manifest {
  contributes: {
    configuration: { properties: Record<string, unknown> } | { properties: Record<string, unknown> }[];
    commands: { command: string; title: string }[];
  };
}

const readme = read('README.md');
const manifest = JSON.parse(read('package.json')) as Manifest;
const nls = JSON.parse(read('package.nls.json')) as Record<string, string>;
const bundle = Object.keys(JSON.parse(read('l10n/bundle.l10n.json')) as Record<string, unknown>);

const configurations = Array.isArray(manifest.contributes.configuration) ? manifest.contributes.configuration : [manifest.contributes.configuration];
const settings = new Set(configurations.flatMap((c) => Object.keys(c.properties)));
const commandIds = new Set(manifest.contributes.commands.map((c) => c.command));
/** Command titles as the Command Palette shows them (package.nls.json resolves `%key%`). */
const commandTitles = new Set(
  manifest.contributes.commands.map((c) => {
    const key = /^%(.+)%$/.exec(c.title)?.[1];
    return key === undefined ? c.title : (nls[key] ?? c.title);
  }),
);

/** The text under a `## ` heading, up to the next `## ` heading. */
function section(heading: string): string {
  const lines = readme.split('\n');
  const start = lines.indexOf(`## ${heading}`);
  assert.ok(start >= 0, `README has no "## ${heading}" heading`);
  const end = lines.findIndex((line, i) => i > start && line.startsWith('## '));
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

/** A phrase as it reads, whatever line breaks the Markdown source put in it. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Prose only: fenced code blocks and inline code are commands and values, not the UI's words. */
function prose(text: string): string {
  return text.replace(/^[ \t]*```[\s\S]*?^[ \t]*```/gm, '').replace(/`[^`\n]*`/g, '');
}

/** Whether `phrase` is what the UI says: a part of one of its strings, or one of them with its `{0}` filled in. */
function isUiWords(phrase: string): boolean {
  return [...bundle, ...Object.values(nls)].some((words) => {
    if (words.includes(phrase)) return true;
    const pattern = words
      .split(/\{\d+\}/)
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.+');
    return new RegExp(`^${pattern}$`).test(phrase);
  });
}

const agentSections = () => [section('Use it with your agents'), section('Troubleshooting')].join('\n');

describe('README', () => {
  test('"Use it with your agents" comes right after the demo, and "Troubleshooting" is there (the walkthrough links to both)', () => {
    const headings = readme.split('\n').filter((line) => line.startsWith('## '));
    const demo = headings.indexOf('## Try it in one command');
    assert.ok(demo >= 0);
    assert.equal(headings[demo + 1], '## Use it with your agents');
    assert.ok(headings.includes('## Troubleshooting'));
  });

  test('every aepAttention.* it names is a contributed setting or command', () => {
    const named = new Set([...readme.matchAll(/aepAttention\.[A-Za-z.]*[A-Za-z]/g)].map((m) => m[0]));
    assert.ok(named.size > 10, `found ${named.size}`);
    const unknown = [...named].filter((name) => !settings.has(name) && !commandIds.has(name));
    assert.deepEqual(unknown, []);
  });

  test('every "AEP Attention: …" command it names is a command title', () => {
    const named = new Set([...readme.matchAll(/\*\*AEP Attention: ([^*]+)\*\*/g)].map((m) => oneLine(m[1] ?? '')));
    assert.ok(named.size >= 3, `found ${named.size}`);
    const unknown = [...named].filter((title) => !commandTitles.has(title));
    assert.deepEqual(unknown, []);
  });

  test('in the agents and troubleshooting sections, every quoted phrase is the UI\'s words exactly', () => {
    const quoted = [...prose(agentSections()).matchAll(/"([^"]+)"/g)].map((m) => oneLine(m[1] ?? ''));
    assert.ok(quoted.length >= 8, `found ${quoted.length}`);
    const notUi = quoted.filter((phrase) => !isUiWords(phrase));
    assert.deepEqual(notUi, []);
  });

  test('in the agents and troubleshooting sections, every bold label is a command or a button the extension shows', () => {
    const bold = [...prose(agentSections()).matchAll(/\*\*([^*]+)\*\*/g)].map((m) => oneLine(m[1] ?? ''));
    assert.ok(bold.length >= 4, `found ${bold.length}`);
    const unknown = bold.filter((label) => {
      const title = label.replace(/^AEP Attention: /, '');
      return !commandTitles.has(title) && !bundle.includes(label) && !Object.values(nls).includes(label);
    });
    assert.deepEqual(unknown, []);
  });
});
