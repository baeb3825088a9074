import { randomInt } from 'node:crypto';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bakeoff, tempDir } from './helpers.js';
import { attemptsOf, jobsOf, spawnBakeoff, startRedis, until, stopFleet, validatedAdd, type Proc, type TestRedis } from './fleet-helpers.js';
import { processesOf, storedRuns } from './process-helpers.js';

/*
 * Managing a fleet's queue by hand and losing workers: `bakeoff queue drain` and `queue clear`
 * on a bake in progress (Debian's redis-server on a loopback port of its own, append-only
 * persistence on; workers are `bakeoff worker` processes), the coordinator's own words when
 * Redis goes away and comes back, and a run whose worker is lost twice (recorded void, never run
 * a third time).
 */

describe('managing a fleet queue', () => {
  let root: string;
  let redis: TestRedis;
  const running: Proc[] = [];
  const worker = (url: string, name: string): Proc => {
    const proc = spawnBakeoff(['worker', '--queue', url, '--name', name, '--concurrency', '1', '--lease-sec', '5']);
    running.push(proc);
    return proc;
  };

  /** The tiny suite's `add` task, its sessions given 900 s (the drain case holds one with SIGSTOP): validated once per test run. */
  let suite: string;

  beforeAll(async () => {
    root = await tempDir('bakeoff-fleet-queue-');
    redis = await startRedis(path.join(root, 'redis'));
    suite = await validatedAdd();
  }, 300_000);
  afterAll(() => stopFleet(running, redis));

  it('drain takes out the runs nobody started and lets the running one finish; clear empties the queue and bakeoff\'s keys but not the results folder; the coordinator says when Redis went away and came back, and the same command resumes', async () => {
    const url = redis.url(1);
    const results = path.join(root, 'drained');
    // The agent sleeps a few seconds. The run the test looks at stays running because the test
    // holds its sleep with SIGSTOP (the host sees the sandbox's processes) until the
    // queue has been looked at: timing alone (sleeps of 3 s, then 10 s) lost that race on a
    // saturated machine, where ingesting a run, a SIGTERM and each `bakeoff queue` call take
    // seconds each. The second run's sleep is the second sleep process to appear.
    const seconds = `5.${randomInt(100_000_000, 999_999_999)}`;
    const args = ['run', suite, '--agent', `command:sleep ${seconds}`, '--runs', '4', '--queue', url, '--out', results];
    const w = worker(url, 'w-drain');
    await w.waitFor(/ready/, 60_000);
    const first = spawnBakeoff(args);
    const firstSleep = await until('the first run\'s sleep', async () => processesOf('sleep', seconds)[0], 120_000);
    const held = await until('the second run\'s sleep', async () => processesOf('sleep', seconds).find((pid) => pid !== firstSleep), 120_000);
    process.kill(held, 'SIGSTOP');
    // one run stored, the next one running on the only worker (held), two waiting: then the coordinator stops
    await first.waitFor(/run 1\/4 /, 120_000).catch((error: Error) => {
      throw new Error(`${error.message}\nthe worker's stderr:\n${w.stderr()}`);
    });
    expect(w.stderr().match(/bakeoff: start /g)).toHaveLength(2);
    // the coordinator says a run is stored before it removes the run's job: wait for that too
    await until('the stored run\'s job to be removed', async () => ((await jobsOf(url)).completed === 0 ? true : undefined), 30_000);
    first.child.kill('SIGTERM');
    await first.child;
    expect(await jobsOf(url)).toMatchObject({ waiting: 2, active: 1 });

    const drain = await bakeoff(['queue', 'drain', '--queue', url, '--json']);
    expect(drain.exitCode, drain.stderr).toBe(0);
    expect(JSON.parse(drain.stdout)).toEqual({ schemaVersion: 1, action: 'drain', removed: 2 });
    expect(await jobsOf(url)).toEqual({ waiting: 0, active: 1, lost: 0, delayed: 0, completed: 0, failed: 0 });
    process.kill(held, 'SIGCONT');

    // the running run finishes (nobody stores it: no coordinator), and the worker takes nothing else
    await until('the running run to finish', async () => ((await jobsOf(url)).completed === 1 ? true : undefined), 60_000);
    expect(await jobsOf(url)).toEqual({ waiting: 0, active: 0, lost: 0, delayed: 0, completed: 1, failed: 0 });
    expect(w.stderr().match(/bakeoff: start /g)).toHaveLength(2);

    const client = redis.client(1);
    expect(await client.keys('bakeoff:fleet:bundle:*')).toHaveLength(1);
    const clear = await bakeoff(['queue', 'clear', '--queue', url]);
    expect(clear.exitCode, clear.stderr).toBe(0);
    expect(clear.stdout).toBe(
      "cleared the queue: 1 run(s) (queued, running or finished but not stored) and bakeoff's keys removed — but the ledger of attempts already made, counted when their runs are redone; results folders are untouched",
    );
    expect(await jobsOf(url)).toEqual({ waiting: 0, active: 0, lost: 0, delayed: 0, completed: 0, failed: 0 });
    const left = await client.keys('bakeoff:*');
    // the live worker stays listed, BullMQ may keep its queue's bookkeeping, and the attempts made stay in the ledger (with a time to live): nothing else of the bake is left
    expect(left.filter((k) => !/^bakeoff:fleet:(worker|attempts):|^bakeoff:runs:(stalled-check|meta|events|id|marker)$/.test(k))).toEqual([]);
    expect(left.filter((k) => k.startsWith('bakeoff:fleet:worker:'))).toEqual(['bakeoff:fleet:worker:w-drain']);
    for (const k of left.filter((k) => k.startsWith('bakeoff:fleet:attempts:'))) expect(await client.ttl(k)).toBeGreaterThan(0);
    // the command itself says the same (the polls above ask its library function in this process)
    const status = await bakeoff(['queue', 'status', '--queue', url, '--json']);
    expect(status.exitCode, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ bake: null, jobs: { waiting: 0, active: 0, lost: 0, delayed: 0, completed: 0, failed: 0 }, workers: [{ name: 'w-drain' }] });

    // the results folder kept its run, whole
    expect(storedRuns(path.join(results, 'bakeoff.db'))).toHaveLength(1);
    const verify = await bakeoff(['verify', results]);
    expect(verify.exitCode, verify.stdout + verify.stderr).toBe(0);

    client.disconnect();

    // the same command again enqueues what the folder lacks; Redis restarts under it once it runs
    const again = spawnBakeoff([...args, '--json']);
    await w.waitFor(/(start .*){3}/s, 120_000);
    await redis.restart(1500);
    await again.waitFor(/lost the queue's Redis at redis:\/\/127\.0\.0\.1:\d+\/1 \(.*\); waiting for it to come back — nothing recorded is lost/, 30_000);
    await again.waitFor(/the queue's Redis at redis:\/\/127\.0\.0\.1:\d+\/1 is back/, 60_000);
    const done = await again.child;
    expect(done.exitCode, again.stderr()).toBe(0);
    expect(JSON.parse(again.stdout())).toMatchObject({ planned: 4, alreadyDone: 1, ran: 3 });
    const runs = storedRuns(path.join(results, 'bakeoff.db'));
    expect(runs).toHaveLength(4);
    expect(new Set(runs.map((r) => r.id)).size).toBe(4);
    expect(runs.filter((r) => r.outcome === 'void')).toEqual([]);
    w.child.kill('SIGTERM');
    await w.child;
  }, 600_000);

  it('records a run whose worker was lost twice as void, saying so, and never runs it a third time', async () => {
    const url = redis.url(2);
    const results = path.join(root, 'lost-twice');
    const coordinator = spawnBakeoff(['run', suite, '--agent', 'command:sleep 30', '--runs', '1', '--queue', url, '--out', results]);
    const lostOnce = worker(url, 'w-first');
    await lostOnce.waitFor(/start add × command:sleep 30/, 120_000);
    // the next worker is up before the first is lost: its stalled-job check, not its start-up, decides when the run comes back
    const lostAgain = worker(url, 'w-second');
    await lostAgain.waitFor(/ready/, 120_000);
    lostOnce.child.kill('SIGKILL');
    await lostOnce.child;
    await lostAgain.waitFor(/start add × command:sleep 30 \(replay 0\), run \w+, attempt 2/, 120_000);
    lostAgain.child.kill('SIGKILL');
    await lostAgain.child;
    // a live worker's stalled-job check finds it lost a second time: the job fails instead of going back
    const third = worker(url, 'w-third');
    const done = await coordinator.child;
    expect(done.exitCode, coordinator.stderr()).toBe(3);
    expect(third.stderr()).not.toMatch(/start add/);

    const db = new Database(path.join(results, 'bakeoff.db'), { readonly: true, fileMustExist: true });
    const rows = db.prepare('SELECT outcome, reason, detail FROM runs').all() as { outcome: string; reason: string; detail: string }[];
    db.close();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ outcome: 'void', reason: 'infra-error' });
    expect(rows[0]!.detail).toMatch(/^its worker was lost twice \(2 attempt\(s\) abandoned\): recorded void rather than run a third time \(BullMQ: job stalled more than allowable limit\)$/);
    expect(coordinator.stderr()).toMatch(/run \w+: its worker was lost; the run goes back to the queue for another worker/);
    expect(coordinator.stderr()).toMatch(/run \w+: its worker was lost again; the run is recorded void, not run a third time/);
    expect(coordinator.stderr()).toMatch(/is void: its worker was lost twice/);
    expect(coordinator.stdout()).toContain(
      "fleet, this time: 2 worker(s); 0 run(s) re-executed after worker loss; 2 abandoned attempt(s) (never recorded as runs; cost unknown (no model meter)); runs per worker: none",
    );
    expect(attemptsOf(results).map((a) => [a.attempt, a.worker, a.state])).toEqual([
      [1, 'w-first', 'abandoned'],
      [2, 'w-second', 'abandoned'],
    ]);
    const report = await bakeoff(['report', results]);
    expect(report.exitCode, report.stderr).toBe(0);
    expect(report.stdout).toContain('fleet: 2 worker(s); 0 run(s) re-executed after worker loss; 2 abandoned attempt(s) (never recorded as runs; cost unknown (no model meter))');
    third.child.kill('SIGTERM');
    await third.child;
  }, 300_000);
});
