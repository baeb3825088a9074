import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bakeoff, tempDir } from './helpers.js';
import { attemptsOf, filesUnder, freePort, spawnBakeoff, startRedis, stopFleet, until, validatedAdd, type Proc, type TestRedis } from './fleet-helpers.js';

/*
 * What a fleet's model agents spend, and what never leaves a worker. A real agent CLI (pi)
 * against bakeoff's scripted model, workers as `bakeoff worker` processes, Debian's
 * redis-server on a loopback port of its own:
 * - a worker SIGKILLed in the middle of a session: what its attempt's finished model requests
 *   cost was reported to Redis as they ended, so it is stored as an abandoned attempt (paid for)
 *   and shown in the report, and it is in no run's figures;
 * - API keys in the workers' (and the coordinator's) environment: every command Redis received
 *   (MONITOR), its append-only file, the suite bundle and the results folder hold none of them,
 *   while the model API did get the key (so the key was in play).
 */

const AGENT = 'pi:anthropic/claude-sonnet-4-5';

function readDb<T>(results: string, sql: string): T[] {
  const db = new Database(path.join(results, 'bakeoff.db'), { readonly: true, fileMustExist: true });
  try {
    return db.prepare(sql).all() as T[];
  } finally {
    db.close();
  }
}

describe('a fleet of model agents', () => {
  let root: string;
  let redis: TestRedis;
  let suite: string;
  const running: Proc[] = [];
  const worker = (url: string, name: string, env: Record<string, string> = {}): Proc => {
    const proc = spawnBakeoff(['worker', '--queue', url, '--name', name, '--concurrency', '1', '--lease-sec', '5'], env);
    running.push(proc);
    return proc;
  };

  beforeAll(async () => {
    root = await tempDir('bakeoff-fleet-costs-');
    redis = await startRedis(path.join(root, 'redis'));
    // one task, so every run makes the same requests and has the same figures
    suite = await validatedAdd();
  }, 300_000);
  afterAll(() => stopFleet(running, redis));

  it("records what a lost attempt's finished model requests cost as abandoned, shows it in the report, and leaves it out of the run's figures", async () => {
    const url = redis.url(1);
    // a tool call, then the answer, each after 2 s: the worker is killed while the second one is awaited
    const script = path.join(root, 'two-steps.json');
    await writeFile(script, JSON.stringify({ delaySec: 2, replies: [{ tool: { name: 'bash', args: { command: 'echo working' } } }, { text: 'Done.' }] }));
    const results = path.join(root, 'costs');
    const lost = worker(url, 'w-lost');
    await lost.waitFor(/ready/, 60_000);
    const coordinator = spawnBakeoff(['run', suite, '--agent', AGENT, '--upstream', `scripted:${script}`, '--runs', '2', '--queue', url, '--out', results, '--json']);
    const [, shortId] = (await lost.waitFor(/start add × \S+ \(replay \d\), run (\w+), attempt 1/, 120_000)) as RegExpMatchArray;
    const client = redis.client(1);
    const key = await (async () => {
      for (;;) {
        const [found] = await client.keys(`bakeoff:fleet:spent:${shortId}*:1`);
        if (found && (await client.llen(found)) >= 1) return found;
        expect(lost.child.exitCode, lost.stderr()).toBeNull();
        await new Promise((r) => setTimeout(r, 25));
      }
    })();
    lost.child.kill('SIGKILL');
    await lost.child;
    // what the lost worker reported before it died: one finished request or more, not the whole session
    // each entry is sealed with the fleet secret (decision 014): the test reads the signed payload
    const reported = (await client.lrange(key, 0, -1)).map((row) => JSON.parse((JSON.parse(row) as { payload: string }).payload) as { input: number; output: number; costUsd: number | null });
    expect(reported.length).toBeGreaterThanOrEqual(1);
    const runId = key.split(':')[3]!;

    worker(url, 'w-ok');
    const done = await coordinator.child;
    expect(done.exitCode, coordinator.stderr()).toBe(0);
    client.disconnect();

    const attempts = attemptsOf(results);
    const ofLost = attempts.filter((a) => a.run_id === runId);
    expect(ofLost.map((a) => [a.attempt, a.worker, a.state])).toEqual([
      [1, 'w-lost', 'abandoned'],
      [2, 'w-ok', 'recorded'],
    ]);
    const abandoned = ofLost[0]!;
    const sum = (pick: (r: (typeof reported)[number]) => number) => reported.reduce((a, r) => a + pick(r), 0);
    expect(abandoned).toMatchObject({ requests: reported.length, tokens_in: sum((r) => r.input), tokens_out: sum((r) => r.output) });
    expect(abandoned.tokens_in).toBeGreaterThan(0);
    expect(abandoned.cost_usd).toBeCloseTo(sum((r) => r.costUsd!), 12);
    expect(abandoned.cost_usd).toBeGreaterThan(0);

    // the run's figures are its recorded attempt's alone: the same as the run no worker loss touched
    const runs = readDb<{ id: string; cost_usd: number; tokens_in: number; tokens_out: number }>(results, 'SELECT id, cost_usd, tokens_in, tokens_out FROM runs ORDER BY id');
    expect(runs).toHaveLength(2);
    const hit = runs.find((r) => r.id === runId)!;
    const untouched = runs.find((r) => r.id !== runId)!;
    expect([hit.tokens_in, hit.tokens_out]).toEqual([untouched.tokens_in, untouched.tokens_out]);
    expect(hit.cost_usd).toBeCloseTo(untouched.cost_usd, 12);
    const [requested] = readDb<{ tokens: number; n: number }>(results, `SELECT sum(input) AS tokens, count(*) AS n FROM requests WHERE run_id = '${runId}'`);
    expect(requested!.tokens).toBe(hit.tokens_in);
    expect(ofLost[1]).toMatchObject({ tokens_in: hit.tokens_in, tokens_out: hit.tokens_out, requests: requested!.n });
    expect(requested!.n).toBeGreaterThan(reported.length);

    const json = JSON.parse(coordinator.stdout()) as { fleet: Record<string, unknown> };
    expect(json.fleet).toMatchObject({ reExecuted: 1, abandonedAttempts: 1, abandonedTokensIn: abandoned.tokens_in, abandonedTokensOut: abandoned.tokens_out, abandonedRequests: reported.length, runsPerWorker: { 'w-ok': 2 } });
    const report = await bakeoff(['report', results]);
    expect(report.exitCode, report.stderr).toBe(0);
    expect(report.stdout).toContain(
      `fleet: 2 worker(s); 1 run(s) re-executed after worker loss; 1 abandoned attempt(s) (never recorded as runs; paid for: $${abandoned.cost_usd!.toFixed(4)}, ` +
        `${abandoned.tokens_in} tokens in, ${abandoned.tokens_out} out over ${reported.length} model request(s), metered up to each one's last finished request)`,
    );
  }, 300_000);

  it("never puts an API key of a worker's environment, nor the fleet secret, into Redis, the bundle or the results, though the model API gets the key", async () => {
    const url = redis.url(2);
    const canary = `canary${randomBytes(8).toString('hex')}`;
    const keys = {
      BAKEOFF_FLEET_SECRET: `fleet-secret-${canary}-0123456789abcdef`,
      BAKEOFF_UPSTREAM_API_KEY: `sk-upstream-${canary}`,
      ANTHROPIC_API_KEY: `sk-ant-${canary}`,
      OPENAI_API_KEY: `sk-openai-${canary}`,
      OPENROUTER_API_KEY: `sk-or-${canary}`,
      GEMINI_API_KEY: `gemini-${canary}`,
    };
    // a compatible model API at a base URL: the proxy sends it the worker's BAKEOFF_UPSTREAM_API_KEY
    const script = path.join(root, 'answer.json');
    await writeFile(script, JSON.stringify({ replies: [{ tool: { name: 'bash', args: { command: 'echo working' } } }, { text: 'Done.' }] }));
    const port = await freePort();
    const modelLog = path.join(root, 'model-api.jsonl');
    const api = spawnBakeoff(['model-server', '--script', script, '--port', String(port), '--log', modelLog]);
    running.push(api);
    await until('the model server', () => (api.stdout().includes('listening on') ? true : undefined), 60_000);
    const monitor = execa('redis-cli', ['-p', String(redis.port), 'monitor'], { reject: false, buffer: true });
    let traffic = '';
    monitor.stdout?.on('data', (chunk: Buffer) => (traffic += chunk.toString('latin1')));

    const results = path.join(root, 'secrets');
    for (const name of ['w-s1', 'w-s2']) await worker(url, name, { ...keys, BAKEOFF_ALLOW_UPSTREAMS: `http://127.0.0.1:${port}` }).waitFor(/ready/, 60_000);
    const bake = await bakeoff(['run', suite, '--agent', AGENT, '--upstream', `http://127.0.0.1:${port}`, '--runs', '2', '--queue', url, '--out', results, '--json'], { env: keys });
    expect(bake.exitCode, bake.stderr).toBe(0);
    expect(JSON.parse(bake.stdout)).toMatchObject({ planned: 2, ran: 2 });
    monitor.kill('SIGTERM');
    await monitor;

    // the key was in play: the model API got it from the workers' proxies (a worker sends its keys to a base URL its operator allowed)
    expect(await readFile(modelLog, 'utf8')).toContain(keys.BAKEOFF_UPSTREAM_API_KEY);
    // MONITOR saw the bake (jobs, attempts, what each request cost) and none of the keys
    expect(traffic).toContain('bakeoff:fleet:attempts:');
    expect(traffic).toContain('bakeoff:fleet:spent:');
    expect(traffic).toMatch(/agentSpec\W+pi:anthropic\/claude-sonnet-4-5/); // in the sealed job, as MONITOR quotes it
    expect(traffic.includes(canary), 'a key in the Redis traffic').toBe(false);
    for (const { file, bytes } of await filesUnder(path.join(root, 'redis'))) expect(bytes.includes(canary), `a key in Redis's ${file}`).toBe(false);

    // the suite bundle, unpacked, holds none
    const client = redis.client(2);
    const [bundleKey] = await client.keys('bakeoff:fleet:bundle:*');
    const bundle = await client.getBuffer(bundleKey!);
    client.disconnect();
    const unpacked = path.join(root, 'bundle');
    await mkdir(unpacked);
    await execa('tar', ['-xzf', '-', '-C', unpacked], { input: bundle! });
    const bundled = await filesUnder(unpacked);
    expect(bundled.length).toBeGreaterThan(3);
    for (const { file, bytes } of bundled) expect(bytes.includes(canary), `a key in the bundle's ${file}`).toBe(false);

    // nor does anything in the results folder: database, artifacts, logs
    const stored = await filesUnder(results);
    expect(stored.some((f) => f.file.endsWith('model-responses.jsonl'))).toBe(true);
    for (const { file, bytes } of stored) expect(bytes.includes(canary), `a key in the results' ${file}`).toBe(false);
  }, 300_000);
});
