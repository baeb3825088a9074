import { judgeOutcome } from './judge-outcome.js';
import { runChecksInWorker } from './run-checks-in-worker.js';
import { DEFAULT_CHECK_LIMITS, WALL_BACKSTOP_FACTOR, type Check, type CheckFailure, type CheckLimits, type CheckResult } from './types.js';

/**
 * Time the host backstop allows beyond each VM limit before it terminates the worker: CPU time
 * beyond `cpuMs` (the interrupt handler stops JavaScript at the limit, but time spent in native
 * code or garbage collection, measured up to about 4 s for an allocation loop, is invisible to
 * it) and wall time beyond `wallBackstopMs` (a worker that no longer polls at all).
 */
export const BACKSTOP_GRACE_MS = 1500;

export interface RunChecksOptions {
  /** The program: path relative to the repo, '/'-separated → source (see loadSources). */
  readonly files: Readonly<Record<string, string>>;
  /** Key of the entry module in `files`, e.g. `src/index.js`. */
  readonly entry: string;
  readonly checks: readonly Check[];
  /** Overrides of {@link DEFAULT_CHECK_LIMITS}; without `wallBackstopMs`, it is {@link WALL_BACKSTOP_FACTOR} × cpuMs. */
  readonly limits?: Partial<CheckLimits>;
}

/**
 * Runs each check in a fresh QuickJS runtime and context, inside a worker thread, and
 * compares its result with the expected value. The agent's files are ES modules; only
 * relative imports between them resolve. A failure affects only its own check, except for
 * the source limit and a missing entry file, which fail every check.
 * @returns one result per check, in order.
 * @throws Error when a limit is not a positive number, a check's call is not a name or its
 *   input is not JSON, or the check worker cannot start (the instrument is broken, not the
 *   program).
 */
export async function runChecks(options: RunChecksOptions): Promise<CheckResult[]> {
  const limits = resolveLimits(options.limits);
  const { files, entry, checks } = options;
  const failAll = (failure: CheckFailure, message: string): CheckResult[] =>
    checks.map((check) => ({ id: check.id, passed: false, failure, message, durationMs: 0 }));
  const broken = checkSourceLimits(files, limits);
  if (broken) return failAll('source-limit', broken);
  if (!Object.hasOwn(files, entry)) {
    return failAll('load-error', `the entry file ${entry} is not among the program's ${Object.keys(files).length} JS files`);
  }
  if (checks.length === 0) return [];
  const outcomes = await runChecksInWorker({
    data: {
      files,
      entry,
      limits: { memoryBytes: limits.memoryBytes, stackBytes: limits.stackBytes, cpuMs: limits.cpuMs, wallBackstopMs: limits.wallBackstopMs, maxResultBytes: limits.maxResultBytes },
    },
    requests: checks.map((check) => ({ call: callName(check), inputJson: inputJson(check) })),
    backstop: { cpuMs: limits.cpuMs + BACKSTOP_GRACE_MS, wallMs: limits.wallBackstopMs + BACKSTOP_GRACE_MS },
  });
  return checks.map((check, i) => judgeOutcome(check, outcomes[i]!));
}

function resolveLimits(overrides: Partial<CheckLimits> = {}): CheckLimits {
  const limits: CheckLimits = { ...DEFAULT_CHECK_LIMITS };
  for (const [key, value] of Object.entries(overrides) as Array<[keyof CheckLimits, number | undefined]>) {
    if (value === undefined) continue;
    if (!(key in DEFAULT_CHECK_LIMITS)) throw new Error(`limits.${key} is not a check limit; expected one of ${Object.keys(DEFAULT_CHECK_LIMITS).join(', ')}`);
    if (!Number.isFinite(value) || value <= 0) throw new Error(`limits.${key} must be a positive number, got ${String(value)}`);
    limits[key] = value;
  }
  if (overrides.wallBackstopMs === undefined) limits.wallBackstopMs = WALL_BACKSTOP_FACTOR * limits.cpuMs;
  return limits;
}

function callName(check: Check): string {
  if (typeof check.call !== 'string' || check.call === '') throw new Error(`check ${check.id}: call must be a non-empty string, got ${JSON.stringify(check.call)}`);
  return check.call;
}

/** The input as JSON text; `undefined` becomes `null`, as it would inside a JSON array. */
function inputJson(check: Check): string {
  try {
    return (JSON.stringify(check.input) as string | undefined) ?? 'null';
  } catch (error) {
    throw new Error(`check ${check.id}: input is not JSON-serialisable`, { cause: error });
  }
}

/**
 * Says which source limit the program breaks, with the numbers, or returns undefined when
 * it keeps both. Bytes are counted as UTF-8.
 */
function checkSourceLimits(files: Readonly<Record<string, string>>, limits: Pick<CheckLimits, 'maxFiles' | 'maxSourceBytes'>): string | undefined {
  const count = Object.keys(files).length;
  const bytes = Object.values(files).reduce((sum, source) => sum + Buffer.byteLength(source, 'utf8'), 0);
  const broken: string[] = [];
  if (count > limits.maxFiles) broken.push(`it has ${count} JS files, over the limit of ${limits.maxFiles}`);
  if (bytes > limits.maxSourceBytes) broken.push(`its JS files total ${bytes} bytes, over the limit of ${limits.maxSourceBytes} bytes`);
  return broken.length ? `the program breaks the source limit: ${broken.join('; ')}` : undefined;
}
