/**
 * @module api — bakeoff as a library: the five things the CLI does, each taking plain options
 * and an event callback and returning data. The CLI (`src/cli`) only parses flags, renders and
 * picks exit codes.
 */
export { bake, openBake, type BakeApiEvent, type BakeOutcome, type BakeRequest, type OpenBake } from './bake.js';
export { notifyVia, type NoteEvent, type Notify } from './events.js';
export { cacheDirOf, type Place } from './paths.js';
export { publish, type PublishOutcome, type PublishRequest } from './publish.js';
export { taskFromCommit, type TaskFromCommitRequest } from './task-from-commit.js';
export { importSwebench, type ImportSwebenchRequest } from './import-swebench.js';
export { importExercism, type ImportExercismRequest } from './import-exercism.js';
export { exportHarbor, importHarbor, type ExportHarborRequest, type ImportHarborRequest } from './harbor.js';
export { exportAtif, exportSwebenchPredictions, type ExportAtifRequest, type ExportPredictionsRequest } from './export-results.js';
export { mineTasks, type MinedTask, type MineTasksRequest } from './mine-tasks.js';
export { plan, type PlanOutcome, type PlanRequest } from './plan.js';
export { fleetLine, leaderboard, report, tallyAttempts, type FleetTally, type ReportOutcome, type ReportRequest } from './report.js';
export { validate, type TaskVerdict, type ValidateEvent, type ValidateOutcome, type ValidateRequest } from './validate.js';
export type { LockWrite } from '../admit/index.js';
export { verify, type VerifyEvent, type VerifyRequest } from './verify.js';
export type { OrderPoints, RunVerification, VerdictMismatch, VerifyResult } from '../verify/index.js';
export type { ReportFormat } from '../runners/index.js';
export { installAgents, listAgents, type AgentSpecForm, type AgentsListing, type HarnessListing, type InstalledHarness } from './agents.js';
export { importLogin, loginStatus, type ImportedLogin, type StoredLogin } from './auth.js';
export { doctor, type DoctorReport, type DoctorRequest, type LeftoverView, type LeftoversView } from './doctor.js';
export { serveModel, type ServedModel, type ServeModelRequest } from './model-server.js';
export { REPORT_FORMATS } from './report-formats.js';
export { sweepLeftovers } from './sweep-leftovers.js';
export { DEFAULT_SANDBOX, SANDBOX_NAMES } from './sandbox-names.js';
export { view, type Viewer, type ViewRequest } from './view.js';
export { emptyQueueAt, queueStatusAt, work, type QueueRequest, type WorkRequest } from './work.js';
export { fleetLeftovers } from './fleet-leftovers.js';
export type { FleetSummary, QueueStatus, RunningWorker, WorkerEvent } from '../queue/index.js';
