import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { bakeoff, copySuite, FIXTURES, tempDir } from './helpers.js';
import { requireHarnesses } from './agents/agent-helpers.js';

interface JsonRun { id: string; task: string; outcome: string; failReason: string | null; voidReason: string | null; outcomeDetail: string | null; agentSec: number }
interface JsonBudget { totalSec: number; scope: string; stopOnError: boolean; passes: { agent: string; replay: number; runs: number; usedSec: number; overBudget: boolean; stoppedBy: unknown }[] }
interface JsonAgent { id: string; solved: number; failed: number }

/** In the Python task only, a command that outlasts the session clock; elsewhere it returns at once. */
const OVERRUN = 'if ls *.py >/dev/null 2>&1 || ls */*.py >/dev/null 2>&1; then sleep 100; fi; echo checked';

/*
 * The calibration rules' budget, with the real Codex CLI against bakeoff's scripted model: the
 * sessions of one agent across all tasks of a pass share 600 s of agent time, each at most 120 s
 * (the session wall clock: CLI start-up, generation and tool use; grading is outside it). The
 * model has Codex run a command that, in one task only, outlasts the 120 s: that session is
 * killed at its clock and its order fails (`session-timeout`, as the controls say; with
 * `timeoutIsVoid` it would be void), the other task's session is not touched, the report shows
 * what the pass spent of the 600 s, and nothing is retried. The rules' "error events, timeouts and
 * missing answers stop the run and leave its total unscored" is `stopOnError: true`: one session
 * at a time, the task planned after the overrun (a copy of the JS task) never starts — it is
 * recorded void `pass-stopped` — and the report names the timeout that stopped the pass and
 * scores none of its runs.
 * It runs with the other files, not with the real-CLI files that run alone: its overrun is 120 s
 * of waiting by design, and the honest session has all of its 120 s for a few tool calls.
 */
describe('calibration budget: 600 s shared, 120 s per session, with the real Codex CLI', () => {
  let runs: JsonRun[] = [];
  let budget: JsonBudget | null = null;
  let agents: JsonAgent[] = [];
  let table = '';
  let out = '';

  beforeAll(async () => {
    await requireHarnesses();
    const suite = await copySuite(path.join(FIXTURES, 'suites/tiny'));
    // planned in this order, one at a time: add (honest), py-add (overruns), zz-add (after the stop)
    await cp(path.join(suite, 'tasks/add'), path.join(suite, 'tasks/zz-add'), { recursive: true });
    const file = path.join(suite, 'suite.yaml');
    const yaml = (await readFile(file, 'utf8')).replace('runsPerTask: 2', 'runsPerTask: 1').replace('sessionWallClockSec: 60', 'sessionWallClockSec: 120');
    await writeFile(file, `${yaml}  agentBudget: { totalSec: 600, scope: replay, stopOnError: true }\n`);
    expect((await bakeoff(['validate', suite])).exitCode).toBe(0);
    const dir = await tempDir();
    const script = path.join(dir, 'overrun.json');
    const call = { tool: { name: 'exec_command', args: { cmd: OVERRUN, yield_time_ms: 60_000 } } };
    await writeFile(script, JSON.stringify({ replies: [call, call, call, call, call, { text: 'Done.' }] }));
    out = path.join(dir, 'out');
    const r = await bakeoff(['run', suite, '--agent', 'codex:gpt-5.5@lowest', '--upstream', `scripted:${script}`, '--concurrency', '1', '--out', out, '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const report = JSON.parse((await bakeoff(['report', out, '--format', 'json'])).stdout) as { runs: JsonRun[]; agentBudget: JsonBudget | null; agents: JsonAgent[] };
    runs = report.runs;
    budget = report.agentBudget;
    agents = report.agents;
    table = (await bakeoff(['report', out])).stdout;
  }, 900_000);

  it('the session that overran its 120 s is killed there and its order fails; the other session is not touched', () => {
    expect(runs.map((r) => r.task).sort()).toEqual(['add', 'py-add', 'zz-add']);
    const py = runs.find((r) => r.task === 'py-add')!;
    expect(py).toMatchObject({ outcome: 'failed', failReason: 'session-timeout', outcomeDetail: 'order 1: no answer within 120 s' });
    const js = runs.find((r) => r.task === 'add')!;
    expect(js.failReason).not.toBe('session-timeout');
    expect(js.voidReason).toBeNull();
  });

  it('the timeout stops the pass: the task after it never starts and is recorded void pass-stopped', () => {
    const after = runs.find((r) => r.task === 'zz-add')!;
    expect(after).toMatchObject({ outcome: 'void', voidReason: 'pass-stopped', agentSec: 0 });
    expect(after.outcomeDetail).toMatch(/^pass 1 of codex:gpt-5\.5@low stopped at task py-add \(session-timeout\)/);
  });

  it('shows the pass\'s total against the 600 s budget, per run and per bake', () => {
    expect(budget).toMatchObject({ totalSec: 600, scope: 'replay', stopOnError: true });
    expect(budget!.passes).toHaveLength(1);
    const pass = budget!.passes[0]!;
    expect(pass).toMatchObject({ agent: 'codex:gpt-5.5@low', replay: 0, runs: 3, overBudget: false, stoppedBy: { task: 'py-add', reason: 'session-timeout' } });
    expect(pass.usedSec).toBeCloseTo(runs.reduce((a, r) => a + r.agentSec, 0), 0);
    expect(table).toMatch(/Agent time budget: 600 s of session time per agent for each pass over the suite \(grading outside\s+it\)\./);
    expect(table).toMatch(/codex:gpt-5\.5@low used pass 1: \d+\.\d s \(stopped\s+at\s+task\s+py-add,\s+session-timeout:\s+unscored\)\./);
  });

  it('the timeout stops the pass and leaves its total unscored: no run counts as solved or failed', () => {
    expect(agents).toHaveLength(1);
    expect(agents[0]).toMatchObject({ solved: 0, failed: 0 });
  });

  it('retries nothing: one run per task, one session per order of the runs that started', () => {
    const db = new Database(path.join(out, 'bakeoff.db'), { readonly: true });
    try {
      expect(db.prepare('SELECT count(*) FROM runs').pluck().get()).toBe(3);
      const started = runs.filter((r) => r.task !== 'zz-add');
      expect(db.prepare('SELECT run_id, count(*) AS n FROM sessions GROUP BY run_id ORDER BY run_id').all()).toEqual(
        started.map((r) => r.id).sort().map((id) => ({ run_id: id, n: 1 })),
      );
      const timedOut = db.prepare('SELECT timed_out FROM sessions WHERE run_id = ?').pluck().get(runs.find((r) => r.task === 'py-add')!.id);
      expect(timedOut).toBe(1);
    } finally {
      db.close();
    }
  });
});
