import type { z } from 'zod';

/** Turns a zod error into one problem line per issue: `<where>: <dotted.path>: <message>`. */
export function describeIssues(where: string, error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const path = issue.path.map(String).join('.');
    return `${where}: ${path === '' ? '(root)' : path}: ${issue.message}`;
  });
}
