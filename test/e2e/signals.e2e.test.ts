import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { bakeoff, BIN, ROOT, tempDir } from './helpers.js';
import { validatedTiny } from './tiny-suite.js';

/*
 * Ctrl-C and SIGTERM in the middle of a bake: sent while a sandbox runs (a workspace is
 * mounted under the bake's scratch root), they must leave no mount, cgroup, scratch or temp
 * folder and no process behind, say how to resume (exit 130 / 143), and the same command must
 * then finish the bake with the runs that were done kept.
 */

const scratchOf = (results: string): string =>
  path.join(os.tmpdir(), 'bakeoff-scratch', createHash('sha256').update(`bake ${results}`).digest('hex').slice(0, 16));

async function mountsUnder(dir: string): Promise<string[]> {
  return (await readFile('/proc/self/mountinfo', 'utf8')).split('\n').map((l) => l.split(' ')[4] ?? '').filter((p) => p.startsWith(dir));
}

async function cgroupsOf(pid: number): Promise<string[]> {
  const found: string[] = [];
  for (const parent of ['/sys/fs/cgroup/memory/bakeoff', '/sys/fs/cgroup/pids/bakeoff', '/sys/fs/cgroup/bakeoff']) {
    for (const name of await readdir(parent).catch(() => [] as string[])) if (name.startsWith(`${pid}-`)) found.push(path.join(parent, name));
  }
  return found;
}

/** Starts a bake of gold and noop and returns once a sandbox is at work (a workspace mounted under the bake's scratch root). */
async function bakeAtWork(suite: string) {
  const results = path.join(await tempDir(), 'results');
  const args = ['run', suite, '--agent', 'gold', '--agent', 'noop', '--out', results];
  const child = execa(process.execPath, [BIN, ...args], { cwd: ROOT, env: { NO_COLOR: '1' }, reject: false });
  const scratch = scratchOf(results);
  const deadline = performance.now() + 120_000;
  while ((await mountsUnder(scratch + '/')).length === 0) {
    expect(performance.now() < deadline, 'no workspace was mounted within 2 minutes').toBe(true);
    await sleep(50);
  }
  return { results, args, child, scratch };
}

describe('a signal in the middle of a bake', () => {
  let suite: string;

  beforeAll(async () => {
    suite = await validatedTiny();
  });

  for (const [signal, exitCode] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
    it(`${signal}: cleans up everything, exits ${exitCode} with the resume command, and the same command finishes the bake`, async () => {
      const { results, args, child, scratch } = await bakeAtWork(suite);
      child.kill(signal);
      const ended = await child;
      expect(ended.exitCode, String(ended.stderr)).toBe(exitCode);
      expect(ended.stderr).toContain(`bakeoff: ${signal}: stopping`);
      const stopped = /bakeoff: stopped: (\d+) of 8 runs stored, (\d+) of them by this command; every run that finished is kept; to resume, run the same command again:\n {2}(.*)$/.exec(String(ended.stderr));
      expect(stopped, String(ended.stderr)).not.toBeNull();
      // the command as it was typed: here `node bin/bakeoff.js …` (under npx, `npx bakeoff …`)
      expect(stopped![3]).toBe(`${process.env.npm_command === 'exec' ? 'npx bakeoff' : `node ${path.relative(ROOT, BIN)}`} ${args.join(' ')}`);
      expect(String(ended.stderr)).not.toMatch(/internal error|\n\s+at /);
      // nothing left: mounts, scratch root, cgroups, temp artifacts folders, sandbox processes
      expect(await mountsUnder(scratch)).toEqual([]);
      expect(existsSync(scratch)).toBe(false);
      expect(await cgroupsOf(child.pid!)).toEqual([]);
      expect((await readdir(path.join(results, 'runs'))).filter((n) => n.startsWith('.tmp-'))).toEqual([]);
      const { stdout: ps } = await execa('ps', ['-eo', 'args']);
      expect(ps.split('\n').filter((l) => l.startsWith('bwrap') && l.includes(scratch))).toEqual([]);
      // the same command resumes and finishes: 2 tasks × 2 agents × 2 runs
      const resumed = await bakeoff(args);
      expect(resumed.exitCode, resumed.stderr).toBe(0);
      const done = /\((\d+) run\(s\) this time, (\d+) already done\)/.exec(resumed.stdout);
      expect(done, resumed.stdout).not.toBeNull();
      expect(Number(done![1]) + Number(done![2])).toBe(8);
      // what the stop said was stored is what the resume found done
      expect(Number(done![2])).toBe(Number(stopped![1]));
      expect(Number(stopped![2])).toBe(Number(stopped![1]));
      const report = await bakeoff(['report', results, '--format', 'json']);
      expect(report.exitCode, report.stderr).toBe(0);
      const agents = (JSON.parse(report.stdout) as { agents: { id: string; runs: number }[] }).agents;
      expect(agents.map((a) => [a.id, a.runs]).sort()).toEqual([['gold', 4], ['noop', 4]]);
    });
  }

  it('a second Ctrl-C quits at once, and the same command then finishes the bake and clears what was left', async () => {
    const { results, args, child, scratch } = await bakeAtWork(suite);
    let said = '';
    child.stderr!.on('data', (chunk: Buffer) => (said += chunk.toString()));
    child.kill('SIGINT');
    // the second as soon as the first is being handled
    while (!said.includes('SIGINT: stopping')) await sleep(5);
    const second = performance.now();
    child.kill('SIGINT');
    const ended = await child;
    expect(ended.exitCode, String(ended.stderr)).toBe(130);
    expect(ended.stderr).toContain('bakeoff: SIGINT again: quitting now; the next bakeoff command clears what is left');
    expect(performance.now() - second).toBeLessThan(5000);
    const resumed = await bakeoff(args);
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(resumed.stdout).toMatch(/\(\d+ run\(s\) this time, \d+ already done\)/);
    // the resume's own sweep took what the quit left: nothing of the killed bake remains
    expect(await mountsUnder(scratch)).toEqual([]);
    expect(await cgroupsOf(child.pid!)).toEqual([]);
    expect((await readdir(path.join(results, 'runs'))).filter((n) => n.startsWith('.tmp-'))).toEqual([]);
  });
});
