import type { z } from 'zod';
import type { InputIssue } from '../errors.js';

/**
 * Turns zod issues into `InputIssue`s that name the file, the dotted field, what was expected
 * and what arrived. Unknown keys get a "did you mean" from the schema's own keys.
 */
export function toInputIssues(
  file: string,
  error: z.ZodError,
  knownKeys: (path: readonly PropertyKey[]) => readonly string[] = () => [],
): InputIssue[] {
  const issues: InputIssue[] = [];
  for (const issue of error.issues) {
    const path = issue.path.map(String);
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const near = nearest(key, knownKeys(issue.path));
        issues.push({
          file,
          field: [...path, key].join('.'),
          expected: near ? `a known field (did you mean "${near}"?)` : 'no such field',
          received: `unknown field "${key}"`,
        });
      }
      continue;
    }
    issues.push({ file, field: path.join('.'), expected: expectedOf(issue), received: describe(issue) });
  }
  return issues;
}

function expectedOf(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.expected;
    case 'invalid_value':
      return `one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'too_small':
      return `${issue.origin === 'string' ? 'length' : issue.origin === 'array' ? 'count' : 'value'} >= ${String(issue.minimum)}`;
    case 'too_big':
      return `${issue.origin === 'string' ? 'length' : issue.origin === 'array' ? 'count' : 'value'} <= ${String(issue.maximum)}`;
    case 'invalid_format':
      return issue.pattern ? `a value matching ${issue.pattern}` : `a valid ${issue.format}`;
    default:
      return issue.message;
  }
}

function describe(issue: z.core.$ZodIssue): string {
  const input = (issue as { input?: unknown }).input;
  if (input === undefined) return 'nothing (field missing)';
  if (input === null) return 'null';
  if (typeof input === 'string') return JSON.stringify(input);
  if (typeof input === 'number' || typeof input === 'boolean') return `${typeof input} ${String(input)}`;
  if (Array.isArray(input)) return `a list of ${input.length}`;
  return typeof input;
}

/** The known key closest to `key` by edit distance, if it is close enough to be a typo. */
export function nearest(key: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const d = editDistance(key.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return bestDistance <= Math.max(2, Math.floor(key.length / 3)) ? best : undefined;
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length]!;
}
