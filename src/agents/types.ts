import type { RequestRow } from '../store/index.js';
import type { AgentInfo, TokenUsage, VoidReason } from '../types.js';
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
}

/** What one session did. A session never throws for the agent's own failures. */
export interface SessionResult {
  readonly exitCode: number | null;
  readonly timedOut: boolean;
  readonly durationMs: number;
  /** Set when the instrument broke (the agent could not be started, a harness error event). */
  readonly error?: string;
  /** Why the run is void when `error` is set (default `agent-error`). */
  readonly voidReason?: VoidReason;
  readonly tokensIn?: number;
  readonly tokensOut?: number;
  readonly costUsd?: number;
  /** A sandbox limit the session ran into. */
  readonly limitHit?: 'memory' | 'pids' | null;
  /** Metered tokens by class (model agents). */
  readonly usage?: TokenUsage;
  /** What the harness itself reported. */
  readonly harness?: unknown;
  /** Every model request the metering proxy relayed. */
  readonly requests?: readonly RequestRow[];
  /** Things a reader of the run should know (e.g. the harness's token counts disagree with the meter). */
  readonly flags?: readonly string[];
  /** Set when the session failed in a way that is the agent's (its change cannot be made): the run fails with this. */
  readonly failure?: { readonly reason: 'patch-did-not-apply'; readonly detail: string };
}

export interface Agent {
  readonly info: AgentInfo;
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
