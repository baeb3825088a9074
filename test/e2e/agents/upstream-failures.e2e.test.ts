import { beforeAll, describe, expect, it } from 'vitest';
import { bakeoff, tempDir } from '../helpers.js';
import { AGENT_SPECS, oneTaskSuite, readStore, requireHarnesses } from './agent-helpers.js';

interface JsonRun { id: string; agent: string; outcome: string; voidReason: string | null; failReason: string | null; outcomeDetail: string | null; agentSec: number }

// Most harnesses retry a failing API until the wall clock ends their session, so each case lasts
// about this long. A hang is only the API's failure once one request has waited the 4 s idle
// timeout before the wall clock: with 12 s, opencode on a loaded 2-core machine (five CLIs
// starting at once) sent its first request too late, and the run was rightly a plain
// session-timeout. 24 s leaves a slow start 20 s.
const WALL_CLOCK_SEC = 24;

/*
 * The model API failing is the instrument breaking: every such run is void with the reason the
 * proxy saw, never failed — including pi, which exits 0 after giving up — and it ends within the
 * session wall clock (no hidden retries by bakeoff; the harness's own retries are the harness).
 */
describe('a failing model API voids the run with the right reason, for every harness', () => {
  let suite = '';
  beforeAll(async () => {
    await requireHarnesses();
    suite = await oneTaskSuite(WALL_CLOCK_SEC);
  }, 300_000);

  const cases: [script: string, reason: string][] = [
    ['500', 'upstream-error'],
    ['429', 'upstream-rate-limited'],
    ['hang', 'upstream-hang'],
    ['malformed', 'upstream-malformed'],
  ];
  for (const [script, reason] of cases) {
    it(`scripted:${script} → void ${reason}`, async () => {
      const out = await tempDir();
      const args = ['run', suite, '--upstream', `scripted:${script}`, '--upstream-idle-timeout', '4', '--runs', '1', '--concurrency', '5', '--out', out, '--json'];
      for (const spec of Object.values(AGENT_SPECS)) args.push('--agent', spec);
      const r = await bakeoff(args);
      expect(r.exitCode, r.stderr).toBe(0);
      const runs = (JSON.parse((await bakeoff(['report', out, '--format', 'json'])).stdout) as { runs: JsonRun[] }).runs;
      expect(runs).toHaveLength(5);
      const wrong = runs.filter((run) => run.outcome !== 'void' || run.voidReason !== reason);
      expect(wrong.map((w) => `${w.agent}: ${w.outcome} ${w.voidReason ?? w.failReason} — ${w.outcomeDetail}`)).toEqual([]);
      for (const run of runs) expect(run.agentSec, run.agent).toBeLessThan(WALL_CLOCK_SEC + 5);
      const { requests } = readStore(out);
      for (const run of runs) expect(requests.filter((q) => q.run_id === run.id).length, `${run.agent} made requests`).toBeGreaterThan(0);
    }, 600_000);
  }
});
