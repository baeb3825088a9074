export { compareArtifactDigests, digestArtifacts, type ArtifactDigest } from './artifact-digests.js';
export type { ArtifactMismatch } from './artifact-digests.js';
export { describeHolder } from './describe-holder.js';
export { openStore, runTempDirs } from './open-store.js';
export type { AttemptRow, CheckRow, RequestRow, RunSet, SessionRecord, SessionRow, Store } from './open-store.js';
export { lockResults, readHolder } from './results-lock.js';
export type { CheckTally } from './check-tallies.js';
export type { LockHolder, ResultsLock } from './results-lock.js';
export {
  DATABASE_NAME,
  RUN_FOLDER_NAMES,
  SEARCHABLE_ORDER_FILES,
  gradeAttemptDir,
  gradeFiles,
  isRunTempName,
  orderDir,
  orderDirName,
  orderFile,
  orderFilesInResults,
  orderFileName,
  ordersIn,
  readRefusal,
  resultsPaths,
  runDir,
  runDirInResults,
  runOrderDir,
  runTempDir,
  writeRefusal,
} from './run-folder.js';
export type { OrderFile, OrderFilesInResults, StoredRefusal } from './run-folder.js';
