import { execFileSync } from 'node:child_process';
import { cp, readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, gradeOrder, prepareTask } from '../../src/run/index.js';
import { createIsolation, disposeScratch, freshScratchRoot, type Isolation } from '../../src/sandbox/index.js';
import { loadSuite, type Task } from '../../src/suite/index.js';
import { loadAverage, startBusyLoops, type BusyLoops } from '../busy-machine.js';
import { FIXTURES, tempDir } from './helpers.js';

// Decision 011's re-run rule against hostile changes, on a busy machine (six busy loops, each in
// a session of its own): the changes two `command:` agents make (test/fixtures/machine-load/)
// graded through `gradeOrder`, the code path of a bake and of verify, with a 10 s test clock.
// A change whose tests spin eight threads to look starved got the CPU the machine gave it: it is
// re-run once, alone with a longer clock, and then fails test-timeout — never void. A change whose
// tests block fails test-timeout too (re-run only when its start was held back). The gold, which
// the same load may push past the short clock, is saved by the re-run.

const TIMEOUT_MS = 10_000;
const AGENTS = path.join(FIXTURES, 'machine-load');

describe('a test run that times out on a busy machine (decision 011)', () => {
  let task: Task;
  let isolation: Isolation;
  let prepared: string;
  let scratch: string;
  let loops: BusyLoops | null = null;
  beforeAll(async () => {
    const suite = await loadSuite(path.join(FIXTURES, 'suites/machine-load'));
    task = suite.tasks[0]!;
    isolation = await createIsolation({ controls: suite.controls, backend: 'bwrap' });
    const ready = await prepareTask({ task, controls: suite.controls, isolation, env: baseEnv(), cacheDir: await tempDir() });
    if (!ready.ok) throw new Error(ready.reason);
    prepared = ready.repo;
    scratch = await freshScratchRoot(`starved-rerun test ${process.pid}`);
  }, 300_000);
  afterAll(async () => {
    await loops?.stop();
    await disposeScratch(scratch);
  });

  /** The change a `command:` agent script makes to the task's repo, as a patch. */
  async function changeOf(script: string): Promise<string> {
    const dir = await tempDir();
    await cp(task.repoDir, dir, { recursive: true });
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: dir, encoding: 'utf8' });
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'base');
    execFileSync(process.execPath, [path.join(AGENTS, script)], { cwd: dir });
    return git('diff');
  }

  const grade = (patch: string, name: string) =>
    gradeOrder({
      isolation,
      preparedRepo: prepared,
      patch,
      task,
      grading: {
        kind: 'tests',
        test: task.manifest.test,
        expected: { failToPass: ['test/math.hidden.test.mjs::adds negative numbers', 'test/math.hidden.test.mjs::adds two numbers'], passToPass: ['test/math.test.mjs::adding zero changes nothing'] },
        hiddenDirs: [task.orders[0]!.hiddenDir],
      },
      scratchDir: path.join(scratch, name),
      outDir: path.join(scratch, `${name}-out`, 'grade'),
      env: baseEnv(),
      timeoutMs: TIMEOUT_MS,
      outputBytes: 8 * 1024 * 1024,
    });

  it('re-runs a spinning change once, alone with a longer clock, then fails it test-timeout; a blocking change fails test-timeout; the gold passes', async () => {
    const [spin, sleep] = [await changeOf('spin-change.mjs'), await changeOf('sleep-change.mjs')];
    const gold = execFileSync('cat', [task.orders[0]!.goldPatchPath], { encoding: 'utf8' });
    loops = await startBusyLoops(6, { ownSessions: true, maxSec: 600 });
    const [spun, slept, solved] = await Promise.all([grade(spin, 'spin'), grade(sleep, 'sleep'), grade(gold, 'gold')]);
    const load = await loadAverage();
    await loops.stop();
    loops = null;
    if (!spun.applied || !slept.applied || !solved.applied) throw new Error('a change did not apply');

    expect(spun.failure?.reason).toBe('test-timeout');
    expect(spun.attempts.map((a) => [a.attempt, a.timedOut])).toEqual([[1, true], [2, true]]);
    expect(spun.attempts[0]!.cpu!.starved).toBe(true);
    expect(spun.attempts[1]!.limitMs).toBeGreaterThanOrEqual(2 * TIMEOUT_MS);
    expect(spun.failure?.detail).toMatch(/^the test command timed out after 10 s while the machine held it back from a CPU, and again when re-run alone with a \d+ s clock$/);
    // the first run's output is kept beside the re-run's
    expect(await readdir(path.join(scratch, 'spin-out'))).toEqual(['grade', 'grade-attempt-1']);

    expect(slept.failure?.reason).toBe('test-timeout');
    expect(slept.attempts.every((a) => a.timedOut)).toBe(true);
    expect(slept.attempts.length === 1 || slept.attempts[0]!.cpu!.starved).toBe(true);

    expect(solved.failure).toBeNull();
    expect([solved.points, solved.maxPoints]).toEqual([3, 3]);
    expect(solved.attempts.at(-1)!.timedOut).toBe(false);
    console.log(
      `starved-rerun: load ${load.toFixed(1)}; spinning change ${spun.attempts.map((a) => `${Math.round(a.cpu!.wallMs / 1000)} s (held ${Math.round((100 * a.cpu!.heldMs) / a.cpu!.wallMs)} %)`).join(' then ')}; ` +
        `blocking change ${slept.attempts.length} run(s); gold ${solved.attempts.length} run(s)`,
    );
  }, 600_000);
});
