import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { dieWithParent, treeDiesWithParent } from './die-with-parent.js';
import { quoteShellArg } from './shell-quote.js';

/** Pids whose command line holds `token` (the probe's own excluded). */
function processesWith(token: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').includes(token)) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

function commOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
}

async function waitFor(check: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}

/** A shell that starts `argv` in the background (as its own child, the guard naming the shell's pid), then sleeps. */
function parentShell(argv: readonly string[]) {
  const line = argv.map((a) => (a === '__PARENT__' ? '$$' : quoteShellArg(a))).join(' ');
  return spawn('sh', ['-c', `${line} & sleep 60`], { stdio: 'ignore' });
}

function withParentPlaceholder(argv: string[]): string[] {
  const i = argv.indexOf('bakeoff-guard');
  return argv.map((a, j) => (j === i + 1 ? '__PARENT__' : a));
}

describe('dieWithParent', () => {
  it('guarded: kills the program when its parent is SIGKILLed, where a plain child lives on', async () => {
    const guarded = `${30 + Math.random()}`.slice(0, 8);
    const unguarded = `${40 + Math.random()}`.slice(0, 8);
    const parent = parentShell(withParentPlaceholder(dieWithParent(['sleep', guarded], { guard: true, parentPid: 0 })));
    const control = spawn('sh', ['-c', `sleep ${unguarded} & sleep 60`], { stdio: 'ignore' });
    expect(await waitFor(() => processesWith(guarded).length === 1 && processesWith(unguarded).length === 1, 10_000)).toBe(true);
    parent.kill('SIGKILL');
    control.kill('SIGKILL');
    expect(await waitFor(() => processesWith(guarded).length === 0, 10_000)).toBe(true);
    const survivors = processesWith(unguarded);
    expect(survivors).toHaveLength(1);
    for (const pid of survivors) process.kill(pid, 'SIGKILL');
  });

  it('one-shot: kills the program when its parent is SIGKILLed', async () => {
    const token = `${35 + Math.random()}`.slice(0, 8);
    const line = dieWithParent(['sleep', token]).map(quoteShellArg).join(' ');
    const parent = spawn('sh', ['-c', `${line} & sleep 60`], { stdio: 'ignore' });
    // until setpriv has exec'd sleep: before that its own command line holds the token too, and a
    // parent killed before it asks for its death signal is the window this form documents (the guard closes it)
    const sleeping = (): boolean => processesWith(token).some((pid) => commOf(pid) === 'sleep');
    expect(await waitFor(sleeping, 10_000)).toBe(true);
    parent.kill('SIGKILL');
    expect(await waitFor(() => processesWith(token).length === 0, 10_000)).toBe(true);
  });

  it('guarded: never starts the program once the parent it names is gone', () => {
    const [file, ...args] = dieWithParent(['echo', 'started'], { guard: true, parentPid: 1 });
    const run = spawnSync(file!, args, { encoding: 'utf8' });
    expect(run.status).toBe(125);
    expect(run.stdout).toBe('');
  });
});

describe('treeDiesWithParent', () => {
  it('kills every descendant, a setsid one included, when the parent is SIGKILLed', async () => {
    const token = `${50 + Math.random()}`.slice(0, 8);
    const parent = parentShell(withParentPlaceholder(treeDiesWithParent(['sh', '-c', `setsid sleep ${token} & sleep ${token}`])));
    expect(await waitFor(() => processesWith(token).length === 2, 10_000)).toBe(true);
    parent.kill('SIGKILL');
    expect(await waitFor(() => processesWith(token).length === 0, 10_000)).toBe(true);
  });
});
