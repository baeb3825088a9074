/**
 * @module export — a suite or a results folder in other tools' formats: Harbor task folders,
 * SWE-bench predictions, ATIF trajectories. Writes files only.
 */
export { exportHarbor, type ExportHarborOptions } from './export-harbor.js';
export { swebenchPredictions, type Prediction, type PredictionsResult } from './swebench-predictions.js';
export { ATIF_VERSION, atifTrajectory, type AtifInput } from './atif.js';
export { EXPORTERS, type ExporterName } from './registry.js';
export type { Exporter, ResultsExporter, SuiteExporter } from './types.js';
