import { canonicalJson } from './hash.js';

/**
 * The top-level fields two objects disagree on, each as `field (a vs b)` with its values as
 * JSON (an absent field as `(none)`), sorted by field: `network ("none" vs "model-api+web")`.
 * Pure; anything that is not an object compares as having no fields.
 */
export function differingFields(a: unknown, b: unknown): string[] {
  const fields = (value: unknown): Record<string, unknown> => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {});
  const [x, y] = [fields(a), fields(b)];
  const shown = (value: unknown): string => (value === undefined ? '(none)' : canonicalJson(value));
  return [...new Set([...Object.keys(x), ...Object.keys(y)])]
    .sort()
    .filter((key) => shown(x[key]) !== shown(y[key]))
    .map((key) => `${key} (${shown(x[key])} vs ${shown(y[key])})`);
}
