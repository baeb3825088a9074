import type { z } from 'zod';

/** Records of a JSON-lines report that matched the schema, and what was wrong with the rest. */
export interface JsonLinesResult<T> {
  readonly records: readonly T[];
  /** One entry per line that is not JSON or does not match the schema, naming the line. */
  readonly problems: readonly string[];
}

/** Parses a JSON-lines report (blank lines ignored), validating each line with `schema`. */
export function parseJsonLines<S extends z.ZodType>(
  text: string,
  schema: S,
  fileName: string,
): JsonLinesResult<z.infer<S>> {
  const records: z.infer<S>[] = [];
  const problems: string[] = [];
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      problems.push(`${fileName} line ${index + 1}: not JSON: ${line.slice(0, 200)}`);
      return;
    }
    const parsed = schema.safeParse(value);
    if (parsed.success) records.push(parsed.data);
    else problems.push(`${fileName} line ${index + 1}: unexpected record: ${line.slice(0, 200)}`);
  });
  return { records, problems };
}
