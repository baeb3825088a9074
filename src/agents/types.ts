import type { RequestRow, SessionRecord } from '../store/index.js';
import type { AgentInfo, EffortCatalogRef, StepCpu, VoidReason } from '../types.js';
import type { Sandbox } from '../sandbox/index.js';

/** Everything one agent session may use. The agent works in `workspace` and nowhere else. */
export interface SessionContext {
  readonly taskId: string;
  /** 1-based order index. */
  readonly order: number;
  readonly prompt: string;
  /** The prompt as a file outside the workspace (`$BAKEOFF_PROMPT_FILE` for command agents). */
  readonly promptFile: string;
  /** An empty folder of this session's, outside the workspace, that the sandbox can see. */
  readonly scratchDir: string;
  /** The order's reference change (used only by the gold agent). */
  readonly goldPatchPath: string;
  readonly workspace: string;
  readonly sandbox: Sandbox;
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  /** File for the agent's stdout+stderr. */
  readonly outputPath: string;
  /** Most of the agent's output kept (controls.outputMb): head and tail, the middle cut and said so. */
  readonly maxOutputBytes: number;
  /**
   * The suite's `network: model-api+web`: a model agent's CLI keeps its web tools and the
   * metering proxy lets provider-run tools through (recorded). Absent or false: the closed web.
   */
  readonly openWeb?: boolean;
  /**
   * Told as each metered model request ends, with its row as it will be stored (tokens, cost as
   * priced then): a fleet's worker reports an attempt's spend as it goes, so an attempt whose
   * worker is lost still has its cost up to its last finished request. Agents without a meter never call it.
   */
  readonly onRequest?: (row: RequestRow) => void;
}

/** The session fields every result has; the rest of the store's `SessionRecord` an agent may leave out. */
type ResultCore = 'exitCode' | 'timedOut' | 'durationMs';

/** A record's fields as an agent reports them: absent rather than null. */
type Reported<T> = { readonly [K in keyof T]?: Exclude<T[K], null> };

/**
 * What one session did: the store's `SessionRecord` (tokens, cost, error, usage, the harness's
 * report, requests, flags; absent where the agent has none), and what decides the run's outcome.
 * A session never throws for the agent's own failures.
 */
export interface SessionResult extends Pick<SessionRecord, ResultCore>, Reported<Omit<SessionRecord, ResultCore>> {
  /** Why the run is void when `error` is set (default `agent-error`). */
  readonly voidReason?: VoidReason;
  /** A sandbox limit the session ran into. */
  readonly limitHit?: 'memory' | 'pids' | null;
  /** What the machine gave the session's processes (decision 011); absent for sessions that ran nothing (gold, noop). */
  readonly cpu?: StepCpu | null;
  /** Set when the session failed in a way that is the agent's (its change cannot be made): the run fails with this. */
  readonly failure?: { readonly reason: 'patch-did-not-apply'; readonly detail: string };
}

/**
 * Where the files an agent spec names are read from: given the absolute path a spec names (a
 * `command:` script, a `patch:` file, a scripted model's replay file, a prices file), the file to
 * read in its place, or null when there is none. A local bake reads the path itself; a fleet
 * worker reads only what came in the coordinator's signed bundle, never its own disk.
 */
export type HostFile = (absolutePath: string) => string | null;

export interface Agent {
  readonly info: AgentInfo;
  /** Model agents: the catalog its effort level was resolved from (recorded in every run). */
  readonly effortCatalog?: EffortCatalogRef;
  /**
   * Digest of everything that defines this agent's behaviour beyond the suite (a command line,
   * a patch file's content); part of every run id.
   */
  readonly digest: string;
  /**
   * The tasks this agent has work for (a predictions file names some tasks only); absent: every
   * task. Bakes plan runs for these tasks only (unless told to give the others empty changes).
   */
  readonly tasks?: ReadonlySet<string>;
  runSession(context: SessionContext): Promise<SessionResult>;
}
