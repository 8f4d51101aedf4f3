// The request page under VS Code's default light, dark and high-contrast
// themes, in headless Chromium: a screenshot of each (out/webview/), and
// readability measured, not eyeballed: the key text's colour against what
// it is really drawn on must reach WCAG AA contrast, and in high-contrast
// themes every input and button must carry the theme's contrast border,
// and the focused field must show its focus in every theme.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { before, describe, test, type TestContext } from 'node:test';
import type { PageRequest } from '../../src/shared/webviewMessages';
import { contrastRatio, parseColor, toHex } from '../support/contrast';
import { goldenEvents, readAepJson, repoRoot } from '../support/fixtures';
import { borders, formatSample, textContrast, type BorderSample, type TextProbe } from '../support/readability';
import { goldenForm, rawRequestEvent, requestEvent, viewOf } from '../support/pageRequests';
import { knownVariables, THEMES, type VsCodeTheme } from '../support/vscodeThemes';
import { requestPages, type WebviewPage } from '../support/webviewHarness';
import { chromiumSuite } from '../support/harness';

const SHOTS = path.join(repoRoot(), 'out', 'webview');
const VIEWPORT = { width: 860, height: 640 };

/** Who is asking and what: on every page. */
const HEADER: TextProbe[] = [
  { name: 'provenance term', selector: '.provenance dt' },
  { name: 'provenance value', selector: '.provenance dd' },
  { name: 'question heading', selector: '.from-agent h1' },
  { name: 'prompt', selector: '#prompt h1' },
];
const BUTTONS: TextProbe = { name: 'button text', selector: 'vscode-button' };

const FORM: TextProbe[] = [
  ...HEADER,
  { name: 'redaction tag', selector: '.tag' },
  { name: 'question label', selector: '.field-label' },
  { name: 'hint', selector: '.hint' },
  { name: 'choice label', selector: 'vscode-radio > span, vscode-checkbox > span' },
  { name: 'input text', selector: '#field-3-other', shadow: '.control' },
  { name: 'validation message', selector: '.error' },
  { name: 'outcome line', selector: '#outcome' },
  BUTTONS,
  { name: 'shortcut hint', selector: '.shortcut' },
];
const PERMISSION: TextProbe[] = [
  ...HEADER,
  { name: 'reply label', selector: '#reply-label' },
  { name: 'input text', selector: '#reply', shadow: '.control' },
  BUTTONS,
];
const UNSUPPORTED: TextProbe[] = [
  { name: 'cannot-answer note', selector: '.unsupported' },
  { name: 'declared type', selector: '.unsupported code' },
];
const OOB: TextProbe[] = [
  ...HEADER,
  { name: 'information line', selector: '.informational' },
  { name: 'option offered elsewhere', selector: '.options-info li' },
  { name: 'status line', selector: '#status' },
];

/** Everything that takes input or is pressed (where its border is drawn), and the badges. */
const BOXES = [
  { selector: 'vscode-text-field', shadow: '.root' },
  { selector: 'vscode-text-area', shadow: '.control' },
  { selector: 'vscode-button', shadow: '.control' },
  { selector: 'vscode-checkbox', shadow: '.control' },
  { selector: 'vscode-radio', shadow: '.control' },
  { selector: '.tag' },
];

describe('request page: themes', chromiumSuite(), () => {
  const pages = requestPages();
  before(() => fs.mkdirSync(SHOTS, { recursive: true }));
  const open = (theme: VsCodeTheme, request: PageRequest) => pages.open(request, { theme, viewport: VIEWPORT });

  const screenshot = async (t: TestContext, page: WebviewPage, name: string) => {
    const file = path.join(SHOTS, `${name}.png`);
    await page.page.screenshot({ path: file, fullPage: true });
    t.diagnostic(`screenshot: ${path.relative(repoRoot(), file)}`);
  };

  /** Every probed text reaches its contrast; each kind of text reports its weakest ratio. */
  const assertReadable = async (t: TestContext, page: WebviewPage, theme: VsCodeTheme, probes: TextProbe[]) => {
    const samples = await textContrast(page.page, probes);
    samples.sort((a, b) => a.ratio - b.ratio);
    for (const probe of probes) {
      const all = samples.filter((s) => s.probe === probe.name);
      if (all[0]) t.diagnostic(`${formatSample(all[0])}${all.length > 1 ? `, weakest of ${all.length}` : ''}`);
    }
    const failing = samples.filter((s) => s.ratio < s.required || s.opacity < 1);
    assert.deepEqual(failing.map((s) => `${formatSample(s)}${s.opacity < 1 ? ` at opacity ${s.opacity}` : ''}`), [], `text below WCAG AA contrast in ${theme.label}`);
  };

  const sameColor = (a: string, b: string | null) => b !== null && JSON.stringify(parseColor(a)) === JSON.stringify(parseColor(b));
  const borderProblems = (sample: BorderSample, colors: Array<string | null>, what: string): string[] => {
    const problems = [...new Set(sample.sides
      .filter((side) => side.width < 1 || side.style === 'none' || side.style === 'hidden' || !colors.some((c) => sameColor(side.color, c)))
      .map((side) => `${sample.where}: border ${side.width}px ${side.style} ${toHex(parseColor(side.color))}, expected ${what}`))];
    if (sample.ratio < 3) problems.push(`${sample.where}: border only ${sample.ratio.toFixed(2)}:1 against ${sample.outside}`);
    return problems;
  };
  const describeBorder = (sample: BorderSample) =>
    `border ${sample.where}${sample.focused ? ' (focused)' : ''}: ${[...new Set(sample.sides.map((s) => `${s.width}px ${s.style} ${toHex(parseColor(s.color))}`))].join(' / ')}, ${sample.ratio.toFixed(2)}:1 against ${sample.outside}`;

  /**
   * High contrast: every control and badge has its edge drawn, in the
   * contrast border colour; the focused control in the focus colour instead,
   * so that focus stays visible.
   */
  const assertContrastBorders = async (t: TestContext, page: WebviewPage, theme: VsCodeTheme) => {
    assert.ok(theme.colors.contrastBorder, `${theme.label} has a contrast border`);
    const samples = await borders(page.page, BOXES);
    assert.ok(samples.length > 0, 'there are controls to check');
    const problems: string[] = [];
    for (const sample of samples) {
      t.diagnostic(describeBorder(sample));
      problems.push(...(sample.focused
        ? borderProblems(sample, [theme.colors.focusBorder, theme.colors.contrastActiveBorder], `the focus colour ${theme.colors.focusBorder}`)
        : borderProblems(sample, [theme.colors.contrastBorder], `the contrast border ${theme.colors.contrastBorder}`)));
    }
    assert.deepEqual(problems, [], `controls without a visible contrast border in ${theme.label}`);
  };

  /** The focused text control shows it: its border turns the theme's focus colour, at 3:1 or more against the page. */
  const assertFocusVisible = async (t: TestContext, page: WebviewPage, theme: VsCodeTheme, target: { selector: string; shadow: string }) => {
    const [sample] = await borders(page.page, [target]);
    assert.ok(sample?.focused, `${target.selector} has focus`);
    t.diagnostic(describeBorder(sample));
    assert.deepEqual(borderProblems(sample, [theme.colors.focusBorder], `the focus colour ${theme.colors.focusBorder}`), [], `focus not visible in ${theme.label}`);
  };

  /** The page really took the theme: the body's class and colours, and the components' tokens, are the theme's. */
  const assertThemed = async (page: WebviewPage, theme: VsCodeTheme) => {
    const seen = await page.page.evaluate(() => ({
      kind: document.body.dataset['vscodeThemeKind'],
      classes: [...document.body.classList],
      background: getComputedStyle(document.body).backgroundColor,
      color: getComputedStyle(document.body).color,
      // The toolkit copies the theme into its design tokens when the page loads.
      buttonBackground: getComputedStyle(document.body).getPropertyValue('--button-primary-background'),
    }));
    assert.equal(seen.kind, theme.kind);
    assert.ok(seen.classes.includes(theme.kind), seen.classes.join(' '));
    assert.deepEqual(parseColor(seen.background), parseColor(theme.colors['editor.background']!));
    assert.deepEqual(parseColor(seen.color), parseColor(theme.colors.foreground!));
    // Dark high contrast has no button background; the toolkit makes it transparent there.
    assert.deepEqual(parseColor(seen.buttonBackground), parseColor(theme.colors['button.background'] ?? 'transparent'));
  };

  test('every --vscode-* variable the page can read is in the theme sets', () => {
    const root = repoRoot();
    const sources = [
      path.join(root, 'media', 'webview', 'form.css'),
      ...fs.readdirSync(path.join(root, 'webview')).filter((f) => f.endsWith('.ts')).map((f) => path.join(root, 'webview', f)),
      path.join(root, 'node_modules', '@vscode', 'webview-ui-toolkit', 'dist', 'design-tokens.js'),
    ];
    const read = new Set(sources.flatMap((file) => fs.readFileSync(file, 'utf8').match(/--vscode-[A-Za-z0-9-]+/g) ?? []));
    assert.ok(read.size > 30, `found ${read.size} variables`);
    const known = knownVariables();
    assert.deepEqual([...read].filter((name) => !known.has(name)).sort(), [], 'variables read by the page but missing from test/support/vscodeThemes.ts');
  });

  test('the contrast maths matches WCAG', () => {
    const ratio = (fg: string, bg: string) => Math.round(contrastRatio(parseColor(fg), parseColor(bg)) * 100) / 100;
    assert.equal(ratio('#000000', '#ffffff'), 21);
    assert.equal(ratio('#ffffff', '#ffffff'), 1);
    assert.equal(ratio('#767676', '#ffffff'), 4.54);
    assert.equal(ratio('rgb(119, 119, 119)', 'rgb(255, 255, 255)'), 4.48);
    // Translucent text is blended over its background first: white at 70% over black is grey 178.5.
    assert.equal(ratio('rgba(255, 255, 255, 0.7)', '#000000'), ratio('rgb(178.5, 178.5, 178.5)', '#000000'));
  });

  for (const theme of Object.values(THEMES)) {
    const highContrast = theme.kind === 'vscode-high-contrast' || theme.kind === 'vscode-high-contrast-light';

    describe(theme.label, () => {
      test('the golden form, with a validation error and a focused field', async (t) => {
        const page = await open(theme, viewOf(goldenForm()));
        const p = page.page;
        await assertThemed(page, theme);
        await p.locator('[data-field="staged"] vscode-checkbox').click();
        await p.locator('[data-field="db"] vscode-radio').last().click();
        await p.locator('#field-3-other').waitFor({ state: 'visible' });
        await p.locator('#field-3-other').click();
        await p.keyboard.type('MariaDB');
        await p.locator('#send').click();
        await p.locator('#field-0-error').waitFor({ state: 'visible' });
        assert.equal(await p.evaluate(() => document.activeElement?.id), 'field-0', 'the invalid field has focus');
        await screenshot(t, page, `form-${theme.name}`);
        await assertReadable(t, page, theme, FORM);
        await assertFocusVisible(t, page, theme, { selector: '#field-0', shadow: '.root' });
        if (highContrast) await assertContrastBorders(t, page, theme);
        // Once focus moves on, the invalid field is still marked, in the theme's validation error border.
        await p.locator('#field-3-other').click();
        const [invalid] = await borders(p, [{ selector: '#field-0', shadow: '.root' }]);
        assert.ok(invalid && !invalid.focused);
        assert.ok(invalid.sides.every((side) => sameColor(side.color, theme.colors['inputValidation.errorBorder'])), describeBorder(invalid));
      });

      test('a permission request with a reason typed', async (t) => {
        const page = await open(theme, viewOf(goldenEvents().find((e) => e.id === '01JX9YB4RQ000000000000GOLD')!));
        await assertThemed(page, theme);
        await page.page.locator('#reply').click();
        await page.page.keyboard.type('only in build/');
        await screenshot(t, page, `permission-${theme.name}`);
        await assertReadable(t, page, theme, PERMISSION);
        await assertFocusVisible(t, page, theme, { selector: '#reply', shadow: '.control' });
        if (highContrast) await assertContrastBorders(t, page, theme);
      });

      test('a field type the page cannot answer', async (t) => {
        const page = await open(theme, viewOf(requestEvent({ kind: 'form', prompt: 'When?', fields: [{ id: 'when', type: 'date', label: 'Date' }] })));
        await assertReadable(t, page, theme, UNSUPPORTED);
      });

      test('an out-of-band card, once answered elsewhere', async (t) => {
        const hermes = readAepJson<{ hooks: { pre_approval_request: { expected: Array<{ type: string; data: Record<string, unknown> }> } } }>('mappings/hermes.json');
        const card = hermes.hooks.pre_approval_request.expected.find((e) => e.type === 'attention.requested')!;
        const page = await open(theme, viewOf(rawRequestEvent(card.data)));
        await assertThemed(page, theme);
        await page.post({ type: 'update', status: 'resolved', resolution: 'answered', reachability: { state: 'reachable' }, now: Date.now() });
        await page.page.waitForFunction(() => document.getElementById('status')?.textContent !== '');
        await screenshot(t, page, `oob-${theme.name}`);
        await assertReadable(t, page, theme, OOB);
      });
    });
  }
});
