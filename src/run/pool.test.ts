import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { runPool } from './pool.js';

describe('runPool', () => {
  it('runs every item with at most `concurrency` at once', async () => {
    let running = 0;
    let most = 0;
    const seen: number[] = [];
    await runPool([1, 2, 3, 4, 5], 2, async (n) => {
      most = Math.max(most, ++running);
      await sleep(5);
      seen.push(n);
      running--;
    });
    expect(seen.sort()).toEqual([1, 2, 3, 4, 5]);
    expect(most).toBe(2);
  });

  it('starts nothing after an item throws, lets the running ones finish, then throws the first error', async () => {
    const started: number[] = [];
    const finished: number[] = [];
    const pool = runPool([1, 2, 3, 4, 5, 6], 2, async (n) => {
      started.push(n);
      if (n === 1) throw new Error('disk full');
      await sleep(20);
      finished.push(n);
    });
    await expect(pool).rejects.toThrow('disk full');
    expect(started).toEqual([1, 2]);
    expect(finished).toEqual([2]);
  });
});
