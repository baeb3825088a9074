import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bakeoff, copySuite, FIXTURES } from './helpers.js';

// Issue 33: under load, gold runs cut at their wall clock were rejected as "flaky: the gold runs
// gold-1 and gold-2 disagree … (pass, then missing)". The fixture's second gold run never ends
// (test/fixtures/suites/gold-timeout): its tests are cut at the 15 s test clock (and,
// when a busy machine held that run back, once more at the re-run's longer clock, decision 011).
describe('admission names a timeout a timeout', () => {
  it('rejects a task whose second gold run is cut at its clock for the timeout, with the limit and the run, not as flaky', async () => {
    const suite = await copySuite(path.join(FIXTURES, 'suites/gold-timeout'));
    const result = await bakeoff(['validate', suite, '--json']);
    expect(result.exitCode, result.stderr).toBe(1);
    const [verdict] = (JSON.parse(result.stdout) as { tasks: { id: string; admitted: boolean; reason?: string }[] }).tasks;
    expect(verdict).toMatchObject({ id: 'second-gold-cut', admitted: false });
    expect(verdict!.reason).toMatch(/^the test command timed out after 15 s( while the machine held it back from a CPU, and again when re-run alone with a longer clock)? on the gold-2 run \(controls\.testWallClockSec; see its log\)$/);
    const lock = JSON.parse(await readFile(path.join(suite, 'bakeoff.lock.json'), 'utf8')) as { tasks: Record<string, { reason?: string }> };
    expect(lock.tasks['second-gold-cut']?.reason).toBe(verdict!.reason);
  }, 300_000);
});
