import { z } from 'zod';
import { InputError, type InputIssue } from '../errors.js';
import { readYamlFile } from '../util/read-yaml-file.js';
import type { ModelPrice } from './prices.js';

const Rate = z.number().finite().nonnegative();
const PriceEntry = z
  .object({ input: Rate, output: Rate, cacheRead: Rate.optional(), cacheWrite: Rate.optional() })
  .strict();
const PricesFile = z.object({ models: z.record(z.string().min(1), PriceEntry) }).strict();

/** Prices from a prices file, keyed by `<model>` or `<provider>/<model>` as written there. */
export type PriceOverrides = ReadonlyMap<string, ModelPrice>;

/**
 * Reads a prices file (YAML or JSON) that overrides or extends the catalog, e.g.
 *
 *     models:
 *       claude-sonnet-4-5:        { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }
 *       openrouter/openai/gpt-5:  { input: 1.25, output: 10 }
 *
 * Rates are USD per million tokens; `cacheRead` and `cacheWrite` default to `input`. Throws
 * `InputError` naming the file, field, what was expected and what arrived.
 */
export async function loadPricesFile(file: string): Promise<PriceOverrides> {
  const issues: InputIssue[] = [];
  const parsed = await readYamlFile(file, PricesFile, issues, {
    expected: 'YAML or JSON',
    knownKeys: (p) => (p.length === 0 ? ['models'] : p.length === 2 ? Object.keys(PriceEntry.shape) : []),
  });
  if (!parsed) throw new InputError(issues);
  const prices = new Map<string, ModelPrice>();
  for (const [key, entry] of Object.entries(parsed.models)) {
    const slash = key.indexOf('/');
    prices.set(key, {
      model: key,
      provider: slash === -1 ? '*' : key.slice(0, slash),
      input: entry.input,
      cacheRead: entry.cacheRead ?? entry.input,
      cacheWrite: entry.cacheWrite ?? entry.input,
      output: entry.output,
      source: file,
    });
  }
  return prices;
}
