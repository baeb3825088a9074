export { compareLocks } from './compare-lock.js';
export type { LockDifference } from './compare-lock.js';
export { loadSuite } from './load-suite.js';
export { LOCK_FILE, SuiteLock, admissionFromLock, lockFromAdmissions, readLock, readLockFile, writeLock } from './lock.js';
export type { TaskLock } from './lock.js';
export { MAX_PROMPT_BYTES } from './read-prompt.js';
export { renderTasksMd } from './render-tasks-md.js';
export { Controls } from './schema.js';
export type { Order, OrderAdmission, Suite, Task, TaskAdmission } from './types.js';
