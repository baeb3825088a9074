import type { Suite, SuiteLock } from '../suite/index.js';

/** An exporter of a suite: its tasks in another tool's format. */
export interface SuiteExporter {
  readonly from: 'suite';
  /** What it writes, for help texts. */
  readonly writes: string;
  /** Writes the suite into `out`, a new folder, whole or not at all (an existing `out` is refused); the folders written, one per task. */
  exportSuite(request: { readonly suite: Suite; readonly lock: SuiteLock | null; readonly out: string }): Promise<readonly string[]>;
}

/**
 * An exporter of a results folder (runs, sessions, metered requests). The api reads the store
 * (`api/export-results.ts`) and calls the exporter's functions; its shared cases need a bake
 * with a real harness session, so they live with the real CLIs (test/e2e/agents/exports.e2e.test.ts,
 * which fails when a registered results exporter has no case there).
 */
export interface ResultsExporter {
  readonly from: 'results';
  readonly writes: string;
}

/** One exporter, under its registry name (`registry.ts`): `bakeoff export <name>`. */
export type Exporter = SuiteExporter | ResultsExporter;
