import { z } from 'zod';
import { InputError, type InputIssue } from '../../errors.js';
import { readYamlFile } from '../../util/index.js';
import { type DailyWindow, describeWindows, inWindow, secondsOfDay } from './price-condition.js';
import type { ModelPrice } from './prices.js';

const Rate = z.number().finite().nonnegative();
const Rates = { input: Rate, output: Rate, cacheRead: Rate.optional(), cacheWrite: Rate.optional() };
const UtcTime = z.string().refine((t) => secondsOfDay(t) !== null, { message: 'a UTC time of day, HH:MM or HH:MM:SS' });
const Window = z
  .object({ from: UtcTime, to: UtcTime, ...Rates })
  .strict()
  .refine((w) => secondsOfDay(w.from) !== secondsOfDay(w.to), { message: 'a window whose from and to differ', path: ['to'] });
const PriceEntry = z.object({ ...Rates, timeOfDay: z.array(Window).optional() }).strict();
const PricesFile = z.object({ models: z.record(z.string().min(1), PriceEntry) }).strict();

/** One model's prices from a prices file: a base price, and daily UTC windows with other rates. */
export interface FilePrice {
  readonly base: ModelPrice;
  /** In file order; the first window that holds the request's time wins. */
  readonly windows: readonly { readonly window: DailyWindow; readonly price: ModelPrice }[];
}

/** Prices from a prices file, keyed by `<model>` or `<provider>/<model>` as written there. */
export type PriceOverrides = ReadonlyMap<string, FilePrice>;

/**
 * Reads a prices file (YAML or JSON) that overrides or extends the catalog, e.g.
 *
 *     models:
 *       claude-sonnet-4-5:        { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }
 *       openrouter/openai/gpt-5:  { input: 1.25, output: 10 }
 *       deepseek-chat:
 *         input: 0.135
 *         output: 0.55
 *         cacheRead: 0.035
 *         timeOfDay:                # other rates in daily UTC windows (from included, to excluded)
 *           - { from: "00:30", to: "16:30", input: 0.27, output: 1.1, cacheRead: 0.07 }
 *
 * Rates are USD per million tokens; `cacheRead` and `cacheWrite` default to the `input` rate
 * next to them. A window whose `to` is before its `from` runs past midnight. Throws
 * `InputError` naming the file, field, what was expected and what arrived.
 */
export async function loadPricesFile(file: string): Promise<PriceOverrides> {
  const issues: InputIssue[] = [];
  const parsed = await readYamlFile(file, PricesFile, issues, {
    expected: 'YAML or JSON',
    knownKeys: (p) => (p.length === 0 ? ['models'] : p.length === 2 ? Object.keys(PriceEntry.shape) : p.length === 4 ? ['from', 'to', ...Object.keys(Rates)] : []),
  });
  if (!parsed) throw new InputError(issues);
  const prices = new Map<string, FilePrice>();
  for (const [key, entry] of Object.entries(parsed.models)) {
    const slash = key.indexOf('/');
    const price = (rates: z.infer<z.ZodObject<typeof Rates>>, when: string | null): ModelPrice => ({
      model: key,
      provider: slash === -1 ? '*' : key.slice(0, slash),
      input: rates.input,
      cacheRead: rates.cacheRead ?? rates.input,
      cacheWrite: rates.cacheWrite ?? rates.input,
      output: rates.output,
      source: file,
      when,
    });
    const windows = (entry.timeOfDay ?? []).map((w) => ({ from: secondsOfDay(w.from)!, to: secondsOfDay(w.to)! }));
    prices.set(key, {
      base: price(entry, windows.length === 0 ? null : `outside ${describeWindows(windows)}`),
      windows: (entry.timeOfDay ?? []).map((w, i) => ({ window: windows[i]!, price: price(w, describeWindows([windows[i]!])) })),
    });
  }
  return prices;
}

/** The price of a prices-file entry at `at`: the first window holding that UTC time of day, else the base price. */
export function filePriceAt(entry: FilePrice, at: Date): ModelPrice {
  return entry.windows.find((w) => inWindow(at, w.window))?.price ?? entry.base;
}
