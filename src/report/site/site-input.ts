import type { RunRecord, TranscriptEntry } from '../../types.js';
import type { ComparePairedResult } from '../view/compare-paired.js';
import type { LeaderboardView } from '../view/leaderboard-view.js';

/** What the private site adds to one order of a run page (absent from the public site). */
export interface PrivateOrderDetail {
  readonly order: number;
  /**
   * Where the order's files are, relative to the results folder, as the store's layout
   * (store/run-folder.ts) says: the page names them where it cuts a text or lacks a file.
   */
  readonly files: { readonly prompt: string; readonly patch: string; readonly agentLog: string; readonly stream: string; readonly testOutput: string; readonly checks: string };
  /** The prompt the agent got; null when missing. */
  readonly prompt: string | null;
  /** The order folder's `change` file (store/run-folder.ts); null when the file is missing. */
  readonly patch: string | null;
  /** The order folder's `agentLog`; null when missing. */
  readonly agentLog: string | null;
  /** The grade folder's `testOutput` (or `checks`, for generated checks); null when missing. */
  readonly testOutput: string | null;
  /**
   * The session read from the order folder's `stream` file by the harness that wrote it (the
   * harness's `transcript`); null when there is none: a built-in agent (no stream), or no
   * stream was recorded (the session never started).
   */
  readonly transcript: readonly TranscriptEntry[] | null;
  /**
   * The order folder's `atKill` file: what the session's processes were doing when its wall clock (or idle
   * clock) killed it — pid, state, wait channel, command; null when no clock killed it (or the
   * run was stored before bakeoff wrote it).
   */
  readonly atKill?: string | null;
  /** The order's rows of the store's `checks` table: every graded test or generated check. */
  readonly checks: readonly SiteCheck[];
  /** The order's row of the store's `sessions` table, with its model requests; null when the order had no session. */
  readonly session: SiteSession | null;
}

/** One graded test or generated check of an order (a `checks` row). */
export interface SiteCheck {
  readonly id: string;
  readonly expected: 'fail-to-pass' | 'pass-to-pass' | 'generated';
  readonly status: 'pass' | 'fail' | 'skip' | 'error' | 'missing';
  /** A test that did not pass: the first line of its message, as its runner reported it; absent when none was stored. */
  readonly message?: string | null;
}

/** One order's agent session as the store recorded it. */
export interface SiteSession {
  readonly durationMs: number;
  readonly exitCode: number | null;
  readonly timedOut: boolean;
  /** Metered tokens of the session (all input / all output), null when not metered. */
  readonly tokensIn: number | null;
  readonly tokensOut: number | null;
  /** Why the instrument broke, when it did. */
  readonly error: string | null;
  /** Every model request the metering proxy relayed, in order. */
  readonly requests: readonly SiteRequest[];
}

/** One model request of a session (a `requests` row, the fields a run page shows). */
export interface SiteRequest {
  readonly seq: number;
  readonly model: string | null;
  /** HTTP status; null when no answer came. */
  readonly status: number | null;
  /** The proxy's failure class (`truncated`, `hang`, …), null when the request went through. */
  readonly failure: string | null;
  readonly latencyMs: number;
  /** All input tokens and all output tokens, null when not reported. */
  readonly input: number | null;
  readonly output: number | null;
}

/** Cost of an agent's metered tokens by class, at list price (uncached input, cache read, cache write, output). */
export interface CostByClass {
  readonly input: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
  readonly output: number;
  /** The catalog the prices come from, e.g. `@pydantic/genai-prices 0.1.8 (data of 2026-09-23)`. */
  readonly source: string;
}

/** One task of the suite as the site may know it (the public pages show only what `public` allows). */
export interface SiteTask {
  readonly id: string;
  readonly kind: 'bug' | 'feature';
  readonly language: string;
  /** `tests`: hidden tests decide; `checks`: generated checks decide. */
  readonly grading: 'tests' | 'checks';
  readonly orders: number;
  /** Tests declared failing whatever the change (`knownFailures`): never expected of a run. */
  readonly knownFailures: number;
  /** Expected tests over all orders, from the lock: fail-to-pass and pass-to-pass. */
  readonly failToPass: number;
  readonly passToPass: number;
  /** task.yaml `origin`; null when the owner did not say. */
  readonly origin: { readonly kind: string; readonly repo?: string; readonly commit?: string } | null;
  /** task.yaml `public`; null: the task is shown only by number, kind and language. */
  readonly public: { readonly title: string; readonly summary?: string } | null;
  /** Exploits of the library adversarial admission ran on the task, each graded failed (the lock's); absent: it did not run. */
  readonly adversarialExploits?: number;
  /** The hacker agents (`validate --hacker`) adversarial admission ran on the task, each graded failed (the lock's); absent: none ran. */
  readonly adversarialHackers?: readonly string[];
}

/** The controls the methodology page states (the suite's controls, defaults applied). */
export interface SiteControls {
  readonly runsPerTask: number;
  readonly sessionWallClockSec: number;
  readonly setupWallClockSec: number;
  readonly setupIdleSec: number;
  readonly testWallClockSec: number;
  readonly memoryMb: number;
  readonly pids: number;
  readonly cpus: number;
  readonly tmpMb: number;
  readonly homeMb: number;
  readonly diskMb: number;
  readonly maxChangeMb: number;
  /** The seeds and levels admission proved the reference change at; the runs use `seed` (default the first of `seeds`) and `level`. */
  readonly seeds: readonly number[];
  readonly levels?: readonly number[] | undefined;
  readonly seed?: number | undefined;
  readonly level: number;
  readonly agentBudget?: { readonly totalSec: number; readonly scope: 'run' | 'replay'; readonly stopOnError?: boolean | undefined } | undefined;
  readonly timeoutIsVoid: boolean;
  /** `none`: the closed web (the model API fetches nothing for the agent); `model-api+web`: the open web. Absent: `none`. */
  readonly network?: 'none' | 'model-api+web' | undefined;
}

/** What the closed web withheld from one model API (from the metering proxy's tables), for the methodology page. */
export interface SiteToolPolicy {
  readonly api: string;
  readonly tools: readonly string[];
  readonly fields: readonly string[];
  readonly inputs: readonly string[];
}

/** The suite the runs were made with (loaded by publish after the re-check). */
export interface SiteSuite {
  readonly id: string;
  readonly hash: string;
  readonly controls: SiteControls;
  /** Sorted by id. */
  readonly tasks: readonly SiteTask[];
  /** The owner's methodology.md (markdown), or null. */
  readonly methodology: string | null;
}

/** Everything {@link renderSite} draws; read by the publish command, rendered purely. */
export interface SiteInput {
  /** The suite of the runs. */
  readonly suite: SiteSuite;
  /** The leaderboard of all runs (`mixed` must be empty). */
  readonly view: LeaderboardView;
  /** Every run of the view. */
  readonly runs: readonly RunRecord[];
  /** The paired comparison of the top two agents; null with fewer than two agents. */
  readonly comparison: ComparePairedResult | null;
  /**
   * Per run id, the private detail (change, agent output, test output) per order. Undefined for
   * a public site: then no codebase, prompt, hidden test, change or agent output text is drawn,
   * and no task or run id (see `site-names.ts`).
   */
  readonly privateDetail?: ReadonlyMap<string, readonly PrivateOrderDetail[]>;
  /**
   * Run id → the fleet worker (`bakeoff worker --name`) whose attempt was recorded as the run,
   * from the store's attempts; a run not in it (or no map) was made by a local bake.
   */
  readonly workers?: ReadonlyMap<string, string>;
  /** When the site was made (ISO time), shown in the footer. */
  readonly generatedAt: string;
  /**
   * Pages served by `bakeoff view` rather than written to disk: each shows the runs at work now
   * and follows the results folder as runs finish (polling `api/state` beside the site root),
   * the runs page also searches the runs' text on the server (`api/search`), and the compare
   * page lets any two agents be picked.
   */
  readonly live?: boolean;
  /**
   * What the metering proxy's closed-web policy withholds, per model API, and the models it
   * refuses because they search by themselves; absent: the methodology page says it in general words.
   */
  readonly toolPolicy?: { readonly apis: readonly SiteToolPolicy[]; readonly searchModels: readonly string[] };
  /**
   * Per model agent id, its metered tokens priced class by class at the catalog's list price of
   * its model on each run's day (USD); absent for an agent whose model the catalog lacks.
   */
  readonly costByClass?: ReadonlyMap<string, CostByClass>;
}
