import { readFile } from 'node:fs/promises';
import type { z } from 'zod';
import type { InputIssue } from '../errors.js';
import { toInputIssues } from './zod-issues.js';

export interface ReadYamlFileOptions {
  /** Keys allowed at a path, for "did you mean" hints on unknown fields. */
  readonly knownKeys?: (path: readonly PropertyKey[]) => readonly string[];
  /** What a file that does not parse should have been (default `valid YAML`). */
  readonly expected?: string;
}

/**
 * Reads a YAML file (JSON is YAML too) against a schema. Every problem — missing, unreadable,
 * a syntax error (with its line), fields that do not fit — is added to `issues` naming the
 * file, the field, what was expected and what arrived; returns undefined then, never throws.
 * An empty file reads as `{}`.
 */
export async function readYamlFile<S extends z.ZodType>(file: string, schema: S, issues: InputIssue[], options: ReadYamlFileOptions = {}): Promise<z.infer<S> | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    issues.push({ file, field: '', expected: 'a YAML file', received: code === 'ENOENT' ? 'no such file' : `an unreadable file (${code ?? (error as Error).message})` });
    return undefined;
  }
  // the parser is loaded when a file is read, not with util/: most commands read no YAML
  const { parse: parseYaml, YAMLParseError } = await import('yaml');
  let data: unknown;
  try {
    data = parseYaml(text, { prettyErrors: true });
  } catch (error) {
    const where = error instanceof YAMLParseError && error.linePos ? ` at line ${error.linePos[0].line}` : '';
    issues.push({ file, field: '', expected: options.expected ?? 'valid YAML', received: `a syntax error${where}: ${(error as Error).message.split('\n')[0]}` });
    return undefined;
  }
  const result = schema.safeParse(data ?? {}, { reportInput: true });
  if (result.success) return result.data;
  issues.push(...toInputIssues(file, result.error, options.knownKeys));
  return undefined;
}
