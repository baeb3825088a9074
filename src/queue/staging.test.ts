import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { currentProcess } from '../util/index.js';
import { cleanFleetLeftovers, describeFleetLeftover, findFleetLeftovers, makeStaging } from './staging.js';

describe("what fleet workers leave in a cache folder", () => {
  it("finds a killed worker's staging folder and half-unpacked bundle as stale, a live one's as in use, and removes only the stale", async () => {
    const cache = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-staging-'));
    // a worker that ran and is gone: a real process that exited, so its pid and start tick name nobody now
    const dead = await execa(process.execPath, ['-e', `console.log(JSON.stringify({ pid: process.pid, startTicks: require('fs').readFileSync('/proc/self/stat','utf8').split(') ')[1].split(' ')[19], bootId: require('fs').readFileSync('/proc/sys/kernel/random/boot_id','utf8').trim(), host: require('os').hostname() }))`]);
    const owner = JSON.parse(dead.stdout) as { pid: number };
    const killed = path.join(cache, 'fleet-staging', `w1-${owner.pid}-1`);
    await mkdir(path.join(killed, 'artifacts'), { recursive: true });
    await writeFile(`${killed}.owner`, dead.stdout);
    const unpacking = path.join(cache, 'fleet-bundles', `${'a'.repeat(64)}-${'b'.repeat(16)}.tmp-${owner.pid}-1700000000000`);
    await mkdir(unpacking, { recursive: true });
    const live = await makeStaging(cache, 'w2');

    const found = await findFleetLeftovers(cache);
    expect(found.map((l) => [path.relative(cache, l.path), l.what, l.owner])).toEqual(
      expect.arrayContaining([
        [path.relative(cache, killed), 'staging', 'gone'],
        [path.relative(cache, live.dir), 'staging', 'alive'],
        [path.relative(cache, unpacking), 'unpacking', 'gone'],
      ]),
    );
    expect(found).toHaveLength(3);
    expect(describeFleetLeftover(found.find((l) => l.path === killed)!)).toBe(`${killed} (a fleet worker's staging folder; owner pid ${owner.pid}, gone)`);
    expect(describeFleetLeftover(found.find((l) => l.path === live.dir)!)).toBe(`${live.dir} (a fleet worker's staging folder; owner pid ${currentProcess().pid}, running)`);

    const removed = await cleanFleetLeftovers(found);
    expect(removed.map((l) => l.path).sort()).toEqual([killed, unpacking].sort());
    expect([existsSync(killed), existsSync(`${killed}.owner`), existsSync(unpacking), existsSync(live.dir)]).toEqual([false, false, false, true]);
    await live.done();
    expect(existsSync(live.dir)).toBe(false);
  });
});
