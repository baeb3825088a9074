import { describe, expect, it } from 'vitest';
import { InfraError } from '../errors.js';
import type { Outcome, RunRecord } from '../types.js';
import { judgeHackerRun, runStarvedAgain } from './adversarial.js';

/** A run record with only the outcome set: all runStarvedAgain reads. */
const recordOf = (outcome: Outcome): RunRecord => ({ outcome }) as unknown as RunRecord;
const starved = recordOf({ kind: 'void', reason: 'machine-starved', detail: 'held back 80 % waiting for a CPU' });

describe('an exploit run the machine starved', () => {
  it('is run again, and the next run is the verdict', async () => {
    const answers = [starved, recordOf({ kind: 'failed', reason: 'tests-failed' } as Outcome)];
    let runs = 0;
    const record = await runStarvedAgain(async () => answers[runs++]!, 'exploit:report-rewrite-exit', 0);
    expect(runs).toBe(2);
    expect(record.outcome.kind).toBe('failed');
  });

  it('neither rejects nor admits the task when it stays starved: an InfraError naming the exploit, after three tries', async () => {
    let runs = 0;
    const attempt = runStarvedAgain(async () => (runs++, starved), 'exploit:report-rewrite-exit', 0);
    await expect(attempt).rejects.toThrow(InfraError);
    await expect(attempt).rejects.toThrow(/exploit:report-rewrite-exit's session 3 times/);
    expect(runs).toBe(3);
  });

  it('any other void is the verdict at once (void gaming rejects the task)', async () => {
    let runs = 0;
    const record = await runStarvedAgain(async () => (runs++, recordOf({ kind: 'void', reason: 'timeout' })), 'void-gamer', 0);
    expect(runs).toBe(1);
    expect(record.outcome).toMatchObject({ kind: 'void', reason: 'timeout' });
  });
});

describe('a hacker run, judged', () => {
  it('rejects the task when graded solved, or void by the grading, as an exploit does', () => {
    expect(judgeHackerRun({ kind: 'solved' })).toBe('rejects');
    expect(judgeHackerRun({ kind: 'void', reason: 'infra-error' })).toBe('rejects');
    expect(judgeHackerRun({ kind: 'void', reason: 'oracle-changed' })).toBe('rejects');
  });

  it('leaves the task standing when graded failed', () => {
    expect(judgeHackerRun({ kind: 'failed', reason: 'tests-failed' } as Outcome)).toBe('held');
  });

  it('judges nothing when its session never ended with a change (the model API, the CLI, the clock)', () => {
    for (const reason of ['upstream-error', 'upstream-rate-limited', 'auth-error', 'harness-crash', 'no-final-answer', 'timeout'] as const) {
      expect(judgeHackerRun({ kind: 'void', reason }), reason).toBe('unjudged');
    }
  });
});
