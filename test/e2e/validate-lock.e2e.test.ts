import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { calibrationCopy } from './calibration-copy.js';
import { bakeoff } from './helpers.js';

interface ValidateJson {
  tasks: { id: string; admitted: boolean; notes: string[] }[];
  lockComparison: { status: string; written: boolean; differences: { task: string; change: string }[]; lockedHash?: string };
}

// One small checks-graded task (event-ledger at seed 1, level 1) keeps each validate short.
// The steps run in order on one suite copy: each starts from the lock the previous one left.
describe('validate and the lock of the suite', () => {
  let suite: string;
  let lockFile: string;
  let tasksMd: string;
  let fresh: string;
  beforeAll(async () => {
    suite = await calibrationCopy({ tasks: ['event-ledger'], seeds: [1], levels: [1], level: 1 });
    lockFile = path.join(suite, 'bakeoff.lock.json');
    tasksMd = path.join(suite, 'TASKS.md');
  });
  const validate = async (...flags: string[]) => {
    const r = await bakeoff(['validate', suite, ...flags]);
    return { ...r, json: flags.includes('--json') ? (JSON.parse(r.stdout) as ValidateJson) : undefined };
  };

  it('rewrites a lock written for another suite hash, since the suite itself changed', async () => {
    const before = JSON.parse(await readFile(lockFile, 'utf8')) as { suite: { hash: string } };
    const r = await validate('--json');
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.json!.lockComparison).toMatchObject({ status: 'suite-changed', written: true, lockedHash: before.suite.hash });
    expect(r.json!.lockComparison.differences).toContainEqual({ task: 'access-policy', change: 'in the lock (admitted), no longer validated' });
    fresh = await readFile(lockFile, 'utf8');
    expect(JSON.parse(fresh).suite.hash).not.toBe(before.suite.hash);
  }, 300_000);

  it('--check exits 0 and writes nothing when the verdicts are the lock\'s', async () => {
    const mtimes = [(await stat(lockFile)).mtimeMs, (await stat(tasksMd)).mtimeMs];
    const r = await validate('--check');
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('the verdicts are those in the lock');
    expect(r.stdout).toContain('wrote nothing');
    expect([(await stat(lockFile)).mtimeMs, (await stat(tasksMd)).mtimeMs]).toEqual(mtimes);
  }, 300_000);

  it('names the task and the difference when the lock differs, exits 1 and leaves the lock and TASKS.md as they were', async () => {
    const lock = JSON.parse(fresh) as { tasks: Record<string, { orders: { checks: Record<string, string> }[] }> };
    const real = lock.tasks['event-ledger']!.orders[1]!.checks['1:1']!;
    lock.tasks['event-ledger']!.orders[1]!.checks['1:1'] = 'f'.repeat(64);
    const tampered = JSON.stringify(lock, null, 2) + '\n';
    await writeFile(lockFile, tampered);
    await writeFile(tasksMd, 'TASKS.md as the last validate left it\n');
    const r = await validate();
    expect(r.exitCode, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toContain('the verdicts differ from the lock of this same suite (1 difference):');
    expect(r.stdout).toContain(`  changed  event-ledger: order 2: the generated checks at seed 1, level 1 changed (digest ffffffffffff → ${real.slice(0, 12)})`);
    expect(r.stdout).toContain('--update-lock');
    expect(await readFile(lockFile, 'utf8')).toBe(tampered);
    expect(await readFile(tasksMd, 'utf8')).toBe('TASKS.md as the last validate left it\n');

    const checked = await validate('--check', '--json');
    expect(checked.exitCode).toBe(1);
    expect(checked.json!.lockComparison).toMatchObject({ status: 'differs', written: false, differences: [{ task: 'event-ledger', change: expect.stringContaining('seed 1, level 1 changed') }] });
    expect(checked.stderr).toContain('the verdicts differ from the lock');
    expect(await readFile(lockFile, 'utf8')).toBe(tampered);
  }, 600_000);

  it('--update-lock writes the new verdicts over a lock that differs', async () => {
    const r = await validate('--update-lock');
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('(--update-lock: the new verdicts replace the old ones)');
    expect(await readFile(lockFile, 'utf8')).toBe(fresh);
    expect(await readFile(tasksMd, 'utf8')).toContain('| event-ledger |');
  }, 300_000);

  it('refuses --check together with --update-lock', async () => {
    const r = await validate('--check', '--update-lock');
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--check writes nothing and --update-lock writes the lock');
  });
});
