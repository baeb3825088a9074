import { randomInt } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bakeoff, tempDir } from './helpers.js';
import { attemptsOf, spawnBakeoff, startRedis, type Proc, type TestRedis } from './fleet-helpers.js';
import { processesOf, storedRuns, waitFor } from './process-helpers.js';
import { validatedTiny } from './tiny-suite.js';

/*
 * One bake on a fleet: Debian's redis-server (append-only persistence on) and three
 * `bakeoff worker` processes on this machine, reaching Redis over loopback (no network
 * namespaces: the workers need the host's mount and cgroup powers for their sandboxes, and a
 * veth pair per worker adds nothing the loopback does not test about the queue's rules).
 * The fleet loses a worker to SIGKILL mid-run, its coordinator to SIGKILL mid-bake, and Redis
 * to a restart, in one 24-run bake; every planned run must still be recorded exactly once, verify must pass, and
 * the report must show the run that was re-executed and the attempt that was abandoned.
 */

describe('a bake on a fleet of three workers', () => {
  let root: string;
  let redis: TestRedis;
  /**
   * The tiny suite (a node:test and a pytest task, no set-up step), validated once per test run:
   * every case bakes it. The queue's rules do not depend on what a task builds, and the starter
   * suite's npm and cargo set-ups and test runs made the 36-run bake (and its verify) the fleet
   * tier's longest step.
   */
  let tiny: string;
  const workers = new Map<string, Proc>();
  const startWorker = (name: string, url: string): Proc => {
    const proc = spawnBakeoff(['worker', '--queue', url, '--name', name, '--concurrency', '1', '--lease-sec', '6']);
    workers.set(name, proc);
    return proc;
  };

  beforeAll(async () => {
    root = await tempDir('bakeoff-fleet-');
    redis = await startRedis(path.join(root, 'redis'));
    tiny = await validatedTiny();
  });

  afterAll(async () => {
    for (const w of workers.values()) w.child.kill('SIGKILL');
    await Promise.all([...workers.values()].map((w) => w.child));
    await redis?.stop();
  });

  it('records every planned run exactly once through a worker SIGKILL, a coordinator SIGKILL and a Redis restart; verify passes; the report shows the loss', async () => {
    const url = redis.url(0);
    for (const name of ['w1', 'w2', 'w3']) startWorker(name, url);
    await Promise.all([...workers.values()].map((w) => w.waitFor(/ready: 1 run\(s\) at once/, 60_000)));

    const results = path.join(root, 'results');
    // 2 tasks × 3 agents × 4 replays: 24 runs
    const args = ['run', tiny, '--agent', 'gold', '--agent', 'noop', '--agent', 'command:sleep 4', '--runs', '4', '--queue', url, '--out', results];
    const first = spawnBakeoff(args);

    // the first worker to start a sleeping run is killed in the middle of it
    const killed = await Promise.race(
      [...workers.entries()].map(async ([name, w]) => {
        await w.waitFor(/start \S+ × command\S*/, 240_000);
        return name;
      }),
    );
    workers.get(killed)!.child.kill('SIGKILL');
    await workers.get(killed)!.child;
    workers.delete(killed);

    // the coordinator is killed once a few runs are stored, then Redis restarts while it is down
    await first.waitFor(/run ([4-9]|1\d)\/24 /, 240_000);
    first.child.kill('SIGKILL');
    await first.child;
    await redis.restart();

    const again = await bakeoff([...args, '--json']);
    expect(again.exitCode, again.stderr).toBe(0);
    const json = JSON.parse(again.stdout) as { planned: number; alreadyDone: number; ran: number };
    expect(json.planned).toBe(24);
    expect(json.alreadyDone).toBeGreaterThanOrEqual(4);
    expect(json.alreadyDone + json.ran).toBe(24);

    // workers said they lost Redis and found it again
    for (const w of workers.values()) {
      await w.waitFor(/the queue's Redis at \S+ is back/, 30_000);
      expect(w.stderr()).toContain("lost the queue's Redis");
    }

    // every planned (task, agent, replay) recorded once, and nothing void: the instrument held
    const runs = storedRuns(path.join(results, 'bakeoff.db'));
    expect(runs).toHaveLength(24);
    expect(new Set(runs.map((r) => r.id)).size).toBe(24);
    const pairs = new Set(runs.map((r) => `${r.task}|${r.agent}`));
    expect(pairs.size).toBe(6);
    expect(runs.filter((r) => r.outcome === 'void').map((r) => `${r.id}: ${r.reason}`)).toEqual([]);
    expect(runs.filter((r) => r.agent === 'gold').every((r) => r.outcome === 'solved')).toBe(true);

    // the killed worker's run: one abandoned attempt, then one recorded attempt by another worker
    const attempts = attemptsOf(results);
    expect(attempts.filter((a) => a.state === 'recorded')).toHaveLength(24);
    const abandoned = attempts.filter((a) => a.state === 'abandoned');
    expect(abandoned.length).toBeGreaterThanOrEqual(1);
    expect(abandoned.map((a) => a.worker)).toContain(killed);
    for (const lost of abandoned) {
      const recorded = attempts.find((a) => a.run_id === lost.run_id && a.state === 'recorded')!;
      expect(recorded.attempt).toBeGreaterThan(lost.attempt);
      expect(recorded.worker).not.toBe(killed);
    }

    const verify = await bakeoff(['verify', results]);
    expect(verify.exitCode, verify.stdout + verify.stderr).toBe(0);
    expect(verify.stdout + verify.stderr).toMatch(/verified 24 runs: 0 mismatches/);

    const report = await bakeoff(['report', results, '--wide']);
    expect(report.exitCode, report.stderr).toBe(0);
    expect(report.stdout).toMatch(new RegExp(`fleet: \\d worker\\(s\\); ${new Set(abandoned.map((a) => a.run_id)).size} run\\(s\\) re-executed after worker loss; ${abandoned.length} abandoned attempt\\(s\\)`));

    // the queue holds nothing of the bake once every run is stored
    const status = await bakeoff(['queue', 'status', '--queue', url, '--json']);
    expect(status.exitCode, status.stderr).toBe(0);
    const jobs = (JSON.parse(status.stdout) as { jobs: Record<string, number> }).jobs;
    expect(jobs).toEqual({ waiting: 0, active: 0, lost: 0, delayed: 0, completed: 0, failed: 0 });

    // and the same command once more enqueues nothing and records nothing twice
    const third = await bakeoff([...args, '--json']);
    expect(third.exitCode, third.stderr).toBe(0);
    expect(JSON.parse(third.stdout)).toMatchObject({ planned: 24, alreadyDone: 24, ran: 0 });
    expect(attemptsOf(results)).toEqual(attempts);
  }, 900_000);

  it('a zombie worker (stopped past its lease, then resumed) finishing late changes nothing recorded', async () => {
    const url = redis.url(4);
    const suite = tiny;
    const zombie = startWorker('w-zombie', url);
    await zombie.waitFor(/ready/, 60_000);
    const results = path.join(root, 'zombie-results');
    // The zombie's run must not end before the zombie is stopped: the test holds that run's sleep
    // with SIGSTOP (the host sees the sandbox's processes) as soon as it appears, then stops the
    // worker, and lets both go on later. (A 3 s sleep raced the test's SIGSTOP of the worker on
    // its start line, which a saturated machine can delay by seconds.)
    const seconds = `5.${randomInt(100_000_000, 999_999_999)}`;
    const args = ['run', suite, '--agent', `command:sleep ${seconds}`, '--runs', '1', '--queue', url, '--out', results, '--json'];
    const coordinator = spawnBakeoff(args);
    expect(await waitFor(() => processesOf('sleep', seconds).length > 0, 120_000), 'the zombie\'s run started its sleep').toBe(true);
    const [held] = processesOf('sleep', seconds) as [number];
    process.kill(held, 'SIGSTOP');
    zombie.child.kill('SIGSTOP');
    const [, runId] = await zombie.waitFor(/start \S+ × command:sleep [\d.]+ \(replay 0\), run (\w+)/, 10_000);
    const healthy = startWorker('w-healthy', url);
    const done = await coordinator.child;
    expect(done.exitCode, coordinator.stderr()).toBe(0);
    const before = { runs: storedRuns(path.join(results, 'bakeoff.db')), attempts: attemptsOf(results) };
    expect(before.runs).toHaveLength(2);
    const lost = before.attempts.filter((a) => a.run_id.startsWith(runId!));
    expect(lost.map((a) => [a.worker, a.state])).toEqual([
      ['w-zombie', 'abandoned'],
      ['w-healthy', 'recorded'],
    ]);

    // resumed, the zombie finishes its run and finds its lease gone: it hands nothing back, and the folder changes not
    zombie.child.kill('SIGCONT');
    process.kill(held, 'SIGCONT');
    await zombie.waitFor(new RegExp(`run ${runId}, attempt 1: superseded — the queue no longer leases this run to this attempt`), 60_000);
    expect(zombie.stderr()).not.toMatch(new RegExp(`end   run ${runId}`));
    const again = await bakeoff(args);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ planned: 2, alreadyDone: 2, ran: 0 });
    expect(storedRuns(path.join(results, 'bakeoff.db'))).toEqual(before.runs);
    expect(attemptsOf(results)).toEqual(before.attempts);
    for (const w of [zombie, healthy]) {
      w.child.kill('SIGTERM');
      await w.child;
    }
    workers.delete('w-zombie');
    workers.delete('w-healthy');
  }, 300_000);

  it('says clearly what is wrong with the queue: unreachable Redis (3), a bad address (2), what a fleet cannot run (2), a worker of another version (3)', async () => {
    const closed = `redis://127.0.0.1:${redis.port + 1 === 65536 ? 1 : redis.port + 1}/0`;
    // a bake coordinated by another bakeoff version (database 3): the worker started below refuses it
    const client = redis.client(3);
    await client.set('bakeoff:fleet:bake', JSON.stringify({ suiteId: 'starter', suiteHash: 'f'.repeat(64), bakeoffVersion: '9.9.9', coordinator: null, startedAt: new Date().toISOString() }));
    client.disconnect();
    // each command is refused on its own, before it takes anything of the queue: started at once, not one after another
    const [unreachable, worker, unsigned, short, bad, typed, agentsFile, plan, old] = await Promise.all([
      bakeoff(['run', tiny, '--agent', 'gold', '--queue', closed, '--out', path.join(root, 'never-1')]),
      bakeoff(['worker', '--queue', closed]),
      // no fleet secret, or one too short to be one: jobs could not be signed or checked (2), and the value is never shown
      bakeoff(['worker', '--queue', redis.url(2)], { env: { BAKEOFF_FLEET_SECRET: '' } }),
      bakeoff(['run', tiny, '--agent', 'gold', '--queue', redis.url(2), '--out', path.join(root, 'never-2')], { env: { BAKEOFF_FLEET_SECRET: 'short-secret-42' } }),
      bakeoff(['run', tiny, '--agent', 'gold', '--queue', 'http://example.com', '--out', path.join(root, 'never-3')]),
      // a password typed into the address is never shown back
      bakeoff(['queue', 'status', '--queue', 'rediss://:hunter2hunter2@127.0.0.1:1/99']),
      bakeoff(['run', tiny, '--agents', 'agents.yaml', '--queue', redis.url(2), '--out', path.join(root, 'never-4')]),
      // a subscription login refreshed on several machines rotates its single-use refresh token under the others: refused, naming the agents
      bakeoff(['run', tiny, '--agent', 'gold', '--agent', 'codex:gpt-5.5@lowest', '--agent', 'claude-code:claude-sonnet-4-5', '--auth', 'subscription', '--queue', redis.url(2), '--out', path.join(root, 'never-plan')]),
      bakeoff(['worker', '--queue', redis.url(3)]),
    ]);

    expect(unreachable.exitCode, unreachable.stderr).toBe(3);
    expect(unreachable.stderr).toMatch(/cannot reach the queue's Redis at redis:\/\/127\.0\.0\.1:\d+\/0: .*Start it \(redis-server\) or fix --queue/);
    expect(worker.exitCode, worker.stderr).toBe(3);
    expect(worker.stderr).toContain("cannot reach the queue's Redis");

    expect(unsigned.exitCode, unsigned.stderr).toBe(2);
    expect(unsigned.stderr).toContain('a fleet needs its secret, which signs every job and result: set BAKEOFF_FLEET_SECRET');
    expect(short.exitCode, short.stderr).toBe(2);
    expect(short.stderr).toMatch(/BAKEOFF_FLEET_SECRET: expected a fleet secret of at least 32 characters, received 15/);
    expect(short.stderr).not.toContain('short-secret-42');

    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('--queue: expected a redis:// or rediss:// address, received "http://example.com"');
    expect(typed.exitCode).toBe(2);
    expect(typed.stderr).toContain('--queue: expected a database number 0–15 after the port, received "99" in "rediss://:***@127.0.0.1:1/99"');
    expect(typed.stderr).not.toContain('hunter2');

    expect(agentsFile.exitCode).toBe(2);
    expect(agentsFile.stderr).toContain('--agents with --queue');

    expect(plan.exitCode, plan.stderr).toBe(2);
    expect(plan.stderr).toContain(
      "--auth subscription with --queue: codex:gpt-5.5@lowest, claude-code:claude-sonnet-4-5 would run on each worker's own copy of your subscription login, and a login's refresh token is single-use and rotates",
    );
    expect(plan.stderr).toMatch(/run subscription agents in a local bake \(without --queue\), or with an API key \(--auth api\)$/);
    expect(existsSync(path.join(root, 'never-plan'))).toBe(false);

    // a bake coordinated by another bakeoff version: this worker refuses it at start, naming both
    expect(old.exitCode, old.stderr).toBe(3);
    expect(old.stderr).toMatch(/this worker runs bakeoff \S+, but the bake on redis:\/\/127\.0\.0\.1:\d+\/3 \(suite starter\) is coordinated by bakeoff 9\.9\.9: refusing/);
  }, 120_000);
});
