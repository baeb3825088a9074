import type { Controls } from '../suite/index.js';
import type { StepCpu } from '../types.js';

/** A clock and time zone moved away from the real ones (admission checks for date dependence). */
export interface ClockShift {
  /** libfaketime offset, e.g. `+7y`; absent: only the time zone moves (the clock cannot be moved safely, see grade/shifted-clock.ts). */
  readonly offset?: string;
  readonly timeZone: string;
  /** Host path of bakeoff's sleep fix (grade/shifted-clock.ts), preloaded before libfaketime when the clock moves. */
  readonly sleepFix?: string;
}

export interface ExecRequest {
  /** Shell command line, run with `/bin/sh -c`. */
  readonly command: string;
  readonly cwd: string;
  /** The complete environment (nothing is inherited). */
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly network: 'none' | 'host';
  /** File that receives stdout and stderr interleaved, in order (at most `maxOutputBytes`). */
  readonly outputPath: string;
  /** Most of the output kept in `outputPath` (head and tail; the middle is cut and said so). Default 64 MiB. */
  readonly maxOutputBytes?: number;
  /** Kill the command when it prints nothing for this long (a setup that hangs); `idleTimedOut` says so. */
  readonly idleTimeoutMs?: number;
  /** Called with each chunk of output as it arrives (progress on the terminal). */
  readonly onOutput?: (chunk: Buffer) => void;
  /** Kill the command's whole tree when this aborts (the caller needs nothing more from it); `aborted` says so. */
  readonly signal?: AbortSignal;
  /**
   * Host paths the command may use, each at the same path inside the sandbox; `cwd` must be one
   * of them. Nothing else of the host's files is visible but read-only system folders and
   * toolchains. (The unsafe backend shows everything.)
   */
  readonly binds: readonly Bind[];
  /** A host unix socket reachable inside as http://127.0.0.1:<port> (the model proxy). */
  readonly modelBridge?: { readonly socket: string; readonly port: number };
  /**
   * The command's CPU weight, in ordinary processes (default 1: every session and test run
   * weighs like one process, decision 011). Only verify's re-check of a disagreement, which runs
   * alone, asks for more (`weighted`).
   */
  readonly cpuWeight?: number;
}

export interface Bind {
  /** The path inside the sandbox (and on the host, unless `source` says otherwise). */
  readonly path: string;
  readonly writable: boolean;
  /** Host path to show at `path`, when it differs. */
  readonly source?: string;
}

/** What happened; never thrown for a non-zero exit or a timeout. */
export interface ExecResult {
  /** Exit status, or null when a signal ended the process. */
  readonly exitCode: number | null;
  readonly signal: string | null;
  /** True when the wall clock ran out and the process tree was killed. */
  readonly timedOut: boolean;
  readonly durationMs: number;
  /** The last 64 KiB of the combined output. */
  readonly outputTail: string;
  /** Bytes printed in all, kept or not. */
  readonly outputBytes: number;
  /** True when the log's middle was cut to keep it within `maxOutputBytes`. */
  readonly outputTruncated: boolean;
  /** True when the command printed nothing for `idleTimeoutMs` and was killed for it. */
  readonly idleTimedOut?: boolean;
  /** True when the request's `signal` aborted and the command was killed for it. */
  readonly aborted?: boolean;
  /** A resource limit the command ran into (memory: killed by the OOM killer; pids: forks refused). */
  readonly limitHit: 'memory' | 'pids' | null;
  /** What the machine gave the command's processes: CPU time, run-queue wait, held back (decision 011); null when it could not be measured. */
  readonly cpu?: StepCpu | null;
}

/** An isolation backend: runs commands with a network policy and kills whole process trees. */
export interface Sandbox {
  /** Recorded with every run (`runtime.sandbox`): the backend's name in `SANDBOX_BACKENDS` (`registry.ts`). */
  readonly name: string;
  /** False for the development-only backend that hides nothing. */
  readonly isolated: boolean;
  /** Host uid/gid that writable binds must belong to (null: the caller's own). */
  readonly owner: { readonly uid: number; readonly gid: number } | null;
  /** The HOME every command gets (a private, size-limited folder), or null: whatever `env` says. */
  readonly home: string | null;
  exec(request: ExecRequest): Promise<ExecResult>;
}

/** What a backend is made from: the suite's limits, and the host uid sandboxed processes run as. */
export interface BackendOptions {
  readonly controls: Controls;
  readonly uid: number;
}

/**
 * One sandbox backend, an entry of `SANDBOX_BACKENDS` (`registry.ts`) under the name its
 * sandbox records in every run (`Sandbox.name`).
 */
export interface SandboxBackend {
  /**
   * Whether it hides the host's files outside the binds (hidden tests, the suite, the results)
   * and drops privileges. A backend that does not is for development only: choosing it warns,
   * a fleet refuses it, and the conformance cases that need isolation are skipped for it.
   */
  readonly isolates: boolean;
  /** Programs it runs, checked before a command that uses it starts (`requireTools`). */
  readonly requires: readonly string[];
  create(options: BackendOptions): Promise<Sandbox>;
}
