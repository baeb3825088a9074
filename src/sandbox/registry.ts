import type { Controls } from '../suite/index.js';
import { createBwrapSandbox } from './bwrap-sandbox.js';
import { createProcessSandbox } from './process-sandbox.js';
import { toolchainMounts } from './toolchains.js';
import type { Sandbox } from './types.js';

/** What a backend is made from: the suite's limits, and the host uid sandboxed processes run as. */
export interface BackendOptions {
  readonly controls: Controls;
  readonly uid: number;
}

/** Cases of the sandbox conformance suite (`conformance.test.ts`) a backend may be excused from. */
export type ConformanceNeed = 'isolation';

/** One sandbox backend: how to make it, and what of `Sandbox`'s contract it does not keep, with why. */
export interface SandboxBackend {
  create(options: BackendOptions): Promise<Sandbox>;
  /** Conformance cases it does not run, each with the reason (Inspect's known failures). */
  readonly lacks: Readonly<Partial<Record<ConformanceNeed, string>>>;
}

const MB = 1024 * 1024;

/**
 * The sandbox backends, by the name each records in every run (`runtime.sandbox`). The
 * isolation (`isolation.ts`) chooses one; the conformance suite runs them all.
 */
export const SANDBOX_BACKENDS = {
  bwrap: {
    create: async ({ controls, uid }) =>
      createBwrapSandbox({
        uid,
        limits: { memoryBytes: controls.memoryMb * MB, pids: controls.pids, cpus: controls.cpus },
        tmpBytes: controls.tmpMb * MB,
        homeBytes: controls.homeMb * MB,
        tools: await toolchainMounts(),
      }),
    lacks: {},
  },
  'unsafe-no-sandbox': {
    create: async () => createProcessSandbox(),
    lacks: { isolation: 'not isolated: the development fallback' },
  },
} as const satisfies Record<string, SandboxBackend>;

export type SandboxName = keyof typeof SANDBOX_BACKENDS;
