import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { bakeoff, copySuite, FIXTURES, tempDir } from './helpers.js';

/*
 * One bake of purpose-made `command:` agents on the failure-anatomy fixture (tiny's `add` task
 * twice, README.md protected, wall clocks of 20 s per session and 60 s per test run; its lock is
 * committed, so nothing is validated here). Each agent fails each task in its own way, so the
 * four of them show eight classes; gold solves both. `fix no-change` solves `add` only: a real
 * gap of one task in two to gold, which two tasks cannot tell apart.
 */
const AGENT = 'command:node test/fixtures/failure-agents/agent.mjs';
const agents = {
  build: `${AGENT} did-not-build partly-passing`,
  regress: `${AGENT} regressions protected`,
  limits: `${AGENT} test-hang session-sleep`,
  half: `${AGENT} fix no-change`,
};

interface JsonRun { task: string; agent: string; outcome: string; failure: { class: string; side: string; cause: string; detail: string; broken: string[]; expectedPassing: { passed: number; total: number } | null } | null }
interface JsonAgent { id: string; failures: { notSolved: number; byClass: Record<string, number>; bySide: Record<string, number> } }

describe('failure anatomy and the minimum detectable difference, on a bake of purpose-made agents', () => {
  let out = '';
  let report: { failureAnatomyVersion: number; runs: JsonRun[]; agents: JsonAgent[] };
  beforeAll(async () => {
    const suite = await copySuite(path.join(FIXTURES, 'suites/failure-anatomy'));
    out = await tempDir();
    const args = ['run', suite, '--out', out, '--concurrency', '4', '--json', '--agent', 'gold'];
    for (const spec of Object.values(agents)) args.push('--agent', spec);
    const r = await bakeoff(args);
    expect(r.exitCode, r.stderr).toBe(0);
    const json = await bakeoff(['report', out, '--format', 'json']);
    expect(json.exitCode, json.stderr).toBe(0);
    report = JSON.parse(json.stdout) as typeof report;
  }, 300_000);

  const classOf = (agent: string, task: string) => {
    const run = report.runs.find((r) => r.agent === agent && r.task === task)!;
    return run.failure && [run.failure.class, run.failure.side, run.failure.cause];
  };

  it('gives every run that was not solved the class it was made to have', () => {
    expect(report.failureAnatomyVersion).toBe(1);
    expect([classOf('gold', 'add'), classOf('gold', 'add-again')]).toEqual([null, null]);
    expect(classOf(agents.build, 'add')).toEqual(['did-not-build', 'agent', 'no-test-ran']);
    expect(classOf(agents.build, 'add-again')).toEqual(['partly-passing', 'agent', 'fail-to-pass']);
    expect(classOf(agents.regress, 'add')).toEqual(['regressions', 'agent', 'pass-to-pass-broken']);
    expect(classOf(agents.regress, 'add-again')).toEqual(['protected-or-refused', 'agent', 'protected-path-changed']);
    expect(classOf(agents.limits, 'add')).toEqual(['test-limit', 'agent', 'time']);
    expect(classOf(agents.limits, 'add-again')).toEqual(['session-limit', 'agent', 'time']);
    expect(classOf(agents.half, 'add')).toBeNull();
    expect(classOf(agents.half, 'add-again')).toEqual(['no-change', 'agent', 'empty-change']);
  });

  it('says how far a partial change got and which passing tests a regression broke', () => {
    const partly = report.runs.find((r) => r.agent === agents.build && r.task === 'add-again')!.failure!;
    expect(partly.expectedPassing).toEqual({ passed: 1, total: 2 });
    expect(partly.detail).toBe('1 of 2 fail-to-pass tests pass');
    const regression = report.runs.find((r) => r.agent === agents.regress && r.task === 'add')!.failure!;
    expect(regression.broken).toEqual(['test/math.test.mjs::adding zero changes nothing']);
    expect(regression.expectedPassing).toEqual({ passed: 2, total: 2 });
  });

  it('counts each agent\'s failures by class and side in the JSON, and shows them under the leaderboard', async () => {
    const byId = new Map(report.agents.map((a) => [a.id, a.failures]));
    expect(byId.get('gold')).toEqual({ notSolved: 0, byClass: {}, bySide: {} });
    expect(byId.get(agents.build)).toEqual({ notSolved: 2, byClass: { 'did-not-build': 1, 'partly-passing': 1 }, bySide: { agent: 2 } });
    expect(byId.get(agents.limits)!.byClass).toEqual({ 'test-limit': 1, 'session-limit': 1 });
    const table = await bakeoff(['report', out]);
    expect(table.exitCode, table.stderr).toBe(0);
    expect(table.stdout).toContain('Why runs were not solved (failure anatomy v1');
    expect(table.stdout).toMatch(/^agent\s+not solved\s+no change\s+did not build\s+partly passing\s+regressions\s+protected \/ refused\s+tests over a limit\s+session limit\s+side: agent$/m);
    expect(table.stdout).toMatch(new RegExp(`^${escape(agents.regress)}\\s+2/2\\s+0\\s+0\\s+0\\s+1\\s+1\\s+0\\s+0\\s+2$`, 'm'));
  });

  it('draws each agent\'s runs as a stacked bar by class on the HTML leaderboard', async () => {
    const html = await bakeoff(['report', out, '--format', 'html']);
    expect(html.exitCode, html.stderr).toBe(0);
    expect(html.stdout).toContain('<h2>Why runs were not solved</h2>');
    expect(html.stdout).toContain('aria-label="2 runs: did not build 1, partly passing 1"');
    expect(html.stdout).toContain('<rect class="f-regressions"');
  });

  it('compares gold with an agent one task behind: the gap is real, but not distinguishable at this size', async () => {
    const text = await bakeoff(['report', out, '--compare', 'gold', agents.half]);
    expect(text.exitCode, text.stderr).toBe(0);
    const lines = text.stdout.split('\n');
    expect(lines[0]).toBe(`On failure-anatomy, with one attempt per task and a frozen oracle, gold won 1, ${agents.half} won 0, 1 tied, 0 void.`);
    expect(lines[1]).toBe(
      'With 2 tasks without a void and one run per task, no difference is detectable at 80 % power and α = 0.05: the exact McNemar test cannot reach ' +
        `p ≤ 0.05 with fewer than 6 tasks, even if every task went one way. gold and ${agents.half} are not distinguishable at this size.`,
    );
    expect(text.stdout).toContain('minimum detectable difference (80% power, α = 0.05, 2 tasks): none reachable, exact McNemar, discordance 0.500');
    expect(text.stdout).toContain(`why runs were not solved (gold / ${agents.half}; * where they differ): no change 0 / 1 *`);
    const json = JSON.parse((await bakeoff(['report', out, '--format', 'json', '--compare', 'gold', agents.half])).stdout) as { comparison: { meanDifference: number; power: Record<string, unknown> } };
    expect(json.comparison.meanDifference).toBe(0.5);
    expect(json.comparison.power).toMatchObject({ method: 'exact-mcnemar', tasks: 2, discordance: 0.5, mdd: null, observedGap: 0.5, distinguishable: false });
  });

  it('plans from the bake as a pilot: the assumptions it read, the table it computed, and the pilot\'s own size', async () => {
    const plan = await bakeoff(['plan', out, '--compare', 'gold', agents.regress, '--target', '20%', '--json']);
    expect(plan.exitCode, plan.stderr).toBe(0);
    const json = JSON.parse(plan.stdout) as { pilot: { a: string; b: string; tasks: number; runsPerTask: number }; plan: { target: number; assumptions: { discordance: number; betweenSd: null }; table: { runs: number[] }; proposal: { tasks: number; runsPerTask: number }; atCurrentSize: unknown } };
    expect(json.pilot).toMatchObject({ a: 'gold', b: agents.regress, tasks: 2, runsPerTask: 1 });
    // gold solved both tasks, the other agent neither: one run of each disagrees on every task
    expect(json.plan.assumptions).toMatchObject({ discordance: 1, betweenSd: null, withinVar: null });
    expect(json.plan.table.runs).toEqual([1]);
    expect(json.plan.proposal).toMatchObject({ runsPerTask: 1 });
    expect(json.plan.atCurrentSize).toMatchObject({ tasks: 2, runsPerTask: null });
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
