/**
 * The fleet: one Redis (BullMQ) queue of run jobs, workers that run them through the local
 * run's code path, and a coordinator that is the results folder's only writer. What crosses
 * Redis is sealed with the fleet secret (decision 014).
 */
export { parseQueueUrl, queueAddressOf, connectQueue, type QueueAddress, type QueuePlace, type LinkNotes } from './connection.js';
export { coordinate, type CoordinateOptions, type FleetSummary } from './coordinate.js';
export { startWorker, type ExecuteJob, type JobPlace, type RunningWorker, type StopResult, type WorkerEvent, type WorkOptions } from './work.js';
export { emptyQueue, queueStatus, type QueueStatus } from './status.js';
export { keys, PREFIX, QUEUE, REFUSED, type AgentFiles, type FleetBake, type RunJob, type RunJobResult, type WorkerInfo } from './jobs.js';
export { openSessionSlots, slotsKey, type SessionSlots } from './slots.js';
export { createFleetSeal, type FleetSeal, type Sealed, type SealKind } from './seal.js';
export { readFleetSecret, MIN_SECRET_CHARS, type SecretPlace } from './fleet-secret.js';
export { DEFAULT_UPSTREAMS, workerPolicy, type WorkerPolicy } from './worker-policy.js';
export { bundledHostFile, recordingHostFile } from './agent-files.js';
export { cleanFleetLeftovers, describeFleetLeftover, findFleetLeftovers, type FleetLeftover } from './staging.js';
