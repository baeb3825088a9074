/** A clock and time zone moved away from the real ones (admission checks for date dependence). */
export interface ClockShift {
  /** libfaketime offset, e.g. `+7y`. */
  readonly offset: string;
  readonly timeZone: string;
}

export interface ExecRequest {
  /** Shell command line, run with `/bin/sh -c`. */
  readonly command: string;
  readonly cwd: string;
  /** The complete environment (nothing is inherited). */
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly network: 'none' | 'host';
  /** File that receives stdout and stderr interleaved, in order. */
  readonly outputPath: string;
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
}

/** An isolation backend: runs commands with a network policy and kills whole process trees. */
export interface Sandbox {
  /** Recorded with every run, e.g. `bwrap-light`. */
  readonly name: string;
  exec(request: ExecRequest): Promise<ExecResult>;
}
