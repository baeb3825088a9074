import { appendFile, readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { bakeoff } from './helpers.js';
import { validatedTiny } from './tiny-suite.js';

interface Lock { suite: { hash: string }; tasks: Record<string, { admitted: boolean; taskHash?: string; orders?: unknown[] }> }

const readLock = async (suite: string): Promise<Lock> => JSON.parse(await readFile(path.join(suite, 'bakeoff.lock.json'), 'utf8')) as Lock;

/** `validate --task`: one task validated again, the others' verdicts kept from the lock. */
describe('bakeoff validate --task', () => {
  let suite: string;

  // a private copy of the tiny suite as validate admitted it, validated once per test run for every file that needs it
  beforeAll(async () => {
    suite = await validatedTiny();
  }, 600_000);

  it('keeps the admissions of an unchanged suite (same task hashes, controls, prepared repos, sandbox, runtimes), and --check holds them to the lock', async () => {
    const before = await readLock(suite);
    const again = await bakeoff(['validate', suite, '--json']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect((JSON.parse(again.stdout) as { keptVerdicts: string[] }).keptVerdicts).toEqual(['add', 'py-add']);
    expect(again.stderr).toContain('every task unchanged since this machine admitted them');
    expect(await readLock(suite)).toEqual(before);
    const check = await bakeoff(['validate', suite, '--check', '--json']);
    expect(check.exitCode, check.stderr).toBe(0);
    expect(JSON.parse(check.stdout)).toMatchObject({ keptVerdicts: ['add', 'py-add'], lockComparison: { status: 'unchanged', written: false } });
  });

  it('validates only the named task after it changed, keeps the other verdict, and updates the lock for the new suite', async () => {
    const before = await readLock(suite);
    await appendFile(path.join(suite, 'tasks/py-add/orders/1/hidden/tests/test_calc_hidden.py'), '\n# the owner adds: negative numbers too\n');
    const r = await bakeoff(['validate', suite, '--task', 'py-add', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    // a hidden file changed, so its admission hash: checked again, not kept
    expect((JSON.parse(r.stdout) as { keptVerdicts: string[] }).keptVerdicts).toEqual([]);
    const after = await readLock(suite);
    expect(after.suite.hash).not.toBe(before.suite.hash);
    expect(after.tasks.add).toEqual(before.tasks.add);
    expect(after.tasks['py-add']?.admitted).toBe(true);
    expect(after.tasks['py-add']?.taskHash).not.toBe(before.tasks['py-add']?.taskHash);
    // a run can use the lock at once, on the task validated again (add's admission was kept from the earlier lock)
    const run = await bakeoff(['run', suite, '--agent', 'gold', '--task', 'py-add', '--runs', '1', '--out', path.join(path.dirname(suite), 'out'), '--json']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ ran: 1 });
    // a prompt is part of the task hash (the lock follows it) but no check reads one: the admission is kept
    await appendFile(path.join(suite, 'tasks/py-add/orders/1/prompt.md'), '\nThe owner adds: negative numbers too.\n');
    const prompted = await bakeoff(['validate', suite, '--task', 'py-add', '--json']);
    expect(prompted.exitCode, prompted.stderr).toBe(0);
    expect((JSON.parse(prompted.stdout) as { keptVerdicts: string[] }).keptVerdicts).toEqual(['py-add']);
    expect((await readLock(suite)).tasks['py-add']?.taskHash).not.toBe(after.tasks['py-add']?.taskHash);
  });

  it('--recheck runs the checks of a task whose admission is kept', async () => {
    // py-add was admitted as it is now by the test above: without --recheck its admission is kept
    const r = await bakeoff(['validate', suite, '--task', 'py-add', '--recheck', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const json = JSON.parse(r.stdout) as { keptVerdicts: string[]; tasks: { id: string; admitted: boolean }[] };
    expect(json.keptVerdicts).toEqual([]);
    expect(json.tasks.find((t) => t.id === 'py-add')?.admitted).toBe(true);
  });

  it('refuses when another task changed too, naming it and what to add', async () => {
    await appendFile(path.join(suite, 'tasks/add/orders/1/prompt.md'), '\nAlso for floats.\n');
    const r = await bakeoff(['validate', suite, '--task', 'py-add']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/--task: add also changed since .*bakeoff\.lock\.json was written \(or is not in it\): add --task add, or validate the whole suite/);
  });

  it('refuses an unknown task id, listing the tasks', async () => {
    const r = await bakeoff(['validate', suite, '--task', 'nope']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/--task: no task "nope" in .* \(tasks: add, py-add\)/);
  });
});
