import type { Exporter } from './types.js';

/**
 * The exporters, by name (`bakeoff export <name>`). An exporter is its file and its line here.
 * A suite exporter whose name is also an importer's (`importers/registry.ts`) must round-trip:
 * the importer reads back what it wrote, task hash for task hash (importers/conformance.test.ts).
 */
export const EXPORTERS = {
  harbor: (await import('./export-harbor.js')).harborExporter,
  'swebench-predictions': (await import('./swebench-predictions.js')).swebenchPredictionsExporter,
  atif: (await import('./atif.js')).atifExporter,
} as const satisfies Record<string, Exporter>;

/** An exporter's name: a key of the registry. */
export type ExporterName = keyof typeof EXPORTERS;
