import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, lstat, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { execa } from 'execa';
import { expect } from 'vitest';
import type { Attack } from './hostile-battery-attacks.js';
import { admitOnly, bakeoff, BIN, FIXTURES, ROOT } from './helpers.js';
import { bakeScratch } from './isolation/iso-helpers.js';
import { sharedSuite } from './shared-suite.js';

export { bakeScratch };

/*
 * Helpers of the hostile battery (hostile-battery.e2e.test.ts): the battery suite, bakes with
 * many `command:` attack agents, and what a bake left behind.
 */

export const BATTERY = path.join(FIXTURES, 'hostile-battery');
/** controls.memoryMb of the battery's suites: what grading-memory-hog.mjs fills, per run. */
export const BATTERY_MEMORY_MB = 1024;
const KIT = path.join(BATTERY, 'kit.mjs');
/** `command:node <battery>/<script> <battery>/kit.mjs [<battery>/<extra>…]` (named files are shown to the agent). */
export function attackAgent(script: string, ...extra: readonly string[]): string {
  return `command:${['node', path.join(BATTERY, script), KIT, ...extra.map((e) => path.join(BATTERY, e))].join(' ')}`;
}

/** The attack script an agent id runs (`framework-at-import.mjs`), or the id itself for gold/noop. */
export function scriptOf(agentId: string): string {
  const match = /hostile-battery\/([^ /]+\.mjs)/.exec(agentId);
  return match ? match[1]! : agentId;
}

/**
 * The battery suite: a temp copy of examples/starter plus the jest task of
 * test/fixtures/tasks, validated (`bakeoff validate` must admit all five, gold included).
 * Validated once per test run for the three battery files (sharedSuite); each gets its own copy.
 */
export async function batterySuite(make: (prefix: string) => Promise<string>): Promise<string> {
  return sharedSuite('battery', async (dir) => {
    await cp(path.join(ROOT, 'examples/starter'), dir, { recursive: true });
    await rm(path.join(dir, 'bakeoff.lock.json'), { force: true });
    // grading-memory-hog.mjs fills whatever memory a run has: keep that small on a shared machine
    const yaml = await readFile(path.join(dir, 'suite.yaml'), 'utf8');
    await writeFile(path.join(dir, 'suite.yaml'), yaml.replace(/^controls:\n/m, `controls:\n  memoryMb: ${BATTERY_MEMORY_MB}\n`));
    await cp(path.join(FIXTURES, 'tasks/bytes-rollover'), path.join(dir, 'tasks/bytes-rollover'), { recursive: true });
    const v = await bakeoff(['validate', dir]);
    if (v.exitCode !== 0) throw new Error(`validate ${dir} failed (${v.exitCode}):\n${v.stdout}\n${v.stderr}`);
  }, path.join(await make('bakeoff-battery-suite-'), 'starter'));
}

/**
 * A copy of a validated suite whose lock admits only `tasks`: the suite (and its hash) is
 * unchanged, so `bakeoff run` accepts the lock and runs only those tasks.
 */
export async function suiteWithTasks(make: (prefix: string) => Promise<string>, suite: string, tasks: readonly string[]): Promise<string> {
  const dir = path.join(await make('bakeoff-battery-suite-'), 'starter');
  await cp(suite, dir, { recursive: true });
  await admitOnly(dir, tasks);
  return dir;
}

export interface BakeOutcome {
  readonly exitCode: number | null;
  /** Killed because no run was stored for `idleSec` (a hung bake) or the overall limit passed. */
  readonly killed: string | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly wallSec: number;
}

/**
 * `bakeoff run <suite> --agent … --runs 1 --concurrency 3 --out <out> [--json]` (or on a pty; `concurrency` to run fewer at once); killed (with its
 * process group) when no run has been stored for `idleSec` (150), or after `limitSec` (1500) in all.
 */
export async function bake(
  suite: string,
  agents: readonly string[],
  out: string,
  options: { idleSec?: number; limitSec?: number; json?: boolean; tty?: boolean; concurrency?: number } = {},
): Promise<BakeOutcome> {
  const args = [BIN, 'run', suite, ...agents.flatMap((a) => ['--agent', a]), '--runs', '1', '--concurrency', String(options.concurrency ?? 3), '--out', out];
  if (options.json !== false) args.push('--json');
  const started = performance.now();
  // tty: on a terminal, as an operator sees it (util-linux `script` gives the CLI a pty)
  const [program, argv] = options.tty
    ? ['script', ['-qfec', [process.execPath, ...args].map(shellQuote).join(' '), '/dev/null']]
    : [process.execPath, args];
  const child = spawn(program, argv, { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  let killed: string | null = null;
  let stored = -1;
  let lastChange = performance.now();
  const watch = setInterval(() => {
    void storedRuns(out).then((n) => {
      if (n !== stored) {
        stored = n;
        lastChange = performance.now();
      }
      const idle = (performance.now() - lastChange) / 1000;
      const total = (performance.now() - started) / 1000;
      const why = idle > (options.idleSec ?? 150) ? `no run stored for ${Math.round(idle)} s` : total > (options.limitSec ?? 1500) ? `still running after ${Math.round(total)} s` : null;
      if (why && killed === null && child.pid !== undefined) {
        killed = why;
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    });
  }, 2000);
  const exitCode = await new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  clearInterval(watch);
  return { exitCode, killed, stdout, stderr, wallSec: (performance.now() - started) / 1000 };
}

function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

async function storedRuns(out: string): Promise<number> {
  return (await readdir(path.join(out, 'runs')).catch(() => [] as string[])).filter((n) => !n.startsWith('.')).length;
}

export interface BatteryRun {
  id: string;
  task: string;
  agent: string;
  outcome: 'solved' | 'failed' | 'void';
  failReason: string | null;
  voidReason: string | null;
  outcomeDetail: string | null;
  linesAdded: number;
}

export interface BatteryAgent {
  id: string;
  rank: number | null;
  solveShare: number | null;
  solveShareVoidAsFail: number | null;
  void: number;
}

export interface BatteryResults {
  /** Why `bakeoff report --format json` refused, or null when it rendered. */
  readonly reportError: string | null;
  readonly report: { agents: BatteryAgent[]; controls?: { diskMb?: number }; ranking?: { refused?: boolean; reason?: string } } | null;
  /** From the report, or straight from bakeoff.db when the report refused. */
  readonly runs: readonly BatteryRun[];
}

/** `bakeoff report --format json`; when it refuses, the runs are read from bakeoff.db instead. */
export async function results(out: string): Promise<BatteryResults> {
  const r = await bakeoff(['report', out, '--format', 'json']);
  if (r.exitCode === 0) {
    const report = JSON.parse(r.stdout) as BatteryResults['report'] & { runs: BatteryRun[] };
    return { reportError: null, report, runs: report!.runs };
  }
  return { reportError: `exit ${r.exitCode}: ${r.stderr.trim()}`, report: null, runs: dbRuns(out) };
}

function dbRuns(out: string): BatteryRun[] {
  if (!existsSync(path.join(out, 'bakeoff.db'))) return [];
  const db = new Database(path.join(out, 'bakeoff.db'), { readonly: true });
  try {
    const rows = db.prepare('SELECT id, task, agent_id, outcome, reason, detail, lines_added FROM runs').all() as {
      id: string;
      task: string;
      agent_id: string;
      outcome: BatteryRun['outcome'];
      reason: string | null;
      detail: string | null;
      lines_added: number;
    }[];
    return rows.map((row) => ({
      id: row.id,
      task: row.task,
      agent: row.agent_id,
      outcome: row.outcome,
      failReason: row.outcome === 'failed' ? row.reason : null,
      voidReason: row.outcome === 'void' ? row.reason : null,
      outcomeDetail: row.detail,
      linesAdded: row.lines_added,
    }));
  } finally {
    db.close();
  }
}

/** One line per run, for failure messages. */
export function describeRun(run: BatteryRun | undefined): string {
  if (!run) return 'no run stored';
  const reason = run.failReason ?? run.voidReason ?? '';
  return `${run.outcome}${reason ? ` (${reason})` : ''}${run.outcomeDetail ? `: ${run.outcomeDetail.slice(0, 300)}` : ''}`;
}

/** Apparent size in bytes of everything under `dir` (files and link targets' names; no link followed). */
export async function treeBytes(dir: string): Promise<number> {
  let total = 0;
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const p = path.join(dir, name);
    const st = await lstat(p);
    total += st.isDirectory() ? await treeBytes(p) : st.size;
  }
  return total;
}


/** Margin over the controls' diskMb for what a run keeps besides the change (logs, reports). */
const QUOTA_MARGIN_MB = 64;

/** Every run's results folder stays within the controls' diskMb plus QUOTA_MARGIN_MB, and the bake left no scratch root. */
export async function expectWithinQuotaAndNoScratch(out: string, res: BatteryResults): Promise<void> {
  const diskMb = res.report?.controls?.diskMb ?? 2048;
  const runsDir = path.join(out, 'runs');
  const over: string[] = [];
  for (const id of await readdir(runsDir).catch(() => [] as string[])) {
    const bytes = await treeBytes(path.join(runsDir, id));
    const agent = scriptOf(res.runs.find((r) => r.id === id)?.agent ?? `${id} (not stored)`);
    if (bytes > (diskMb + QUOTA_MARGIN_MB) * 1048576) over.push(`${agent}: ${Math.round(bytes / 1048576)} MiB`);
  }
  expect(over, `quota ${diskMb} MiB + ${QUOTA_MARGIN_MB} MiB`).toEqual([]);
  expect(existsSync(bakeScratch(out)), bakeScratch(out)).toBe(false);
}

/** What a killed bake left: unmounts and deletes its scratch root. */
export async function clearScratch(out: string): Promise<void> {
  const root = bakeScratch(out);
  const mounts = (await readFile('/proc/self/mountinfo', 'utf8'))
    .split('\n')
    .map((line) => line.split(' ')[4] ?? '')
    .filter((p) => p === root || p.startsWith(root + '/'))
    .sort((a, b) => b.length - a.length);
  for (const m of mounts) await execa('umount', ['-l', m], { reject: false });
  await rm(root, { recursive: true, force: true });
}

/** What `bakeoff verify <out> --json` said: its exit code, the runs it disagrees on (or could not re-check), its output. */
export interface Verified {
  readonly exitCode: number | undefined;
  readonly problems: string[];
  /** Every run re-graded: its attack script, task, stored and re-graded outcome, and what verify disagreed on (null: nothing). */
  readonly runs: readonly { readonly script: string; readonly task: string; readonly stored: string | null; readonly regraded: string | null; readonly problem: string | null }[];
  readonly output: string;
}

/** `bakeoff verify <out> --json`, with the runs it disagrees on (or could not re-check) listed. */
export async function verify(out: string): Promise<Verified> {
  const r = await bakeoff(['verify', out, '--json', '--concurrency', '3']);
  const problems: string[] = [];
  const runs: Verified['runs'][number][] = [];
  try {
    const report = JSON.parse(r.stdout) as {
      runs: { task: string; agent: string; stored: { kind?: string } | null; regraded: { outcome?: { kind?: string } } | null; verdict: unknown[]; artifacts: unknown[]; error: string | null }[];
    };
    for (const run of report.runs) {
      const agrees = run.verdict.length === 0 && run.artifacts.length === 0 && !run.error;
      const problem = agrees
        ? null
        : `${scriptOf(run.agent)} on ${run.task}: ${JSON.stringify({ stored: run.stored, regraded: run.regraded, verdict: run.verdict, artifacts: run.artifacts, error: run.error }).slice(0, 600)}`;
      if (problem) problems.push(problem);
      runs.push({ script: scriptOf(run.agent), task: run.task, stored: run.stored?.kind ?? null, regraded: run.regraded?.outcome?.kind ?? null, problem });
    }
  } catch {
    problems.push(`verify printed no JSON (exit ${r.exitCode}): ${r.stderr.slice(-1500)}`);
  }
  return { exitCode: r.exitCode, problems, runs, output: r.stdout + r.stderr };
}

/**
 * Each task's tamper resistance, as the validated suite's TASKS.md states it (`full (…)` or
 * `partial, runner <format>: …`).
 */
export async function tamperResistance(suite: string): Promise<Map<string, string>> {
  const lines = (await readFile(path.join(suite, 'TASKS.md'), 'utf8')).split('\n').filter((l) => l.startsWith('| '));
  const header = lines[0]!.split('|').map((c) => c.trim());
  const column = header.indexOf('tamper resistance');
  const task = header.indexOf('task');
  return new Map(lines.slice(1).map((l) => l.split('|').map((c) => c.trim())).map((cells) => [cells[task]!, cells[column]!] as const));
}

/**
 * A blind pick among the tripwire groups' members (issue 30: tripwire-call-site.mjs,
 * tripwire-value-pick.mjs) passes a grading once in the task's odds, and `bakeoff verify` draws
 * fresh groups: on a task TASKS.md calls full (a blind pick passes 1 in 100 or less), the run is
 * graded failed, or solved by that luck and re-graded failed by verify (both solved: the pick
 * was not blind — once in 10 000 by chance). A task that is only partial must say so on its
 * TASKS.md line, naming its runner; its run is never void, whatever the pick.
 */
export function expectBlindPickCaught(bake: VerifiedBake, resistance: ReadonlyMap<string, string>, cell: Attack & { task: string }): void {
  const run = runOf(bake.res, cell.script, cell.task);
  const what = `${cell.script} on ${cell.task}: ${describeRun(run)}`;
  expect(run, what).toBeDefined();
  expect(run!.outcome, what).not.toBe('void');
  const line = resistance.get(cell.task) ?? '';
  if (!line.startsWith('full')) {
    expect(line, `${what}: TASKS.md`).toMatch(/^partial, runner [a-z-]+: /);
    return;
  }
  if (run!.outcome === 'failed') return;
  const again = bake.verified.runs.find((r) => r.script === cell.script && r.task === cell.task);
  expect(again?.regraded, `${what}; solved on a task TASKS.md calls ${line}, and verify re-graded it: ${again?.problem ?? 'alike'}`).toBe('failed');
}

/** The agent spec of an attack. */
export function agentOf(attack: Attack): string {
  return attackAgent(attack.script, ...(attack.extra ?? []));
}

/** Every attack × task, as it.each rows. */
export function cells(attacks: readonly Attack[], tasks: readonly string[]): (Attack & { task: string })[] {
  return attacks.flatMap((a) => tasks.map((task) => ({ ...a, task })));
}

/** The run of an attack script (or gold/noop) on a task. */
export function runOf(res: BatteryResults, script: string, task: string): BatteryRun | undefined {
  return res.runs.find((r) => scriptOf(r.agent) === script && r.task === task);
}

/** What every attack × task must be: graded failed, for a named reason where the issue names one. */
export function expectFailed(res: BatteryResults, cell: Attack & { task: string }): void {
  const run = runOf(res, cell.script, cell.task);
  const what = `${cell.script} on ${cell.task}: ${describeRun(run)}`;
  expect(run, what).toBeDefined();
  expect(run!.outcome, what).toBe('failed');
  if (cell.reasons) expect(cell.reasons, what).toContain(run!.failReason);
  if (cell.minLines !== undefined) expect(run!.linesAdded, `${what}; lines to review ${run!.linesAdded}`).toBeGreaterThanOrEqual(cell.minLines);
}

/**
 * `bakeoff verify` re-grades every run of `out` (or of what `verify(out)` said) to its stored
 * verdict; but the runs of `blind` scripts, whose picks verify draws anew (expectBlindPickCaught).
 */
export async function expectVerified(out: string | Verified, blind: readonly Attack[] = []): Promise<void> {
  const v = typeof out === 'string' ? await verify(out) : out;
  const skip = new Set(blind.map((a) => a.script));
  expect(
    v.runs.length > 0 ? v.runs.filter((r) => r.problem !== null && !skip.has(r.script)).map((r) => r.problem) : v.problems,
    v.output.slice(-1500),
  ).toEqual([]);
  // verify exits 1 on any mismatch: a blind pick re-drawn is one
  if (v.runs.some((r) => r.problem !== null && skip.has(r.script))) {
    expect(v.exitCode, v.output.slice(-1500)).toBe(1);
    return;
  }
  expect(v.exitCode, v.output.slice(-1500)).toBe(0);
}

/** One bake of `agents` on `suite` into a new results folder, its results, and `bakeoff verify` of it. */
export interface VerifiedBake {
  readonly out: string;
  readonly run: BakeOutcome;
  readonly res: BatteryResults;
  readonly verified: Verified;
}

/** Bakes, reads the results and verifies them, one after the other (several such go side by side). */
export async function bakeAndVerify(
  make: (prefix: string) => Promise<string>,
  suite: string,
  agents: readonly string[],
  options: Parameters<typeof bake>[3] = {},
): Promise<VerifiedBake> {
  const out = await make('bakeoff-battery-out-');
  const run = await bake(suite, agents, out, options);
  const res = await results(out);
  return { out, run, res, verified: await verify(out) };
}

/** Temp folders of one test file: scratch of killed bakes cleared, everything deleted at the end (unless BATTERY_KEEP). */
export function tempFolders(): { make: (prefix: string) => Promise<string>; outs: string[]; dispose: () => Promise<void> } {
  const made: string[] = [];
  const outs: string[] = [];
  return {
    outs,
    async make(prefix) {
      const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
      made.push(dir);
      if (prefix.includes('out')) outs.push(dir);
      return dir;
    },
    async dispose() {
      for (const out of outs) await clearScratch(out);
      // BATTERY_KEEP=1 keeps the suites and results folders to look into (they can be GiBs)
      if (process.env.BATTERY_KEEP) console.error(`hostile battery: kept ${made.join(' ')}`);
      else for (const dir of made) await rm(dir, { recursive: true, force: true });
    },
  };
}
