/** One generated check: call an export of the agent's entry module with an input, compare the result. */
export interface Check {
  /** Stable id of the check within its order, e.g. `boundary-3` or `gen-17`. */
  readonly id: string;
  /** Name of the function exported by the entry module. */
  readonly call: string;
  /** The argument, a JSON value; parsed inside the VM. */
  readonly input: unknown;
  /** The expected result, a JSON value; compared with JSON semantics (key order irrelevant). */
  readonly expected: unknown;
}

/**
 * Why a check failed.
 * - `wrong-result`: the call returned, but not the expected value.
 * - `code-error`: the agent's code threw (or its promise rejected or never settled).
 * - `timeout`: the check used more than `cpuMs` of CPU time (stopped by the interrupt handler,
 *   or by the host when the time went where the handler cannot see it: native code, GC).
 * - `wall-backstop`: the check ran past `wallBackstopMs` of wall time while still under its CPU
 *   limit (the machine starved it of CPU); not the CPU limit, and reported apart from it.
 * - `memory`: the check ran out of `memoryBytes`.
 * - `stack`: the check overflowed `stackBytes`.
 * - `result-too-large`: the result's JSON is over `maxResultBytes`.
 * - `source-limit`: the program has too many files or bytes; every check fails with it.
 * - `load-error`: the program could not be loaded (syntax error, refused or missing import).
 */
export type CheckFailure =
  | 'wrong-result'
  | 'code-error'
  | 'timeout'
  | 'wall-backstop'
  | 'memory'
  | 'stack'
  | 'result-too-large'
  | 'source-limit'
  | 'load-error';

/** The result of one check. */
export interface CheckResult {
  /** The check's id. */
  readonly id: string;
  /** True when the result deep-equals the expected value. */
  readonly passed: boolean;
  /** Why it failed; absent when it passed. */
  readonly failure?: CheckFailure;
  /** What went wrong, in words (QuickJS's own error text included); absent when it passed. */
  readonly message?: string;
  /**
   * For `wrong-result` only: the value the call returned (undefined when it returned
   * undefined). When its JSON is longer than {@link ACTUAL_PREVIEW_CHARS}, a string holding
   * the start of that JSON followed by `… (N chars of JSON)` instead.
   */
  readonly actual?: unknown;
  /** Wall time of the check, from runtime creation to disposal (or to the backstop). */
  readonly durationMs: number;
  /** CPU time of the check's thread over the same span, in ms (absent for source-limit and load failures found before the VM). */
  readonly cpuMs?: number;
}

/** Limits for running checks; see {@link DEFAULT_CHECK_LIMITS}. */
export interface CheckLimits {
  /** QuickJS runtime memory limit per check. */
  memoryBytes: number;
  /** QuickJS stack limit per check. */
  stackBytes: number;
  /**
   * CPU time per check, of the worker thread that runs it, from before runtime creation
   * (compiling the program counts) to the end of the call (see docs/decisions/006).
   */
  cpuMs: number;
  /**
   * Wall-clock backstop per check: stops a check the machine starves of CPU, reported as
   * `wall-backstop`, never as the CPU limit. Defaults to {@link WALL_BACKSTOP_FACTOR} × cpuMs.
   */
  wallBackstopMs: number;
  /** Most JS files the program may have. */
  maxFiles: number;
  /** Most bytes (UTF-8) all JS files together may have. */
  maxSourceBytes: number;
  /** Largest result JSON, in UTF-8 bytes. */
  maxResultBytes: number;
}

/** The default wall-clock backstop, in multiples of the CPU limit (measured: see docs/decisions/006). */
export const WALL_BACKSTOP_FACTOR = 20;

/** The calibration suite's limits (DESIGN.md §1 item 3). Frozen: spread it to change a field. */
export const DEFAULT_CHECK_LIMITS: CheckLimits = Object.freeze({
  memoryBytes: 32 * 1024 * 1024,
  stackBytes: 1024 * 1024,
  cpuMs: 500,
  wallBackstopMs: WALL_BACKSTOP_FACTOR * 500,
  maxFiles: 24,
  maxSourceBytes: 128 * 1024,
  maxResultBytes: 1024 * 1024,
});

/** Longest JSON kept whole in {@link CheckResult.actual}. */
export const ACTUAL_PREVIEW_CHARS = 200;
