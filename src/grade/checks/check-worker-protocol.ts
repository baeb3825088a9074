import type { CheckFailure, CheckLimits } from './types.js';

/** What the check worker receives as `workerData` (see check-worker.mjs). */
export interface CheckWorkerData {
  /** The program: path relative to the repo, '/'-separated → source. */
  readonly files: Readonly<Record<string, string>>;
  /** Key of the entry module in `files`. */
  readonly entry: string;
  /** The QuickJS engine, compiled once by the host (compile-quickjs.ts); else the worker compiles it. */
  readonly wasmModule?: WebAssembly.Module;
  readonly limits: Pick<CheckLimits, 'memoryBytes' | 'stackBytes' | 'cpuMs' | 'wallBackstopMs' | 'maxResultBytes'>;
}

/** One check, as sent to the worker (in a batch: `{ requests: CheckWorkerRequest[] }`). */
export interface CheckWorkerRequest {
  /** Name of the exported function. */
  readonly call: string;
  /** The input as JSON text; parsed inside the VM. */
  readonly inputJson: string;
}

/** What one check produced in the VM, before comparison. */
export type VmOutcome =
  | {
      readonly kind: 'value';
      /** The result's JSON; absent when the call returned undefined. */
      readonly json?: string;
      readonly durationMs: number;
      /** CPU time of the worker thread during the check, in ms. */
      readonly cpuMs: number;
    }
  | {
      readonly kind: 'failure';
      readonly failure: Exclude<CheckFailure, 'wrong-result' | 'source-limit'>;
      readonly message: string;
      readonly durationMs: number;
      /** CPU time of the worker thread during the check, in ms (undefined when the host could not read it). */
      readonly cpuMs?: number;
    };

/**
 * Layout of `state`, the SharedArrayBuffer a check worker gets with its workerData (see
 * check-worker.mjs, which repeats it): which check of the batch runs and since when, for the
 * host's backstop, without a message per check.
 */
export const WORKER_STATE = {
  bytes: 24,
  /** Int32 index: the running check's index in the batch; negative between checks. */
  running: 0,
  /** Int32 index: how many checks of the batch have ended. */
  ended: 1,
  /** Float64 index: the worker thread's CPU clock (ns) when the running check started. */
  cpuStartNs: 1,
  /** Float64 index: process.hrtime in ms when the running check started. */
  startedMs: 2,
} as const;

/** A message from the worker. */
export type CheckWorkerMessage =
  /** Loaded; `tid` is the worker thread's kernel id, for the host's CPU backstop. */
  | { readonly type: 'ready'; readonly tid?: number }
  /** The outcomes of the next checks of the batch, in order (the worker sends a few at a time). */
  | { readonly type: 'outcomes'; readonly outcomes: readonly VmOutcome[] }
  /** The host side of the worker failed; it exits and is not reused. */
  | { readonly type: 'broken'; readonly message: string };
