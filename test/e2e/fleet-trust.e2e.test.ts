import { randomBytes, randomInt } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFleetSeal, keys, type RunJob } from '../../src/queue/index.js';
import { packFolder } from '../../src/queue/tarball.js';
import { loadSuite } from '../../src/suite/index.js';
import { sha256 } from '../../src/util/index.js';
import { bakeoff, tempDir } from './helpers.js';
import { attemptsOf, FLEET_SECRET, freePort, linesOf, spawnBakeoff, until, startRedis, stopFleet, validatedAdd, type Proc, type TestRedis } from './fleet-helpers.js';
import { processesOf, storedRuns } from './process-helpers.js';

/*
 * A fleet that trusts only what its coordinator signed, stops gracefully, fences its attempts
 * and keeps one coordinator through a Redis outage. Debian's redis-server on a loopback port of
 * its own (append-only persistence on), real `bakeoff worker` and `bakeoff run --queue`
 * processes, the tiny suite's `add` task; each case waits for queue states, log lines or
 * processes, never for a guessed number of seconds (but the 30 s the outage case is about).
 * Databases: 2 for the hostile Redis writer (one worker that sees its own files only), 0 for
 * `queue clear` and the outage (one worker, kept), 3 for SIGTERM (two workers of its own).
 */

const AGENT = 'pi:anthropic/claude-sonnet-4-5';

describe('a fleet you can trust with keys, signals and a hostile Redis', () => {
  let root: string;
  let redis: TestRedis;
  let suite: string;
  const running: Proc[] = [];
  const worker = (url: string, name: string, extra: readonly string[] = [], env: Record<string, string> = {}, via: readonly string[] = []): Proc => {
    // a lease long enough that a saturated machine's late renewals never lose one: no case here waits for a lost lease
    const proc = spawnBakeoff(['worker', '--queue', url, '--name', name, '--lease-sec', '20', ...extra], env, via);
    running.push(proc);
    return proc;
  };

  beforeAll(async () => {
    root = await tempDir('bakeoff-fleet-trust-');
    redis = await startRedis(path.join(root, 'redis'));
    suite = await validatedAdd();
  }, 300_000);
  afterAll(() => stopFleet(running, redis));

  it('refuses what the fleet secret did not sign, a model API it does not send keys to and a bundle that is not the signed one, naming why; reads no file of its own a job names; no key leaves', async () => {
    const url = redis.url(2);
    // the model API a Redis writer would like the workers' keys sent to: it logs every request it gets
    const capturePort = await freePort();
    const captureLog = path.join(root, 'capture.jsonl');
    const capture = spawnBakeoff(['model-server', '--port', String(capturePort), '--log', captureLog]);
    running.push(capture);
    await until('the capture server', () => (capture.stdout().includes('listening on') ? true : undefined), 60_000);
    const captureUrl = `http://127.0.0.1:${capturePort}`;
    const canary = `canary${randomBytes(8).toString('hex')}`;
    const keysEnv = { BAKEOFF_UPSTREAM_API_KEY: `sk-up-${canary}`, ANTHROPIC_API_KEY: `sk-ant-${canary}` };

    // The worker sees its own files only: a folder holding the coordinator's agent script is, for
    // the worker, a fresh tmpfs holding a file of its own (a mount namespace of its own).
    const shared = path.join(root, 'agent-dir');
    await mkdir(shared);
    await writeFile(path.join(shared, 'agent.sh'), "sed -i 's/a - b/a + b/' src/math.mjs\n");
    const workerOnly = `worker-only-${randomBytes(6).toString('hex')}`;
    const via = ['unshare', '--mount', '--propagation', 'private', 'sh', '-c', 'mount -t tmpfs tmpfs "$0" && printf %s "$1" > "$0/worker-only.txt" && shift 2 && exec "$@"', shared, workerOnly];
    const w = worker(url, 'w-guard', ['--concurrency', '2'], keysEnv, via);
    await w.waitFor(/ready: 2 run\(s\) at once; model APIs it sends its keys to: vendor, openrouter/, 120_000);

    // a Redis writer without the secret: jobs it makes up, one it forges, one signed job whose bundle it replaced
    const { hash } = await loadSuite(suite);
    const real = await packFolder(suite);
    const base: RunJob = {
      schemaVersion: 2, bakeoffVersion: '0.1.0', suiteId: 'tiny', suiteHash: hash, bundleSha256: real.sha256, runId: '', task: 'add', replay: 0,
      agentSpec: AGENT, agentDigest: 'd'.repeat(64), agentId: AGENT, agentOptions: { cwd: shared, upstream: captureUrl }, enqueuedAt: Date.now(),
    };
    const signed = createFleetSeal(Buffer.from(FLEET_SECRET));
    const forged = signed.seal('job', { ...base, runId: 'forged', agentOptions: { cwd: shared, upstream: 'vendor' } });
    const forgedPayload = forged.payload.replace('"upstream":"vendor"', `"upstream":"${captureUrl}"`);
    const tamperedSuite = path.join(root, 'tampered');
    await cp(suite, tamperedSuite, { recursive: true });
    await writeFile(path.join(tamperedSuite, 'tasks/add/orders/1/hidden/test/math.hidden.test.mjs'), 'import { test } from "node:test"; test("always", () => {});\n');
    const client = redis.client(2);
    await client.set(keys.bundle(real.sha256), (await packFolder(tamperedSuite)).bytes);
    const writer = new Queue('runs', { connection: { host: '127.0.0.1', port: redis.port, db: 2 }, prefix: 'bakeoff' });
    const hostile: Record<string, unknown> = {
      'unsigned-upstream': { ...base, runId: 'unsigned-upstream' },
      'forged-digest': { ...forged, payload: forgedPayload, sig: sha256(forgedPayload) },
      'worker-file': { ...base, runId: 'worker-file', agentSpec: `command:cp ${shared}/worker-only.txt leaked.txt`, agentOptions: { cwd: shared } },
      'tampered-bundle': signed.seal('job', { ...base, runId: 'tampered-bundle', agentSpec: 'gold', agentOptions: { cwd: shared } }),
    };
    for (const [id, data] of Object.entries(hostile)) await writer.add('run', data, { jobId: id, attempts: 1, removeOnComplete: false, removeOnFail: false });
    const reasons = await until('the worker to refuse the four jobs', async () => {
      // the state first, then the job read again: a job read before it failed carries no failedReason yet
      const states = await Promise.all(Object.keys(hostile).map((id) => writer.getJobState(id)));
      if (!states.every((state) => state === 'failed')) return undefined;
      const jobs = await Promise.all(Object.keys(hostile).map((id) => writer.getJob(id)));
      return Object.fromEntries(jobs.map((j) => [j!.id, j!.failedReason]));
    }, 120_000);
    await writer.close();
    expect(reasons['unsigned-upstream']).toMatch(/^refused by worker w-guard: job unsigned-upstream: unsigned: it carries no signature of this fleet/);
    expect(reasons['forged-digest']).toMatch(/^refused by worker w-guard: job forged-digest: its signature does not match: changed after it was signed, or signed with another fleet secret$/);
    expect(reasons['worker-file']).toMatch(/^refused by worker w-guard: job worker-file: unsigned/);
    expect(reasons['tampered-bundle']).toMatch(/^refused by worker w-guard: the suite bundle of tiny in the queue's Redis is not the one its coordinator signed \(sha256 [0-9a-f]{12}…, signed [0-9a-f]{12}…\): replaced or damaged in Redis$/);
    expect(linesOf(w.stderr(), /refused run .*nothing of it ran/)).toHaveLength(4);
    expect(w.stderr()).not.toMatch(/start /);

    // the bake's own coordinator asking for that API: signed, and refused by the worker all the same; nothing recorded
    const foreign = await bakeoff(['run', suite, '--agent', AGENT, '--upstream', captureUrl, '--runs', '2', '--queue', url, '--out', path.join(root, 'foreign'), '--json'], { env: keysEnv });
    expect(foreign.exitCode, foreign.stderr).toBe(3);
    expect(foreign.stderr).toMatch(new RegExp(`is not recorded: refused by worker w-guard: it asks for the model API "${captureUrl.replace(/[.]/g, '\\.')}", which is not one this worker sends its API keys to \\(allowed here: vendor, openrouter`));
    expect(foreign.stderr).toContain('2 run(s) not recorded: the workers refused them');
    expect(JSON.parse(foreign.stdout).fleet.refused).toHaveLength(2);
    expect(storedRuns(path.join(root, 'foreign', 'bakeoff.db'))).toEqual([]);

    // the files a spec names travel in the signed bundle: the worker runs the coordinator's agent.sh (absent from its disk) and never reads its own worker-only.txt
    const files = path.join(root, 'files');
    const bake = await bakeoff(['run', suite, '--agent', `command:sh ${shared}/agent.sh`, '--agent', `command:cat ${shared}/worker-only.txt > leaked.txt`, '--runs', '1', '--queue', url, '--out', files, '--json']);
    expect(bake.exitCode, bake.stderr).toBe(0);
    const runs = storedRuns(path.join(files, 'bakeoff.db'));
    expect(Object.fromEntries(runs.map((r) => [r.agent.split(' ')[0] === 'command:sh' ? 'script' : 'cat', `${r.outcome} ${r.reason ?? ''}`.trim()]))).toEqual({ script: 'solved', cat: 'failed tests-failed' });

    // no key went anywhere: the capture server got no model request and no key; nothing of the worker's own file left it
    // (the coordinator's --upstream preflight asks `GET /v1/models` without any key: reachability only)
    const captured = existsSync(captureLog) ? (await readFile(captureLog, 'utf8')).split('\n').filter(Boolean).map((line) => JSON.parse(line) as { method: string; path: string; body: unknown }) : [];
    expect(captured.filter((r) => r.method !== 'GET' || r.path !== '/v1/models' || r.body !== null)).toEqual([]);
    expect(existsSync(captureLog) ? await readFile(captureLog, 'utf8') : '').not.toContain(canary);
    expect(w.stderr()).not.toContain(canary);
    for (const entry of await readdir(files, { withFileTypes: true, recursive: true })) {
      if (entry.isFile()) expect((await readFile(path.join(entry.parentPath, entry.name))).includes(workerOnly), `the worker's file in ${entry.name}`).toBe(false);
    }
    for (const key of await client.keys('*')) {
      const type = await client.type(key);
      const text = type === 'string' ? ((await client.getBuffer(key)) ?? Buffer.alloc(0)).toString('latin1') : type === 'list' ? (await client.lrange(key, 0, -1)).join('\n') : type === 'hash' ? JSON.stringify(await client.hgetall(key)) : '';
      expect(text.includes(canary) || text.includes(workerOnly), `a key or the worker's file in Redis ${key}`).toBe(false);
    }
    client.disconnect();
  }, 600_000);

  /** The worker of database 0, kept from the `queue clear` case to the outage case. */
  let keeper: Proc;
  /** A command agent that sleeps (a marked sleep, so the test can find and hold it), then solves the task. */
  const sleeper = (seconds: string) => `command:sleep ${seconds}; sed -i 's/a - b/a + b/' src/math.mjs`;
  const marker = () => `5.${randomInt(100_000_000, 999_999_999)}`;

  it('queue clear with runs in flight, then the coordinator again: each run recorded once, none void or tampered; the stale attempts are counted abandoned, numbered before the recorded ones, share no scratch folder and hand nothing back', async () => {
    const url = redis.url(0);
    // three slots and one, two runs: once both are held in flight, a slot is left for a run's second attempt beside its first
    keeper = worker(url, 'w-keep', ['--concurrency', '3']);
    const other = worker(url, 'w-keep2', ['--concurrency', '1']);
    await Promise.all([keeper, other].map((w) => w.waitFor(/ready/, 120_000)));
    const seconds = marker();
    const results = path.join(root, 'cleared');
    const args = ['run', suite, '--agent', sleeper(seconds), '--runs', '2', '--queue', url, '--out', results];
    const first = spawnBakeoff(args);
    const held = await until("both runs' sleeps", () => (processesOf('sleep', seconds).length === 2 ? processesOf('sleep', seconds) : undefined), 180_000);
    for (const pid of held) process.kill(pid, 'SIGSTOP');
    first.child.kill('SIGKILL');
    await first.child;
    const clear = await bakeoff(['queue', 'clear', '--queue', url]);
    expect(clear.exitCode, clear.stderr).toBe(0);

    const again = spawnBakeoff([...args, '--json']);
    // a second attempt of a run starts while its first is still in flight (on another worker: one worker runs one attempt of a run at a time)
    await until('a second attempt', () => ([keeper, other].some((w) => /start add × command:sleep \S+ .*\(replay \d\), run \w+, attempt 2/.test(w.stderr())) ? true : undefined), 120_000);
    for (const pid of held) process.kill(pid, 'SIGCONT');
    const done = await again.child;
    expect(done.exitCode, again.stderr()).toBe(0);
    expect(JSON.parse(again.stdout())).toMatchObject({ planned: 2, alreadyDone: 0, ran: 2 });
    // the stale attempts run to their end and find their lease gone: nothing handed back
    await until('the two stale attempts to end', () => (linesOf(keeper.stderr() + other.stderr(), /attempt 1: superseded/).length === 2 ? true : undefined), 120_000);

    const runs = storedRuns(path.join(results, 'bakeoff.db'));
    expect(runs.map((r) => `${r.outcome} ${r.reason ?? ''}`.trim())).toEqual(['solved', 'solved']);
    const attempts = attemptsOf(results);
    // per run: attempts 1..n with no gap or repeat, the cleared first one and any other before the last abandoned, the last recorded
    // (usually n = 2; a lease a saturated machine renewed too late adds an attempt, numbered and counted like the others)
    const runIds = [...new Set(attempts.map((a) => a.run_id))];
    expect(runIds).toHaveLength(2);
    for (const list of runIds.map((id) => attempts.filter((a) => a.run_id === id))) {
      expect(list.length).toBeGreaterThanOrEqual(2);
      expect(list.map((a) => [a.attempt, a.state])).toEqual(list.map((_, i) => [i + 1, i === list.length - 1 ? 'recorded' : 'abandoned']));
    }
    const abandoned = attempts.filter((a) => a.state === 'abandoned').length;
    const report = await bakeoff(['report', results]);
    expect(report.stdout).toMatch(new RegExp(`fleet: [12] worker\\(s\\); 2 run\\(s\\) re-executed after worker loss; ${abandoned} abandoned attempt\\(s\\) \\(never recorded as runs; cost unknown \\(no model meter\\)\\)`));
    other.child.kill('SIGKILL');
    // the stale attempts' late ends changed nothing: the same command once more records nothing
    const third = await bakeoff([...args, '--json']);
    expect(JSON.parse(third.stdout)).toMatchObject({ planned: 2, alreadyDone: 2, ran: 0 });
    expect(attemptsOf(results)).toEqual(attempts);
    const verify = await bakeoff(['verify', results]);
    expect(verify.stdout + verify.stderr).toMatch(/verified 2 runs: 0 mismatches/);
  }, 600_000);

  it('SIGTERM to a worker with runs in flight: it takes no more, lets what finishes in the grace period finish, hands the rest back unrecorded; 0 void, 0 wrong, each run recorded once, verify 0 mismatches', async () => {
    const url = redis.url(3);
    const stopping = worker(url, 'w-stop', ['--concurrency', '2', '--grace-sec', '2']);
    await stopping.waitFor(/ready/, 120_000);
    const seconds = marker();
    const results = path.join(root, 'sigterm');
    const coordinator = spawnBakeoff(['run', suite, '--agent', 'gold', '--agent', sleeper(seconds), '--runs', '3', '--queue', url, '--out', results, '--json']);
    // a sleeping run in flight, held: it cannot finish within the grace period
    const held = await until('a run sleeping on w-stop', () => processesOf('sleep', seconds)[0], 180_000);
    process.kill(held, 'SIGSTOP');
    // process.kill, not execa's kill: execa would follow it with SIGKILL after 5 s, shorter than a stop may take
    process.kill(stopping.child.pid!, 'SIGTERM');
    await stopping.waitFor(/SIGTERM: worker w-stop takes no more runs; the running ones may finish within 2 s \(--grace-sec\), then the rest go back to the queue unrecorded/, 60_000);
    const stopped = await stopping.child;
    expect(stopped.exitCode, stopping.stderr()).toBe(143);
    const afterSignal = stopping.stderr().slice(stopping.stderr().indexOf('SIGTERM: worker'));
    expect(afterSignal, 'a run started after the signal').not.toMatch(/bakeoff: start /);
    const handedBack = linesOf(afterSignal, /handed run \w+ \(attempt 1\) back to the queue unrecorded/);
    expect(handedBack.length).toBeGreaterThanOrEqual(1);
    expect(afterSignal).toMatch(new RegExp(`stopped: \\d run\\(s\\) finished during the stop; ${handedBack.length} handed back to the queue unrecorded`));

    worker(url, 'w-take', ['--concurrency', '2']);
    const done = await coordinator.child;
    expect(done.exitCode, coordinator.stderr()).toBe(0);
    const runs = storedRuns(path.join(results, 'bakeoff.db'));
    expect(runs).toHaveLength(6);
    expect(new Set(runs.map((r) => r.id)).size).toBe(6);
    expect(runs.filter((r) => r.outcome !== 'solved').map((r) => `${r.agent}: ${r.outcome} ${r.reason}`)).toEqual([]);
    const attempts = attemptsOf(results);
    expect(attempts.filter((a) => a.state === 'recorded')).toHaveLength(6);
    // what the stop cut short is an abandoned attempt of w-stop's, never a run
    const abandoned = attempts.filter((a) => a.state === 'abandoned');
    expect(abandoned.map((a) => a.worker)).toEqual(handedBack.map(() => 'w-stop'));
    for (const a of abandoned) expect(attempts.find((r) => r.run_id === a.run_id && r.state === 'recorded')).toMatchObject({ attempt: 2, worker: 'w-take' });
    const verify = await bakeoff(['verify', results]);
    expect(verify.exitCode, verify.stdout + verify.stderr).toBe(0);
    expect(verify.stdout + verify.stderr).toMatch(/verified 6 runs: 0 mismatches/);
  }, 600_000);

  it('Redis away for 30 s: one coordinator throughout, a second refused before and after; one line when Redis goes and one when it is back, no stack trace; each run recorded once', async () => {
    const url = redis.url(0);
    const results = path.join(root, 'outage');
    const seconds = marker();
    const args = ['run', suite, '--agent', 'gold', '--agent', `command:sleep ${seconds}`, '--runs', '3', '--queue', url, '--out', results, '--json'];
    const fromHere = keeper.stderr().length;
    const first = spawnBakeoff(args);
    const claimOf = async (): Promise<{ coordinator: string | null; claim?: string } | undefined> => {
      const client = redis.client(0);
      try {
        const held = await client.get('bakeoff:fleet:bake');
        const bake = held ? (JSON.parse(held) as { coordinator: string | null; claim?: string }) : null;
        return bake?.coordinator?.endsWith(`:${first.child.pid}`) && bake.claim ? bake : undefined;
      } finally {
        client.disconnect();
      }
    };
    const before = await until("the first coordinator's claim", claimOf, 120_000);
    // a run of the bake held in flight (its sleep stopped) until the second coordinator has been refused after the outage:
    // the bake cannot end (and release its claim) before a refusal, however slow the machine's CLI starts are
    const held = await until('a sleeping run of the bake', () => processesOf('sleep', seconds)[0], 180_000);
    process.kill(held, 'SIGSTOP');
    const refused = async () => {
      const second = await bakeoff(['run', suite, '--agent', 'noop', '--runs', '1', '--queue', url, '--out', path.join(root, 'second')]);
      expect(second.exitCode, second.stderr).toBe(2);
      expect(second.stderr).toMatch(new RegExp(`queue redis://127\\.0\\.0\\.1:\\d+/0 is being run by another coordinator \\(\\S+:${first.child.pid}, suite tiny`));
    };
    await refused();

    // a run of the bake ends, then Redis goes away for 30 s
    await until('a run of the bake to end', () => (/end {3}run/.test(keeper.stderr().slice(fromHere)) ? true : undefined), 180_000);
    await redis.restart(30_000);
    // the first coordinator re-creates its own claim (the old one lapsed while Redis was away); a second is refused again
    const after = await until('the claim re-created by its owner', claimOf, 60_000);
    expect(after.claim).toBe(before.claim);
    await refused();
    process.kill(held, 'SIGCONT');

    const done = await first.child;
    expect(done.exitCode, first.stderr()).toBe(0);
    expect(JSON.parse(first.stdout())).toMatchObject({ planned: 6, alreadyDone: 0, ran: 6 });
    const runs = storedRuns(path.join(results, 'bakeoff.db'));
    expect(runs).toHaveLength(6);
    expect(runs.filter((r) => r.outcome === 'void')).toEqual([]);
    expect(runs.filter((r) => r.agent === 'gold').every((r) => r.outcome === 'solved')).toBe(true);
    // said once each way, by the coordinator and by the worker, without a stack trace
    for (const [who, text] of [['coordinator', first.stderr()], ['worker', keeper.stderr().slice(fromHere)]] as const) {
      expect(linesOf(text, /lost the queue's Redis at redis:\/\/127\.0\.0\.1:\d+\/0 \(.*\); waiting for it to come back/), `${who}:\n${text}`).toHaveLength(1);
      expect(linesOf(text, /the queue's Redis at redis:\/\/127\.0\.0\.1:\d+\/0 is back/), `${who}:\n${text}`).toHaveLength(1);
      expect(text, who).not.toMatch(/^\s+at |Unhandled error event|ECONNREFUSED.*\n\s+at /m);
    }
    expect(first.stderr()).not.toContain('took queue');
  }, 600_000);
});
