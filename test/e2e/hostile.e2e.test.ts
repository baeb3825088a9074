import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { bakeoff, FIXTURES, tempDir } from './helpers.js';
import { validatedTiny } from './tiny-suite.js';

const HOSTILE = path.join(FIXTURES, 'hostile');

interface JsonRun {
  task: string;
  agent: string;
  outcome: string;
  failReason: string | null;
  linesAdded: number;
}

const SCRIPTS = ['fake-pass-lines.mjs', 'early-exit.mjs', 'reporter-rewrite.mjs', 'conftest-rewrite.mjs', 'pytest-plugin-shadow.mjs', 'assert-neuter.mjs'];
const agentOf = (script: string): string => `command:node ${path.join(HOSTILE, script)}`;

/*
 * Every agent in one bake (three runs at a time) instead of a bake per agent: the runs are the
 * same (each agent on every task of the tiny suite), each graded on its own; the agents' runs are
 * told apart by agent id.
 */
describe('command agents that fake passing output', () => {
  let runs: JsonRun[];
  const runsOf = (agent: string): JsonRun[] => runs.filter((run) => run.agent === agent);
  beforeAll(async () => {
    const suite = await validatedTiny();
    const out = await tempDir();
    const r = await bakeoff(['run', suite, '--agent', 'gold', ...SCRIPTS.flatMap((s) => ['--agent', agentOf(s)]), '--runs', '1', '--concurrency', '3', '--out', out, '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    runs = (JSON.parse((await bakeoff(['report', out, '--format', 'json'])).stdout) as { runs: JsonRun[] }).runs;
  }, 600_000);

  it('leaves the honest gold agent solved on the same suite (the control)', () => {
    const gold = runsOf('gold');
    expect(gold.length).toBeGreaterThan(0);
    expect(gold.every((run) => run.outcome === 'solved')).toBe(true);
  });

  it.each(SCRIPTS)('grades %s failed on every task', async (script) => {
    expect(await readdir(HOSTILE)).toContain(script);
    const mine = runsOf(agentOf(script));
    expect(mine.length).toBe(runsOf('gold').length);
    for (const run of mine) expect(run.outcome, `${script} on ${run.task}`).toBe('failed');
    // sabotage of the test framework at import is caught by bakeoff's tripwire tests, on every task
    if (script === 'assert-neuter.mjs') for (const run of mine) expect(run.failReason, run.task).toBe('report-tampered');
    // the agent did change files: the failure is the grader seeing through the fake
    expect(mine.some((run) => run.linesAdded > 0)).toBe(true);
  });
});
