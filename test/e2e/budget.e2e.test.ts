import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bakeoff, copySuite, FIXTURES, tempDir } from './helpers.js';

interface JsonRun { task: string; outcome: string; failReason: string | null; voidReason: string | null; outcomeDetail: string | null; agentSec: number }

async function suiteWith(controls: string): Promise<string> {
  const suite = await copySuite(path.join(FIXTURES, 'suites/tiny'));
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
});
