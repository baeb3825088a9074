import { describe, expect, it } from 'vitest';
import type { AgentInfo, Outcome, RunRecord } from '../../types.js';
import { clusteredShareCi } from '../stats/clustered-share-ci.js';
import { summarize } from './summarize.js';
import { testRun } from './test-runs.test-support.js';
import { wilson } from '../stats/wilson.js';

const SOLVED: Outcome = { kind: 'solved' };
const FAILED: Outcome = { kind: 'failed', reason: 'tests-failed' };
const INFRA: Outcome = { kind: 'void', reason: 'infra-error' };
const SETUP: Outcome = { kind: 'void', reason: 'setup-failed' };

function agentInfo(id: string): AgentInfo {
  return { id, harness: 'builtin', version: null, model: null, effort: null };
}

interface RunSpec extends Partial<Omit<RunRecord, 'agent'>> {
  readonly agent: string | AgentInfo;
  readonly task: string;
  readonly outcome: Outcome;
}

let nextId = 0;
function makeRun(spec: RunSpec): RunRecord {
  return testRun({ id: `run-${nextId++}`, agentSec: 10, runtime: { node: '20.19.0' }, ...spec });
}

/** `outcomes` per task, e.g. { t1: [SOLVED, FAILED] }: one run per entry, replays 0, 1, … */
function runsOf(agent: string, outcomes: Record<string, Outcome[]>, extra: Partial<RunRecord> = {}): RunRecord[] {
  return Object.entries(outcomes).flatMap(([task, list]) =>
    list.map((outcome, replay) => makeRun({ ...extra, agent, task, outcome, replay })),
  );
}

const standard = { standardRunsPerTask: 1 };

function agentLine(runs: readonly RunRecord[], id: string, options = standard) {
  const line = summarize(runs, options).agents.find((a) => a.agent.id === id);
  if (line === undefined) throw new Error(`no line for ${id}`);
  return line;
}

describe('summarize: counting', () => {
  const runs = [
    makeRun({ agent: 'a', task: 't1', outcome: SOLVED, costUsd: 1, agentSec: 10, linesAdded: 3, linesRemoved: 1 }),
    makeRun({ agent: 'a', task: 't2', outcome: SOLVED, costUsd: 1, agentSec: 30, linesAdded: 5, linesRemoved: 1 }),
    makeRun({ agent: 'a', task: 't3', outcome: FAILED, costUsd: 1, agentSec: 20, linesAdded: 1, linesRemoved: 1 }),
    makeRun({ agent: 'a', task: 't4', outcome: INFRA, costUsd: 0.5, agentSec: 999, linesAdded: 999 }),
    makeRun({ agent: 'a', task: 't5', outcome: INFRA, costUsd: null, agentSec: 999 }),
    makeRun({ agent: 'a', task: 't6', outcome: SETUP, costUsd: null, agentSec: 999 }),
  ];

  it('counts solved, failed and void runs, and void runs per reason', () => {
    const line = agentLine(runs, 'a');
    expect(line).toMatchObject({ runs: 6, solved: 2, failed: 1, void: 3, validRuns: 3 });
    expect(line.voidByReason).toEqual({ 'infra-error': 2, 'setup-failed': 1 });
  });

  it('excludes void runs from the share solved but counts them as failed in the sensitivity share', () => {
    const line = agentLine(runs, 'a');
    expect(line.solveShare).toBeCloseTo(2 / 3, 12);
    expect(line.solveShareVoidAsFail).toBeCloseTo(2 / 6, 12);
  });

  it('charges the cost of every run, void included, to the runs that solved', () => {
    const line = agentLine(runs, 'a');
    expect(line.costUsd).toBeCloseTo(3.5, 12);
    expect(line.runsWithCost).toBe(4);
    expect(line.costPerFixUsd).toBeCloseTo(1.75, 12);
  });

  it('takes time and lines to review from non-void runs only', () => {
    const line = agentLine(runs, 'a');
    expect(line.medianRunSec).toBe(20);
    expect(line.medianLinesToReview).toBe(4);
  });

  it('has no cost per fix without a solved run or without cost data', () => {
    expect(agentLine(runsOf('a', { t1: [FAILED] }, { costUsd: 2 }), 'a').costPerFixUsd).toBeNull();
    const noCost = agentLine(runsOf('a', { t1: [SOLVED] }), 'a');
    expect(noCost.costUsd).toBeNull();
    expect(noCost.costPerFixUsd).toBeNull();
  });

  it('sums tokens over all runs and reports null when no run has them', () => {
    const withTokens = [
      makeRun({ agent: 'a', task: 't1', outcome: SOLVED, tokensIn: 100, tokensOut: 10 }),
      makeRun({ agent: 'a', task: 't2', outcome: INFRA, tokensIn: 50, tokensOut: 5 }),
      makeRun({ agent: 'a', task: 't3', outcome: FAILED }),
      makeRun({ agent: 'b', task: 't1', outcome: SOLVED }),
    ];
    expect(agentLine(withTokens, 'a')).toMatchObject({ tokensIn: 150, tokensOut: 15 });
    expect(agentLine(withTokens, 'b')).toMatchObject({ tokensIn: null, tokensOut: null });
  });

  it('sums points of non-void runs', () => {
    const pointed = [
      makeRun({ agent: 'a', task: 't1', outcome: SOLVED, points: 32, maxPoints: 32 }),
      makeRun({ agent: 'a', task: 't2', outcome: FAILED, points: 20, maxPoints: 32 }),
      makeRun({ agent: 'a', task: 't3', outcome: INFRA, points: 5, maxPoints: 32 }),
    ];
    expect(agentLine(pointed, 'a')).toMatchObject({ points: 52, maxPoints: 64 });
  });

  it('leaves share, interval and medians empty when every run was void', () => {
    const line = agentLine(runsOf('a', { t1: [INFRA], t2: [INFRA] }), 'a');
    expect(line).toMatchObject({ solveShare: null, ci95: null, ciMethod: null, medianRunSec: null });
    expect(line.solveShareVoidAsFail).toBe(0);
  });
});

describe('summarize: run count tags', () => {
  const two = { standardRunsPerTask: 2 };

  it('does not tag an agent with the standard run count on every task', () => {
    expect(agentLine(runsOf('a', { t1: [SOLVED, FAILED], t2: [FAILED, INFRA] }), 'a', two).runCountTag).toBeNull();
  });

  it('tags an agent with another fixed run count', () => {
    const runs = runsOf('a', { t1: [SOLVED, SOLVED, FAILED], t2: [FAILED, FAILED, FAILED] });
    expect(agentLine(runs, 'a', two).runCountTag).toBe('3 runs/task');
    expect(agentLine(runsOf('a', { t1: [SOLVED] }), 'a', two).runCountTag).toBe('1 run/task');
  });

  it('tags an agent with uneven run counts as a range', () => {
    expect(agentLine(runsOf('a', { t1: [SOLVED], t2: [FAILED, FAILED] }), 'a', two).runCountTag).toBe('1–2 runs/task');
  });

  it('says how many of the tasks an agent covered when it never ran some that others did', () => {
    const runs = [...runsOf('a', { t1: [SOLVED, SOLVED] }), ...runsOf('b', { t1: [SOLVED, SOLVED], t2: [FAILED, FAILED] })];
    expect(agentLine(runs, 'a', two).runCountTag).toBe('1 of 2 tasks');
    expect(agentLine(runs, 'b', two).runCountTag).toBeNull();
  });
});

describe('summarize: ranking', () => {
  const runs = [
    ...runsOf('low-share', { t1: [SOLVED], t2: [FAILED], t3: [FAILED] }),
    ...runsOf('all-void', { t1: [INFRA], t2: [INFRA], t3: [INFRA] }),
    ...runsOf('half-few', { t1: [SOLVED], t2: [FAILED] }, { costUsd: 1 }),
    ...runsOf('half-many-dear', { t1: [SOLVED], t2: [FAILED], t3: [SOLVED], t4: [FAILED] }, { costUsd: 2 }),
    ...runsOf('half-many-cheap', { t1: [SOLVED], t2: [FAILED], t3: [SOLVED], t4: [FAILED] }, { costUsd: 1 }),
    ...runsOf('half-many-nocost-b', { t1: [SOLVED], t2: [FAILED], t3: [SOLVED], t4: [FAILED] }),
    ...runsOf('half-many-nocost-a', { t1: [SOLVED], t2: [FAILED], t3: [SOLVED], t4: [FAILED] }),
    ...runsOf('best', { t1: [SOLVED], t2: [SOLVED], t3: [INFRA] }),
  ];
  const expected = [
    'best', // share 1 (its void run does not count against it)
    'half-many-cheap', // share 0.5, 2 solved, cost per fix 2
    'half-many-dear', // share 0.5, 2 solved, cost per fix 4
    'half-many-nocost-a', // share 0.5, 2 solved, unknown cost: after known costs, then by id
    'half-many-nocost-b',
    'half-few', // share 0.5, 1 solved
    'low-share',
    'all-void', // no share at all
  ];

  it('orders by share, then runs solved, then cost per fix, then id', () => {
    const view = summarize(runs, standard);
    expect(view.agents.map((a) => a.agent.id)).toEqual(expected);
  });

  it('gives agents of the same score the same rank, and the next agent the rank after all of them', () => {
    const view = summarize(runs, standard);
    // the five agents at share 0.5 without a void run tie; order within them is only line order
    expect(view.agents.map((a) => [a.rank, a.tied])).toEqual([[1, false], [2, true], [2, true], [2, true], [2, true], [2, true], [7, false], [8, false]]);
  });

  it('does not tie an equal share when one agent reached it with void runs', () => {
    const view = summarize([...runsOf('clean', { t1: [SOLVED], t2: [FAILED] }), ...runsOf('voided', { t1: [SOLVED], t2: [FAILED], t3: [INFRA] })], standard);
    expect(view.agents.map((a) => [a.agent.id, a.rank, a.tied])).toEqual([['clean', 1, false], ['voided', 2, false]]);
  });

  it("counts only valid runs as pass@k samples: void runs are not the agent's attempts", () => {
    const view = summarize(runsOf('a', { t1: [SOLVED, INFRA, INFRA], t2: [SOLVED, FAILED, INFRA] }), { standardRunsPerTask: 3 });
    expect(view.agents[0]!.repeats).toEqual([{ k: 1, passAtK: 0.75, passHatK: 0.75, tasks: 2 }, { k: 2, passAtK: 1, passHatK: 0, tasks: 1 }]);
  });

  it('ties equal shares reached by different counts (1/3 and 3/9)', () => {
    const view = summarize([
      ...runsOf('three', { t1: [SOLVED], t2: [FAILED], t3: [FAILED] }),
      ...runsOf('nine', { t1: [SOLVED], t2: [FAILED], t3: [FAILED], t4: [SOLVED], t5: [FAILED], t6: [FAILED], t7: [SOLVED], t8: [FAILED], t9: [FAILED] }),
    ], standard);
    expect(view.agents.map((a) => [a.rank, a.tied])).toEqual([[1, true], [1, true]]);
  });

  it('gives the same view whatever the order of the runs', () => {
    expect(summarize([...runs].reverse(), standard)).toEqual(summarize(runs, standard));
  });
});

describe('summarize: interval method', () => {
  it('uses Wilson when no task has more than one valid run', () => {
    // t1 has two runs, but one is void: still one valid run per task.
    const line = agentLine(runsOf('a', { t1: [SOLVED, INFRA], t2: [FAILED], t3: [SOLVED] }), 'a');
    expect(line.ciMethod).toBe('wilson');
    expect(line.ci95).toEqual(wilson(2, 3));
  });

  it('clusters by task when a task has several valid runs', () => {
    const runs = runsOf('a', {
      t1: [SOLVED, SOLVED],
      t2: [SOLVED, FAILED],
      t3: [FAILED, FAILED, INFRA],
      t4: [SOLVED, SOLVED],
      t5: [FAILED, SOLVED],
    });
    const line = agentLine(runs, 'a', { standardRunsPerTask: 2 });
    expect(line.ciMethod).toBe('clustered');
    expect(line.ci95).toEqual(clusteredShareCi([[1, 1], [1, 0], [0, 0], [1, 1], [0, 1]]).ci95);
    expect(line.ci95).not.toEqual(wilson(6, 10));
  });

  it('falls back to Wilson over tasks when every run agrees, instead of a zero-width interval', () => {
    const runs = runsOf('a', { t1: [SOLVED, SOLVED], t2: [SOLVED, SOLVED], t3: [SOLVED, SOLVED], t4: [SOLVED, SOLVED] });
    const line = agentLine(runs, 'a', { standardRunsPerTask: 2 });
    expect(line.ciMethod).toBe('wilson-by-task');
    expect(line.ci95).toEqual(wilson(4, 4));
    expect(line.ci95!.low).toBeLessThan(0.6);
  });

  it('gives an interval (no crash) when every task has the same split share: one task with 1 of 2 runs solved, or three tasks each 1 of 2', () => {
    const cases: Record<string, Outcome[]>[] = [{ t1: [SOLVED, FAILED] }, { t1: [SOLVED, FAILED], t2: [FAILED, SOLVED], t3: [SOLVED, FAILED] }];
    for (const outcomes of cases) {
      const line = agentLine(runsOf('a', outcomes), 'a', { standardRunsPerTask: 2 });
      const tasks = Object.keys(outcomes).length;
      expect(line.ciMethod).toBe('wilson-by-task');
      expect(line.solveShare).toBe(0.5);
      expect(line.ci95).toEqual(wilson(tasks / 2, tasks));
      expect(line.ci95!.low).toBeLessThan(0.5);
      expect(line.ci95!.high).toBeGreaterThan(0.5);
    }
  });
});

describe('summarize: task matrix, suite and controls', () => {
  const runs = [
    ...runsOf('b', { t2: [SOLVED, INFRA], t1: [FAILED] }),
    ...runsOf('a', { t1: [SOLVED, SOLVED] }),
  ];

  it('has one row per task, sorted, with one cell per agent in rank order', () => {
    const view = summarize(runs, { standardRunsPerTask: 2 });
    expect(view.agents.map((a) => a.agent.id)).toEqual(['a', 'b']);
    expect(view.tasks).toEqual([
      {
        task: 't1',
        cells: [
          { agentId: 'a', runs: 2, solved: 2, failed: 0, void: 0, orderPoints: [] },
          { agentId: 'b', runs: 1, solved: 0, failed: 1, void: 0, orderPoints: [] },
        ],
      },
      {
        task: 't2',
        cells: [
          { agentId: 'a', runs: 0, solved: 0, failed: 0, void: 0, orderPoints: [] },
          { agentId: 'b', runs: 2, solved: 1, failed: 0, void: 1, orderPoints: [] },
        ],
      },
    ]);
  });

  it('carries the suite, the controls digest and the controls given as options', () => {
    const controls = { runsPerTask: 2 };
    const view = summarize(runs, { standardRunsPerTask: 2, controls });
    expect(view.suite).toEqual({ id: 'demo', hash: 'sha256:aaaa' });
    expect(view.controlsDigest).toBe('sha256:cccc');
    expect(view.controls).toBe(controls);
    expect(view.standardRunsPerTask).toBe(2);
  });

  it('gives an empty view for no runs', () => {
    const view = summarize([], standard);
    expect(view).toMatchObject({ suite: null, controlsDigest: null, agents: [], tasks: [], mixed: [] });
  });
});

describe('summarize: mixed results', () => {
  const base = runsOf('a', { t1: [SOLVED], t2: [FAILED] });

  it('finds nothing when all runs share suite hash, controls, level and runtime', () => {
    expect(summarize(base, standard).mixed).toEqual([]);
  });

  it('reports runs from different suite hashes', () => {
    const runs = [...base, makeRun({ agent: 'b', task: 't1', outcome: SOLVED, suiteHash: 'sha256:bbbb' })];
    expect(summarize(runs, standard).mixed).toEqual([{ field: 'suiteHash', values: ['sha256:aaaa', 'sha256:bbbb'] }]);
  });

  it('reports runs under different controls', () => {
    const runs = [...base, makeRun({ agent: 'a', task: 't3', outcome: SOLVED, controlsDigest: 'sha256:dddd' })];
    expect(summarize(runs, standard).mixed).toEqual([
      { field: 'controlsDigest', values: ['sha256:cccc', 'sha256:dddd'] },
    ]);
  });

  it('reports runs of one harness whose effort levels came from different catalogs, not those of different harnesses', () => {
    const codex = (id: string) => ({ id, harness: 'codex', version: '0.171.0', model: 'gpt-5.5', effort: 'medium' });
    const catalog = (digest: string) => ({ source: 'codex debug models', digest, requested: 'lowest', resolved: 'medium' });
    const claude = makeRun({ agent: { id: 'c', harness: 'claude-code', version: '2.1.332', model: 'm', effort: null }, task: 't1', outcome: SOLVED, effortCatalog: catalog('9'.repeat(64)) });
    const x = makeRun({ agent: codex('x'), task: 't1', outcome: SOLVED, effortCatalog: catalog('1'.repeat(64)) });
    const y = makeRun({ agent: codex('y'), task: 't1', outcome: SOLVED, effortCatalog: catalog('1'.repeat(64)) });
    expect(summarize([...base, claude, x, y], standard).mixed).toEqual([]);
    const z = makeRun({ agent: codex('y'), task: 't2', outcome: SOLVED, effortCatalog: catalog('2'.repeat(64)) });
    expect(summarize([...base, claude, x, y, z], standard).mixed).toEqual([{ field: 'catalog.codex', values: ['1'.repeat(12), '2'.repeat(12)] }]);
  });

  it('reports different levels and runtimes, including a runtime key some runs lack', () => {
    const runs = [...base, makeRun({ agent: 'a', task: 't3', outcome: SOLVED, level: 2, runtime: { node: '22.1.0', bwrap: '0.9.0' } })];
    expect(summarize(runs, standard).mixed.map((p) => p.field)).toEqual(['level', 'runtime.bwrap', 'runtime.node']);
    expect(summarize(runs, standard).mixed.find((p) => p.field === 'runtime.bwrap')?.values).toEqual(['(none)', '0.9.0']);
  });

  it('ranks runs of a bake that asked no toolchain version (its tasks use none) with runs that have one, yet sees two versions', () => {
    const asked = makeRun({ agent: 'a', task: 't3', outcome: SOLVED, runtime: { ...base[0]!.runtime, python: 'Python 3.11.7', cargo: 'cargo 1.95.0' } });
    expect(summarize([...base, asked], standard).mixed).toEqual([]);
    const other = makeRun({ agent: 'b', task: 't3', outcome: SOLVED, runtime: { ...base[0]!.runtime, python: 'Python 3.12.1' } });
    expect(summarize([...base, asked, other], standard).mixed).toEqual([{ field: 'runtime.python', values: ['Python 3.11.7', 'Python 3.12.1'] }]);
  });

  it('compares model APIs among model agents\' runs only: reference agents\' runs have none', () => {
    const model = (upstream: string, task: string) =>
      makeRun({ agent: 'm', task, outcome: SOLVED, runtime: { ...base[0]!.runtime, upstream, prices: 'catalog' } });
    expect(summarize([...base, model('scripted:gold', 't1')], standard).mixed).toEqual([]);
    expect(summarize([...base, model('scripted:gold', 't1'), model('vendor', 't2')], standard).mixed).toEqual([
      { field: 'runtime.upstream', values: ['scripted:gold', 'vendor'] },
    ]);
  });

  it('ranks void runs stored without the runtime fields only work records, yet sees a void run\'s differing value', () => {
    const graded = runsOf('a', { t1: [SOLVED], t2: [FAILED] }, { runtime: { node: '20.1.0', sandbox: 'bwrap', workspace: 'overlay' } });
    const oldVoid = makeRun({ agent: 'a', task: 't3', outcome: SETUP, runtime: { node: '20.1.0', sandbox: 'bwrap' } });
    const oldInfra = makeRun({ agent: 'b', task: 't1', outcome: INFRA, runtime: { node: '20.1.0', sandbox: 'bwrap' } });
    expect(summarize([...graded, oldVoid, oldInfra], standard).mixed).toEqual([]);
    const otherNode = makeRun({ agent: 'b', task: 't2', outcome: INFRA, runtime: { node: '22.0.0', sandbox: 'bwrap' } });
    expect(summarize([...graded, otherNode], standard).mixed).toEqual([{ field: 'runtime.node', values: ['20.1.0', '22.0.0'] }]);
    const graded2 = makeRun({ agent: 'b', task: 't3', outcome: SOLVED, runtime: { node: '20.1.0', sandbox: 'bwrap' } });
    expect(summarize([...graded, graded2], standard).mixed.map((p) => p.field)).toEqual(['runtime.workspace']);
  });

  it('reports one agent id recorded with two harness versions', () => {
    const newer: AgentInfo = { ...agentInfo('a'), version: '2.0.0' };
    const runs = [...base, makeRun({ agent: newer, task: 't3', outcome: SOLVED })];
    expect(summarize(runs, standard).mixed.map((p) => p.field)).toEqual(['agent:a']);
  });
});

describe('summarize: replay rule', () => {
  const rule = { runsPerTask: 2, replayRule: { replays: 2, allowedDrift: 0 } };
  // a: t1 agrees solved, t2 drifts, t3 agrees failed, t4 has a void replay → 1 of 2 valid tasks solved.
  // b: every task agrees solved.
  const runs = [
    ...runsOf('a', { t1: [SOLVED, SOLVED], t2: [SOLVED, FAILED], t3: [FAILED, FAILED], t4: [SOLVED, INFRA] }),
    ...runsOf('b', { t1: [SOLVED, SOLVED], t2: [SOLVED, SOLVED], t3: [SOLVED, SOLVED], t4: [SOLVED, SOLVED] }),
  ];
  const view = summarize(runs, { standardRunsPerTask: 2, controls: rule });
  const a = view.agents.find((line) => line.agent.id === 'a')!;

  it('voids tasks whose replays disagree (replay-drift) or have a void replay, per agent', () => {
    expect(a.voidTasks.map((t) => [t.task, t.reason])).toEqual([
      ['t2', 'replay-drift'],
      ['t4', 'infra-error'],
    ]);
    expect(a.voidTasksByReason).toEqual({ 'replay-drift': 1, 'infra-error': 1 });
    // Runs keep their own outcomes: replay drift is a verdict on the task, not on a run.
    expect(a).toMatchObject({ runs: 8, solved: 4, failed: 3, void: 1, voidByReason: { 'infra-error': 1 } });
  });

  it('computes the share over tasks, with void counted as failed over all tasks', () => {
    expect(a.shareUnit).toBe('task');
    expect(a.replay).toEqual({ compared: 3, agreeing: 2, validTasks: 2, solvedTasks: 1 });
    expect(a.solveShare).toBe(0.5);
    expect(a.solveShareVoidAsFail).toBe(0.25);
    expect(a.ci95).toEqual(wilson(1, 2));
    expect(a.ciMethod).toBe('wilson-by-task');
  });

  it('shows replay agreement per agent and the rule in the view', () => {
    expect(view.replayRule).toEqual({ replays: 2, allowedDrift: 0 });
    expect(view.agents.map((line) => [line.agent.id, line.replay?.agreeing, line.replay?.compared])).toEqual([
      ['b', 4, 4],
      ['a', 2, 3],
    ]);
  });

  it('lets one differing replay stand with allowed drift 1', () => {
    const lenient = { runsPerTask: 3, replayRule: { replays: 3, allowedDrift: 1 } };
    const line = summarize(runsOf('a', { t1: [SOLVED, FAILED, SOLVED] }), { standardRunsPerTask: 3, controls: lenient }).agents[0]!;
    expect(line.voidTasks).toEqual([]);
    expect(line.replay).toEqual({ compared: 1, agreeing: 1, validTasks: 1, solvedTasks: 1 });
    expect(line.solveShare).toBe(1);
  });

  it('changes nothing without a replay rule: runs are independent samples', () => {
    const plain = summarize(runs, { standardRunsPerTask: 2, controls: { runsPerTask: 2 } });
    const line = plain.agents.find((l) => l.agent.id === 'a')!;
    expect(plain.replayRule).toBeNull();
    expect(line).toMatchObject({ shareUnit: 'run', replay: null, voidTasks: [] });
    expect(line.solveShare).toBeCloseTo(4 / 7, 12);
    expect(line.solveShareVoidAsFail).toBe(4 / 8);
  });
});

describe('summarize: void limit', () => {
  const runs = [
    ...runsOf('a', { t1: [SOLVED], t2: [SOLVED], t3: [INFRA], t4: [SETUP] }),
    ...runsOf('b', { t1: [FAILED], t2: [FAILED], t3: [SOLVED], t4: [INFRA] }),
    ...runsOf('c', { t1: [SOLVED], t2: [FAILED], t3: [FAILED], t4: [FAILED] }),
  ];

  it('ranks as usual when no agent has more void tasks than the limit', () => {
    const view = summarize(runs, { standardRunsPerTask: 1, controls: { voidLimit: 2 } });
    expect(view.ranking).toEqual({ refused: false });
    expect(view.agents.map((line) => [line.rank, line.agent.id])).toEqual([[1, 'a'], [2, 'b'], [3, 'c']]);
  });

  it('refuses to rank when an agent has more void tasks than the limit, and says why', () => {
    const view = summarize(runs, { standardRunsPerTask: 1, controls: { voidLimit: 1 } });
    expect(view.voidLimit).toBe(1);
    expect(view.ranking.refused).toBe(true);
    const reason = view.ranking.refused ? view.ranking.reason : '';
    expect(reason).toContain('void limit of 1');
    expect(reason).toContain('a has 2 of 4 tasks void (infra-error 1, setup-failed 1)');
    expect(reason).not.toMatch(/\bb has\b/);
    // Unranked: no rank, and sorted by id so the order implies nothing.
    expect(view.agents.map((line) => [line.rank, line.agent.id])).toEqual([[null, 'a'], [null, 'b'], [null, 'c']]);
  });

  it('counts void tasks, not void runs, without a replay rule: a task with one valid run is not void', () => {
    const mixedRuns = runsOf('a', { t1: [INFRA, SOLVED], t2: [INFRA, FAILED] });
    const view = summarize(mixedRuns, { standardRunsPerTask: 2, controls: { voidLimit: 0 } });
    expect(view.agents[0]?.void).toBe(2);
    expect(view.agents[0]?.voidTasks).toEqual([]);
    expect(view.ranking).toEqual({ refused: false });
  });

  it('has no limit when the controls set none', () => {
    const view = summarize(runs, { standardRunsPerTask: 1, controls: { runsPerTask: 1 } });
    expect([view.voidLimit, view.ranking]).toEqual([null, { refused: false }]);
  });
});
