import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSessionSlots, parseQueueUrl, slotsKey } from '../../src/queue/index.js';
import { bakeoff, tempDir } from './helpers.js';
import { spawnBakeoff, startRedis, type Proc, type TestRedis } from './fleet-helpers.js';
import { storedRuns } from './process-helpers.js';
import { validatedTiny } from './tiny-suite.js';

/*
 * `--upstream-concurrency N`: at most N model sessions at once per model API over the whole
 * fleet, held in Redis (Debian's redis-server, loopback). Tested on the slots themselves (many
 * holders at once, a holder that died) and on a bake: two workers of two runs each, a real agent
 * CLI (pi) against bakeoff's scripted model, capped at one session at a time.
 */

describe('fleet-wide session slots', () => {
  let redis: TestRedis;

  beforeAll(async () => {
    redis = await startRedis(path.join(await tempDir('bakeoff-slots-'), 'redis'));
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it('lets at most N holders in at once, and frees the slot of a holder that died within its lease', async () => {
    const slots = await openSessionSlots(parseQueueUrl(redis.url(5)), { note: () => {} });
    let inside = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 8 }, async (_, i) => {
        const release = await slots.acquire('api-a', 2, `h${i}`);
        inside++;
        most = Math.max(most, inside);
        await sleep(150);
        inside--;
        await release();
      }),
    );
    expect(most).toBe(2);

    // a holder gone without releasing (its worker SIGKILLed): its slot lapses, it does not block for ever
    const client = redis.client(5);
    const [seconds, micros] = (await client.time()).map(Number) as [number, number];
    await client.zadd(slotsKey('api-b'), seconds * 1000 + Math.floor(micros / 1000) + 1500, 'dead-holder');
    const t0 = performance.now();
    const release = await slots.acquire('api-b', 1, 'alive');
    const waited = performance.now() - t0;
    expect(waited).toBeGreaterThan(1000);
    expect(waited).toBeLessThan(10_000);
    await release();
    expect(await client.zcard(slotsKey('api-b'))).toBe(0);
    client.disconnect();
    slots.close();
  }, 60_000);

  it('caps a bake on two workers at one model session at a time, and refuses the flag without --queue', async () => {
    const url = redis.url(6);
    const suite = await validatedTiny();
    const local = await bakeoff(['run', suite, '--agent', 'gold', '--upstream-concurrency', '1', '--out', path.join(await tempDir(), 'r')]);
    expect(local.exitCode).toBe(2);
    expect(local.stderr).toContain('--upstream-concurrency: only with --queue');

    const workers: Proc[] = ['s1', 's2'].map((name) => spawnBakeoff(['worker', '--queue', url, '--name', name, '--concurrency', '2']));
    try {
      await Promise.all(workers.map((w) => w.waitFor(/ready/, 60_000)));
      const results = path.join(await tempDir(), 'results');
      const coordinator = spawnBakeoff(['run', suite, '--agent', 'pi:anthropic/claude-sonnet-4-5', '--upstream', 'scripted:gold', '--runs', '2', '--queue', url, '--upstream-concurrency', '1', '--out', results]);
      // watch the slots while the bake runs: never more than one held, and held at all
      const client = redis.client(6);
      const key = slotsKey('scripted:gold');
      let most = 0;
      let sawHeld = false;
      while (coordinator.child.exitCode === null) {
        const held = await client.zcard(key);
        most = Math.max(most, held);
        if (held > 0) sawHeld = true;
        await sleep(20);
      }
      client.disconnect();
      const done = await coordinator.child;
      expect(done.exitCode, coordinator.stderr()).toBe(0);
      expect(sawHeld).toBe(true);
      expect(most).toBe(1);
      const runs = storedRuns(path.join(results, 'bakeoff.db'));
      expect(runs).toHaveLength(4);
      expect(runs.map((r) => r.outcome)).toEqual(['solved', 'solved', 'solved', 'solved']);
      // both workers took runs: the cap held across machines, not just inside one
      const took = workers.map((w) => (w.stderr().match(/bakeoff: start /g) ?? []).length);
      expect(took.every((n) => n >= 1), `runs per worker: ${took.join(', ')}`).toBe(true);
    } finally {
      for (const w of workers) w.child.kill('SIGTERM');
      await Promise.all(workers.map((w) => w.child));
    }
  }, 300_000);
});
