// src/ui/surfaces.ts is the only place that hands text to a VS Code surface
// that interprets markup (untrustedText.ts says what each one parses). Any
// other file under src/ that shows a notification or a quick pick, makes a
// status bar item, a tree item, a MarkdownString or a webview panel, or sets
// the text of one, would bypass the sanitiser: this test finds it. Calls are
// found by name in the source; property writes with the TypeScript checker,
// by the type of what is written to, so `out.text = …` on an answer object is
// no finding and `item.tooltip = …` on a TreeItem always is.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { before, test } from 'node:test';
import ts from 'typescript';
import { repoRoot } from '../support/fixtures';

const SURFACES_FILE = path.join('src', 'ui', 'surfaces.ts');

/** vscode.window functions that show or create a surface with text. */
const CALLS = ['showInformationMessage', 'showWarningMessage', 'showErrorMessage', 'showQuickPick', 'createQuickPick', 'createInputBox', 'createStatusBarItem', 'createWebviewPanel', 'withProgress'];
/** vscode classes whose construction carries text. */
const CLASSES = ['TreeItem', 'MarkdownString'];
/** Text-bearing properties of the vscode types that show text. */
const GUARDED: Record<string, readonly string[]> = {
  TreeItem: ['label', 'description', 'tooltip', 'accessibilityInformation'],
  StatusBarItem: ['text', 'tooltip', 'name', 'accessibilityInformation'],
  WebviewPanel: ['title'],
  WebviewView: ['title', 'description', 'badge'],
  QuickPick: ['title', 'placeholder', 'items', 'prompt', 'validationMessage'],
  InputBox: ['title', 'placeholder', 'prompt', 'validationMessage'],
  QuickInput: ['title'],
  QuickPickItem: ['label', 'description', 'detail'],
  TreeView: ['title', 'description', 'message', 'badge'],
  MarkdownString: ['value'],
};
const MARKDOWN_METHODS = ['appendText', 'appendMarkdown', 'appendCodeblock'];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** Whether `symbol` is declared in the vscode API typings. */
function fromVscode(symbol: ts.Symbol | undefined): boolean {
  return (symbol?.declarations ?? []).some((declaration) => /[\\/]@types[\\/]vscode[\\/]/.test(declaration.getSourceFile().fileName));
}

/** The vscode type names `type` is (or, for a union or an intersection, includes). */
function vscodeTypeNames(type: ts.Type): string[] {
  const parts = type.isUnion() || type.isIntersection() ? type.types : [type];
  return parts.flatMap((part) => {
    const symbol = part.getSymbol() ?? part.aliasSymbol;
    return symbol && fromVscode(symbol) ? [symbol.getName()] : [];
  });
}

interface Finding {
  file: string;
  line: number;
  what: string;
}

let findings: Finding[] = [];

before(() => {
  const root = repoRoot();
  const parsed = ts.getParsedCommandLineOfConfigFile(path.join(root, 'tsconfig.json'), {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    },
  });
  assert.ok(parsed, 'tsconfig.json could not be read');
  const files = sourceFiles(path.join(root, 'src'));
  const program = ts.createProgram({ rootNames: files, options: { ...parsed.options, noEmit: true } });
  const checker = program.getTypeChecker();
  const found: Finding[] = [];

  for (const file of files) {
    const source = program.getSourceFile(file);
    assert.ok(source, `${file} is not in the program`);
    const relative = path.relative(root, file);
    const report = (node: ts.Node, what: string) =>
      found.push({ file: relative, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1, what });

    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
        // Every signature of what is called, whichever overload the call picks: resolving the call
        // itself checks each argument, and was most of the scan's time. The overload it would
        // pick is one of these, so nothing it finds is missed; an alias (`const show =
        // window.showQuickPick`) is still seen by what it is.
        const kind = ts.isNewExpression(node) ? ts.SignatureKind.Construct : ts.SignatureKind.Call;
        const names = new Set<string>();
        for (const signature of checker.getSignaturesOfType(checker.getTypeAtLocation(node.expression), kind)) {
          const declaration = signature.getDeclaration() as ts.SignatureDeclaration | ts.JSDocSignature | undefined;
          const owner = declaration && (ts.isConstructorDeclaration(declaration) ? declaration.parent : declaration);
          const symbol = owner && 'name' in owner && owner.name ? checker.getSymbolAtLocation(owner.name as ts.Node) : undefined;
          if (symbol && fromVscode(symbol)) names.add(symbol.getName());
        }
        for (const name of names) {
          if (ts.isNewExpression(node) && CLASSES.includes(name)) report(node, `new ${name}`);
          if (ts.isCallExpression(node) && CALLS.includes(name)) report(node, `window.${name}`);
          if (ts.isCallExpression(node) && MARKDOWN_METHODS.includes(name)) report(node, `MarkdownString.${name}`);
        }
      }
      if (ts.isBinaryExpression(node) && node.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && node.operatorToken.kind <= ts.SyntaxKind.LastAssignment) {
        const target = node.left;
        const property = ts.isPropertyAccessExpression(target)
          ? target.name.text
          : ts.isElementAccessExpression(target) && ts.isStringLiteralLike(target.argumentExpression)
            ? target.argumentExpression.text
            : undefined;
        if (property !== undefined && (ts.isPropertyAccessExpression(target) || ts.isElementAccessExpression(target))) {
          for (const typeName of vscodeTypeNames(checker.getTypeAtLocation(target.expression))) {
            if (GUARDED[typeName]?.includes(property)) report(node, `${typeName}.${property} =`);
          }
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  findings = found;
});

test('only surfaces.ts shows notifications and quick picks or makes status bar items, tree items, Markdown and webview panels', () => {
  const elsewhere = findings.filter((finding) => finding.file !== SURFACES_FILE);
  assert.deepEqual(elsewhere.map((f) => `${f.file}:${f.line} ${f.what}`), []);
});

test('no other file under src/ even names the window functions that show text', () => {
  const pattern = new RegExp(`\\bwindow\\s*\\.\\s*(${CALLS.join('|')})\\b`);
  for (const file of sourceFiles(path.join(repoRoot(), 'src'))) {
    if (path.relative(repoRoot(), file) === SURFACES_FILE) continue;
    const match = pattern.exec(fs.readFileSync(file, 'utf8'));
    assert.equal(match?.[0], undefined, `${path.relative(repoRoot(), file)} names ${match?.[0]}`);
  }
});

test('the scan sees what surfaces.ts itself does (so an empty result elsewhere means something)', () => {
  const own = new Set(findings.filter((finding) => finding.file === SURFACES_FILE).map((finding) => finding.what));
  for (const expected of [
    'window.showInformationMessage', 'window.showWarningMessage', 'window.showErrorMessage', 'window.showQuickPick',
    'window.createStatusBarItem', 'window.createWebviewPanel', 'new TreeItem', 'new MarkdownString', 'MarkdownString.appendText',
    'TreeItem.description =', 'TreeItem.tooltip =', 'StatusBarItem.text =', 'StatusBarItem.tooltip =', 'WebviewPanel.title =', 'TreeView.badge =',
    'window.createQuickPick', 'window.createInputBox', 'window.withProgress', 'QuickPick.items =', 'InputBox.prompt =', 'InputBox.validationMessage =', 'QuickInput.title =',
  ]) {
    assert.ok(own.has(expected), `the scan did not see ${expected} in surfaces.ts; it saw ${[...own].join(', ')}`);
  }
});
