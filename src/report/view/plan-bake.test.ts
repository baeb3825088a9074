import { describe, expect, it } from 'vitest';
import { mcnemarMdd, mcnemarPower } from '../stats/mcnemar-power.js';
import { pairedTMdd } from '../stats/paired-t-power.js';
import { renderPlan } from '../render/render-plan.js';
import { planBake } from './plan-bake.js';

const stated = { discordance: 0.4, betweenSd: 0.2, withinVar: 0.2 };

describe('planBake', () => {
  const plan = planBake({ target: 0.15, assumptions: stated, currentTasks: 30 });

  it('fills the table with the reference MDDs of notes/statistics.md (McNemar for one run, paired t for several)', () => {
    const cell = (tasks: number, k: number) => plan.table.cells.find((row) => row[0]!.tasks === tasks)!.find((c) => c.runsPerTask === k)!.mdd;
    expect(cell(30, 1)).toBeCloseTo(0.325, 9);
    expect(cell(20, 1)).toBeCloseTo(0.385, 9);
    expect(cell(30, 2)).toBeCloseTo(0.198, 3);
    expect(cell(50, 10)).toBeCloseTo(0.099, 3);
    expect(plan.table.methods).toEqual(['exact-mcnemar', 'paired-t', 'paired-t', 'paired-t', 'paired-t']);
  });

  it('finds, per run count, the fewest tasks whose MDD reaches the target (one fewer does not)', () => {
    for (const c of plan.columns.filter((col) => col.method === 'paired-t')) {
      const mdd = (tasks: number) => pairedTMdd({ tasks, runsPerTask: c.runsPerTask, ...stated });
      expect(mdd(c.tasksNeeded!), `k = ${c.runsPerTask}`).toBeLessThanOrEqual(0.15);
      expect(mdd(c.tasksNeeded! - 1), `k = ${c.runsPerTask}`).toBeGreaterThan(0.15);
    }
    const one = plan.columns.find((c) => c.runsPerTask === 1)!;
    // the exact test's power is a sawtooth: at the count proposed and the nine after it, it holds
    for (let t = one.tasksNeeded!; t < one.tasksNeeded! + 10; t++) expect(mcnemarPower(t, 0.275, 0.125)).toBeGreaterThanOrEqual(0.8);
    expect(mcnemarMdd(one.tasksNeeded!, 0.4).mdd).toBeLessThanOrEqual(0.15 + 1e-9);
  });

  it('proposes the design with the fewest runs per agent', () => {
    const fewest = Math.min(...plan.columns.map((c) => c.runsPerAgent!));
    expect(plan.proposal!.runsPerAgent).toBe(fewest);
    expect(plan.proposal).toMatchObject({ tasks: 51, runsPerTask: 2 });
  });

  it('says what the current suite size can reach, and the floor more runs never pass', () => {
    expect(plan.atCurrentSize!.runsPerTask).toBe(5);
    expect(plan.atCurrentSize!.floor).toBeGreaterThan(0.1);
    const small = planBake({ target: 0.1, assumptions: stated, currentTasks: 20 });
    expect(small.atCurrentSize!.runsPerTask).toBeNull();
    expect(renderPlan(small, { kind: 'stated', description: 'stated' })).toMatch(/With the suite's 20 tasks, no number of runs per task up to 100 reaches the target: more runs never get the MDD below 0\.1\d\d/);
  });

  it('raises the discordance to the target when a net gap could not fit in it, and says so', () => {
    const p = planBake({ target: 0.3, assumptions: { discordance: 0.1, betweenSd: null, withinVar: null } });
    expect(p.table.runs).toEqual([1]);
    expect(p.notes.join(' ')).toContain('raised the assumed 0.10 to it');
    expect(p.notes.join(' ')).toContain('left out 2, 3, 5, 10 run(s) per task');
    expect(p.columns[0]!.tasksNeeded).not.toBeNull();
  });

  it('sizes one run per task by the paired t when no discordance is known', () => {
    const p = planBake({ target: 0.2, assumptions: { discordance: null, betweenSd: 0.2, withinVar: 0.2 } });
    expect(p.table.methods[0]).toBe('paired-t');
    expect(p.table.cells.find((r) => r[0]!.tasks === 20)![0]!.mdd).toBeCloseTo(0.324, 3);
  });

  it('prints the table it computed, marking the designs that reach the target', () => {
    const text = renderPlan(plan, { kind: 'stated', description: 'stated' });
    expect(text).toContain('tasks  1 run (McNemar)   2 runs   3 runs   5 runs  10 runs');
    expect(text).toMatch(/^\s+30\s+0\.325\s+0\.198\s+0\.173\s+0\.150 \*\s+0\.130 \*$/m);
    expect(text).toContain('Proposal: 51 tasks × 2 runs per task (102 runs per agent');
  });
});
