import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bakeoff, copySuite, FIXTURES, tempDir } from './helpers.js';

/** tiny's `add` task alone, with this setup command and a 2 s setup idle limit. */
async function suiteWithSetup(setup: string): Promise<string> {
  const suite = await copySuite(path.join(FIXTURES, 'suites/tiny'));
  await rm(path.join(suite, 'tasks/py-add'), { recursive: true });
  const yaml = path.join(suite, 'suite.yaml');
  await writeFile(yaml, (await readFile(yaml, 'utf8')).replace('setupWallClockSec: 60', 'setupWallClockSec: 60\n  setupIdleSec: 2'));
  const task = path.join(suite, 'tasks/add/task.yaml');
  await writeFile(task, (await readFile(task, 'utf8')).replace('setup: null', `setup: ${JSON.stringify(setup)}`));
  return suite;
}

interface Verdict { id: string; admitted: boolean; reason?: string }

async function validate(suite: string, cache: string): Promise<{ verdict: Verdict; seconds: number }> {
  const started = Date.now();
  const r = await bakeoff(['validate', suite, '--json'], { env: { BAKEOFF_CACHE_DIR: cache } });
  const out = JSON.parse(r.stdout) as { tasks: Verdict[] };
  return { verdict: out.tasks[0]!, seconds: (Date.now() - started) / 1000 };
}

async function leftovers(cache: string): Promise<string[]> {
  return (await readdir(path.join(cache, 'prepared')).catch(() => [] as string[])).filter((n) => n.includes('.tmp-') || !n.includes('.'));
}

describe('task setup', () => {
  it('stops a setup that prints nothing for setupIdleSec, long before its wall clock, and leaves only its log', async () => {
    const cache = await tempDir();
    const suite = await suiteWithSetup('echo fetching packages; sleep 600');
    const { verdict, seconds } = await validate(suite, cache);
    expect(verdict.admitted).toBe(false);
    expect(verdict.reason).toMatch(/setup command printed nothing for 2 s \(controls.setupIdleSec\) and was stopped: fetching packages \(log: .*\.setup-failed\.log\)/);
    expect(seconds).toBeLessThan(40);
    expect(await leftovers(cache)).toEqual([]);
    const log = /\(log: (.*)\)/.exec(verdict.reason!)![1]!;
    expect(await readFile(log, 'utf8')).toContain('fetching packages');
  });

  it('leaves nothing half-made behind when the setup fails, and prepares the task once it is fixed', async () => {
    const cache = await tempDir();
    const failing = await suiteWithSetup('echo broken >&2; exit 7');
    const first = await validate(failing, cache);
    expect(first.verdict.reason).toMatch(/setup command exited with 7: broken/);
    expect(await leftovers(cache)).toEqual([]);
    const fixed = await suiteWithSetup('echo ready');
    const second = await validate(fixed, cache);
    expect(second.verdict.admitted, second.verdict.reason).toBe(true);
  });
});
