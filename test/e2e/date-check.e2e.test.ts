import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildSleepFix, clockSafety, type ClockSafety } from '../../src/grade/index.js';
import { bakeoff, copySuite, FIXTURES } from './helpers.js';

type Verdict = { id: string; admitted: boolean; reason?: string; notes: string[] };
type LockEntry = { admitted: boolean; reason?: string; clockNotMoved?: string; orders?: { failToPass: string[]; passToPass: string[] }[] };

// The date check of admission (a gold run with the clock moved +7y and TZ=Pacific/Kiritimati)
// on tasks whose tests sleep in each supported runtime, and on tasks that really depend on the
// date or the time zone (test/fixtures/suites/date-check).
describe('the date check never rejects a task for sleeping, and still rejects one bound to the date', () => {
  let verdicts: Map<string, Verdict>;
  let lock: Record<string, LockEntry>;
  let tasksMd: string;
  let python: ClockSafety;

  beforeAll(async () => {
    const suite = await copySuite(path.join(FIXTURES, 'suites/date-check'));
    const result = await bakeoff(['validate', suite, '--json']);
    expect(result.exitCode, result.stderr).toBe(1);
    verdicts = new Map((JSON.parse(result.stdout) as { tasks: Verdict[] }).tasks.map((t) => [t.id, t]));
    lock = (JSON.parse(await readFile(path.join(suite, 'bakeoff.lock.json'), 'utf8')) as { tasks: Record<string, LockEntry> }).tasks;
    tasksMd = await readFile(path.join(suite, 'TASKS.md'), 'utf8');
    python = await clockSafety('python', { offset: '+7y', path: process.env.PATH ?? '', sleepFix: await buildSleepFix() });
  }, 600_000);

  const passing = (id: string): string[] => lock[id]!.orders!.flatMap((o) => [...o.failToPass, ...o.passToPass]);

  it('admits a Python task whose tests call time.sleep, wait on an Event, a Thread.join and a Lock, and await asyncio.sleep', () => {
    expect(verdicts.get('py-sleeps')?.admitted, verdicts.get('py-sleeps')?.reason).toBe(true);
    expect(passing('py-sleeps')).toEqual(
      expect.arrayContaining(['test_sleeps_between_attempts', 'test_event_wait_times_out', 'test_thread_join_with_timeout', 'test_lock_acquire_times_out', 'test_asyncio_sleep'].map((t) => `tests/test_backoff_hidden.py::${t}`)),
    );
  });

  it('admits a Node task whose tests wait on a timer and on Atomics.wait, and a Rust task whose tests sleep and wait on a channel and a condvar, with the clock moved', () => {
    for (const id of ['js-sleeps', 'rs-sleeps']) {
      expect(verdicts.get(id)?.admitted, verdicts.get(id)?.reason).toBe(true);
      expect(lock[id]).not.toHaveProperty('clockNotMoved');
    }
    expect(passing('js-sleeps')).toEqual(expect.arrayContaining(['test/pad.hidden.test.mjs::a timer fires after its delay', 'test/pad.hidden.test.mjs::Atomics.wait times out']));
    expect(passing('rs-sleeps').filter((id) => /sleeps_between_attempts|wait_times_out/.test(id))).toHaveLength(3);
  });

  it('rejects a task that depends on the date alone: the clock really moves', () => {
    expect(verdicts.get('js-date')?.admitted).toBe(false);
    expect(verdicts.get('js-date')?.reason).toBe('depends on the date or time zone: test/pad.hidden.test.mjs::stamps a year before 2030 change under TZ=Pacific/Kiritimati with the clock moved +7y');
  });

  it('rejects a Python task that depends on the time zone, whether or not the clock could move for Python', () => {
    expect(verdicts.get('py-zone')?.admitted).toBe(false);
    expect(verdicts.get('py-zone')?.reason).toMatch(/^depends on the (date or )?time zone: tests\/test_backoff_hidden\.py::test_local_time_is_utc change under TZ=Pacific\/Kiritimati/);
  });

  it("moves the clock for Python where its sleeps work under it (bakeoff's sleep fix built, or a libfaketime from 0.9.11), and otherwise says in the lock, TASKS.md and validate's notes that only the time zone moved", () => {
    if (python.safe) {
      expect(verdicts.get('py-date')?.admitted).toBe(false);
      expect(verdicts.get('py-date')?.reason).toMatch(/^depends on the date or time zone: tests\/test_backoff_hidden\.py::test_before_2030 change/);
      expect(lock['py-sleeps']).not.toHaveProperty('clockNotMoved');
      return;
    }
    // libfaketime 0.9.10 and no C compiler: a Python task bound to the date alone cannot be told from a sound one here, and the verdict says so
    for (const id of ['py-date', 'py-sleeps']) {
      expect(verdicts.get(id)?.admitted, verdicts.get(id)?.reason).toBe(true);
      expect(lock[id]?.clockNotMoved).toBe(python.why);
      expect(verdicts.get(id)?.notes).toContain(`date check: only the time zone moved (TZ=Pacific/Kiritimati), not the clock: ${python.why}`);
      expect(tasksMd).toMatch(new RegExp(`^\\| ${id} \\|.*\\| admitted \\(date check moved the time zone only: ${python.why.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\) \\|$`, 'm'));
    }
  });
});
