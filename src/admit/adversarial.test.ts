import { describe, expect, it } from 'vitest';
import { InfraError } from '../errors.js';
import type { Outcome, RunRecord } from '../types.js';
import { runStarvedAgain } from './adversarial.js';

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
