import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { prepareRepo, type PrepareOptions } from './prepare-repo.js';
import { createProcessSandbox } from './process-sandbox.js';

/*
 * Repos are prepared once per repo tree and setup (a task's repoHash), not once per task: the
 * SWE-bench instances of one commit share one. Tasks asked for at once by one process (validate
 * and run prepare a suite's tasks concurrently) must share one preparation — the setup runs once
 * and no two preparations race for one temp folder (the EEXIST/ENOTEMPTY of stop 40's full run).
 * The setup runs in the real process sandbox (its own pid namespace: bwrap, hence the e2e tier).
 */

const roots: string[] = [];
afterEach(async () => {
  await Promise.all(roots.splice(0).map((r) => rm(r, { recursive: true, force: true })));
});

async function fixture(): Promise<{ options: (taskId: string, taskHash: string) => PrepareOptions; setupRuns: () => Promise<number>; cacheDir: string }> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-prepare-'));
  roots.push(root);
  const repoDir = path.join(root, 'repo');
  const cacheDir = path.join(root, 'cache');
  const counter = path.join(root, 'setup-runs');
  await mkdir(repoDir, { recursive: true });
  await writeFile(path.join(repoDir, 'index.js'), 'export const x = 1;\n');
  await writeFile(counter, '');
  // the callers below all start in one tick, so each arrives while the first preparation runs
  const setup = `echo ran >> '${counter}' && echo built > built.txt`;
  const sandbox = createProcessSandbox();
  return {
    cacheDir,
    options: (taskId, taskHash) => ({ taskId, taskHash, repoDir, setup, cacheDir, sandbox, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, timeoutMs: 60_000, owner: null }),
    setupRuns: async () => (await readFile(counter, 'utf8')).split('\n').filter(Boolean).length,
  };
}

describe('prepareRepo', () => {
  it('tasks of one tree asked for at once share one preparation: one setup, one folder, no temp left', async () => {
    const f = await fixture();
    const results = await Promise.all(['a', 'b', 'c', 'd'].map((id) => prepareRepo(f.options(id, 'tree-1'))));
    expect(await f.setupRuns()).toBe(1);
    const ok = results.map((r) => (r.ok ? r : expect.fail(`not prepared: ${r.reason}`)));
    expect(new Set(ok.map((r) => r.repo)).size).toBe(1);
    expect(ok.filter((r) => !r.cached)).toHaveLength(1);
    expect(await readFile(path.join(ok[0]!.repo, 'built.txt'), 'utf8')).toBe('built\n');
    expect((await readdir(path.join(f.cacheDir, 'prepared'))).filter((n) => n.includes('.tmp-'))).toEqual([]);
    // asked again later: the finished folder, no setup
    const again = await prepareRepo(f.options('e', 'tree-1'));
    expect(again).toMatchObject({ ok: true, cached: true, repo: ok[0]!.repo });
    expect(await f.setupRuns()).toBe(1);
  }, 60_000);

  it('tasks of different trees asked for at once each get their own preparation', async () => {
    const f = await fixture();
    const [one, two] = await Promise.all([prepareRepo(f.options('a', 'tree-1')), prepareRepo(f.options('b', 'tree-2'))]);
    expect(await f.setupRuns()).toBe(2);
    expect(one).toMatchObject({ ok: true, cached: false });
    expect(two).toMatchObject({ ok: true, cached: false });
    expect(one.ok && two.ok && one.repo !== two.repo).toBe(true);
  }, 60_000);
});
