import { type CatalogInfo, catalogInfo } from './catalog-info.js';
import { type PriceOverrides, filePriceAt, loadPricesFile } from './prices-file.js';
import { type ModelPrice, listPrice } from './prices.js';

/** The prices of a bake: a prices file's entries first, then the catalog's list prices. */
export interface PriceBook {
  /**
   * The price of a model in force at `at` (default now; see `listPrice` for the ids accepted),
   * or null when neither source has it.
   */
  priceOf(model: string, provider?: string, at?: Date): ModelPrice | null;
  /** One line for records and reports: catalog, version, data date, base rates, prices file. */
  readonly source: string;
  readonly catalog: CatalogInfo;
  /** The prices file, or null. */
  readonly file: string | null;
}

/**
 * Opens the price book of a bake: the catalog, overridden and extended by `pricesFile` when
 * given. A file key matches `<provider>/<model>` (when a provider is asked for), then the model
 * id as given, then the id without its `provider/` prefix. Both sources give the price of the
 * moment asked for (time-of-day and dated prices).
 */
export async function openPriceBook(pricesFile?: string): Promise<PriceBook> {
  const overrides: PriceOverrides = pricesFile === undefined ? new Map() : await loadPricesFile(pricesFile);
  const catalog = catalogInfo();
  const date = catalog.dataDate === null ? 'data date unknown' : `data of ${catalog.dataDate}`;
  const source = [
    `${catalog.package} ${catalog.version} (${date}), each token class at its base rate`,
    ...(pricesFile === undefined ? [] : [`overridden by ${pricesFile}`]),
  ].join('; ');
  return {
    priceOf: (model, provider, at = new Date()) => overrideOf(overrides, model, provider, at) ?? listPrice(model, provider, at),
    source,
    catalog,
    file: pricesFile ?? null,
  };
}

function overrideOf(overrides: PriceOverrides, model: string, provider: string | undefined, at: Date): ModelPrice | null {
  if (overrides.size === 0) return null;
  const slash = model.indexOf('/');
  const keys = [provider === undefined ? null : `${provider}/${model}`, model, slash > 0 ? model.slice(slash + 1) : null];
  for (const key of keys) {
    const entry = key === null ? undefined : overrides.get(key);
    if (entry !== undefined) return filePriceAt(entry, at);
  }
  return null;
}
