import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, it } from 'vitest';
import { bakeoff, tempDir } from '../helpers.js';
import { AGENT_SPECS, oneTaskSuite, readStore, requireHarnesses } from './agent-helpers.js';

interface JsonRun {
  id: string; agent: string; outcome: string; voidReason: string | null; failReason: string | null; outcomeDetail: string | null; agentSec: number;
  failure: { class: string; side: string; cause: string; detail: string } | null;
}

// Most harnesses retry a failing API until the wall clock ends their session, so each case lasts
// about this long. A hang is only the API's failure once one request has waited the 4 s idle
// timeout before the wall clock: with 12 s, opencode on a loaded 2-core machine (five CLIs
// starting at once) sent its first request too late, and the run was rightly a plain
// session-timeout. 24 s leaves a slow start 20 s.
const WALL_CLOCK_SEC = 24;

/**
 * Two bakes at once (ten CLIs): each case mostly waits out its wall clock while the harnesses
 * back off and retry, so six cases one after another were two minutes of waiting. Ten CLIs
 * starting together on two cores still send their first request within a few seconds.
 */
const BAKES_AT_ONCE = 2;
let running = 0;
const waiting: (() => void)[] = [];
async function oneOfTwo<T>(bake: () => Promise<T>): Promise<T> {
  if (running >= BAKES_AT_ONCE) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await bake();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

/*
 * The model API failing is the instrument breaking: every such run is void with the reason the
 * proxy saw, never failed — including pi, which exits 0 after giving up — and it ends within the
 * session wall clock (no hidden retries by bakeoff; the harness's own retries are the harness).
 * Its failure class says whose failure it was: the model's (its API), never the harness's.
 */
describe.concurrent('a failing model API voids the run with the right reason, for every harness', () => {
  let suite = '';
  beforeAll(async () => {
    await requireHarnesses();
    suite = await oneTaskSuite(WALL_CLOCK_SEC);
  }, 300_000);

  const cases: [script: string, reason: string, cause: string][] = [
    ['500', 'upstream-error', 'api-server-error'],
    ['429', 'upstream-rate-limited', 'api-rate-limited'],
    ['hang', 'upstream-hang', 'api-hang'],
    ['malformed', 'upstream-malformed', 'api-malformed'],
  ];
  for (const [script, reason, cause] of cases) {
    it(`scripted:${script} → void ${reason}, failure class model error (${cause})`, ({ expect }) => oneOfTwo(async () => {
      const out = await tempDir();
      const args = ['run', suite, '--upstream', `scripted:${script}`, '--upstream-idle-timeout', '4', '--runs', '1', '--concurrency', '5', '--out', out, '--json'];
      for (const spec of Object.values(AGENT_SPECS)) args.push('--agent', spec);
      const r = await bakeoff(args);
      expect(r.exitCode, r.stderr).toBe(0);
      const runs = (JSON.parse((await bakeoff(['report', out, '--format', 'json'])).stdout) as { runs: JsonRun[] }).runs;
      expect(runs).toHaveLength(5);
      const wrong = runs.filter((run) => run.outcome !== 'void' || run.voidReason !== reason);
      expect(wrong.map((w) => `${w.agent}: ${w.outcome} ${w.voidReason ?? w.failReason} — ${w.outcomeDetail}`)).toEqual([]);
      expect(runs.filter((run) => run.failure?.class !== 'model-error' || run.failure.side !== 'model' || run.failure.cause !== cause).map((run) => `${run.agent}: ${JSON.stringify(run.failure)}`)).toEqual([]);
      for (const run of runs) expect(run.agentSec, run.agent).toBeLessThan(WALL_CLOCK_SEC + 5);
      // every void run is said once on stderr, --json or not, with its reason (one rule for all voids)
      for (const run of runs) expect(r.stderr.split('\n').filter((l) => l.startsWith(`bakeoff: error: run ${run.id} (`) && l.includes(`) is void ${reason}: `)), run.agent).toHaveLength(1);
      const { requests } = readStore(out);
      for (const run of runs) expect(requests.filter((q) => q.run_id === run.id).length, `${run.agent} made requests`).toBeGreaterThan(0);
    }), 600_000);
  }
});

/*
 * Failures that are not the API's: the model declining the task (a refusal, no change made) is
 * the model's; requests the API refuses as malformed (HTTP 400) were built by the harness. The
 * same five CLIs, each bake answered by a replay file of bakeoff's scripted model.
 */
describe.concurrent('a refusal is the model\'s failure, a request the API refuses is the harness\'s, for every harness', () => {
  let suite = '';
  beforeAll(async () => {
    await requireHarnesses();
    suite = await oneTaskSuite(WALL_CLOCK_SEC);
  }, 300_000);

  const cases: [name: string, replies: unknown[], cls: string, side: string, cause: string][] = [
    ['a refusal', [{ text: 'I\'m sorry, but I can\'t help with that request.' }], 'model-error', 'model', 'refused'],
    // every request refused: whether the CLI gives up, crashes, or waits for the wall clock (pi), the harness built what the API does not take
    ['HTTP 400 to every request', Array(40).fill({ status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message: 'scripted 400: tools.0.input_schema: invalid' } } }), 'harness-error', 'harness', 'request-rejected'],
  ];
  for (const [name, replies, cls, side, cause] of cases) {
    it(`${name} → ${cls} (${side}: ${cause})`, ({ expect }) => oneOfTwo(async () => {
      const out = await tempDir();
      const script = path.join(out, 'replies.json');
      await writeFile(script, JSON.stringify({ replies }));
      const args = ['run', suite, '--upstream', `scripted:${script}`, '--upstream-idle-timeout', '4', '--runs', '1', '--concurrency', '5', '--out', path.join(out, 'results'), '--json'];
      for (const spec of Object.values(AGENT_SPECS)) args.push('--agent', spec);
      const r = await bakeoff(args);
      expect(r.exitCode, r.stderr).toBe(0);
      const runs = (JSON.parse((await bakeoff(['report', path.join(out, 'results'), '--format', 'json'])).stdout) as { runs: JsonRun[] }).runs;
      expect(runs).toHaveLength(5);
      const wrong = runs.filter((run) => run.failure?.class !== cls || run.failure.side !== side || run.failure.cause !== cause);
      expect(wrong.map((w) => `${w.agent}: ${w.outcome} ${w.voidReason ?? w.failReason} — ${JSON.stringify(w.failure)} — ${w.outcomeDetail}`)).toEqual([]);
    }), 600_000);
  }
});
