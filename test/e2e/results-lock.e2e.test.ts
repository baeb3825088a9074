import { spawn } from 'node:child_process';
import { mkdirSync, openSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { admitOnly, bakeoff, BIN, copySuite, tempDir } from './helpers.js';
import { describeProcesses, isRunning, parentOf, processesOf, processesWith, storedRuns, waitFor } from './process-helpers.js';
import { validatedTiny } from './tiny-suite.js';

/*
 * One bakeoff per results folder, and no process left behind: real bakes of the tiny suite's
 * JavaScript task (a copy of the shared validated suite whose lock admits `add` only: the lock,
 * the holder and the processes are the same for one task as for two, and each graded run fewer
 * is CPU saved) with `command:` agents that sleep (each bake's sleep has its own duration, a
 * token to find its processes by), killed with SIGKILL at the moments the issue describes.
 */

let suite: string;
beforeAll(async () => {
  suite = await copySuite(await validatedTiny());
  await admitOnly(suite, ['add']);
}, 600_000);

let tokens = 0;
/** A sleep duration no other process on the machine uses. */
function token(): string {
  return `${60 + (process.pid % 1000) / 1000 + ++tokens / 1_000_000}`.slice(0, 10);
}

function holderPid(out: string): number | null {
  try {
    return (JSON.parse(readFileSync(path.join(out, 'holder.json'), 'utf8')) as { pid: number }).pid;
  } catch {
    return null;
  }
}

/** A bake started in the background, its output to a file (it may outlive its parent). */
function startBake(argv: readonly string[], options: { cwd?: string } = {}) {
  const log = path.join(os.tmpdir(), `bakeoff-lock-e2e-${process.pid}-${++tokens}.log`);
  const fd = openSync(log, 'w');
  const child = spawn(argv[0]!, argv.slice(1), { cwd: options.cwd ?? process.cwd(), stdio: ['ignore', fd, fd] });
  return { child, log };
}

function expectEveryRunOnceNoneVoid(out: string, planned: number): void {
  const runs = storedRuns(path.join(out, 'bakeoff.db'));
  expect(runs).toHaveLength(planned);
  expect(new Set(runs.map((r) => r.id)).size).toBe(planned);
  expect(runs.filter((r) => r.outcome === 'void').map((r) => `${r.task}: ${r.reason}`)).toEqual([]);
}

describe('one bakeoff per results folder', () => {
  it('refuses a second run at once, naming the holder; the holder, SIGKILLed mid-session, leaves no process behind', async () => {
    const out = await tempDir();
    const sleep = token();
    const first = startBake([process.execPath, BIN, 'run', suite, '--agent', `command:sleep ${sleep}`, '--runs', '1', '--out', out, '--json']);
    expect(await waitFor(() => processesOf('sleep', sleep).length > 0, 60_000)).toBe(true);
    const holder = holderPid(out);
    expect(holder).toBe(first.child.pid);

    const started = Date.now();
    const second = await bakeoff(['run', suite, '--agent', 'noop', '--runs', '1', '--out', out]);
    const refusedInMs = Date.now() - started;
    expect(second.exitCode, second.stderr).toBe(2);
    expect(refusedInMs).toBeLessThan(15_000); // a CLI start on a busy machine, not a wait for the bake (its sessions sleep a minute)
    expect(second.stderr).toContain(`is in use by another bakeoff: pid ${holder} on host ${os.hostname()} (bakeoff run, started `);
    expect(second.stderr).toContain(`command:sleep ${sleep}`);
    expect(second.stderr).toContain('--wait');
    expect(second.stderr).toContain(`kill ${holder}`);

    const report = await bakeoff(['report', out]);
    expect(report.stderr).toContain(`a bake is still running in ${out} (pid ${holder}`);

    first.child.kill('SIGKILL');
    expect(await waitFor(() => processesWith(sleep).length === 0, 30_000), `survivors:\n${describeProcesses(processesWith(sleep))}`).toBe(true);
  });

  it('without the sandbox too, a SIGKILLed bake leaves no process behind, a setsid one included', async () => {
    const out = await tempDir();
    const sleep = token();
    const bake = startBake([process.execPath, BIN, 'run', suite, '--agent', `command:setsid sleep ${sleep} & sleep ${sleep}`, '--runs', '1', '--out', out, '--json', '--unsafe-no-sandbox']);
    expect(await waitFor(() => processesOf('sleep', sleep).length >= 2, 60_000)).toBe(true);
    bake.child.kill('SIGKILL');
    expect(await waitFor(() => processesWith(sleep).length === 0, 30_000), `survivors:\n${describeProcesses(processesWith(sleep))}`).toBe(true);
  });

  it('lets exactly one of several bakes racing for a stale lock win', async () => {
    const out = await tempDir();
    const dead = spawn('true');
    await new Promise((resolve) => dead.once('exit', resolve));
    mkdirSync(out, { recursive: true });
    const stale = {
      schemaVersion: 1, pid: dead.pid, startTicks: '1', bootId: readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim(), host: os.hostname(),
      command: 'run', argv: ['node', 'bakeoff', 'run'], cwd: '/', startedAt: '2025-01-01T00:00:00.000Z', since: '2025-01-01T00:00:00.000Z',
    };
    writeFileSync(path.join(out, 'holder.json'), JSON.stringify(stale));
    const sleep = token();
    const args = ['run', suite, '--agent', `command:sleep ${Number(sleep) - 52}`, '--runs', '1', '--out', out, '--json'];
    const results = await Promise.all([0, 1, 2].map(() => bakeoff(args)));
    const codes = results.map((r) => r.exitCode).sort();
    expect(codes, results.map((r) => r.stderr).join('\n')).toEqual([0, 2, 2]);
    const winner = results.find((r) => r.exitCode === 0)!;
    const summary = JSON.parse(winner.stdout) as { notes: string[]; ran: number };
    expect(summary.ran).toBe(1);
    expect(summary.notes.some((n) => n.includes(`took over the lock of ${out} from pid ${dead.pid} `) && n.includes('no longer running'))).toBe(true);
    for (const loser of results.filter((r) => r.exitCode === 2)) expect(loser.stderr).toContain('is in use by another bakeoff: pid ');
    expectEveryRunOnceNoneVoid(out, 1);
  });
});

// Each of these bakes a `command:sleep` of about 25 s (the npx one about 15 s) after the orphan,
// one run at a time on a busy machine: in a full run beside busy-machine.e2e's loops (host
// pressure 0.99), a pytest run took 48 s of wall clock for 2 s of CPU, and the shell case (then
// on two tasks) took 260 s in all. Every wait inside has its own deadline; this is only the whole test's.
const ORPHAN_TEST_MS = 480_000;

describe('kill -9 of the parent of bakeoff run', () => {
  it('from a shell: the orphan keeps the folder, a re-run is refused, and once it is killed a resume records every run once, none void', async () => {
    const out = await tempDir();
    const sleep = `${Number(token()) - 35}`; // long enough to outlive the re-run, short for the resume
    const args = ['run', suite, '--agent', `command:sleep ${sleep}`, '--agent', 'noop', '--runs', '1', '--out', out, '--json'];
    const quoted = [process.execPath, BIN, ...args].map((a) => `'${a.replaceAll("'", `'\\''`)}'`).join(' ');
    const shell = startBake(['sh', '-c', `${quoted}; echo bakeoff ended`]);
    expect(await waitFor(() => holderPid(out) !== null && processesWith(sleep).length > 1, 60_000)).toBe(true);
    const orphan = holderPid(out)!;
    expect(parentOf(orphan)).toBe(shell.child.pid);
    shell.child.kill('SIGKILL');
    expect(await waitFor(() => parentOf(orphan) !== shell.child.pid, 10_000)).toBe(true);
    expect(isRunning(orphan)).toBe(true);

    const rerun = await bakeoff(args);
    expect(rerun.exitCode, rerun.stderr).toBe(2);
    expect(rerun.stderr).toContain(`pid ${orphan} on host ${os.hostname()}`);
    expect(rerun.stderr).toContain(`kill ${orphan}`);
    expect(isRunning(orphan)).toBe(true);

    process.kill(orphan, 'SIGKILL');
    expect(await waitFor(() => !isRunning(orphan) && processesWith(sleep).length === 0, 30_000), `survivors:\n${describeProcesses(processesWith(sleep))}\norphan: ${describeProcesses([orphan])}`).toBe(true);
    const resumed = await bakeoff(args);
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    const summary = JSON.parse(resumed.stdout) as { planned: number; alreadyDone: number; ran: number; notes: string[] };
    expect(summary.planned).toBe(2);
    expect(summary.alreadyDone + summary.ran).toBe(2);
    expect(summary.notes.some((n) => n.includes(`from pid ${orphan} `))).toBe(true);
    expectEveryRunOnceNoneVoid(out, 2);
  }, ORPHAN_TEST_MS);

  it('from npx: a re-run with --wait waits for the orphan to finish, then completes the bake: every run once, none void', async () => {
    const project = await tempDir();
    writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'evals', version: '1.0.0', private: true }));
    mkdirSync(path.join(project, 'node_modules/.bin'), { recursive: true });
    symlinkSync(BIN, path.join(project, 'node_modules/.bin/bakeoff'));
    const out = path.join(project, 'results');
    const sleep = token();
    // one run of about 15 s, a duration no other process sleeps: the waiter starts once the orphan's
    // session is seen sleeping, and its npx has seconds to spare to find the folder still held
    const seconds = String(Number(sleep) - 45);
    const agent = `command:sleep ${seconds}`;
    const npx = startBake(['npx', '--no-install', 'bakeoff', 'run', suite, '--agent', agent, '--runs', '1', '--out', out, '--json'], { cwd: project });
    expect(await waitFor(() => holderPid(out) !== null, 60_000)).toBe(true);
    const orphan = holderPid(out)!;
    expect(orphan).not.toBe(npx.child.pid);
    npx.child.kill('SIGKILL');
    expect(await waitFor(() => !isRunning(npx.child.pid!), 10_000)).toBe(true);
    expect(isRunning(orphan)).toBe(true);
    expect(await waitFor(() => processesWith(seconds).length > 0, 120_000), 'the orphan\'s session is sleeping').toBe(true);

    const waiter = await execa('npx', ['--no-install', 'bakeoff', 'run', suite, '--agent', agent, '--runs', '2', '--out', out, '--json', '--wait'], { cwd: project, reject: false });
    expect(waiter.exitCode, String(waiter.stderr)).toBe(0);
    expect(String(waiter.stderr)).toContain(`is in use by pid ${orphan} on host ${os.hostname()}`);
    expect(String(waiter.stderr)).toContain('waiting for it to finish');
    expect(isRunning(orphan)).toBe(false);
    const summary = JSON.parse(String(waiter.stdout)) as { planned: number; alreadyDone: number; ran: number; notes: string[] };
    expect(summary).toMatchObject({ planned: 2, alreadyDone: 1, ran: 1 });
    expect(summary.notes.some((n) => n.includes('took over'))).toBe(false); // the orphan ended and let go
    expectEveryRunOnceNoneVoid(out, 2);
  }, ORPHAN_TEST_MS);
});
