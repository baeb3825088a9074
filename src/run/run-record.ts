import type { Suite } from '../suite/index.js';
import type { AgentInfo, EffortCatalogRef, Outcome, RunRecord, TokenUsage } from '../types.js';
import type { SessionRow } from '../store/index.js';
import { sumOrNull } from '../util/index.js';

/** Who and what a run is: the fields every run record has, graded or not. */
export interface RunIdentity {
  readonly id: string;
  readonly suite: Pick<Suite, 'id' | 'hash' | 'controlsDigest'>;
  readonly task: string;
  readonly agent: AgentInfo;
  /** The catalog the agent's effort was resolved from (model agents), else null. */
  readonly effortCatalog?: EffortCatalogRef | null;
  readonly replay: number;
  readonly seed: number | null;
  readonly level: number | null;
  readonly runtime: Readonly<Record<string, string>>;
  readonly startedAt: string;
  /** Default: now. */
  readonly finishedAt?: string;
}

/** What the run did; every field defaults to what a run that never got to work has. */
export type RunWork = Partial<Omit<RunRecord, 'id' | 'suiteId' | 'suiteHash' | 'controlsDigest' | 'task' | 'agent' | 'effortCatalog' | 'replay' | 'seed' | 'level' | 'runtime' | 'startedAt' | 'finishedAt' | 'outcome'>>;

/**
 * The one place a run record is built: its identity, its outcome, and what it did (agent and
 * grading time, tokens, cost, change size, points), each defaulting to nothing done (0, null,
 * no orders, no flags).
 */
export function buildRunRecord(identity: RunIdentity, outcome: Outcome, work: RunWork = {}): RunRecord {
  return {
    id: identity.id,
    suiteId: identity.suite.id,
    suiteHash: identity.suite.hash,
    controlsDigest: identity.suite.controlsDigest,
    task: identity.task,
    agent: identity.agent,
    replay: identity.replay,
    seed: identity.seed,
    level: identity.level,
    outcome,
    agentSec: work.agentSec ?? 0,
    gradeSec: work.gradeSec ?? 0,
    costUsd: work.costUsd ?? null,
    tokensIn: work.tokensIn ?? null,
    tokensOut: work.tokensOut ?? null,
    linesAdded: work.linesAdded ?? 0,
    linesRemoved: work.linesRemoved ?? 0,
    plainLines: work.plainLines ?? null,
    points: work.points ?? 0,
    maxPoints: work.maxPoints ?? 0,
    orders: work.orders ?? [],
    runtime: identity.runtime,
    usage: work.usage ?? null,
    flags: work.flags ?? [],
    steps: work.steps ?? [],
    effortCatalog: identity.effortCatalog ?? null,
    webAttempts: work.webAttempts ?? null,
    startedAt: identity.startedAt,
    finishedAt: identity.finishedAt ?? new Date().toISOString(),
  };
}

/**
 * What a run's sessions add up to: cost and tokens (null when no session counted any), usage by
 * class, flags by order, and web attempts (every item the tool policy saw in the requests;
 * null when no session was metered).
 */
export function sessionTotals(sessions: readonly SessionRow[]): Pick<RunRecord, 'costUsd' | 'tokensIn' | 'tokensOut' | 'usage' | 'flags' | 'webAttempts'> {
  const metered = sessions.some((s) => s.usage !== undefined && s.usage !== null);
  return {
    webAttempts: metered ? sessions.reduce((n, s) => n + (s.requests ?? []).reduce((m, r) => m + (r.withheld?.length ?? 0), 0), 0) : null,
    costUsd: sumOrNull(sessions.map((s) => s.costUsd)),
    tokensIn: sumOrNull(sessions.map((s) => s.tokensIn)),
    tokensOut: sumOrNull(sessions.map((s) => s.tokensOut)),
    usage: sumUsages(sessions.map((s) => s.usage ?? null)),
    flags: sessions.flatMap((s) => (s.flags ?? []).map((f) => `order ${s.order}: ${f}`)),
  };
}

function sumUsages(usages: readonly (TokenUsage | null)[]): TokenUsage | null {
  const present = usages.filter((u): u is TokenUsage => u !== null);
  if (present.length === 0) return null;
  const total = { inputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 0, reasoningTokens: 0, requests: 0 };
  for (const u of present) for (const key of Object.keys(total) as (keyof TokenUsage)[]) total[key] += u[key];
  return total;
}
