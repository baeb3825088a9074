import type { AgentInfo, Outcome, RunRecord } from '../../types.js';

/** What a report test says about a run: any field, the agent as an id or in full. */
export interface TestRunSpec extends Partial<Omit<RunRecord, 'agent'>> {
  readonly agent?: string | AgentInfo;
}

/** A run record for report tests: plausible defaults (suite `demo`, a builtin agent `a`, solved), `spec` wins. */
export function testRun(spec: TestRunSpec = {}): RunRecord {
  const { agent = 'a', ...rest } = spec;
  return {
    id: 'run',
    suiteId: 'demo',
    suiteHash: 'sha256:aaaa',
    controlsDigest: 'sha256:cccc',
    task: 't1',
    replay: 0,
    seed: null,
    level: null,
    outcome: { kind: 'solved' },
    agentSec: 1,
    gradeSec: 1,
    costUsd: null,
    tokensIn: null,
    tokensOut: null,
    linesAdded: 0,
    linesRemoved: 0,
    points: 0,
    maxPoints: 0,
    orders: [],
    runtime: {},
    startedAt: '2025-01-01T00:00:00Z',
    finishedAt: '2025-01-01T00:01:00Z',
    ...rest,
    agent: typeof agent === 'string' ? { id: agent, harness: 'builtin', version: null, model: null, effort: null } : agent,
  };
}

/** One agent's runs: `{ t1: [S, F] }` is task t1 with replays 0 and 1, ids `<agent>/<task>/<replay>`. */
export function testRunsOf(agent: string, outcomes: Record<string, Outcome[]>, extra: TestRunSpec = {}): RunRecord[] {
  return Object.entries(outcomes).flatMap(([task, list]) =>
    list.map((outcome, replay) => testRun({ id: `${agent}/${task}/${replay}`, ...extra, agent, task, outcome, replay })),
  );
}
