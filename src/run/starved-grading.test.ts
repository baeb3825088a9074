import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIsolation, disposeScratch, freshScratchRoot, type Isolation } from '../sandbox/index.js';
import { heldBackIsolation, weighted, type HeldBack } from '../sandbox/held-back.test-support.js';
import { loadSuite, type Task } from '../suite/index.js';
import { baseEnv } from './base-env.js';
import { gradeOrder } from './grade-order.js';
import { prepareTask } from './prepare-task.js';

// Decision 011 in grading: a test run the machine held back from a CPU whose expected tests did
// not all pass is re-run once, weighted, and the re-run counts — a test that times its
// own work must not fail an agent because the machine was busy, and a change that really fails
// fails again. A loaded machine is stood in by a wrapped bwrap sandbox (heldBackIsolation): the
// runs it holds back fail the load-sensitive fixture's timing test and are measured starved.

const FIXTURE = path.resolve(import.meta.dirname, '../../test/fixtures/suites/load-sensitive');
const EXPECTED = {
  failToPass: ['test/math.hidden.test.mjs::adds negative numbers', 'test/math.hidden.test.mjs::adds two numbers'],
  passToPass: ['test/math.hidden.test.mjs::answers within its time budget', 'test/math.test.mjs::adding zero changes nothing'],
};

describe('a graded run the machine held back (decision 011)', () => {
  let task: Task;
  let isolation: Isolation;
  let prepared: string;
  let scratch: string;
  let cacheDir: string;
  let gold: string;
  beforeAll(async () => {
    cacheDir = await mkdtemp(path.join(os.tmpdir(), 'starved-grading-'));
    const suite = await loadSuite(FIXTURE);
    task = suite.tasks[0]!;
    isolation = await createIsolation({ controls: suite.controls, backend: 'bwrap' });
    const ready = await prepareTask({ task, controls: suite.controls, isolation, env: baseEnv(), cacheDir });
    if (!ready.ok) throw new Error(ready.reason);
    prepared = ready.repo;
    scratch = await freshScratchRoot(`starved-grading test ${process.pid}`);
    gold = await readFile(task.orders[0]!.goldPatchPath, 'utf8');
  }, 120_000);
  afterAll(async () => {
    await disposeScratch(scratch);
    await rm(cacheDir, { recursive: true, force: true });
  });

  const grade = (patch: string, name: string, held: (request: Parameters<Isolation['sandbox']['exec']>[0]) => HeldBack) => {
    const loaded = heldBackIsolation(isolation, held);
    const graded = gradeOrder({
      isolation: loaded.isolation,
      preparedRepo: prepared,
      patch,
      task,
      grading: { kind: 'tests', test: task.manifest.test, expected: EXPECTED, hiddenDirs: [task.orders[0]!.hiddenDir] },
      scratchDir: path.join(scratch, name),
      outDir: path.join(scratch, `${name}-out`, 'grade'),
      env: baseEnv(),
      timeoutMs: 60_000,
      outputBytes: 8 * 1024 * 1024,
    });
    return { graded, seen: loaded.seen };
  };
  /** The machine holds back every test run of ordinary weight. */
  const busy = (r: Parameters<Isolation['sandbox']['exec']>[0]): HeldBack => ({ failsTimingTest: !weighted(r), starved: !weighted(r) });

  it('re-runs a correct change that failed a timing test on a starved run, weighted, and solves it; the first run is kept', async () => {
    const { graded, seen } = grade(gold, 'gold', busy);
    const result = await graded;
    if (!result.applied) throw new Error(result.error);
    expect(result.failure).toBeNull();
    expect([result.points, result.maxPoints]).toEqual([4, 4]);
    expect(result.attempts.map((a) => [a.attempt, a.timedOut, a.cpu?.starved])).toEqual([[1, false, true], [2, false, false]]);
    expect(seen.filter(weighted)).toHaveLength(1);
    expect(await readdir(path.join(scratch, 'gold-out'))).toEqual(['grade', 'grade-attempt-1']);
  }, 120_000);

  it('fails a change that really fails after its re-run (never void), and re-runs nothing the machine did not starve', async () => {
    const { graded: wrong } = grade('', 'noop', busy);
    const failed = await wrong;
    if (!failed.applied) throw new Error(failed.error);
    expect(failed.failure?.reason).toBe('tests-failed');
    expect(failed.attempts.map((a) => a.attempt)).toEqual([1, 2]);
    // the same timing failure on a run the machine did not hold back is the change's: no re-run
    const { graded: unheld, seen } = grade(gold, 'unheld', () => ({ failsTimingTest: true, starved: false }));
    const result = await unheld;
    if (!result.applied) throw new Error(result.error);
    expect(result.failure?.reason).toBe('tests-failed');
    expect(result.attempts).toHaveLength(1);
    expect(seen.some(weighted)).toBe(false);
  }, 120_000);
});
