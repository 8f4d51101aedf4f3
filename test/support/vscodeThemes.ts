// VS Code's four default theme kinds, as a webview sees them: the theme's
// colours as `--vscode-*` custom properties on <html>, a theme class and
// `data-vscode-theme-kind` on <body>, and VS Code's default webview styles.
//
// Only the colours the page can read are listed: every `--vscode-*` variable
// in media/webview/form.css, in webview/, in the component toolkit's design tokens,
// and in VS Code's default webview styles (themes.test.ts checks that no
// variable read is missing here). Values are those of VS Code's built-in
// themes (extensions/theme-defaults/themes/*.json over the colour registry's
// defaults, src/vs/platform/theme/common/colors/*.ts), written out by hand.
// `null` means VS Code sends no value for that colour in that theme (the
// registry default is null there), so the variable is absent, as in VS Code.

export type ThemeName = 'light' | 'dark' | 'hc-dark' | 'hc-light';

/** The body class (and `data-vscode-theme-kind`) VS Code gives each kind of theme. */
export type ThemeKind = 'vscode-light' | 'vscode-dark' | 'vscode-high-contrast' | 'vscode-high-contrast-light';

/** Colour ids as VS Code's colour registry names them (`inputValidation.errorBorder`). */
export const THEME_COLORS = [
  'foreground', 'descriptionForeground', 'errorForeground', 'focusBorder', 'contrastBorder', 'contrastActiveBorder',
  'editor.background', 'editor.foreground', 'widget.border', 'widget.shadow',
  'panel.background', 'panel.border', 'panelTitle.activeBorder', 'panelTitle.activeForeground', 'panelTitle.inactiveForeground',
  'textLink.foreground', 'textLink.activeForeground', 'textPreformat.foreground', 'textPreformat.background',
  'textBlockQuote.background', 'textBlockQuote.border',
  'badge.background', 'badge.foreground',
  'button.background', 'button.foreground', 'button.border', 'button.hoverBackground',
  'button.secondaryBackground', 'button.secondaryForeground', 'button.secondaryHoverBackground',
  'checkbox.background', 'checkbox.foreground', 'checkbox.border',
  'dropdown.background', 'dropdown.foreground', 'dropdown.border', 'dropdown.listBackground',
  'input.background', 'input.foreground', 'input.border', 'input.placeholderForeground',
  'inputValidation.errorBackground', 'inputValidation.errorForeground', 'inputValidation.errorBorder',
  'inputValidation.warningBackground', 'inputValidation.warningForeground', 'inputValidation.warningBorder',
  'inputValidation.infoBackground', 'inputValidation.infoForeground', 'inputValidation.infoBorder',
  'list.activeSelectionBackground', 'list.activeSelectionForeground', 'list.hoverBackground',
  'settings.dropdownListBorder', 'progressBar.background',
  'scrollbarSlider.background', 'scrollbarSlider.hoverBackground', 'scrollbarSlider.activeBackground',
  'keybindingLabel.background', 'keybindingLabel.foreground', 'keybindingLabel.border', 'keybindingLabel.bottomBorder',
  'editor.findMatchBackground', 'editor.findMatchHighlightBackground',
  'testing.iconPassed',
] as const;
export type ThemeColor = (typeof THEME_COLORS)[number];

export interface VsCodeTheme {
  name: ThemeName;
  /** The theme's label (`data-vscode-theme-name`). */
  label: string;
  /** The theme's id (`data-vscode-theme-id`). */
  id: string;
  kind: ThemeKind;
  colors: Readonly<Record<ThemeColor, string | null>>;
}

/** VS Code's font variables for webviews (defaults on Linux: workbench font, editor font and size). */
const FONTS = {
  'vscode-font-family': 'system-ui, "Ubuntu", "Droid Sans", sans-serif',
  'vscode-font-weight': 'normal',
  'vscode-font-size': '13px',
  'vscode-editor-font-family': '"Droid Sans Mono", "monospace", monospace',
  'vscode-editor-font-weight': 'normal',
  'vscode-editor-font-size': '14px',
};

const darkModern: VsCodeTheme = {
  name: 'dark',
  label: 'Dark Modern',
  id: 'Default Dark Modern',
  kind: 'vscode-dark',
  colors: {
    foreground: '#cccccc', descriptionForeground: '#9d9d9d', errorForeground: '#f85149', focusBorder: '#0078d4',
    contrastBorder: null, contrastActiveBorder: null,
    'editor.background': '#1f1f1f', 'editor.foreground': '#cccccc', 'widget.border': '#313131', 'widget.shadow': '#0000005c',
    'panel.background': '#181818', 'panel.border': '#2b2b2b',
    'panelTitle.activeBorder': '#0078d4', 'panelTitle.activeForeground': '#cccccc', 'panelTitle.inactiveForeground': '#9d9d9d',
    'textLink.foreground': '#4daafc', 'textLink.activeForeground': '#4daafc',
    'textPreformat.foreground': '#d0d0d0', 'textPreformat.background': '#3c3c3c',
    'textBlockQuote.background': '#2b2b2b', 'textBlockQuote.border': '#616161',
    'badge.background': '#616161', 'badge.foreground': '#f8f8f8',
    'button.background': '#0078d4', 'button.foreground': '#ffffff', 'button.border': '#ffffff1a', 'button.hoverBackground': '#026ec1',
    'button.secondaryBackground': '#00000000', 'button.secondaryForeground': '#cccccc', 'button.secondaryHoverBackground': '#2b2b2b',
    'checkbox.background': '#313131', 'checkbox.foreground': '#cccccc', 'checkbox.border': '#3c3c3c',
    'dropdown.background': '#313131', 'dropdown.foreground': '#cccccc', 'dropdown.border': '#3c3c3c', 'dropdown.listBackground': '#1f1f1f',
    'input.background': '#313131', 'input.foreground': '#cccccc', 'input.border': '#3c3c3c', 'input.placeholderForeground': '#989898',
    'inputValidation.errorBackground': '#5a1d1d', 'inputValidation.errorForeground': null, 'inputValidation.errorBorder': '#be1100',
    'inputValidation.warningBackground': '#352a05', 'inputValidation.warningForeground': null, 'inputValidation.warningBorder': '#b89500',
    'inputValidation.infoBackground': '#063b49', 'inputValidation.infoForeground': null, 'inputValidation.infoBorder': '#007acc',
    'list.activeSelectionBackground': '#04395e', 'list.activeSelectionForeground': '#ffffff', 'list.hoverBackground': '#2a2d2e',
    'settings.dropdownListBorder': '#454545', 'progressBar.background': '#0078d4',
    'scrollbarSlider.background': '#79797966', 'scrollbarSlider.hoverBackground': '#646464b3', 'scrollbarSlider.activeBackground': '#bfbfbf66',
    'keybindingLabel.background': '#8080802b', 'keybindingLabel.foreground': '#cccccc', 'keybindingLabel.border': '#33333399', 'keybindingLabel.bottomBorder': '#44444499',
    'editor.findMatchBackground': '#9e6a03', 'editor.findMatchHighlightBackground': '#ea5c0055',
    'testing.iconPassed': '#73c991',
  },
};

const lightModern: VsCodeTheme = {
  name: 'light',
  label: 'Light Modern',
  id: 'Default Light Modern',
  kind: 'vscode-light',
  colors: {
    foreground: '#3b3b3b', descriptionForeground: '#3b3b3b', errorForeground: '#f85149', focusBorder: '#005fb8',
    contrastBorder: null, contrastActiveBorder: null,
    'editor.background': '#ffffff', 'editor.foreground': '#3b3b3b', 'widget.border': '#e5e5e5', 'widget.shadow': '#00000029',
    'panel.background': '#f8f8f8', 'panel.border': '#e5e5e5',
    'panelTitle.activeBorder': '#005fb8', 'panelTitle.activeForeground': '#3b3b3b', 'panelTitle.inactiveForeground': '#3b3b3b',
    'textLink.foreground': '#005fb8', 'textLink.activeForeground': '#005fb8',
    'textPreformat.foreground': '#3b3b3b', 'textPreformat.background': '#0000001f',
    'textBlockQuote.background': '#f8f8f8', 'textBlockQuote.border': '#e5e5e5',
    'badge.background': '#cccccc', 'badge.foreground': '#3b3b3b',
    'button.background': '#005fb8', 'button.foreground': '#ffffff', 'button.border': '#0000001a', 'button.hoverBackground': '#0258a8',
    'button.secondaryBackground': '#e5e5e5', 'button.secondaryForeground': '#3b3b3b', 'button.secondaryHoverBackground': '#cccccc',
    'checkbox.background': '#f8f8f8', 'checkbox.foreground': '#3b3b3b', 'checkbox.border': '#cecece',
    'dropdown.background': '#ffffff', 'dropdown.foreground': '#3b3b3b', 'dropdown.border': '#cecece', 'dropdown.listBackground': '#ffffff',
    'input.background': '#ffffff', 'input.foreground': '#3b3b3b', 'input.border': '#cecece', 'input.placeholderForeground': '#767676',
    'inputValidation.errorBackground': '#f2dede', 'inputValidation.errorForeground': null, 'inputValidation.errorBorder': '#be1100',
    'inputValidation.warningBackground': '#f6f5d2', 'inputValidation.warningForeground': null, 'inputValidation.warningBorder': '#b89500',
    'inputValidation.infoBackground': '#d6ecf2', 'inputValidation.infoForeground': null, 'inputValidation.infoBorder': '#007acc',
    'list.activeSelectionBackground': '#e8e8e8', 'list.activeSelectionForeground': '#000000', 'list.hoverBackground': '#f2f2f2',
    'settings.dropdownListBorder': '#c8c8c8', 'progressBar.background': '#005fb8',
    'scrollbarSlider.background': '#64646466', 'scrollbarSlider.hoverBackground': '#646464b3', 'scrollbarSlider.activeBackground': '#00000099',
    'keybindingLabel.background': '#dddddd66', 'keybindingLabel.foreground': '#3b3b3b', 'keybindingLabel.border': '#cccccc66', 'keybindingLabel.bottomBorder': '#bbbbbb66',
    'editor.findMatchBackground': '#a8ac94', 'editor.findMatchHighlightBackground': '#ea5c0055',
    'testing.iconPassed': '#73c991',
  },
};

const highContrastDark: VsCodeTheme = {
  name: 'hc-dark',
  label: 'Dark High Contrast',
  id: 'Default High Contrast',
  kind: 'vscode-high-contrast',
  colors: {
    foreground: '#ffffff', descriptionForeground: '#ffffffb3', errorForeground: '#f48771', focusBorder: '#f38518',
    contrastBorder: '#6fc3df', contrastActiveBorder: '#f38518',
    'editor.background': '#000000', 'editor.foreground': '#ffffff', 'widget.border': '#6fc3df', 'widget.shadow': null,
    'panel.background': '#000000', 'panel.border': '#6fc3df',
    'panelTitle.activeBorder': '#6fc3df', 'panelTitle.activeForeground': '#ffffff', 'panelTitle.inactiveForeground': '#ffffff',
    'textLink.foreground': '#21a6ff', 'textLink.activeForeground': '#21a6ff',
    'textPreformat.foreground': '#ffffff', 'textPreformat.background': '#000000',
    'textBlockQuote.background': null, 'textBlockQuote.border': '#ffffff',
    'badge.background': '#000000', 'badge.foreground': '#ffffff',
    'button.background': null, 'button.foreground': '#ffffff', 'button.border': '#6fc3df', 'button.hoverBackground': null,
    'button.secondaryBackground': null, 'button.secondaryForeground': '#ffffff', 'button.secondaryHoverBackground': null,
    'checkbox.background': '#000000', 'checkbox.foreground': '#ffffff', 'checkbox.border': '#6fc3df',
    'dropdown.background': '#000000', 'dropdown.foreground': '#ffffff', 'dropdown.border': '#6fc3df', 'dropdown.listBackground': '#000000',
    'input.background': '#000000', 'input.foreground': '#ffffff', 'input.border': '#6fc3df', 'input.placeholderForeground': '#ffffffb3',
    'inputValidation.errorBackground': '#000000', 'inputValidation.errorForeground': null, 'inputValidation.errorBorder': '#6fc3df',
    'inputValidation.warningBackground': '#000000', 'inputValidation.warningForeground': null, 'inputValidation.warningBorder': '#6fc3df',
    'inputValidation.infoBackground': '#000000', 'inputValidation.infoForeground': null, 'inputValidation.infoBorder': '#6fc3df',
    'list.activeSelectionBackground': null, 'list.activeSelectionForeground': null, 'list.hoverBackground': '#ffffff1a',
    'settings.dropdownListBorder': '#6fc3df', 'progressBar.background': '#6fc3df',
    'scrollbarSlider.background': '#6fc3df99', 'scrollbarSlider.hoverBackground': '#6fc3dfcc', 'scrollbarSlider.activeBackground': '#6fc3df',
    'keybindingLabel.background': '#00000000', 'keybindingLabel.foreground': '#ffffff', 'keybindingLabel.border': '#6fc3df', 'keybindingLabel.bottomBorder': '#6fc3df',
    'editor.findMatchBackground': null, 'editor.findMatchHighlightBackground': null,
    'testing.iconPassed': '#73c991',
  },
};

const highContrastLight: VsCodeTheme = {
  name: 'hc-light',
  label: 'Light High Contrast',
  id: 'Default High Contrast Light',
  kind: 'vscode-high-contrast-light',
  colors: {
    foreground: '#292929', descriptionForeground: '#292929b3', errorForeground: '#b5200d', focusBorder: '#006bbd',
    contrastBorder: '#0f4a85', contrastActiveBorder: '#006bbd',
    'editor.background': '#ffffff', 'editor.foreground': '#292929', 'widget.border': '#0f4a85', 'widget.shadow': null,
    'panel.background': '#ffffff', 'panel.border': '#0f4a85',
    'panelTitle.activeBorder': '#b5200d', 'panelTitle.activeForeground': '#292929', 'panelTitle.inactiveForeground': '#292929',
    'textLink.foreground': '#0f4a85', 'textLink.activeForeground': '#0f4a85',
    'textPreformat.foreground': '#292929', 'textPreformat.background': '#f2f2f2',
    'textBlockQuote.background': '#f2f2f2', 'textBlockQuote.border': '#292929',
    'badge.background': '#0f4a85', 'badge.foreground': '#ffffff',
    'button.background': '#0f4a85', 'button.foreground': '#ffffff', 'button.border': '#0f4a85', 'button.hoverBackground': '#0f4a85',
    'button.secondaryBackground': '#ffffff', 'button.secondaryForeground': '#292929', 'button.secondaryHoverBackground': null,
    'checkbox.background': '#ffffff', 'checkbox.foreground': '#292929', 'checkbox.border': '#0f4a85',
    'dropdown.background': '#ffffff', 'dropdown.foreground': '#292929', 'dropdown.border': '#0f4a85', 'dropdown.listBackground': '#ffffff',
    'input.background': '#ffffff', 'input.foreground': '#292929', 'input.border': '#0f4a85', 'input.placeholderForeground': '#292929b3',
    'inputValidation.errorBackground': '#ffffff', 'inputValidation.errorForeground': '#292929', 'inputValidation.errorBorder': '#0f4a85',
    'inputValidation.warningBackground': '#ffffff', 'inputValidation.warningForeground': '#292929', 'inputValidation.warningBorder': '#0f4a85',
    'inputValidation.infoBackground': '#ffffff', 'inputValidation.infoForeground': '#292929', 'inputValidation.infoBorder': '#0f4a85',
    'list.activeSelectionBackground': '#0f4a851a', 'list.activeSelectionForeground': null, 'list.hoverBackground': '#0f4a851a',
    'settings.dropdownListBorder': '#0f4a85', 'progressBar.background': '#0f4a85',
    'scrollbarSlider.background': '#0f4a8566', 'scrollbarSlider.hoverBackground': '#0f4a85cc', 'scrollbarSlider.activeBackground': '#0f4a85',
    'keybindingLabel.background': '#00000000', 'keybindingLabel.foreground': '#292929', 'keybindingLabel.border': '#0f4a85', 'keybindingLabel.bottomBorder': '#292929',
    'editor.findMatchBackground': null, 'editor.findMatchHighlightBackground': null,
    'testing.iconPassed': '#007100',
  },
};

export const THEMES: Readonly<Record<ThemeName, VsCodeTheme>> = {
  light: lightModern,
  dark: darkModern,
  'hc-dark': highContrastDark,
  'hc-light': highContrastLight,
};

/** The CSS variable VS Code makes of a colour id: `--vscode-` and the id with its first dot made a dash. */
export function cssVariable(color: string): string {
  return `--vscode-${color.replace('.', '-')}`;
}

/** Every variable a theme defines, name (with `--`) to value; colours the theme leaves unset are left out. */
export function themeVariables(theme: VsCodeTheme): Record<string, string> {
  const variables: Record<string, string> = {};
  for (const [name, value] of Object.entries(FONTS)) variables[`--${name}`] = value;
  for (const color of THEME_COLORS) {
    const value = theme.colors[color];
    if (value !== null) variables[cssVariable(color)] = value;
  }
  return variables;
}

/** Every variable name a theme knows about, set or deliberately unset. */
export function knownVariables(): Set<string> {
  return new Set([...Object.keys(FONTS).map((name) => `--${name}`), ...THEME_COLORS.map(cssVariable)]);
}

/**
 * VS Code's default webview styles (the `_defaultStyles` it adds to every
 * webview, in the `vscode-default` layer, so the page's own rules win).
 */
const DEFAULT_STYLES = `@layer vscode-default {
  html { scrollbar-color: var(--vscode-scrollbarSlider-background) var(--vscode-editor-background); }
  body {
    overscroll-behavior-x: none;
    background-color: transparent;
    color: var(--vscode-editor-foreground);
    font-family: var(--vscode-font-family);
    font-weight: var(--vscode-font-weight);
    font-size: var(--vscode-font-size);
    margin: 0;
    padding: 0 20px;
  }
  img, video { max-width: 100%; max-height: 100%; }
  a, a code { color: var(--vscode-textLink-foreground); }
  a:hover { color: var(--vscode-textLink-activeForeground); }
  a:focus, input:focus, select:focus, textarea:focus { outline: 1px solid -webkit-focus-ring-color; outline-offset: -1px; }
  code {
    font-family: var(--monaco-monospace-font);
    color: var(--vscode-textPreformat-foreground);
    background-color: var(--vscode-textPreformat-background);
    padding: 1px 3px;
    border-radius: 4px;
  }
  pre code { padding: 0; }
  blockquote { background: var(--vscode-textBlockQuote-background); border-color: var(--vscode-textBlockQuote-border); }
  kbd {
    background-color: var(--vscode-keybindingLabel-background);
    color: var(--vscode-keybindingLabel-foreground);
    border-style: solid;
    border-width: 1px;
    border-radius: 3px;
    border-color: var(--vscode-keybindingLabel-border);
    border-bottom-color: var(--vscode-keybindingLabel-bottomBorder);
    box-shadow: inset 0 -1px 0 var(--vscode-widget-shadow);
    vertical-align: middle;
    padding: 1px 3px;
  }
  ::-webkit-scrollbar { width: 10px; height: 10px; }
  ::-webkit-scrollbar-corner { background-color: var(--vscode-editor-background); }
  ::-webkit-scrollbar-thumb { background-color: var(--vscode-scrollbarSlider-background); }
  ::-webkit-scrollbar-thumb:hover { background-color: var(--vscode-scrollbarSlider-hoverBackground); }
  ::-webkit-scrollbar-thumb:active { background-color: var(--vscode-scrollbarSlider-activeBackground); }
  ::highlight(find-highlight) { background-color: var(--vscode-editor-findMatchHighlightBackground); }
  ::highlight(current-find-highlight) { background-color: var(--vscode-editor-findMatchBackground); }
}`;

/** What the page-side script needs to put a theme on the page (plain data: it crosses into the browser). */
export interface PageTheme {
  variables: Record<string, string>;
  bodyClasses: string[];
  kind: ThemeKind;
  label: string;
  id: string;
  defaultStyles: string;
}

export function pageTheme(theme: VsCodeTheme): PageTheme {
  return {
    variables: themeVariables(theme),
    // VS Code adds `vscode-high-contrast` beside `vscode-high-contrast-light` for older webviews.
    bodyClasses: theme.kind === 'vscode-high-contrast-light' ? [theme.kind, 'vscode-high-contrast'] : [theme.kind],
    kind: theme.kind,
    label: theme.label,
    id: theme.id,
    defaultStyles: DEFAULT_STYLES,
  };
}

/**
 * Runs in the page before its scripts (a Playwright init script; it must not
 * reference anything outside itself). Like VS Code: the variables go in the
 * style attribute of <html>, the theme class and data attributes on <body>.
 * Both are set through the DOM as soon as the element exists (a mutation
 * observer's callback runs before the parser runs the page's script), which
 * the page's CSP allows; the default styles go in a constructed stylesheet,
 * since an inline <style> after the page's CSP would be refused.
 */
export function applyPageTheme(theme: PageTheme): void {
  let htmlDone = false;
  let bodyDone = false;
  const apply = (): boolean => {
    const html = document.documentElement;
    if (html && !htmlDone) {
      for (const [name, value] of Object.entries(theme.variables)) html.style.setProperty(name, value);
      htmlDone = true;
    }
    const body = document.body;
    if (body && !bodyDone) {
      body.classList.add(...theme.bodyClasses);
      body.dataset['vscodeThemeKind'] = theme.kind;
      body.dataset['vscodeThemeName'] = theme.label;
      body.dataset['vscodeThemeId'] = theme.id;
      bodyDone = true;
    }
    return htmlDone && bodyDone;
  };
  if (!apply()) {
    const observer = new MutationObserver(() => {
      if (apply()) observer.disconnect();
    });
    observer.observe(document, { childList: true, subtree: true });
  }
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(theme.defaultStyles);
  document.adoptedStyleSheets = [sheet, ...document.adoptedStyleSheets];
}
