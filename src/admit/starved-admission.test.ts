import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InfraError } from '../errors.js';
import { baseEnv, prepareTask } from '../run/index.js';
import { createIsolation, disposeScratch, freshScratchRoot, type Isolation } from '../sandbox/index.js';
import { heldBackIsolation, weighted } from '../sandbox/held-back.test-support.js';
import { loadSuite, type Task } from '../suite/index.js';
import { admitTask, type AdmitResult } from './admit-task.js';

// Decision 011 in admission: a rejection that rests on a test run the machine held back from a
// CPU is checked again, alone and weighted, and that check decides. A loaded machine is stood in
// by a wrapped sandbox (a real bwrap sandbox underneath): it marks the runs it "holds back" —
// HELD_BACK=1 in their environment, which fails the fixture's timing test as a real back-off or
// thread-join test fails at load 50, and their measured figures starved.

const FIXTURE = path.resolve(import.meta.dirname, '../../test/fixtures/suites/load-sensitive');

describe('an admission the machine held back (decision 011)', () => {
  let task: Task;
  let isolation: Isolation;
  let prepared: string;
  let scratch: string;
  let testTimeoutMs: number;
  let cacheDir: string;
  beforeAll(async () => {
    cacheDir = await mkdtemp(path.join(os.tmpdir(), 'starved-admission-'));
    const suite = await loadSuite(FIXTURE);
    task = suite.tasks[0]!;
    testTimeoutMs = suite.controls.testWallClockSec * 1000;
    isolation = await createIsolation({ controls: suite.controls, backend: 'bwrap' });
    const ready = await prepareTask({ task, controls: suite.controls, isolation, env: baseEnv(), cacheDir });
    if (!ready.ok) throw new Error(ready.reason);
    prepared = ready.repo;
    scratch = await freshScratchRoot(`starved-admission test ${process.pid}`);
  }, 120_000);
  afterAll(async () => {
    await disposeScratch(scratch);
    await rm(cacheDir, { recursive: true, force: true });
  });

  const admit = (isolation: Isolation, name: string) =>
    admitTask({ task, preparedRepo: prepared, isolation, env: baseEnv(), testTimeoutMs, outputBytes: 8 * 1024 * 1024, scratchDir: path.join(scratch, name) });

  const reasonOf = (r: AdmitResult): string | undefined => (r.admitted ? undefined : r.reason);

  it('re-checks a rejection resting on starved runs alone with its sandboxes weighted, and admits the task as a quiet machine does', async () => {
    const quiet = await admit(heldBackIsolation(isolation, () => ({ failsTimingTest: false, starved: false })).isolation, 'quiet');
    expect(quiet.admitted, reasonOf(quiet)).toBe(true);
    // the machine holds back every run of ordinary weight: the timing test fails on the gold runs
    const busy = heldBackIsolation(isolation, (r) => ({ failsTimingTest: !weighted(r), starved: !weighted(r) }));
    const result = await admit(busy.isolation, 'busy');
    expect(result.admitted, reasonOf(result)).toBe(true);
    expect({ ...result, stageLogs: undefined, testSec: 0 }).toEqual({ ...quiet, stageLogs: undefined, testSec: 0 });
    // the first admission stopped at its rejection; the whole order was admitted again, every run weighted
    const firstWeighted = busy.seen.findIndex(weighted);
    expect(firstWeighted).toBeGreaterThan(0);
    expect(busy.seen.slice(firstWeighted).every(weighted)).toBe(true);
  }, 180_000);

  it('records no verdict when the machine holds the re-check back as well: an InfraError saying so', async () => {
    const busy = heldBackIsolation(isolation, () => ({ failsTimingTest: true, starved: true }));
    const attempt = admit(busy.isolation, 'starved-again');
    await expect(attempt).rejects.toThrow(InfraError);
    await expect(attempt).rejects.toThrow(
      /^task timed-add: the gold patch does not make every test pass: test\/math\.hidden\.test\.mjs::answers within its time budget.* — but the machine held a test run of it back from a CPU, and again when it was checked alone: validate again when the machine is less busy$/,
    );
    expect(busy.seen.some(weighted)).toBe(true);
  }, 180_000);

  it('rejects at once, re-checking nothing, when no run it rests on was held back', async () => {
    const failing = heldBackIsolation(isolation, () => ({ failsTimingTest: true, starved: false }));
    const result = await admit(failing.isolation, 'not-starved');
    expect(result.admitted).toBe(false);
    expect(reasonOf(result)).toMatch(/^the gold patch does not make every test pass: test\/math\.hidden\.test\.mjs::answers within its time budget/);
    expect(failing.seen.some(weighted)).toBe(false);
  }, 180_000);
});
