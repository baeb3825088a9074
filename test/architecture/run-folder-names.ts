/**
 * Where `src/` spells a results folder's file names (issue 32): store/run-folder.ts owns the
 * layout, and every other module asks it. Reads string literals and template texts with the
 * TypeScript parser (comments are not looked at: a comment may name a file).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** The owner of the layout, relative to the source root. */
export const OWNER = 'store/run-folder.ts';

/**
 * The same name meaning another folder's file, with the reason: a suite's `orders/<n>/prompt.md`
 * is the suite's layout (suite/ reads it, importers write it), not a results folder's.
 */
export const OTHER_MEANINGS: readonly { readonly file: RegExp; readonly name: string; readonly why: string }[] = [
  { file: /^suite\/load-suite\.ts$/, name: 'prompt.md', why: "a suite's orders/<n>/prompt.md" },
  { file: /^importers\/task-folder\.ts$/, name: 'prompt.md', why: "a suite's orders/<n>/prompt.md" },
  { file: /^export\/export-harbor\.ts$/, name: 'order-', why: "a Harbor task's steps/order-<n>/ folders (Harbor's layout)" },
  { file: /^(report\/site\/site-names|api\/view)\.ts$/, name: 'runs', why: "a published site's runs/<name>.html pages (the site's layout)" },
];

export interface NameUse {
  /** File relative to the source root. */
  readonly file: string;
  readonly line: number;
  readonly name: string;
  /** The string's text. */
  readonly text: string;
}

/**
 * Whether the text of one string (or one piece of a template) spells `name` as a run-folder
 * path: a file name (with a dot) as a whole path segment; a bare folder word (`runs`, `grade`)
 * only at the text's start with a segment after it (`runs/…`: alone it is an ordinary word, and
 * `../grade/` is a source folder); a prefix (`order-`)
 * at a segment's start followed by a digit or by the template's next value (`order-${n}`).
 */
export function spells(text: string, name: string): boolean {
  const n = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  if (name.endsWith('-')) return new RegExp(`(^|/)${n}(\\d|$)`).test(text);
  if (name.includes('.')) return new RegExp(`(^|/)${n}($|/)`).test(text);
  return new RegExp(`^${n}/`).test(text);
}

/** Every string in the non-test `.ts` files under `root` (other than the owner) that spells one of `names`. */
export function runFolderNameUses(root: string, names: readonly string[]): NameUse[] {
  const uses: NameUse[] = [];
  for (const file of sourceFiles(root)) {
    if (file === OWNER) continue;
    const text = readFileSync(path.join(root, file), 'utf8');
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      // a module's name (`'../grade/index.js'`) is no path of a results folder
      if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) return;
      if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) return;
      if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
        for (const name of names) {
          if (!spells(node.text, name)) continue;
          if (OTHER_MEANINGS.some((o) => o.name === name && o.file.test(file))) continue;
          uses.push({ file, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, name, text: node.text });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return uses;
}

function sourceFiles(root: string, dir = root): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...sourceFiles(root, full));
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts') && !/\.test(-support)?\.ts$/.test(name)) out.push(path.relative(root, full).split(path.sep).join('/'));
  }
  return out;
}
