import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { chmod, mkdir, rm, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { currentProcess } from '../../src/util/index.js';
import { BIN, copySuite, FIXTURES, ROOT, tempDir } from './helpers.js';
import { waitFor } from './process-helpers.js';

/*
 * What a bakeoff killed with SIGKILL leaves (scratch roots with overlay and tmpfs mounts,
 * cgroups, half-written runs) is cleared by the next bakeoff command of any kind, and `bakeoff
 * doctor` lists what remains and cleans it on request. Each bakeoff here runs with a private
 * TMPDIR, so its scratch roots are its own: no other test's bakeoff sweeps them meanwhile.
 */

interface DoctorJson {
  leftovers: { items: { kind: string; path: string; description: string; stale: boolean; cleaned?: boolean }[]; resultsNote?: string };
}

async function privateTmp(): Promise<string> {
  const dir = await tempDir('bakeoff-leftovers-');
  await chmod(dir, 0o711); // the sandbox uid traverses into its scratch roots
  return dir;
}

function bakeoffIn(tmp: string, args: readonly string[]) {
  return execa(process.execPath, [BIN, ...args], { cwd: ROOT, env: { NO_COLOR: '1', TMPDIR: tmp }, reject: false });
}

function mountsUnder(dir: string): string[] {
  return readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .map((line) => line.split(' ')[4] ?? '')
    .filter((p) => p === dir || p.startsWith(dir + '/'));
}

function rootsIn(base: string): string[] {
  return existsSync(base) ? readdirSync(base).filter((n) => !n.endsWith('.owner')) : [];
}

/** Command cgroups (v1: the memory hierarchy; v2: the unified one) whose name starts with `pid-`. */
function cgroupsOf(pid: number): string[] {
  const parents = ['/sys/fs/cgroup/memory/bakeoff', '/sys/fs/cgroup/bakeoff'];
  return parents.flatMap((p) => (existsSync(p) ? readdirSync(p).filter((n) => n.startsWith(`${pid}-`)).map((n) => path.join(p, n)) : []));
}

function alive(pid: number): boolean {
  try {
    const state = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0];
    return state !== 'Z';
  } catch {
    return false;
  }
}

describe('leftovers of killed bakeoffs', () => {
  it('a validate killed with SIGKILL mid-admission leaves mounts; doctor lists them as stale and the next command of any kind clears them', async () => {
    const tmp = await privateTmp();
    const base = path.join(tmp, 'bakeoff-scratch');
    const suite = await copySuite(path.join(FIXTURES, 'suites/tiny'));
    // Every test stage of admission lasts seconds, so the mount seen below is still there when
    // the kill lands: with the tiny task's millisecond stages, the stage seen could unmount
    // between the look and the kill on a busy machine, and nothing was left to clear.
    await rm(path.join(suite, 'tasks/py-add'), { recursive: true });
    await writeFile(
      path.join(suite, 'tasks/add/repo/test/slow.test.mjs'),
      "import test from 'node:test';\ntest('takes a few seconds', async () => { await new Promise((r) => setTimeout(r, 5000)); });\n",
    );
    const validate = spawn(process.execPath, [BIN, 'validate', suite, '--json'], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1', TMPDIR: tmp }, stdio: 'ignore' });
    const pid = validate.pid!;
    const exited = new Promise((resolve) => validate.once('exit', resolve));
    // admission is under way once a workspace overlay (or bounded tmpfs) is mounted in its scratch root
    expect(await waitFor(() => mountsUnder(base).length > 0, 120_000)).toBe(true);
    validate.kill('SIGKILL');
    await exited;
    const mounts = mountsUnder(base);
    expect(mounts.length).toBeGreaterThan(0);
    expect(rootsIn(base).length).toBeGreaterThan(0);

    const doctor = await bakeoffIn(tmp, ['doctor', '--json']);
    expect((JSON.parse(doctor.stdout) as { schemaVersion: number }).schemaVersion).toBe(1);
    const listed = (JSON.parse(doctor.stdout) as DoctorJson).leftovers.items.filter((i) => i.kind === 'scratch');
    expect(listed.length).toBeGreaterThan(0);
    for (const item of listed) {
      expect(item.path.startsWith(base + '/')).toBe(true);
      expect(item.stale).toBe(true);
      expect(item.description).toContain(`owner pid ${pid}, gone`);
    }
    expect(listed.some((i) => /[1-9]\d* mounts?/.test(i.description))).toBe(true);
    // doctor only looks: the mounts are still there
    expect(mountsUnder(base).length).toBeGreaterThan(0);

    // any command clears them, even one that never touches a sandbox
    const agents = await bakeoffIn(tmp, ['agents', '--json']);
    expect(agents.exitCode).toBe(0);
    expect(agents.stderr).toBe('');
    expect(mountsUnder(base)).toEqual([]);
    expect(rootsIn(base)).toEqual([]);
    expect(cgroupsOf(pid)).toEqual([]);
  }, 300_000);

  it('doctor --clean removes an old ownerless scratch root (unmounting it), a dead bakeoff\'s cgroup (killing what runs in it) and half-written runs, and keeps a live one\'s', async () => {
    const tmp = await privateTmp();
    const base = path.join(tmp, 'bakeoff-scratch');
    await mkdir(base, { recursive: true, mode: 0o711 });
    // a root from a bakeoff older than owner files, an hour untouched, with a tmpfs in it
    const ownerless = path.join(base, 'a1b2c3d4e5f60718');
    await mkdir(path.join(ownerless, 'm'), { recursive: true });
    await execa('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'bakeoff-leftover-test', path.join(ownerless, 'm')]);
    const hourAgo = new Date(Date.now() - 3600_000);
    await utimes(ownerless, hourAgo, hourAgo);
    // a root whose owner (this test) runs
    const live = path.join(base, 'f0e1d2c3b4a59687');
    await mkdir(live);
    await writeFile(`${live}.owner`, JSON.stringify(currentProcess()));
    // a bakeoff that is gone: its cgroup and its half-written run
    const dead = execa('true');
    const deadPid = dead.pid!;
    await dead;
    const groups = ['memory', 'pids', 'cpu', 'freezer'].map((c) => `/sys/fs/cgroup/${c}/bakeoff/${deadPid}-leftover-test`);
    let sleeper: ChildProcess | undefined;
    // a results folder with a run its bakeoff did not finish writing
    const results = await tempDir();
    await writeFile(path.join(results, 'bakeoff.db'), '');
    const halfWritten = path.join(results, 'runs', `.tmp-deadbeef-${deadPid}-1`);
    await mkdir(halfWritten, { recursive: true });
    await writeFile(path.join(halfWritten, 'change.patch'), 'partial');

    try {
      // the next command of any kind leaves what it cannot judge: the ownerless root stays
      expect((await bakeoffIn(tmp, ['agents', '--json'])).exitCode).toBe(0);
      expect(existsSync(ownerless)).toBe(true);
      expect(mountsUnder(ownerless).length).toBe(1);

      // a cgroup of a bakeoff that is gone, with a process still in it (made after that command's sweep)
      sleeper = spawn('sleep', ['600'], { stdio: 'ignore', detached: true });
      for (const group of groups) {
        await mkdir(group, { recursive: true });
        await writeFile(path.join(group, 'cgroup.procs'), String(sleeper.pid));
      }

      const look = await bakeoffIn(tmp, ['doctor', '--results', results]);
      expect(look.stdout).toMatch(/leftovers of killed bakeoffs/);
      expect(look.stdout).toContain(`stale   ${ownerless} (scratch root; 1 mount; no owner file)`);
      expect(look.stdout).toContain(`in use  ${live} (scratch root; 0 mounts; owner pid ${process.pid}, running)`);
      expect(look.stdout).toContain(`stale   ${halfWritten} (a half-written run folder`);
      expect(look.stdout).toMatch(/bakeoff doctor --clean removes the \d+ stale ones?/);
      expect(existsSync(halfWritten)).toBe(true);
      // any bakeoff starting meanwhile (another test's) sweeps a dead pid's group: while it is still there after doctor, doctor listed it
      if (groups.every((g) => existsSync(g))) expect(look.stdout).toContain(`stale   ${groups[0]} (cgroup; 1 process; creator pid ${deadPid}, gone)`);

      const notResults = await bakeoffIn(tmp, ['doctor', '--results', tmp]);
      expect(notResults.exitCode).toBe(2);
      expect(notResults.stderr).toContain(`${tmp}: not a results folder (no bakeoff.db)`);

      const clean = await bakeoffIn(tmp, ['doctor', '--clean', '--results', results, '--json']);
      expect(clean.exitCode, clean.stderr).toBe(0);
      const items = (JSON.parse(clean.stdout) as DoctorJson).leftovers.items;
      expect(items.find((i) => i.path === ownerless)).toMatchObject({ stale: true, cleaned: true });
      expect(items.find((i) => i.path === live)).toMatchObject({ stale: false, cleaned: false });
      expect(items.find((i) => i.path === halfWritten)).toMatchObject({ kind: 'run-temp', cleaned: true });
      const group = items.find((i) => i.path === groups[0]);
      if (group) expect(group).toMatchObject({ kind: 'cgroup', stale: true, cleaned: true });
      expect(existsSync(ownerless)).toBe(false);
      expect(mountsUnder(ownerless)).toEqual([]);
      expect(existsSync(live)).toBe(true);
      expect(existsSync(halfWritten)).toBe(false);
      // the dead bakeoff's group: emptied and removed, by this doctor or by any bakeoff that started meanwhile
      expect(await waitFor(() => !alive(sleeper!.pid!), 10_000)).toBe(true);
      expect(groups.filter((g) => existsSync(g))).toEqual([]);
    } finally {
      try {
        if (sleeper) process.kill(sleeper.pid!, 'SIGKILL');
      } catch {
        // gone, as it should be
      }
    }
  }, 120_000);
});
