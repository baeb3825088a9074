import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { copySuite, tempDir } from '../helpers.js';
import { agent, artifacts, bake, dbChecks, hashTree, reportRuns, runOf, TINY, validate } from './iso-helpers.js';

/*
 * What an agent writes stays in its own run: changing a protected path fails the order, its own
 * copy of a hidden test is replaced by the real one at grading, and the prepared repo every
 * workspace is layered on is byte-identical after any number of hostile runs.
 */

describe('protected paths, hidden files and the prepared repo', () => {
  let suite: string;
  let env: Record<string, string>;
  let prepared: string[];
  const before = new Map<string, string>();

  beforeAll(async () => {
    suite = await copySuite(TINY);
    // add: a protected file in the repo (task protectedPaths); py-add: conftest.py, always protected
    await writeFile(path.join(suite, 'tasks/add/repo/src/protected.txt'), 'do not touch\n');
    const taskYaml = path.join(suite, 'tasks/add/task.yaml');
    await writeFile(taskYaml, (await readFile(taskYaml, 'utf8')).replace('protectedPaths: []', 'protectedPaths: ["src/protected.txt"]'));
    // a private cache, so the prepared repos of this suite are exactly the ones under it
    env = { BAKEOFF_CACHE_DIR: await tempDir('bakeoff-iso-cache-') };
    await validate(suite, env);
    const root = path.join(env.BAKEOFF_CACHE_DIR!, 'prepared');
    // prepared repos are named by their tree's hash: the suite's two tasks, add and py-add, have two
    prepared = (await readdir(root)).filter((d) => /^[0-9a-f]+$/.test(d)).map((d) => path.join(root, d, 'repo'));
    expect(prepared.length).toBe(2);
    for (const repo of prepared) before.set(repo, (await hashTree(repo)).digest);
  });

  it('fails a correct fix that also changes a protected path (protected-path-changed), solves gold', async () => {
    const out = await tempDir('bakeoff-iso-protected-');
    const hostile = agent('protected-change.mjs');
    const result = await bake(suite, [hostile, 'gold'], { out, env });
    expect(result.exitCode, result.stderr).toBe(0);
    const runs = await reportRuns(out);
    for (const task of ['add', 'py-add']) {
      expect(runOf(runs, 'gold', task).outcome, `gold on ${task}`).toBe('solved');
      const run = runOf(runs, hostile, task);
      expect(run.outcome, `${task}: ${run.outcomeDetail}`).toBe('failed');
      expect(run.failReason, `${task}: ${run.outcomeDetail}`).toBe('protected-path-changed');
      expect(run.outcomeDetail).toContain(task === 'add' ? 'src/protected.txt' : 'conftest.py');
      // the fix itself was right: every expected test passed, so only the protected-path check failed it
      const checks = dbChecks(out, run.id);
      expect(checks.length).toBe(3);
      expect(checks.every((c) => c.status === 'pass'), JSON.stringify(checks)).toBe(true);
      const { patch } = await artifacts(out, run.id);
      expect(patch).toContain(task === 'add' ? 'src/protected.txt' : 'conftest.py');
    }
  });

  it('grades with the real hidden tests, not the always-pass copies the agent wrote at their paths', async () => {
    const out = await tempDir('bakeoff-iso-hidden-');
    const hostile = agent('hidden-rewrite.mjs');
    const result = await bake(suite, [hostile], { out, env });
    expect(result.exitCode, result.stderr).toBe(0);
    const runs = await reportRuns(out);
    expect(runs.length).toBe(2);
    for (const run of runs) {
      expect(run.outcome, `${run.task}: ${run.outcomeDetail}`).toBe('failed');
      // tests-failed today; protected-path-changed once hidden paths are protected as
      // docs/suite-format.md says they are. Either way the real hidden tests must have run:
      expect(['tests-failed', 'protected-path-changed'], `${run.task}: ${run.outcomeDetail}`).toContain(run.failReason);
      // the agent's change does replace the hidden test file...
      const { patch } = await artifacts(out, run.id);
      expect(patch).toContain(run.task === 'add' ? 'test/math.hidden.test.mjs' : 'tests/test_calc_hidden.py');
      // ...but the tests that ran were the real ones: every fail-to-pass test failed (the bug is
      // still there); the agent's copies, with the same names, would have passed
      const checks = dbChecks(out, run.id);
      const f2p = checks.filter((c) => c.expected === 'fail-to-pass');
      expect(f2p.length).toBe(2);
      expect(f2p.every((c) => c.status === 'fail'), JSON.stringify(checks)).toBe(true);
    }
  });

  it('leaves the prepared repos byte-identical after hostile runs (vandal, protected, hidden rewrite)', async () => {
    const out = await tempDir('bakeoff-iso-vandal-');
    const vandal = agent('workspace-vandal.mjs');
    const result = await bake(suite, [vandal, 'gold'], { out, env });
    expect(result.exitCode, result.stderr).toBe(0);
    const runs = await reportRuns(out);
    for (const task of ['add', 'py-add']) {
      const run = runOf(runs, vandal, task);
      expect(run.outcome, `${task}: ${run.outcomeDetail}`).toBe('failed');
      // it did get to vandalise its workspace (tracked files changed, renamed, deleted)
      const { log } = await artifacts(out, run.id);
      expect(log).toContain('workspace-vandal: delete everything ok');
      expect(log).toMatch(/workspace-vandal: append \S+ ok/);
      // and the next run of the task, in the same bake, starts from the intact repo
      expect(runOf(runs, 'gold', task).outcome, `gold on ${task}`).toBe('solved');
    }
    for (const repo of prepared) {
      const after = await hashTree(repo);
      expect(after.entries).toBeGreaterThan(5);
      expect(after.digest, `${repo} changed`).toBe(before.get(repo));
    }
  });
});
