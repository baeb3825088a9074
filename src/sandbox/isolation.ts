import type { Controls } from '../suite/index.js';
import { sweepLeftovers } from './leftovers.js';
import { weighThisProcess } from '../util/index.js';
import { createProcessSandbox } from './process-sandbox.js';
import { sandboxNamed } from './registry.js';
import type { Sandbox } from './types.js';
import type { WorkspaceOptions } from './workspace.js';

/** Default host uid of sandboxed processes: unprivileged, and no login user's. */
export const DEFAULT_SANDBOX_UID = 64123;

/** How runs are isolated: one backend for agents and grading, one for trusted setup commands. */
export interface Isolation {
  /** Every agent session and every test run (grading, admission). */
  readonly sandbox: Sandbox;
  /** A task's setup command: the suite author's, trusted, with network (npm ci, cargo fetch). */
  readonly setup: Sandbox;
  readonly workspace: WorkspaceOptions;
}

export interface IsolationOptions {
  readonly controls: Controls;
  /**
   * The backend of agents and grading, by its name in `SANDBOX_BACKENDS` (`registry.ts`;
   * `DEFAULT_SANDBOX` is `bwrap`). Recorded with every run; one that does not isolate
   * (`unsafe-no-sandbox`) is for development only, and every report shows it.
   */
  readonly backend: string;
  readonly uid?: number;
  /** Clear what killed bakeoffs left first (default); `bakeoff doctor` lists it instead. */
  readonly sweep?: boolean;
}

const MB = 1024 * 1024;

export async function createIsolation(options: IsolationOptions): Promise<Isolation> {
  const { controls } = options;
  const backend = sandboxNamed(options.backend);
  const setup = createProcessSandbox();
  // what a killed bakeoff left (mounts, scratch folders, cgroups) goes before anything new is made (once per process: the CLI has swept already)
  if (options.sweep !== false) await sweepLeftovers();
  // the process that serves every sandbox's model requests must not be starved itself (decision 011)
  await weighThisProcess();
  const sandbox = await backend.create({ controls, uid: options.uid ?? DEFAULT_SANDBOX_UID });
  return { sandbox, setup, workspace: { owner: sandbox.owner, diskBytes: controls.diskMb * MB } };
}

/**
 * The same isolation, its sandboxed commands weighing like `processes` ordinary processes
 * instead of one (`ExecRequest.cpuWeight`): for verify's re-check of a disagreeing re-grade,
 * which runs alone, so that a loaded host does not starve the one test run whose result decides
 * between "mismatch" and "could not re-check" (decision 011). Limits (CPUs, memory, pids) stay.
 */
export function weightedIsolation(isolation: Isolation, processes: number): Isolation {
  const { sandbox } = isolation;
  return { ...isolation, sandbox: { ...sandbox, exec: (request) => sandbox.exec({ ...request, cpuWeight: processes }) } };
}
