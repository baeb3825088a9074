/**
 * The fleet: one Redis (BullMQ) queue of run jobs, workers that run them through the local
 * run's code path, and a coordinator that is the results folder's only writer.
 */
export { parseQueueUrl, connectQueue, type QueueAddress, type LinkNotes } from './connection.js';
export { coordinate, type CoordinateOptions, type FleetSummary } from './coordinate.js';
export { startWorker, type ExecuteJob, type RunningWorker, type WorkerEvent, type WorkOptions } from './work.js';
export { emptyQueue, queueStatus, type QueueStatus } from './status.js';
export { keys, PREFIX, QUEUE, type FleetBake, type RunJob, type RunJobResult, type WorkerInfo } from './jobs.js';
export { openSessionSlots, slotsKey, type SessionSlots } from './slots.js';
