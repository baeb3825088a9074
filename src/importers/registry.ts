import type { Importer } from './types.js';

/**
 * The importers, by name. An importer is its file (or folder) and its line here: the
 * conformance suite (`conformance.test.ts`) runs every entry on its sample source
 * (test/fixtures/importers/<name>/): what it writes loads and passes admission, a second
 * import writes nothing over it, and it round-trips through the exporter of the same name
 * where one exists (`export/registry.ts`).
 */
export const IMPORTERS = {
  swebench: (await import('./import-swebench.js')).swebenchImporter,
  exercism: (await import('./import-exercism.js')).exercismImporter,
  harbor: (await import('./import-harbor.js')).harborImporter,
  commit: (await import('./task-from-commit.js')).commitImporter,
} as const satisfies Record<string, Importer<never>>;

/** An importer's name: a key of the registry. */
export type ImporterName = keyof typeof IMPORTERS;

/** The importers' names, in the registry's order. */
export const IMPORTER_NAMES = Object.keys(IMPORTERS) as [ImporterName, ...ImporterName[]];
