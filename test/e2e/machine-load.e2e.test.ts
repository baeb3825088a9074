import path from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import type { JsonReport } from '../../src/report/index.js';
import { loadAverage, startBusyLoops } from '../busy-machine.js';
import { bakeoff, copySuite, FIXTURES, tempDir } from './helpers.js';

// Decision 011, the regular-suite case of bench/saturated.mjs: one tiny task (its lock committed,
// validated quiet), baked with 48 busy loops (each in a session of its own, like other users'
// processes) and --concurrency 4. The machine must not decide a verdict: gold solves, noop fails,
// a session that hangs (sleeps) fails session-timeout. Nothing is void. The hostile changes whose
// tests spin or block are graded under load in starved-rerun.e2e.test.ts (a short test clock;
// this suite's leaves the gold's tests room), and all of it, quiet against saturated, in
// bench/saturated.mjs.

const SUITE = path.join(FIXTURES, 'suites/machine-load');
const HANG = 'command:sleep 3600';
const AGENTS = ['gold', 'noop', HANG];

describe('verdicts on a saturated machine: 48 busy loops and --concurrency 4 (decision 011)', () => {
  let suite: string;
  beforeAll(async () => {
    suite = await copySuite(SUITE);
  });

  it('gold solves, noop fails, a hanging session times out as the agent\'s failure; every step is measured, nothing is void', async () => {
    const out = await tempDir();
    const loops = await startBusyLoops(48, { ownSessions: true, maxSec: 600 });
    let r: Awaited<ReturnType<typeof bakeoff>>;
    let load: number;
    try {
      r = await bakeoff(['run', suite, ...AGENTS.flatMap((a) => ['--agent', a]), '--out', out, '--concurrency', '4', '--json']);
      load = await loadAverage();
    } finally {
      await loops.stop();
    }
    expect(r.exitCode, r.stderr).toBe(0);
    const report = JSON.parse((await bakeoff(['report', out, '--format', 'json'])).stdout) as JsonReport;
    const byAgent = new Map(report.runs.map((run) => [run.agent, run]));
    const verdict = (agent: string) => {
      const run = byAgent.get(agent)!;
      return [run.outcome, run.failReason ?? run.voidReason, run.points, run.maxPoints];
    };
    expect(verdict('gold')).toEqual(['solved', null, 3, 3]);
    expect(verdict('noop')).toEqual(['failed', 'tests-failed', 1, 3]);
    expect(verdict(HANG)).toEqual(['failed', 'session-timeout', 1, 3]);
    // the hanging session slept: out of time, not starved, so the agent's failure
    const session = byAgent.get(HANG)!.steps.find((s) => s.step === 'session')!;
    expect([session.timedOut, session.starved]).toEqual([true, false]);
    // every sandboxed step was measured: the test runs of all three, the hanging session
    for (const run of report.runs) expect(run.steps.filter((s) => s.step === 'tests').length, run.agent).toBeGreaterThanOrEqual(1);
    for (const run of report.runs) for (const s of run.steps) expect(s.cpuMs, `${run.agent} ${s.step}`).not.toBeNull();

    // per-test results, from the store
    const db = new Database(path.join(out, 'bakeoff.db'), { readonly: true });
    const checks = db.prepare('SELECT run_id AS run, check_id AS id, status FROM checks ORDER BY run_id, check_id').all() as { run: string; id: string; status: string }[];
    db.close();
    const statuses = (agent: string) => checks.filter((c) => c.run === byAgent.get(agent)!.id).map((c) => c.status);
    expect(statuses('gold')).toEqual(['pass', 'pass', 'pass']);
    expect(statuses('noop')).toEqual(['fail', 'fail', 'pass']);
    expect(statuses(HANG)).toEqual(['fail', 'fail', 'pass']);
    const gold = byAgent.get('gold')!.steps.filter((s) => s.step === 'tests').at(-1)!;
    console.log(`machine-load: 1-minute load average at the end of the saturated bake: ${load!.toFixed(1)}; the gold's test run: ${Math.round(gold.wallMs / 1000)} s wall, ${gold.cpuMs} ms CPU, held back ${Math.round((100 * gold.heldMs) / gold.wallMs)} %`);
  }, 900_000);

  it('a bake whose --upstream does not resolve stops within seconds with exit 3, naming the host', async () => {
    const started = performance.now();
    const r = await bakeoff(['run', suite, '--agent', 'claude-code:claude-sonnet-4-5', '--upstream', 'http://does-not-exist.invalid', '--out', await tempDir()]);
    expect(r.exitCode, r.stderr).toBe(3);
    expect(r.stderr).toContain('the model API at does-not-exist.invalid does not resolve');
    expect(performance.now() - started).toBeLessThan(30_000);
  });
});
