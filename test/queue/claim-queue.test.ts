import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, type TestRedis } from '../e2e/fleet-helpers.js';
import type { Suite } from '../../src/suite/index.js';
import { claimQueue } from '../../src/queue/claim-queue.js';
import { keys, PREFIX, QUEUE, type FleetBake } from '../../src/queue/jobs.js';

/* One coordinator per queue, on Debian's redis-server: the claim's compare-and-set, renewal and re-creation. */

const suite = { id: 'tiny', hash: 'a'.repeat(64) } as Suite;

describe('the coordinator claim', () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await startRedis(path.join(await mkdtemp(path.join(os.tmpdir(), 'bakeoff-claim-')), 'redis'));
  });
  afterAll(() => redis?.stop());

  it('is taken by one coordinator, refused to a second, re-created by its owner when it lapsed, and found by the owner when another took it', async () => {
    const client = redis.client(7);
    const queue = new Queue(QUEUE, { connection: redis.client(7), prefix: PREFIX });
    const url = redis.url(7);
    // another host's coordinator: this host cannot judge its pid
    const first = await claimQueue(client, queue, suite, 'host-a:1', url);
    await expect(claimQueue(client, queue, suite, 'host-b:2', url)).rejects.toThrow(/is being run by another coordinator \(host-a:1, suite tiny, since .*\): one coordinator per queue/);

    // an outage longer than the claim's life: gone, then re-created by its owner, with the same token
    await client.del(keys.bake);
    expect(await first.renew()).toBeNull();
    const held = JSON.parse((await client.get(keys.bake))!) as FleetBake;
    expect(held).toMatchObject({ coordinator: 'host-a:1', claim: first.bake.claim });
    expect(await client.ttl(keys.bake)).toBeGreaterThan(0);
    await expect(claimQueue(client, queue, suite, 'host-b:2', url)).rejects.toThrow(/another coordinator \(host-a:1/);

    // had a second taken the lapsed claim first, the owner's next renewal finds it (and leaves it alone)
    await client.del(keys.bake);
    const second = await claimQueue(client, queue, suite, 'host-b:2', url);
    expect(await first.renew()).toMatchObject({ coordinator: 'host-b:2', claim: second.bake.claim });
    expect(JSON.parse((await client.get(keys.bake))!)).toMatchObject({ coordinator: 'host-b:2' });
    // its release leaves the other's claim; the other's own release keeps the bake's identity without a coordinator
    await first.release();
    expect(JSON.parse((await client.get(keys.bake))!)).toMatchObject({ coordinator: 'host-b:2' });
    await second.release();
    expect(JSON.parse((await client.get(keys.bake))!)).toMatchObject({ coordinator: null, suiteId: 'tiny' });
    await queue.close();
    client.disconnect();
  });
});
