import { describe, expect, it } from 'vitest';
import type { Outcome, RunRecord } from '../../types.js';
import { comparePaired, type ComparePairedResult, type PairedComparison } from './compare-paired.js';
import { testRunsOf } from './test-runs.test-support.js';

const S: Outcome = { kind: 'solved' };
const F: Outcome = { kind: 'failed', reason: 'tests-failed' };
const V: Outcome = { kind: 'void', reason: 'infra-error' };

/** `{ t1: [S, F] }`: task t1, replays 0 and 1. */
function runsOf(agent: string, outcomes: Record<string, Outcome[]>, extra: Partial<RunRecord> = {}): RunRecord[] {
  return testRunsOf(agent, outcomes, { seed: 1, level: 1, runtime: { node: '20.19.0' }, ...extra });
}

function compared(result: ComparePairedResult): PairedComparison {
  if (!result.ok) throw new Error(`refused: ${result.reason}`);
  return result.comparison;
}

/** Within half a unit of the last printed digit (as in statistics-reference.test.ts). */
function expectPrinted(actual: number | undefined, printed: string): void {
  const decimals = printed.split('.')[1]?.length ?? 0;
  expect(Math.abs((actual ?? NaN) - Number(printed))).toBeLessThanOrEqual(0.5 * 10 ** -decimals + 1e-12);
}

/** Tasks t01…tNN with the given pairs of outcomes (one run each). */
function oneRunEach(pairs: readonly (readonly [Outcome, Outcome])[]): RunRecord[] {
  const task = (i: number): string => `t${String(i + 1).padStart(2, '0')}`;
  return [
    ...runsOf('A', Object.fromEntries(pairs.map(([a], i) => [task(i), [a]]))),
    ...runsOf('B', Object.fromEntries(pairs.map(([, b], i) => [task(i), [b]]))),
  ];
}

// The replay-slice example of notes/statistics.md: 24 tasks, A won 5, B won 3, 14 tied, 2 void.
const slice = oneRunEach([
  ...Array<[Outcome, Outcome]>(5).fill([S, F]),
  ...Array<[Outcome, Outcome]>(3).fill([F, S]),
  ...Array<[Outcome, Outcome]>(7).fill([S, S]),
  ...Array<[Outcome, Outcome]>(7).fill([F, F]),
  [V, S],
  [F, V],
]);

describe('comparePaired: counts and the legal sentence', () => {
  const c = compared(comparePaired(slice, { a: 'A', b: 'B' }));

  it('counts A wins, B wins, ties and void tasks (void when either side is void)', () => {
    expect([c.aWins, c.bWins, c.ties, c.void, c.tasks]).toEqual([5, 3, 14, 2, 24]);
    expect(c.perTask.filter((t) => t.result === 'void').map((t) => [t.aVoid, t.bVoid])).toEqual([
      ['infra-error', null],
      [null, 'infra-error'],
    ]);
  });

  it('writes the sentence of the replay-slice method, word for word', () => {
    expect(c.sentence).toBe('On demo, with one attempt per task and a frozen oracle, A won 5, B won 3, 14 tied, 2 void.');
  });

  it('gives the exact McNemar p-value of the reference table (b = 5, c = 3)', () => {
    expectPrinted(c.pValue, '0.726562');
  });

  it('carries the suite, hash, controls digest and the replay rule (none)', () => {
    expect(c).toMatchObject({ suite: { id: 'demo', hash: 'sha256:aaaa' }, controlsDigest: 'sha256:cccc', replayRule: null });
  });

  it('reports b = 10, c = 2 with the reference p-value 0.038574', () => {
    const lopsided = oneRunEach([...Array<[Outcome, Outcome]>(10).fill([S, F]), ...Array<[Outcome, Outcome]>(2).fill([F, S])]);
    expectPrinted(compared(comparePaired(lopsided, { a: 'A', b: 'B' })).pValue, '0.038574');
  });
});

describe('comparePaired: several runs per task', () => {
  // The six-task paired example of notes/statistics.md, 2 runs each.
  const a = { t1: [S, S], t2: [S, F], t3: [F, F], t4: [S, S], t5: [F, S], t6: [S, S] };
  const b = { t1: [S, F], t2: [F, F], t3: [F, F], t4: [S, S], t5: [F, F], t6: [F, S] };
  const c = compared(comparePaired([...runsOf('a', a), ...runsOf('b', b)], { a: 'a', b: 'b' }));

  it('decides each task by the per-task share: A wins when its share is higher', () => {
    expect(c.perTask.map((t) => [t.task, t.aShare, t.bShare, t.result])).toEqual([
      ['t1', 1, 0.5, 'a-wins'],
      ['t2', 0.5, 0, 'a-wins'],
      ['t3', 0, 0, 'tie'],
      ['t4', 1, 1, 'tie'],
      ['t5', 0.5, 0, 'a-wins'],
      ['t6', 1, 0.5, 'a-wins'],
    ]);
    expect(c.sentence).toBe('On demo, with 2 attempts per task and a frozen oracle, a won 4, b won 0, 2 tied, 0 void.');
  });

  it('gives the reference mean paired difference and 95% interval [0.0624, 0.6043]', () => {
    expectPrinted(c.meanDifference ?? undefined, '0.3333');
    expectPrinted(c.ci95?.low, '0.0624');
    expectPrinted(c.ci95?.high, '0.6043');
  });

  it('has no paired difference with fewer than 2 tasks without a void', () => {
    const few = compared(comparePaired([...runsOf('a', { t1: [S], t2: [V] }), ...runsOf('b', { t1: [F], t2: [S] })], { a: 'a', b: 'b' }));
    expect([few.meanDifference, few.ci95]).toEqual([null, null]);
  });

  it('counts a task only one side ran as void (no runs)', () => {
    const missing = compared(comparePaired([...runsOf('a', { t1: [S], t2: [S] }), ...runsOf('b', { t1: [F] })], { a: 'a', b: 'b' }));
    expect(missing.perTask[1]).toMatchObject({ task: 't2', result: 'void', aVoid: null, bVoid: 'no-runs' });
    expect(missing.sentence).toMatch(/a won 1, b won 0, 0 tied, 1 void\.$/);
  });
});

describe('comparePaired: replay rule and void limit', () => {
  const controls = { runsPerTask: 2, replayRule: { replays: 2, allowedDrift: 0 }, voidLimit: 1 };
  const runs = [
    ...runsOf('a', { t1: [S, S], t2: [S, F], t3: [S, S], t4: [F, F] }),
    ...runsOf('b', { t1: [F, F], t2: [F, F], t3: [S, V], t4: [F, F] }),
  ];
  const c = compared(comparePaired(runs, { a: 'a', b: 'b', controls }));

  it('voids a task whose replays drift on either side', () => {
    expect(c.perTask.map((t) => [t.task, t.result, t.aVoid, t.bVoid])).toEqual([
      ['t1', 'a-wins', null, null],
      ['t2', 'void', 'replay-drift', null],
      ['t3', 'void', null, 'infra-error'],
      ['t4', 'tie', null, null],
    ]);
    expect(c.replayRule).toEqual({ replays: 2, allowedDrift: 0 });
  });

  it('flags more void tasks than the void limit', () => {
    expect([c.void, c.voidLimit, c.overVoidLimit]).toEqual([2, 1, true]);
    expect(compared(comparePaired(runs, { a: 'a', b: 'b', controls: { ...controls, voidLimit: 2 } })).overVoidLimit).toBe(false);
  });
});

describe('comparePaired: refusals', () => {
  const base = [...runsOf('a', { t1: [S] }), ...runsOf('b', { t1: [F] }), ...runsOf('c', { t1: [F] })];
  const refusal = (runs: readonly RunRecord[], a = 'a', b = 'b'): string => {
    const result = comparePaired(runs, { a, b });
    return result.ok ? '(compared)' : result.reason;
  };

  it('refuses an unknown agent id and lists the known ones', () => {
    expect(refusal(base, 'a', 'nobody')).toBe('unknown agent "nobody"; known agents: a, b, c');
  });

  it('refuses to compare an agent with itself', () => {
    expect(refusal(base, 'a', 'a')).toMatch(/cannot compare a with itself/);
  });

  it.each([
    ['suite hash', { suiteHash: 'sha256:bbbb' }, /suiteHash \(sha256:aaaa vs sha256:bbbb\)/],
    ['controls digest', { controlsDigest: 'sha256:dddd' }, /controlsDigest/],
    ['seed', { seed: 2 }, /seed \(a: 1 vs b: 2\)/],
    ['level', { level: 2 }, /level \(1 vs 2\)/],
    ['runtime', { runtime: { node: '22.1.0' } }, /runtime\.node \(20\.19\.0 vs 22\.1\.0\)/],
    ['effort catalog', { effortCatalog: { source: 'another catalog', digest: 'bbbbbbbbbbbbbbbb', requested: 'lowest', resolved: 'medium' } }, /catalog\.builtin \(aaaaaaaaaaaa vs bbbbbbbbbbbb\)/],
  ])('refuses runs that differ in %s', (_, extra: Partial<RunRecord>, pattern) => {
    const catalog = { source: 'a catalog', digest: 'aaaaaaaaaaaaaaaa', requested: 'lowest', resolved: 'low' };
    const runs = [...runsOf('a', { t1: [S] }, { effortCatalog: catalog }), ...runsOf('b', { t1: [F] }, { effortCatalog: catalog, ...extra })];
    expect(refusal(runs)).toMatch(/^refusing to compare a and b: their runs differ in /);
    expect(refusal(runs)).toMatch(pattern);
  });

  it('ignores agents outside the pair when checking comparability', () => {
    const runs = [...base, ...runsOf('d', { t1: [S] }, { suiteHash: 'sha256:ffff' })];
    expect(refusal(runs)).toBe('(compared)');
  });
});
