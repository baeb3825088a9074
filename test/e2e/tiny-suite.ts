import { cp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { bakeoff, FIXTURES, tempDir } from './helpers.js';
import { sharedSuite } from './shared-suite.js';

/** test/fixtures/suites/tiny: a JavaScript (node:test) and a Python (pytest) task. */
export const TINY = path.join(FIXTURES, 'suites/tiny');

/**
 * A private copy of the tiny suite, validated once per test run for every file that bakes it as
 * it is (test/e2e/shared-suite.ts): each file used to run the same admission of the same two
 * tasks again. `bakeoff validate` must admit both, with one progress line per task on stderr.
 */
export async function validatedTiny(): Promise<string> {
  return sharedSuite('tiny', async (dir) => {
    await cp(TINY, dir, { recursive: true });
    await rm(path.join(dir, 'bakeoff.lock.json'), { force: true });
    const v = await bakeoff(['validate', dir]);
    if (v.exitCode !== 0) throw new Error(`validate ${dir} failed (${v.exitCode}):\n${v.stdout}\n${v.stderr}`);
    // off a terminal, validate prints one line per finished task on stderr, counted against the total
    // (the two tasks finish in either order — a kept admission ends at once — so the counts and the verdicts are compared apart)
    const lines = v.stderr.split('\n').filter((l) => l.startsWith('task ')).map((l) => /^task (\d+\/\d+) (.*?)(?: in \d+:\d\d)?$/.exec(l));
    const counts = lines.map((m) => m?.[1]).sort().join(', ');
    const verdicts = lines.map((m) => m?.[2]).sort().join(', ');
    if (counts !== '1/2, 2/2' || verdicts !== 'add: admitted, py-add: admitted') {
      throw new Error(`validate ${dir}: expected the progress lines "task 1/2 …" and "task 2/2 …" admitting add and py-add on stderr, received:\n${v.stderr}`);
    }
  }, path.join(await tempDir('bakeoff-tiny-'), 'tiny'));
}

/**
 * The tiny suite's JavaScript task alone, with a session wall clock of `wallClockSec`,
 * validated once per test run and wall clock (the real-agent tests bake one task with every harness).
 */
export async function validatedOneTask(wallClockSec: number): Promise<string> {
  return sharedSuite(`one-task-${wallClockSec}`, async (dir) => {
    await cp(TINY, dir, { recursive: true });
    await rm(path.join(dir, 'bakeoff.lock.json'), { force: true });
    await rm(path.join(dir, 'tasks/py-add'), { recursive: true });
    const file = path.join(dir, 'suite.yaml');
    const yaml = await readFile(file, 'utf8');
    if (!yaml.includes('sessionWallClockSec: 60')) throw new Error(`${file}: expected sessionWallClockSec: 60 to change`);
    await writeFile(file, yaml.replace('sessionWallClockSec: 60', `sessionWallClockSec: ${wallClockSec}`));
    const v = await bakeoff(['validate', dir]);
    if (v.exitCode !== 0) throw new Error(`validate ${dir} failed (${v.exitCode}):\n${v.stdout}\n${v.stderr}`);
  }, path.join(await tempDir('bakeoff-one-task-'), 'tiny'));
}
