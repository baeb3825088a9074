import type { z } from 'zod';
import { errorMessageOf } from './error-message-of.js';
import type { Payload } from './read-payloads.js';

/** Records an API error payload as a problem (`<where>: API error: <message>`); true when the payload was one. */
export function recordApiError({ data, where }: Payload, problems: string[]): boolean {
  const error = errorMessageOf(data);
  if (error === null) return false;
  problems.push(`${where}: API error: ${error}`);
  return true;
}

/**
 * `data` parsed by `schema`, or null after recording one problem per issue:
 * `<where>: <dotted.path>: <message>`.
 */
export function parsePayload<S extends z.ZodType>(schema: S, data: unknown, where: string, problems: string[]): z.infer<S> | null {
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) {
    const path = issue.path.map(String).join('.');
    problems.push(`${where}: ${path === '' ? '(root)' : path}: ${issue.message}`);
  }
  return null;
}
