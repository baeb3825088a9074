import type { BudgetUse } from '../view/budget-use.js';
import type { QuotaWindow } from '../view/quota-use.js';
import type { EffortCatalogRef, FailReason, RunRecord, StepRecord, TokenUsage, VoidReason } from '../../types.js';
import { compareText } from '../common/compare-text.js';
import type { AgentSummary, LeaderboardView } from '../view/leaderboard-view.js';
import type { RunFailure } from '../view/classify-failure.js';

/** One agent in the JSON report: its identity flattened, then the fields of its summary. */
export interface JsonAgent extends Omit<AgentSummary, 'agent'> {
  readonly id: string;
  readonly harness: string;
  readonly version: string | null;
  readonly model: string | null;
  readonly effort: string | null;
  /** `subscription`: run on the user's plan; `api`: an API key. */
  readonly auth: 'api' | 'subscription';
  /** Who pays: `subscription` (the cost shown is the list-price equivalent) or `api`. */
  readonly billed: 'api' | 'subscription';
}

/** One run in the JSON report. */
export interface JsonRun {
  readonly id: string;
  readonly task: string;
  /** Agent id. */
  readonly agent: string;
  readonly replay: number;
  readonly seed: number | null;
  readonly level: number | null;
  readonly outcome: 'solved' | 'failed' | 'void';
  /** Set when `outcome` is `failed`. */
  readonly failReason: FailReason | null;
  /** Set when `outcome` is `void`. */
  readonly voidReason: VoidReason | null;
  readonly outcomeDetail: string | null;
  readonly agentSec: number;
  readonly costUsd: number | null;
  readonly tokensIn: number | null;
  readonly tokensOut: number | null;
  /** Metered tokens by class (model agents), else null. */
  readonly usage: TokenUsage | null;
  /** E.g. the harness's own token counts disagree with the meter. */
  readonly flags: readonly string[];
  /** Lines to review, added and removed (names, link targets, mode changes, every line terminator, the screen width: see RunRecord). */
  readonly linesAdded: number;
  readonly linesRemoved: number;
  /** git's plain count of the same change (lines between LFs), for comparison; null for runs recorded before bakeoff kept it. */
  readonly plainLinesAdded: number | null;
  readonly plainLinesRemoved: number | null;
  readonly points: number;
  readonly maxPoints: number;
  /** Points per order: each order is graded on its own. */
  readonly orders: RunRecord['orders'];
  /** Model agents: the catalog the effort level was resolved from (source, sha256, as written, as resolved); else null. */
  readonly effortCatalog: EffortCatalogRef | null;
  /** Why the run was not solved: its failure class, side, cause and detail (`failureAnatomyVersion`); null when solved. */
  readonly failure: RunFailure | null;
  /** What the machine gave each sandboxed session and test run (decision 011); empty for runs stored before bakeoff measured it. */
  readonly steps: readonly StepRecord[];
  /** Provider-run tools and fetched inputs the run's model requests asked for (withheld on the closed web); null without a meter. */
  readonly webAttempts: number | null;
}

/** The view's fields the JSON report carries as they are (see LeaderboardView for each). */
type JsonViewFields =
  | 'suite' | 'controlsDigest' | 'standardRunsPerTask' | 'replayRule' | 'voidLimit' | 'network' | 'ranking' | 'mixed' | 'sandboxes' | 'unsafeRuns' | 'metering' | 'tasks';

/** `bakeoff report --format json` (DESIGN.md §5): the view's fields, its agents flattened, and every run. Numbers are plain JSON numbers. */
export interface JsonReport extends Pick<LeaderboardView, JsonViewFields> {
  readonly schemaVersion: 1;
  /** The version of the rules behind every run's `failure` and every agent's `failures`. */
  readonly failureAnatomyVersion: number;
  /** The controls given to summarize; null when none were given. */
  readonly controls: unknown;
  /** The controls' agent time budget and the session seconds each agent's passes spent of it; null without one. */
  readonly agentBudget: BudgetUse | null;
  /** Subscription quota used per agent and window, from the plan's own headers; empty without subscription answers that carried them. */
  readonly quota: readonly QuotaWindow[];
  /** In rank order (by id, with null ranks, when the ranking was refused). */
  readonly agents: readonly JsonAgent[];
  /** Sorted by task, agent, replay, id. */
  readonly runs: readonly JsonRun[];
}

/** The JSON report as an object: the view plus every run. */
export function buildJsonReport(view: LeaderboardView, runs: readonly RunRecord[]): JsonReport {
  return {
    schemaVersion: 1,
    failureAnatomyVersion: view.failureAnatomy.version,
    suite: view.suite,
    controls: view.controls ?? null,
    controlsDigest: view.controlsDigest,
    standardRunsPerTask: view.standardRunsPerTask,
    replayRule: view.replayRule,
    voidLimit: view.voidLimit,
    network: view.network,
    ranking: view.ranking,
    mixed: view.mixed,
    sandboxes: view.sandboxes,
    unsafeRuns: view.unsafeRuns,
    metering: view.metering,
    agentBudget: view.budget ?? null,
    quota: view.quota ?? [],
    agents: jsonAgents(view),
    tasks: view.tasks,
    runs: [...runs].sort(compareRuns).map((run) => toJsonRun(run, view.failureAnatomy.runs[run.id] ?? null)),
  };
}

/** The agents as every JSON output gives them (`report`, `run`): identity flattened, then the summary. */
export function jsonAgents(view: LeaderboardView): JsonAgent[] {
  return view.agents.map(({ agent, ...summary }) => ({
    id: agent.id,
    harness: agent.harness,
    version: agent.version,
    model: agent.model,
    effort: agent.effort,
    auth: agent.auth ?? 'api',
    billed: agent.auth === 'subscription' ? 'subscription' : 'api',
    ...summary,
  }));
}

/** The JSON report as text, two-space indented, ending with a newline. */
export function renderJson(view: LeaderboardView, runs: readonly RunRecord[]): string {
  return [...renderJsonChunks(view, runs)].join('');
}

/** Runs stringified together: large enough that a chunk's own cost is small, small enough that no chunk is a large string. */
const RUNS_PER_CHUNK = 500;

/**
 * The JSON report as text in pieces whose concatenation is `renderJson`'s text, byte for byte:
 * the view's fields first, then the runs a few hundred at a time (`report --format json` writes
 * each piece as it is made instead of building one string of every run). `extra` fields follow
 * `runs` (the CLI's `fleet`).
 */
export function* renderJsonChunks(view: LeaderboardView, runs: readonly RunRecord[], extra: Readonly<Record<string, unknown>> = {}): Generator<string> {
  const { runs: _, ...head } = buildJsonReport(view, []);
  const sorted = [...runs].sort(compareRuns);
  const headText = JSON.stringify(head, null, 2);
  // The head's closing brace is replaced by the runs array; every run sits at the array's depth
  // in the whole document, which is the depth it has in `{ "runs": [ … ] }` stringified alone.
  yield `${headText.slice(0, -2)}${Object.keys(head).length > 0 ? ',' : ''}\n  "runs": [`;
  if (sorted.length === 0) yield ']';
  for (let start = 0; start < sorted.length; start += RUNS_PER_CHUNK) {
    const batch = sorted.slice(start, start + RUNS_PER_CHUNK).map((run) => toJsonRun(run, view.failureAnatomy.runs[run.id] ?? null));
    const text = JSON.stringify({ runs: batch }, null, 2);
    // `{\n  "runs": [` … `\n  ]\n}` around the runs; a later batch continues the array after a comma.
    const inner = text.slice('{\n  "runs": ['.length, -'\n  ]\n}'.length);
    yield start === 0 ? inner : `,${inner}`;
  }
  if (sorted.length > 0) yield '\n  ]';
  const tail = JSON.stringify(extra, null, 2);
  // `{}` or `{\n  "fleet": …\n}`: its fields continue the report's object at the same depth.
  yield tail === '{}' ? '\n}\n' : `,${tail.slice(1, -2)}\n}\n`;
}

function toJsonRun(run: RunRecord, failure: RunFailure | null): JsonRun {
  const { outcome } = run;
  return {
    id: run.id,
    task: run.task,
    agent: run.agent.id,
    replay: run.replay,
    seed: run.seed,
    level: run.level,
    outcome: outcome.kind,
    failReason: outcome.kind === 'failed' ? outcome.reason : null,
    voidReason: outcome.kind === 'void' ? outcome.reason : null,
    outcomeDetail: outcome.kind === 'solved' ? null : (outcome.detail ?? null),
    agentSec: run.agentSec,
    costUsd: run.costUsd,
    tokensIn: run.tokensIn,
    tokensOut: run.tokensOut,
    usage: run.usage ?? null,
    flags: run.flags ?? [],
    linesAdded: run.linesAdded,
    linesRemoved: run.linesRemoved,
    plainLinesAdded: run.plainLines?.added ?? null,
    plainLinesRemoved: run.plainLines?.removed ?? null,
    points: run.points,
    maxPoints: run.maxPoints,
    orders: run.orders,
    effortCatalog: run.effortCatalog ?? null,
    failure,
    steps: run.steps ?? [],
    webAttempts: run.webAttempts ?? null,
  };
}

function compareRuns(a: RunRecord, b: RunRecord): number {
  return (
    compareText(a.task, b.task) ||
    compareText(a.agent.id, b.agent.id) ||
    a.replay - b.replay ||
    compareText(a.id, b.id)
  );
}
