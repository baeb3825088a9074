import { createRequire } from 'node:module';
import path from 'node:path';
import type * as TreeSitter from '@vscode/tree-sitter-wasm';

/*
 * Test files parsed into syntax trees, for the tripwires (tripwire-cases.ts): tree-sitter's
 * WebAssembly build and grammars as VS Code ships them (@vscode/tree-sitter-wasm), one package
 * for every language bakeoff grades in. The runtime and each grammar are loaded once per
 * process, on first use. Offsets of the nodes are UTF-16 code units: `text.slice(start, end)`.
 */

export type SourceLanguage = 'python' | 'javascript' | 'typescript' | 'tsx' | 'rust';
export type SyntaxNode = TreeSitter.Node;

const require = createRequire(import.meta.url);

/** The language of a test file, from its extension; null for one bakeoff does not parse. */
export function sourceLanguage(file: string): SourceLanguage | null {
  const ext = path.extname(file).toLowerCase();
  if (ext === '.py') return 'python';
  if (ext === '.rs') return 'rust';
  if (['.js', '.mjs', '.cjs', '.jsx'].includes(ext)) return 'javascript';
  if (['.ts', '.mts', '.cts'].includes(ext)) return 'typescript';
  if (ext === '.tsx') return 'tsx';
  return null;
}

let runtime: Promise<typeof TreeSitter> | undefined;
const grammars = new Map<SourceLanguage, Promise<TreeSitter.Language>>();

function loadRuntime(): Promise<typeof TreeSitter> {
  runtime ??= (async () => {
    const module = require('@vscode/tree-sitter-wasm') as typeof TreeSitter;
    await module.Parser.init();
    return module;
  })();
  return runtime;
}

function loadGrammar(language: SourceLanguage): Promise<TreeSitter.Language> {
  let grammar = grammars.get(language);
  if (grammar === undefined) {
    grammar = loadRuntime().then((ts) => {
      const dir = path.dirname(require.resolve('@vscode/tree-sitter-wasm'));
      return ts.Language.load(path.join(dir, `tree-sitter-${language}.wasm`));
    });
    grammars.set(language, grammar);
  }
  return grammar;
}

/**
 * Parses `text` and hands its root node to `read`; the tree is freed afterwards (it lives in
 * WebAssembly memory), so `read` must copy out what it keeps. Null when the text does not
 * parse cleanly (a syntax error anywhere): nothing is read from a tree tree-sitter had to guess.
 */
export async function withSyntaxTree<T>(language: SourceLanguage, text: string, read: (root: SyntaxNode) => T): Promise<T | null> {
  const ts = await loadRuntime();
  const parser = new ts.Parser();
  try {
    parser.setLanguage(await loadGrammar(language));
    const tree = parser.parse(text);
    if (tree === null) return null;
    try {
      return tree.rootNode.hasError ? null : read(tree.rootNode);
    } finally {
      tree.delete();
    }
  } finally {
    parser.delete();
  }
}

/** A node's named children (the runtime's list may hold nulls). */
export function named(node: SyntaxNode | null | undefined): SyntaxNode[] {
  return node ? node.namedChildren.filter((c): c is SyntaxNode => c !== null) : [];
}

/** A node's children, anonymous tokens included. */
export function children(node: SyntaxNode | null | undefined): SyntaxNode[] {
  return node ? node.children.filter((c): c is SyntaxNode => c !== null) : [];
}

/** The index of the last node that `test` holds for, or -1. */
export function lastIndexOf(nodes: readonly SyntaxNode[], test: (node: SyntaxNode) => boolean): number {
  for (let i = nodes.length - 1; i >= 0; i--) if (test(nodes[i]!)) return i;
  return -1;
}
