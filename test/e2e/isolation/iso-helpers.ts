import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { lstat, readdir, readFile, readlink } from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import { execa } from 'execa';
import { bakeoff, BIN, FIXTURES, ROOT } from '../helpers.js';

export const HOSTILE = path.join(FIXTURES, 'hostile-isolation');
export const TINY = path.join(FIXTURES, 'suites/tiny');
export const LIMITS = path.join(FIXTURES, 'suites/limits');

/** `command:node <script> <args>` for a script of test/fixtures/hostile-isolation. */
export function agent(script: string, ...args: readonly (string | number)[]): string {
  return `command:${['node', path.join(HOSTILE, script), ...args.map(String)].join(' ')}`;
}

/** base64url JSON: a way to hand an agent host paths without naming them on its command line. */
export function encodeArg(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

const CGROUP_HIERARCHIES = ['memory', 'pids', 'cpu', 'freezer'];

/** The bake's scratch root: run-bake.ts uses scratchRoot(`bake ${results dir}`). */
export function bakeScratch(out: string): string {
  return path.join('/tmp/bakeoff-scratch', createHash('sha256').update(`bake ${path.resolve(out)}`).digest('hex').slice(0, 16));
}

/** cgroups (v1) of one bakeoff process: the sandbox names them `<pid>-<n>-<hex>`. */
export async function cgroupsOf(pid: number): Promise<string[]> {
  const found: string[] = [];
  for (const h of CGROUP_HIERARCHIES) {
    const dir = `/sys/fs/cgroup/${h}/bakeoff`;
    for (const name of await readdir(dir).catch(() => [] as string[])) {
      if (name.startsWith(`${pid}-`)) found.push(`${h}/bakeoff/${name}`);
    }
  }
  return found;
}

/** Mount points at or under `dir` in the host's mount table. */
export async function mountsUnder(dir: string): Promise<string[]> {
  const text = await readFile('/proc/self/mountinfo', 'utf8');
  return text
    .split('\n')
    .map((line) => line.split(' ')[4] ?? '')
    .filter((p) => p === dir || p.startsWith(dir + '/'));
}

export interface BakeResult {
  readonly exitCode: number | undefined;
  readonly stdout: string;
  readonly stderr: string;
  readonly pid: number;
  readonly wallSec: number;
  /** cgroups of this bake seen while it ran (proves the leftover check is not vacuous). */
  readonly cgroupsSeen: readonly string[];
  /** Mounts under the bake's scratch root seen while it ran. */
  readonly mountsSeen: readonly string[];
  /** Left behind once the CLI exited. */
  readonly cgroupsLeft: readonly string[];
  readonly mountsLeft: readonly string[];
  readonly scratchLeft: boolean;
}

/**
 * `bakeoff run <suite> --agent …` with the given agents, in order; watches the bake's cgroups and
 * workspace mounts while it runs and reports what is left of them afterwards.
 */
export async function bake(
  suite: string,
  agents: readonly string[],
  options: { out: string; concurrency?: number; env?: Record<string, string>; extra?: readonly string[] },
): Promise<BakeResult> {
  const args = ['run', suite, ...agents.flatMap((a) => ['--agent', a]), '--runs', '1', '--out', options.out, '--json'];
  if (options.concurrency) args.push('--concurrency', String(options.concurrency));
  args.push(...(options.extra ?? []));
  const started = performance.now();
  const child = execa('node', [BIN, ...args], { cwd: ROOT, env: { NO_COLOR: '1', ...options.env }, reject: false });
  const pid = child.pid!;
  const scratch = bakeScratch(options.out);
  const cgroupsSeen = new Set<string>();
  const mountsSeen = new Set<string>();
  let running = true;
  const watcher = (async () => {
    while (running) {
      for (const c of await cgroupsOf(pid)) cgroupsSeen.add(c);
      for (const m of await mountsUnder(scratch)) mountsSeen.add(m);
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  const result = await child;
  running = false;
  await watcher;
  return {
    exitCode: result.exitCode,
    stdout: String(result.stdout),
    stderr: String(result.stderr),
    pid,
    wallSec: (performance.now() - started) / 1000,
    cgroupsSeen: [...cgroupsSeen],
    mountsSeen: [...mountsSeen],
    cgroupsLeft: await cgroupsOf(pid),
    mountsLeft: await mountsUnder(scratch),
    scratchLeft: existsSync(scratch),
  };
}

/** `bakeoff validate <suite>`; throws unless every task is admitted and the admission runs left no cgroup. */
export async function validate(suite: string, env?: Record<string, string>): Promise<void> {
  const child = execa('node', [BIN, 'validate', suite], { cwd: ROOT, env: { NO_COLOR: '1', ...env }, reject: false });
  const v = await child;
  if (v.exitCode !== 0) throw new Error(`validate ${suite} failed (${v.exitCode}):\n${String(v.stdout)}\n${String(v.stderr)}`);
  const left = await cgroupsOf(child.pid!);
  if (left.length > 0) throw new Error(`validate ${suite} left cgroups behind: ${left.join(', ')}`);
}

export interface JsonRun {
  id: string;
  task: string;
  agent: string;
  outcome: 'solved' | 'failed' | 'void';
  failReason: string | null;
  voidReason: string | null;
  outcomeDetail: string | null;
  agentSec: number;
  linesAdded: number;
  /** What the machine gave each session and test run (decision 011). */
  steps: { step: 'session' | 'tests'; timedOut: boolean; heldMs: number; wallMs: number; starved: boolean }[];
}

export async function reportRuns(out: string): Promise<JsonRun[]> {
  const r = await bakeoff(['report', out, '--format', 'json']);
  if (r.exitCode !== 0) throw new Error(`report ${out} failed: ${r.stderr}`);
  return (JSON.parse(r.stdout) as { runs: JsonRun[] }).runs;
}

/** The one run of `agentSpec` (the report shows the agent id, i.e. the spec). */
export function runOf(runs: readonly JsonRun[], agentSpec: string, task?: string): JsonRun {
  const found = runs.filter((r) => r.agent === agentSpec && (task === undefined || r.task === task));
  if (found.length !== 1) throw new Error(`expected one run of ${agentSpec}${task ? ` on ${task}` : ''}, found ${found.length}: ${JSON.stringify(runs)}`);
  return found[0]!;
}

/** agent.log and change.patch of a run's first order ('' when absent). */
export async function artifacts(out: string, runId: string): Promise<{ log: string; patch: string }> {
  const dir = path.join(out, 'runs', runId, 'order-1');
  return {
    log: await readFile(path.join(dir, 'agent.log'), 'utf8').catch(() => ''),
    patch: await readFile(path.join(dir, 'change.patch'), 'utf8').catch(() => ''),
  };
}

/** The JSON a probe agent printed (its whole stdout). */
export async function probeOutput<T = Record<string, unknown>>(out: string, runId: string): Promise<T> {
  const { log } = await artifacts(out, runId);
  try {
    return JSON.parse(log) as T;
  } catch {
    throw new Error(`the probe's agent.log is not its JSON report:\n${log.slice(0, 4000)}`);
  }
}

export interface DbRun {
  id: string;
  started_at: string;
  finished_at: string;
}

export function dbRuns(out: string): DbRun[] {
  const db = new Database(path.join(out, 'bakeoff.db'), { readonly: true });
  try {
    return db.prepare('SELECT id, started_at, finished_at FROM runs').all() as DbRun[];
  } finally {
    db.close();
  }
}

export function dbChecks(out: string, runId: string): { check_id: string; expected: string; status: string }[] {
  const db = new Database(path.join(out, 'bakeoff.db'), { readonly: true });
  try {
    return db.prepare('SELECT check_id, expected, status FROM checks WHERE run_id = ? ORDER BY check_id').all(runId) as {
      check_id: string;
      expected: string;
      status: string;
    }[];
  } finally {
    db.close();
  }
}

/** sha256 over every entry of a tree: relative path, type, mode, owner, size and content or link target. */
export async function hashTree(root: string): Promise<{ digest: string; entries: number }> {
  const hash = createHash('sha256');
  let entries = 0;
  const walk = async (dir: string): Promise<void> => {
    for (const name of (await readdir(dir)).sort()) {
      const p = path.join(dir, name);
      const st = await lstat(p);
      const rel = path.relative(root, p);
      entries++;
      hash.update(`${rel}\0${st.mode}\0${st.uid}:${st.gid}\0${st.size}\0`);
      if (st.isSymbolicLink()) hash.update(await readlink(p));
      else if (st.isFile()) hash.update(await readFile(p));
      else if (st.isDirectory()) await walk(p);
      hash.update('\0');
    }
  };
  await walk(root);
  return { digest: hash.digest('hex'), entries };
}
