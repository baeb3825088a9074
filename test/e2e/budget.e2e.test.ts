import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { admitOnly, bakeoff, copySuite, FIXTURES, tempDir } from './helpers.js';

interface JsonRun { task: string; outcome: string; failReason: string | null; voidReason: string | null; outcomeDetail: string | null; agentSec: number }

async function suiteWith(controls: string, beforeValidate?: (suite: string) => Promise<void>): Promise<string> {
  const suite = await copySuite(path.join(FIXTURES, 'suites/tiny'));
  await beforeValidate?.(suite);
  const file = path.join(suite, 'suite.yaml');
  await writeFile(file, (await readFile(file, 'utf8')) + controls);
  expect((await bakeoff(['validate', suite])).exitCode).toBe(0);
  return suite;
}

async function runSlowAgent(suite: string): Promise<JsonRun[]> {
  const out = await tempDir();
  const r = await bakeoff(['run', suite, '--agent', 'command:sleep 30', '--runs', '1', '--concurrency', '1', '--out', out, '--json']);
  expect(r.exitCode, r.stderr).toBe(0);
  return (JSON.parse((await bakeoff(['report', out, '--format', 'json'])).stdout) as { runs: JsonRun[] }).runs;
}

describe('agent time budgets', () => {
  it('share one budget across the tasks of a replay, and leave timed-out runs unscored when the controls say so', async () => {
    const suite = await suiteWith('  agentBudget: { totalSec: 2, scope: replay }\n  timeoutIsVoid: true\n');
    const runs = await runSlowAgent(suite);
    expect(runs).toHaveLength(2);
    for (const run of runs) {
      expect(run.outcome).toBe('void');
      expect(run.voidReason).toBe('timeout');
    }
    const total = runs.reduce((a, r) => a + r.agentSec, 0);
    expect(total).toBeGreaterThan(1.5);
    expect(total).toBeLessThan(4);
    expect(runs.some((r) => /budget/.test(r.outcomeDetail ?? ''))).toBe(true);
  });

  it('fail a run whose session times out, by default', async () => {
    const suite = await suiteWith('  agentBudget: { totalSec: 1, scope: run }\n');
    const runs = await runSlowAgent(suite);
    for (const run of runs) {
      expect(run.outcome).toBe('failed');
      expect(run.failReason).toBe('session-timeout');
      expect(run.agentSec).toBeLessThan(3);
    }
  });

  describe('stopOnError (the calibration rule: a timeout or an error stops the pass and leaves its total unscored)', () => {
    // tasks in plan order: add, py-add, zz-add (a copy of add); the agent changes nothing, and in py-add only it outlasts the clock
    const STOPPER = `command:if [ "$BAKEOFF_TASK" = py-add ]; then sleep 30; fi`;
    const withThirdTask = (suite: string) => cp(path.join(suite, 'tasks/add'), path.join(suite, 'tasks/zz-add'), { recursive: true });
    const controls = '  agentBudget: { totalSec: 600, scope: replay, stopOnError: true }\n';
    const slowClock = (suite: string) => withThirdTask(suite).then(async () => {
      const file = path.join(suite, 'suite.yaml');
      await writeFile(file, (await readFile(file, 'utf8')).replace('sessionWallClockSec: 60', 'sessionWallClockSec: 3'));
    });
    const args = (suite: string, out: string) => ['run', suite, '--agent', STOPPER, '--agent', 'gold', '--runs', '1', '--concurrency', '1', '--out', out, '--json'];
    interface Report { runs: (JsonRun & { agent: string })[]; agents: { id: string; solved: number; failed: number; voidTasks: number }[]; agentBudget: { passes: { agent: string; stoppedBy: unknown }[] } }
    const report = async (out: string) => JSON.parse((await bakeoff(['report', out, '--format', 'json'])).stdout) as Report;

    it('records the pass\'s later runs void pass-stopped without running them, scores the whole pass as void, and leaves other agents alone', async () => {
      const suite = await suiteWith(controls, slowClock);
      const out = await tempDir();
      const r = await bakeoff(args(suite, out));
      expect(r.exitCode, r.stderr).toBe(0);
      const { runs, agents, agentBudget } = await report(out);
      const mine = (task: string) => runs.find((x) => x.task === task && x.agent.startsWith('command:'))!;
      // before the stop: graded as usual (it changed nothing); the stopper: its own timeout
      expect(mine('add')).toMatchObject({ outcome: 'failed', failReason: 'tests-failed' });
      expect(mine('py-add')).toMatchObject({ outcome: 'failed', failReason: 'session-timeout' });
      // after it: never started
      expect(mine('zz-add')).toMatchObject({ outcome: 'void', voidReason: 'pass-stopped', agentSec: 0 });
      expect(mine('zz-add').outcomeDetail).toMatch(/^pass 1 of command:.* stopped at task py-add \(session-timeout\)/);
      // the leaderboard leaves the whole pass unscored: no failure counted, every task void
      const stopper = agents.find((a) => a.id.startsWith('command:'))!;
      expect(stopper).toMatchObject({ solved: 0, failed: 0 });
      const gold = agents.find((a) => a.id === 'gold')!;
      expect(gold).toMatchObject({ solved: 3, failed: 0 });
      expect(agentBudget.passes.find((p) => p.agent.startsWith('command:'))!.stoppedBy).toEqual({ task: 'py-add', reason: 'session-timeout' });
      expect(agentBudget.passes.find((p) => p.agent === 'gold')!.stoppedBy).toBeNull();
      const table = (await bakeoff(['report', out])).stdout;
      expect(table).toMatch(/stopped\s+at\s+task\s+py-add,\s+session-timeout:\s+unscored/);
    });

    it('keeps a pass stopped across a resume: the same command again records the rest void without running it', async () => {
      const suite = await suiteWith(controls, slowClock);
      const lock = await readFile(path.join(suite, 'bakeoff.lock.json'), 'utf8');
      const out = await tempDir();
      // first bake: the lock admits add and py-add only (the suite and its hash unchanged), as if killed before zz-add
      await admitOnly(suite, ['add', 'py-add']);
      expect((await bakeoff(args(suite, out))).exitCode).toBe(0);
      await writeFile(path.join(suite, 'bakeoff.lock.json'), lock);
      const second = await bakeoff(args(suite, out));
      expect(second.exitCode, second.stderr).toBe(0);
      expect(JSON.parse(second.stdout)).toMatchObject({ alreadyDone: 4, ran: 2 });
      const { runs } = await report(out);
      expect(runs.find((x) => x.task === 'zz-add' && x.agent.startsWith('command:'))).toMatchObject({ outcome: 'void', voidReason: 'pass-stopped', agentSec: 0 });
      expect(runs.find((x) => x.task === 'zz-add' && x.agent === 'gold')).toMatchObject({ outcome: 'solved' });
    });

    it('carries a pass\'s spent budget across a resume: a resumed pass gets only what it had left', async () => {
      const suite = await suiteWith('  agentBudget: { totalSec: 3, scope: replay }\n');
      const lock = await readFile(path.join(suite, 'bakeoff.lock.json'), 'utf8');
      const out = await tempDir();
      const slow = ['run', suite, '--agent', 'command:sleep 30', '--runs', '1', '--concurrency', '1', '--out', out, '--json'];
      await admitOnly(suite, ['add']);
      expect((await bakeoff(slow)).exitCode).toBe(0);
      await writeFile(path.join(suite, 'bakeoff.lock.json'), lock);
      expect((await bakeoff(slow)).exitCode).toBe(0);
      const { runs } = await report(out);
      expect(runs.find((x) => x.task === 'add')!.agentSec).toBeGreaterThan(2.5);
      // the 3 s went to add before the "kill": py-add starts with nothing left
      expect(runs.find((x) => x.task === 'py-add')).toMatchObject({ outcome: 'failed', failReason: 'session-timeout', agentSec: 0, outcomeDetail: 'order 1: the agent time budget was used up before it started' });
    });

    it('is refused with scope run, naming the field', async () => {
      const suite = await copySuite(path.join(FIXTURES, 'suites/tiny'));
      const file = path.join(suite, 'suite.yaml');
      await writeFile(file, (await readFile(file, 'utf8')) + '  agentBudget: { totalSec: 60, scope: run, stopOnError: true }\n');
      const r = await bakeoff(['validate', suite]);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toMatch(/controls\.agentBudget\.stopOnError/);
      expect(r.stderr).toMatch(/needs scope "replay"/);
    });
  });
});
