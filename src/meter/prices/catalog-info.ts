import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** The list-price catalog bakeoff prices models with. */
export const CATALOG_PACKAGE = '@pydantic/genai-prices';

/**
 * Data date per catalog version. The package carries no date of its own (no timestamp in its
 * bundled data or package.json), so this is the npm registry's publish time of the version
 * (`npm view @pydantic/genai-prices time`): the data is at most that fresh. Add a line when the
 * pinned version moves; `catalogInfo` says so when it meets a version it does not know.
 */
const PUBLISHED: Readonly<Record<string, string>> = {
  '0.1.8': '2026-09-23',
};

/** Which catalog, which version and how recent its data is: recorded with every priced bake. */
export interface CatalogInfo {
  readonly package: string;
  /** The installed version (read from its package.json). */
  readonly version: string;
  /** The date of the catalog's data (YYYY-MM-DD), or null when unknown for this version. */
  readonly dataDate: string | null;
  /** Where `dataDate` comes from. */
  readonly dataDateSource: string;
}

let cached: CatalogInfo | undefined;

/** The installed catalog's package, version and data date. */
export function catalogInfo(): CatalogInfo {
  if (cached) return cached;
  const entry = createRequire(import.meta.url).resolve(CATALOG_PACKAGE);
  const manifest = JSON.parse(readFileSync(path.join(path.dirname(entry), '..', 'package.json'), 'utf8')) as { version: string };
  const dataDate = PUBLISHED[manifest.version] ?? null;
  cached = {
    package: CATALOG_PACKAGE,
    version: manifest.version,
    dataDate,
    dataDateSource:
      dataDate === null
        ? `unknown: bakeoff has no publish date for ${CATALOG_PACKAGE} ${manifest.version}`
        : `npm publish time of ${CATALOG_PACKAGE} ${manifest.version} (the package carries no data date)`,
  };
  return cached;
}
