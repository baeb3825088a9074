import type { JsonSchema } from './types.js';

/**
 * A small value that fits `schema`: the first enum value, the minimum (or 1) for numbers,
 * `scripted` for strings, every property of an object. Answers structured-output requests
 * (Gemini CLI's model router asks for `{complexity_reasoning, complexity_score}`), so the
 * harness gets JSON it can read instead of retrying. Types may be upper case (Gemini).
 */
export function sampleJson(schema: JsonSchema | null, depth = 0): unknown {
  if (schema === null || depth > 8) return {};
  if (schema.enum !== undefined && schema.enum.length > 0) return schema.enum[0];
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type ?? (schema.properties ? 'object' : 'string')]) as string[];
  const type = (types.find((t) => t.toLowerCase() !== 'null') ?? 'null').toLowerCase();
  switch (type) {
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([key, value]) => [key, sampleJson(value, depth + 1)]));
    case 'array':
      return [];
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return false;
    case 'null':
      return null;
    default:
      return 'scripted';
  }
}
