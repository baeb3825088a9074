/**
 * Vocabulary shared by every module (DESIGN.md §2). Plain data only: no I/O, no imports.
 */

/** Why an agent's run failed (the agent's fault). */
export type FailReason =
  | 'tests-failed'          // an expected test did not pass
  | 'checks-failed'         // a generated check did not pass
  | 'protected-path-changed'
  | 'patch-did-not-apply'  // the captured change could not be applied to a clean copy
  | 'session-timeout'
  | 'test-timeout'          // the test command ran out of its wall clock (a starved run is re-run first: decision 011)
  | 'memory-limit'          // the agent's session, or its tests while graded, hit the memory limit
  | 'pids-limit'            // the agent's session ran into the process limit
  | 'disk-limit'            // the agent's session filled its workspace quota
  | 'report-inconsistent'   // the test runner's exit status disagrees with its report
  | 'report-tampered'       // bakeoff's tripwire tests came out wrong, or a graded test file changed while the tests ran
  | 'report-unreadable'     // the runner's report is not a bounded regular file (a FIFO, a link, over its size limit)
  | 'change-too-large'      // the change is bigger than the controls allow
  | 'unsupported-file'      // the change holds what a patch cannot carry (a nested git repository, a path that is not UTF-8)
  | 'output-limit'          // the tests printed more than the output limit, and results were lost with what was cut
  | 'grading-error';        // a grading step broke on this change but works on the unchanged repo

/** Why a run is void: the instrument broke, never a loss. */
export type VoidReason =
  | 'infra-error'           // bakeoff itself, the sandbox or the machine failed
  | 'setup-failed'          // the task's setup command failed on this machine
  | 'agent-error'           // the agent could not be started (missing program, bad spec data)
  | 'timeout'               // a session ran out of time and the controls say timeouts are unscored
  | 'machine-starved'       // a session ran out of time while the machine held it back from a CPU (decision 011), redone on resume
  | 'oracle-changed'        // the checks generated now differ from those validate admitted
  | 'replay-drift'          // a task's replays disagree by more than the replay rule allows (reports only)
  | 'upstream-error'        // the model API answered 5xx until the harness gave up (or the clock ran out)
  | 'upstream-rate-limited' // the model API answered 429 until the harness gave up
  | 'usage-limit'           // a subscription's plan limit or quota was used up (never a loss)
  | 'upstream-hang'         // the model API sent nothing for the proxy's idle timeout
  | 'upstream-malformed'    // the model API's answer could not be read (bad stream)
  | 'upstream-unreachable'  // the proxy could not connect to the model API, or it dropped the connection before answering
  | 'upstream-truncated'    // the model API's stream ended before its wire format's final event
  | 'auth-error'            // the model API refused the key (401/403)
  | 'harness-crash'         // the agent CLI died without saying why (non-zero exit, signal, no error event)
  | 'harness-error'         // the agent CLI reported an error (error event, is_error, stopReason error)
  | 'no-final-answer'       // the agent CLI ended without a final answer
  | 'provider-tool-used'    // closed web: a model answer shows the provider ran a tool (web search, code execution …) for the agent; the tool policy failed
  | 'pass-stopped';         // agentBudget.stopOnError: an earlier run of the pass ended in a timeout or error, so the pass is unscored

/**
 * What stops a pass under `agentBudget.stopOnError` (the calibration rule "error events, timeouts
 * and missing answers stop the run and leave its total unscored"): a session that timed out
 * (failed `session-timeout` or void `timeout`) or ended in an error event or without an answer.
 * The instrument's own failures (infra-error, setup-failed, oracle-changed) do not.
 */
export const PASS_STOPPING_VOIDS: readonly VoidReason[] = [
  'timeout', 'agent-error', 'upstream-error', 'upstream-rate-limited', 'usage-limit', 'upstream-hang', 'upstream-malformed',
  'upstream-unreachable', 'upstream-truncated', 'auth-error', 'harness-crash', 'harness-error', 'no-final-answer',
];

export type Outcome =
  | { readonly kind: 'solved' }
  | { readonly kind: 'failed'; readonly reason: FailReason; readonly detail?: string }
  | { readonly kind: 'void'; readonly reason: VoidReason; readonly detail?: string };

export type OutcomeKind = Outcome['kind'];

/** Identity of an agent, as recorded with every run. */
export interface AgentInfo {
  /** Stable id used in reports and run ids, e.g. `gold`, `command:./my-agent.sh`. */
  readonly id: string;
  /** `builtin` for gold/noop/patch/command, else the harness name. */
  readonly harness: string;
  readonly version: string | null;
  readonly model: string | null;
  readonly effort: string | null;
  /**
   * `subscription`: a model agent run on the user's plan (Codex ChatGPT login, Claude plan
   * OAuth); its cost is the list-price equivalent, billed to the subscription. Absent: an API key.
   */
  readonly auth?: 'subscription';
  /** The plan of a subscription run as the login names it (`plus`, `max` …), when it does. */
  readonly plan?: string | null;
  /**
   * A harness agent's own web tools and the setting that turns them off on the closed web
   * (`Harness.webTools`), as its agent page lists them. Absent: a built-in agent, or a run
   * recorded before bakeoff kept them.
   */
  readonly webTools?: AgentWebTools;
  /**
   * A harness agent's settings from the agents file: the `args` added to the CLI's command line
   * and the names of its `env` variables (sorted; their values are not recorded). Empty lists:
   * the harness's defaults. Absent: a built-in agent, or a run recorded before bakeoff kept them.
   */
  readonly settings?: AgentSettings;
}

/** A harness's own web tools (`AgentInfo.webTools`). */
export interface AgentWebTools {
  /** Their names as the CLI offers them to the model (`WebSearch`, `google_web_search`); empty: it has none. */
  readonly names: readonly string[];
  /** The setting that turns them off, as the setup writes it (`--disallowedTools WebSearch,WebFetch`), or why none is needed. */
  readonly switch: string;
}

/** What {@link AgentInfo.settings} records of an agent's settings. */
export interface AgentSettings {
  readonly args: readonly string[];
  /** Names of the extra environment variables, sorted; never their values. */
  readonly env: readonly string[];
}

/**
 * Where a model agent's effort level came from: the catalog the level was resolved against (the
 * installed CLI's own, or bakeoff's table for a CLI that lists none), its digest, and the level
 * as written and as resolved. Runs resolved from different catalogs are not comparable.
 */
export interface EffortCatalogRef {
  /** How the catalog was read, e.g. `codex debug models --bundled (…)`. */
  readonly source: string;
  /** sha256 of the catalog. */
  readonly digest: string;
  /** The effort as the spec wrote it (`lowest`, `high`), null for none. */
  readonly requested: string | null;
  /** The level the run used, null for the harness's default. */
  readonly resolved: string | null;
}

/** A finished run, as stored and as read by reports. */
export interface RunRecord {
  readonly id: string;
  readonly suiteId: string;
  readonly suiteHash: string;
  readonly controlsDigest: string;
  readonly task: string;
  readonly agent: AgentInfo;
  /** 0-based replay index of this (task, agent). */
  readonly replay: number;
  readonly seed: number | null;
  readonly level: number | null;
  readonly outcome: Outcome;
  /** Seconds spent in agent sessions (all orders), never grading. */
  readonly agentSec: number;
  readonly gradeSec: number;
  readonly costUsd: number | null;
  readonly tokensIn: number | null;
  readonly tokensOut: number | null;
  /**
   * Lines to review: added / removed by the agent's change (all orders, tests included), as a
   * reviewer must read them — every line terminator a graded language honours, a line wider than
   * 200 characters once per 200, names of added files and folders, link targets and mode changes
   * (docs/design.md "Lines to review"; runs recorded before that rule counted plain lines).
   */
  readonly linesAdded: number;
  readonly linesRemoved: number;
  /** git's plain count of the same change (lines between LFs), kept beside it for comparison; null/absent for runs recorded before bakeoff kept it. */
  readonly plainLines?: { readonly added: number; readonly removed: number } | null;
  /** Expected checks that passed / expected checks. */
  readonly points: number;
  readonly maxPoints: number;
  /** Points per order (checks graded on their own per order). */
  readonly orders: readonly { readonly order: number; readonly points: number; readonly maxPoints: number }[];
  /** Runtime versions (node, python, cargo, sandbox, bakeoff) in force for this run. */
  readonly runtime: Readonly<Record<string, string>>;
  /** Metered token counts by class, summed over sessions (model agents only). */
  readonly usage?: TokenUsage | null;
  /** Things a reader should know about this run (e.g. harness-reported tokens disagree with the meter). */
  readonly flags?: readonly string[];
  /** Model agents: the catalog its effort level was resolved from; null/absent for other agents and older runs. */
  readonly effortCatalog?: EffortCatalogRef | null;
  /** What the machine gave each sandboxed session and test run (decision 011); absent for runs stored before bakeoff measured it. */
  readonly steps?: readonly StepRecord[];
  /**
   * Web attempts: the provider-run tools and fetched inputs the run's model requests asked for
   * (declared, forced, a URL or stored file, a search model, an endpoint other than generation),
   * each item counted once: withheld or refused on the closed web, let through on the open web.
   * Null/absent for agents without a meter and for runs stored before bakeoff counted them.
   */
  readonly webAttempts?: number | null;
  readonly startedAt: string;
  readonly finishedAt: string;
}

/**
 * The fields of a run record a leaderboard is built from (`summarize`, the failure anatomy, the
 * table and markdown reports): a store can read just these of every run (`listLeaderboardRuns`)
 * and leave each run's usage, steps and timings where they are.
 */
export type LeaderboardRun = Omit<RunRecord, 'seed' | 'gradeSec' | 'plainLines' | 'usage' | 'steps' | 'finishedAt'>;

/**
 * What the machine gave one timed step (an agent session, a test run, a setup command), from
 * the step's own processes (decision 011): its wall time, the CPU time they got, and how long
 * they were runnable but waiting for a CPU. Sleeping or blocking on I/O is not waiting.
 */
export interface StepCpu {
  readonly wallMs: number;
  /** CPU time (user + system) of the step's processes, exited ones included; null when it could not be read. */
  readonly cpuMs: number | null;
  /** Run-queue wait (kernel schedstat `run_delay`) summed over the step's tasks. */
  readonly waitMs: number;
  /**
   * Wall time during which the step wanted a CPU, within its own CPU limit, that the machine
   * gave to others. `pressure`: the step's cgroup's own CPU pressure, the time every runnable
   * task of it waited (exact, exited processes included), less the time its own CPU quota held
   * it. `schedstat` (no cgroup pressure): per interval, the CPU asked for (got + waited, capped
   * at its limit) less the CPU got, spread over the CPUs it could use. Waiting for its own other
   * tasks is never held back.
   */
  readonly heldMs: number;
  readonly heldFrom: 'pressure' | 'schedstat';
  /** Share of the step's wall time in which some task on the host waited for a CPU (/proc/pressure/cpu): context only; null without PSI. */
  readonly hostPressure: number | null;
  /** `heldMs` reached a quarter of `wallMs` and half a second: the machine, not the step, set its pace. */
  readonly starved: boolean;
}

/** One timed step of a run, as stored with the run and shown on its page. */
export interface StepRecord extends StepCpu {
  readonly step: 'session' | 'tests';
  /** 1-based order index. */
  readonly order: number;
  /** 1; a test run re-run after it timed out while starved is attempt 2 (decision 011). */
  readonly attempt: number;
  readonly timedOut: boolean;
  /** The wall clock the step ran under. */
  readonly limitMs: number;
}

/**
 * Tokens of a run or session by class, as the metering proxy counted them. `inputTokens` is all
 * input (uncached + cache read + cache write); `outputTokens` includes reasoning.
 */
export interface TokenUsage {
  readonly inputTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
  readonly outputTokens: number;
  readonly reasoningTokens: number;
  /** Model requests metered. */
  readonly requests: number;
}

/**
 * One item of a model request that the metering proxy's tool policy withheld, refused or (open
 * web) let through (decision 013), as stored with the request.
 */
export interface ToolPolicyItem {
  /** What it is: `tool web_search_20250305 (web search)`, `field mcp_servers (…)`, `image from a URL (https://…)`, `endpoint POST /v1/files`. */
  readonly what: string;
  /** Where in the request: `tools[3]`, `messages[2].content[0]`, `tool_choice`, `path`. */
  readonly where: string;
  /** `stripped` (removed, the rest relayed), `refused` (the request was answered 4xx, never relayed), `allowed` (open web). */
  readonly action: 'stripped' | 'refused' | 'allowed';
}

/**
 * One step of an agent session as a reader follows it, the same for every harness: what the
 * agent said, each tool it called and what the tool answered, its final answer, and the errors
 * its stream reported. Thinking/reasoning blocks are left out (not every harness prints them,
 * and they are not the agent's turns).
 */
export type TranscriptEntry =
  /** Assistant text between tool calls. */
  | { readonly kind: 'text'; readonly text: string }
  /**
   * A tool call: the tool's name as the harness calls it (`Bash`, `edit`, `run_shell_command`,
   * Codex's item type `command_execution` / `file_change`), a one-line `summary` (the shell
   * command, the file it edits), or null when the input names neither, and the whole `input` as
   * readable text (`agents/harnesses/transcript.ts` `formatToolInput`).
   */
  | { readonly kind: 'tool-call'; readonly tool: string; readonly summary: string | null; readonly input: string }
  /** What a tool answered; `tool` is the name of the call it answers when the stream says so. */
  | { readonly kind: 'tool-result'; readonly tool: string | null; readonly output: string; readonly isError: boolean }
  /** The final answer, as the harness's `parse` reads it (`HarnessReport.finalMessage`). */
  | { readonly kind: 'final'; readonly text: string }
  /** An error or retry notice from the stream (an API error, a failed turn, a retry given up). */
  | { readonly kind: 'error'; readonly message: string };
