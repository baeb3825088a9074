/**
 * @module importers — tasks written from other sources into a suite folder: a git commit,
 * SWE-bench instances, Exercism exercises, Harbor task folders. An importer only writes files
 * (each task folder whole or not at all); the admission checks are the caller's (api).
 */
export { taskFromCommit, type FromCommitOptions, type FromCommitResult, type Guess } from './task-from-commit.js';
export { testPathRule } from './test-paths.js';
export { cleanCommitMessage, withObserved } from './commit-prompt.js';
export { mineCommits, type MineOptions, type MinedCommit } from './mine-commits.js';
export { importSwebench, type ImportSwebenchOptions, type ImportedInstance } from './import-swebench.js';
export { readSwebenchInstances, type SwebenchInstance } from './swebench-instances.js';
export { writeTaskFolder, type OrderFiles, type TreeFile } from './task-folder.js';
export { importExercism, switchOnSkipped, type ImportedExercise, type ImportExercismOptions } from './import-exercism.js';
export { importHarbor, type ImportedHarborTask, type ImportHarborOptions } from './import-harbor.js';
export { IMPORTER_NAMES, IMPORTERS, type ImporterName } from './registry.js';
export type { ImportedTask, Importer, ImportRequest } from './types.js';
