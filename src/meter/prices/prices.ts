import { calcPrice } from '@pydantic/genai-prices';
import { conditionOf } from './price-condition.js';

/**
 * A model's list prices in USD per million tokens, each token class at its BASE rate: never a
 * long-context tier. (Pricing a run's summed tokens through the catalog's tiers would bill every
 * token at the >200k rate; a bake prices each class at its base rate and says so.)
 */
export interface ModelPrice {
  /** The model id the price is listed under (the catalog's id, e.g. `claude-sonnet-4-5` for a dated id). */
  readonly model: string;
  /** The provider the price is listed under, e.g. `anthropic`, `openai`, `google`, `openrouter`. */
  readonly provider: string;
  /** Uncached input. */
  readonly input: number;
  /** Input read from the prompt cache; the input rate when the list has none. */
  readonly cacheRead: number;
  /** Input written to the prompt cache; the input rate when the list has none (OpenAI, Gemini). */
  readonly cacheWrite: number;
  /** Output, reasoning included. */
  readonly output: number;
  /** USD per 1000 server-side web searches (the catalog's `web_searches_kcount`), when it lists one. */
  readonly webSearchPerK?: number;
  /** `catalog`, or the prices file it came from. */
  readonly source: string;
  /**
   * When the price holds, for a model whose price depends on the date or the time of day:
   * `00:30–16:30 UTC`, `outside 00:30–16:30 UTC`, `since 2026-08-17, outside 01:00–04:00 UTC`;
   * null when the model has one price.
   */
  readonly when: string | null;
}

/** Provider prefixes of agent model ids that the catalog names differently. */
const PROVIDER_ALIASES: Readonly<Record<string, string>> = { gemini: 'google', 'google-ai': 'google' };

/**
 * The catalog's list price of a model in force at `at` (default now), or null when the catalog
 * does not know it. `model` is an id as agent specs write it (`claude-sonnet-4-5`, `gpt-5.5`,
 * `gemini-2.5-pro`, dated ids) or with a provider prefix (`anthropic/claude-sonnet-4-5`,
 * `openai/gpt-5`); `provider` narrows the lookup (`openrouter` with `openai/gpt-5` gives
 * OpenRouter's listing). Prices that depend on the date or the time of day (deepseek's
 * off-peak hours) are the ones of that moment, as the catalog's `calcPrice` picks them.
 */
export function listPrice(model: string, provider?: string, at: Date = new Date()): ModelPrice | null {
  for (const [modelId, providerId] of candidates(model, provider)) {
    const price = catalogPrice(modelId, providerId, at);
    if (price !== null) return price;
  }
  return null;
}

/** Lookups to try, most specific first. */
function candidates(model: string, provider: string | undefined): [string, string | undefined][] {
  const list: [string, string | undefined][] = [[model, provider]];
  const slash = model.indexOf('/');
  if (slash > 0) {
    const prefix = model.slice(0, slash).toLowerCase();
    list.push([model.slice(slash + 1), PROVIDER_ALIASES[prefix] ?? prefix]);
    if (provider === undefined) list.push([model, 'openrouter']);
  }
  return list;
}

function catalogPrice(modelId: string, providerId: string | undefined, at: Date): ModelPrice | null {
  let result: ReturnType<typeof calcPrice> | undefined;
  try {
    result = calcPrice({ input_tokens: 0, output_tokens: 0 }, modelId, { timestamp: at, ...(providerId === undefined ? {} : { providerId }) });
  } catch {
    return null; // the catalog throws on entries it cannot price; treat as unknown
  }
  if (!result) return null;
  const prices = result.model_price;
  const input = baseRate(prices.input_mtok);
  const output = baseRate(prices.output_mtok);
  if (input === null || output === null) return null;
  return {
    model: result.model.id,
    provider: result.provider.id,
    input,
    cacheRead: baseRate(prices.cache_read_mtok) ?? input,
    cacheWrite: baseRate(prices.cache_write_mtok) ?? input,
    output,
    ...(baseRate(prices.web_searches_kcount) === null ? {} : { webSearchPerK: baseRate(prices.web_searches_kcount)! }),
    source: 'catalog',
    when: conditionOf(result.model.prices, prices),
  };
}

/** A flat price, or a tiered price's `base` (the rate below the first tier). */
function baseRate(price: unknown): number | null {
  if (typeof price === 'number') return price;
  if (typeof price === 'object' && price !== null && typeof (price as { base?: unknown }).base === 'number') {
    return (price as { base: number }).base;
  }
  return null;
}
