import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { bakeoff, FIXTURES, tempDir } from './helpers.js';
import { validatedTiny } from './tiny-suite.js';

const HOSTILE = path.join(FIXTURES, 'hostile');

interface JsonRun {
  task: string;
  outcome: string;
  failReason: string | null;
  linesAdded: number;
}

async function runAgent(suite: string, agent: string): Promise<JsonRun[]> {
  const out = await tempDir();
  const r = await bakeoff(['run', suite, '--agent', agent, '--runs', '1', '--out', out, '--json']);
  expect(r.exitCode, r.stderr).toBe(0);
  return (JSON.parse((await bakeoff(['report', out, '--format', 'json'])).stdout) as { runs: JsonRun[] }).runs;
}

describe('command agents that fake passing output', () => {
  let suite: string;
  beforeAll(async () => {
    suite = await validatedTiny();
  });

  it('leaves the honest gold agent solved on the same suite (the control)', async () => {
    const runs = await runAgent(suite, 'gold');
    expect(runs.length).toBeGreaterThan(0);
    expect(runs.every((run) => run.outcome === 'solved')).toBe(true);
  });

  it.each(['fake-pass-lines.mjs', 'early-exit.mjs', 'reporter-rewrite.mjs', 'conftest-rewrite.mjs', 'pytest-plugin-shadow.mjs', 'assert-neuter.mjs'])('grades %s failed on every task', async (script) => {
    expect(await readdir(HOSTILE)).toContain(script);
    const runs = await runAgent(suite, `command:node ${path.join(HOSTILE, script)}`);
    expect(runs.length).toBeGreaterThan(0);
    for (const run of runs) expect(run.outcome, `${script} on ${run.task}`).toBe('failed');
    // sabotage of the test framework at import is caught by bakeoff's tripwire tests, on every task
    if (script === 'assert-neuter.mjs') for (const run of runs) expect(run.failReason, run.task).toBe('report-tampered');
    // the agent did change files: the failure is the grader seeing through the fake
    expect(runs.some((run) => run.linesAdded > 0)).toBe(true);
  });
});
