import { execFile } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { copySuite, tempDir } from '../helpers.js';
import { agent, artifacts, bake, dbRuns, LIMITS, reportRuns, runOf, validate, type BakeResult, type JsonRun } from './iso-helpers.js';

/*
 * Resource limits, with test/fixtures/suites/limits (tiny's `add` task; session wall clock 8 s,
 * room for a busy machine to start a bomb (a CI run once saw a memory bomb not stopped in 5 s),
 * memory 256 MiB, 64 processes, 64 MiB workspace quota, 32 MiB /tmp and home). Each hostile agent
 * runs in a bake of its own followed by gold (one run at a time): the hostile run must fail with
 * exactly the expected reason within the wall clock (plus a margin), the gold run after it must be
 * solved, and nothing of the hostile run may be left on the host — no process carrying its marker,
 * no cgroup of the bake, no mount or folder under the bake's scratch root.
 */

const run = promisify(execFile);
const MARGIN_SEC = 5;

interface Controls {
  sessionWallClockSec: number;
  memoryMb: number;
  pids: number;
  diskMb: number;
  tmpMb: number;
  homeMb: number;
}

async function hostProcessesWith(marker: string): Promise<string[]> {
  const { stdout } = await run('ps', ['-eo', 'pid,args'], { maxBuffer: 16 << 20 });
  return stdout.split('\n').filter((l) => l.includes(marker));
}

describe('hostile agents against the resource limits', () => {
  let suite: string;
  let controls: Controls;

  beforeAll(async () => {
    suite = await copySuite(LIMITS);
    controls = (parse(await readFile(path.join(suite, 'suite.yaml'), 'utf8')) as { controls: Controls }).controls;
    expect(controls).toMatchObject({ sessionWallClockSec: 8, memoryMb: 256, pids: 64, diskMb: 64, tmpMb: 32 });
    await validate(suite);
  });

  /** Runs `script` then gold in one bake; checks everything common to all cases. */
  async function hostileThenGold(script: string): Promise<{ hostile: JsonRun; log: string; result: BakeResult; marker: string }> {
    const marker = String(randomInt(100_000_000, 999_999_999));
    const spec = agent(script, marker);
    const out = await tempDir('bakeoff-iso-limits-');
    const result = await bake(suite, [spec, 'gold'], { out, concurrency: 1 });
    expect(result.exitCode, result.stderr).toBe(0);
    const runs = await reportRuns(out);
    const hostile = runOf(runs, spec);
    const gold = runOf(runs, 'gold');
    // the wall clock held (plus a margin for the kill and the sweep)
    expect(hostile.agentSec, `${script} agentSec`).toBeLessThanOrEqual(controls.sessionWallClockSec + MARGIN_SEC);
    // the harness kept going: the gold run, after the hostile one, is solved
    expect(gold.outcome, `gold after ${script}: ${gold.outcomeDetail}`).toBe('solved');
    const times = new Map(dbRuns(out).map((r) => [r.id, r]));
    expect(times.get(gold.id)!.started_at >= times.get(hostile.id)!.finished_at, JSON.stringify([...times.values()])).toBe(true);
    // nothing left behind: the bake did make cgroups and workspace mounts, and removed them all
    expect(result.cgroupsSeen.length, 'cgroups seen while the bake ran').toBeGreaterThan(0);
    expect(result.cgroupsLeft, 'cgroups left').toEqual([]);
    expect(result.mountsSeen.length, 'workspace mounts seen while the bake ran').toBeGreaterThan(0);
    expect(result.mountsLeft, 'mounts left').toEqual([]);
    expect(result.scratchLeft, 'scratch folder left').toBe(false);
    expect(await hostProcessesWith(marker), 'processes left on the host').toEqual([]);
    const { log } = await artifacts(out, hostile.id);
    return { hostile, log, result, marker };
  }

  it('fork bomb: pids-limit, ended at the wall clock', async () => {
    const { hostile, log } = await hostileThenGold('fork-bomb.mjs');
    expect(hostile.outcome).toBe('failed');
    // the bomb never ends by itself; forks refused by the pids cgroup are recorded as pids-limit,
    // which takes precedence over the wall clock that finally ended it (measured: 5.0 s with a 5 s wall clock)
    expect(hostile.failReason, hostile.outcomeDetail ?? '').toBe('pids-limit');
    expect(hostile.agentSec).toBeGreaterThanOrEqual(controls.sessionWallClockSec - 0.5);
    expect(log).toMatch(/fork: (retry: )?Resource temporarily unavailable/);
  });

  it('memory bomb: memory-limit, well before the wall clock', async () => {
    const { hostile, log } = await hostileThenGold('memory-bomb.mjs');
    expect(hostile.outcome).toBe('failed');
    // the log says how far the bomb got when it was not stopped in time
    expect(hostile.failReason, `${hostile.outcomeDetail} after ${hostile.agentSec} s; log:\n${log}`).toBe('memory-limit');
    expect(hostile.agentSec).toBeLessThan(controls.sessionWallClockSec);
    const held = [...log.matchAll(/holding (\d+) MiB/g)].map((m) => Number(m[1]));
    expect(Math.max(0, ...held), log).toBeLessThanOrEqual(controls.memoryMb);
  });

  it('endless busy loop ignoring SIGTERM: session-timeout', async () => {
    const { hostile } = await hostileThenGold('busy-loop.mjs');
    // decision 011: a session out of time while the machine held it back a quarter of its wall
    // time is void machine-starved (redone on resume); with room, a spinning session fails
    const session = hostile.steps.find((s) => s.step === 'session')!;
    expect(session.timedOut).toBe(true);
    const verdict = session.starved ? ['void', 'machine-starved'] : ['failed', 'session-timeout'];
    expect([hostile.outcome, hostile.failReason ?? hostile.voidReason], `${hostile.outcomeDetail}; ${JSON.stringify(session)}`).toEqual(verdict);
    expect(hostile.agentSec).toBeGreaterThanOrEqual(controls.sessionWallClockSec - 0.5);
  });

  it('disk filler: disk-limit; workspace, /tmp and home each stop at their size', async () => {
    const { hostile, log } = await hostileThenGold('disk-filler.mjs');
    expect(hostile.outcome).toBe('failed');
    expect(hostile.failReason, hostile.outcomeDetail ?? '').toBe('disk-limit');
    expect(hostile.agentSec).toBeLessThan(controls.sessionWallClockSec);
    const sizes = Object.fromEntries([...log.matchAll(/SIZE (\S+) (-?\d+)/g)].map((m) => [m[1], Number(m[2])]));
    const MiB = 1024 * 1024;
    expect(sizes['fill.bin'], log).toBeGreaterThan(0);
    expect(sizes['fill.bin'], log).toBeLessThanOrEqual(controls.diskMb * MiB);
    expect(sizes['/tmp/fill.bin'], log).toBeLessThanOrEqual(controls.tmpMb * MiB);
    const home = Object.keys(sizes).find((k) => k.endsWith('/fill.bin') && k !== '/tmp/fill.bin')!;
    expect(sizes[home], log).toBeLessThanOrEqual(controls.homeMb * MiB);
    expect(log).toMatch(/No space left on device/);
  });

  it('orphaned background processes: the run ends at once and none survives', async () => {
    const { hostile, log, marker } = await hostileThenGold('orphan.mjs');
    expect(log).toContain(`left sleep 1000.${marker}`);
    expect(log).toContain('orphan: 2 orphans alive: shell, sleep');
    // the agent exited 0 once both were running; the run did not wait for what it left behind
    // (a sleep of 1000 s would have held it to the 8 s wall clock)
    expect(hostile.agentSec).toBeLessThan(controls.sessionWallClockSec);
    // graded normally: it changed nothing, so the hidden tests fail
    expect(hostile.outcome).toBe('failed');
    expect(hostile.failReason).toBe('tests-failed');
  });
});
