import type { Controls } from '../suite/index.js';
import { createBwrapSandbox } from './bwrap-sandbox.js';
import { sweepLeftovers } from './leftovers.js';
import { createProcessSandbox } from './process-sandbox.js';
import { toolchainMounts } from './toolchains.js';
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
  /** Development only: no sandbox at all (recorded with every run, shown in every report). */
  readonly unsafe: boolean;
  readonly uid?: number;
  /** Clear what killed bakeoffs left first (default); `bakeoff doctor` lists it instead. */
  readonly sweep?: boolean;
}

const MB = 1024 * 1024;

export async function createIsolation(options: IsolationOptions): Promise<Isolation> {
  const { controls } = options;
  const setup = createProcessSandbox();
  // what a killed bakeoff left (mounts, scratch folders, cgroups) goes before anything new is made (once per process: the CLI has swept already)
  if (options.sweep !== false) await sweepLeftovers();
  if (options.unsafe) return { sandbox: setup, setup, workspace: { owner: null, diskBytes: controls.diskMb * MB } };
  const uid = options.uid ?? DEFAULT_SANDBOX_UID;
  const sandbox = createBwrapSandbox({
    uid,
    limits: { memoryBytes: controls.memoryMb * MB, pids: controls.pids, cpus: controls.cpus },
    tmpBytes: controls.tmpMb * MB,
    homeBytes: controls.homeMb * MB,
    tools: await toolchainMounts(),
  });
  return { sandbox, setup, workspace: { owner: sandbox.owner, diskBytes: controls.diskMb * MB } };
}
