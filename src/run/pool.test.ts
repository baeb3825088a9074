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

describe('runPool with auto concurrency', () => {
  it('starts the first item at once and another only while the machine has room, measured before each start', async () => {
    let room = false;
    const checks: number[] = [];
    const holds: (string | null)[] = [];
    let running = 0;
    let most = 0;
    const pool = runPool(
      [1, 2, 3],
      'auto',
      async () => {
        most = Math.max(most, ++running);
        await sleep(60);
        running--;
      },
      {
        room: async () => {
          checks.push(running);
          return { room, why: 'no room (test)' };
        },
        recheckMs: 5,
        onHold: (why) => holds.push(why),
      },
    );
    await sleep(30);
    // no room: the second waits while the first runs
    expect(most).toBe(1);
    room = true;
    await pool;
    expect(checks.length).toBeGreaterThan(1);
    expect(holds[0]).toBe('no room (test)');
    expect(holds).toContain(null);
  });

  it('starts nothing new while a quiet hold is held (a starved test run re-run alone)', async () => {
    const { holdQuiet } = await import('../util/index.js');
    const started: number[] = [];
    let release: (() => void) | null = null;
    await runPool([1, 2, 3], 3, async (n) => {
      started.push(n);
      if (n === 1) {
        release = holdQuiet();
        await sleep(40);
        expect(started).toEqual([1]);
        release();
      }
    });
    expect(started).toEqual([1, 2, 3]);
    expect(release).not.toBeNull();
  });
});
