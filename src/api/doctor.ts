import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { HARNESS_NAMES, harnessNamed } from '../agents/harnesses/index.js';
import { installDirOf, probeInstalled } from '../agents/install-harness.js';
import { ResultsBusyError, UserError } from '../errors.js';
import { checkSandbox, cleanLeftovers, sandboxMounts, describeLeftover, findLeftovers, isStale, type Check, type Leftover } from '../sandbox/index.js';
import { DATABASE_NAME, lockResults, readHolder, resultsPaths, runTempDirs } from '../store/index.js';
import { judgeProcess, mapBounded, noAnswerText, probeProgram } from '../util/index.js';
import { fleetLeftovers } from './fleet-leftovers.js';
import { cwdOf, envOf, type Place } from './paths.js';

export { UNKNOWN_GRACE_SEC } from '../sandbox/index.js';
export type { Check } from '../sandbox/index.js';

const TOOLCHAINS: readonly { name: string; cmd: string; args: string[]; fix: string }[] = [
  { name: 'git', cmd: 'git', args: ['--version'], fix: 'apt-get install git' },
  { name: 'faketime (validate)', cmd: 'faketime', args: ['--version'], fix: 'apt-get install faketime' },
  { name: "cc (validate's date check for Python under libfaketime < 0.9.11)", cmd: 'cc', args: ['--version'], fix: 'apt-get install gcc' },
  { name: 'node', cmd: 'node', args: ['--version'], fix: 'install Node.js 20+' },
  { name: 'npm', cmd: 'npm', args: ['--version'], fix: 'install npm' },
  { name: 'python3', cmd: 'python3', args: ['--version'], fix: 'apt-get install python3' },
  { name: 'pytest', cmd: 'python3', args: ['-m', 'pytest', '--version'], fix: 'pip install pytest' },
  { name: 'cargo', cmd: 'cargo', args: ['--version'], fix: 'install Rust with rustup' },
  { name: 'strace (--trace-network)', cmd: 'strace', args: ['-V'], fix: 'apt-get install strace' },
];

/** Programs doctor asks for their version at once. */
const PROBES_AT_ONCE = 2;

export interface DoctorRequest extends Place {
  /** Remove the leftovers of killed bakeoffs: scratch roots and cgroups whose owner is gone, and (with `results`) half-written run folders. */
  readonly clean?: boolean;
  /** A results folder whose half-written run folders (`runs/.tmp-*`) to list too. */
  readonly results?: string;
}

/** What is mounted read-only in every sandbox besides the task. */
export type SandboxMounts = Awaited<ReturnType<typeof sandboxMounts>>;

/** What doctor found: `ready` when the sandbox works (bakeoff run refuses to run otherwise). */
export interface DoctorReport {
  readonly schemaVersion: 1;
  readonly sandbox: readonly Check[];
  readonly mounts: SandboxMounts;
  readonly toolchains: readonly Check[];
  readonly agents: readonly Check[];
  readonly leftovers: LeftoversView;
  readonly ready: boolean;
}

/** What works on this machine (sandbox, toolchains, agent harnesses), what to install, and what killed bakeoffs left behind — removed with `clean`. */
export async function doctor(request: DoctorRequest = {}): Promise<DoctorReport> {
  const env = envOf(request);
  const results = request.results === undefined ? undefined : path.resolve(cwdOf(request), request.results);
  if (results !== undefined && !existsSync(resultsPaths(results).database)) {
    throw new UserError(`${request.results}: not a results folder (no ${DATABASE_NAME}); --results names a folder bakeoff run wrote`);
  }
  const sandbox = await checkSandbox();
  // a few probes at a time: a dozen programs started at once on a small busy machine miss their clocks (decision 011)
  const tools: Check[] = await mapBounded(TOOLCHAINS, PROBES_AT_ONCE, async (t) => {
    const answer = await probeProgram(t.cmd, t.args);
    if (answer.kind === 'no-answer') return { name: t.name, ok: false, detail: noAnswerText(answer), fix: 'run bakeoff doctor again when the machine is less busy' };
    if (answer.kind === 'missing') return { name: t.name, ok: false, detail: 'not found', fix: t.fix };
    const first = answer.output.trim().split('\n')[0] ?? '';
    return answer.kind === 'answered' ? { name: t.name, ok: true, detail: first } : { name: t.name, ok: false, detail: `failed: ${first || 'no output'}`, fix: t.fix };
  });
  const agents: Check[] = await mapBounded(HARNESS_NAMES, PROBES_AT_ONCE, async (name) => {
    const harness = harnessNamed(name);
    const probe = await probeInstalled(harness, env);
    const pinned = `${harness.npmPackage}@${harness.version}`;
    if (probe.kind === 'no-answer') return { name, ok: false, detail: `${pinned} is installed but ${noAnswerText(probe)}`, fix: 'run bakeoff doctor again when the machine is less busy' };
    return probe.kind === 'missing'
      ? { name, ok: false, detail: `${pinned} not installed (only needed for ${name}:<model> agents)`, fix: `npx bakeoff agents install ${name}` }
      : { name, ok: true, detail: `${probe.version} (pinned ${harness.version}) in ${installDirOf(harness, env)}` };
  });
  const leftovers = await leftoversOf(request, results);
  const mounts = await sandboxMounts(env.PATH);
  return { schemaVersion: 1, sandbox, mounts, toolchains: tools, agents, leftovers, ready: sandbox.every((c) => c.ok) };
}

/** One leftover as doctor shows it (and prints with --json). */
export interface LeftoverView {
  readonly kind: 'scratch' | 'cgroup' | 'run-temp' | 'fleet';
  readonly path: string;
  readonly description: string;
  /** Whether `doctor --clean` removes it (its owner is gone). */
  readonly stale: boolean;
  /** With --clean: removed, or why not. */
  readonly cleaned?: boolean;
  readonly error?: string;
}

export interface LeftoversView {
  readonly items: readonly LeftoverView[];
  /** Why the results folder's half-written runs were not looked at or not removed, if so. */
  readonly resultsNote?: string;
}

async function leftoversOf(flags: DoctorRequest, results: string | undefined): Promise<LeftoversView> {
  const found = await findLeftovers();
  const clean = flags.clean ? await cleanLeftovers(found, { includeUnknown: true }) : null;
  // a killed fleet worker's staging folders and half-unpacked bundles in this machine's cache folder
  const fleet = (await fleetLeftovers(flags, flags.clean === true)).map((l): LeftoverView => ({ kind: 'fleet', ...l }));
  const items: LeftoverView[] = found.map((leftover: Leftover) => {
    const failed = clean?.failed.find((f) => f.leftover === leftover);
    return {
      kind: leftover.kind,
      path: leftover.kind === 'scratch' ? leftover.path : leftover.paths[0]!,
      description: describeLeftover(leftover),
      stale: isStale(leftover, { includeUnknown: true }),
      ...(clean ? { cleaned: clean.removed.includes(leftover) } : {}),
      ...(failed ? { error: failed.error } : {}),
    };
  });
  items.push(...fleet);
  if (results === undefined) return { items };
  const temps = runTempDirs(results);
  // a live holder may be writing them: they are its, not stale
  const holder = readHolder(results);
  const inUse = holder !== null && judgeProcess(holder) !== 'gone';
  let resultsNote: string | undefined;
  let removed = false;
  if (flags.clean && temps.length > 0) {
    // only the folder's lock holder may touch its runs: a live bakeoff may be writing these
    try {
      const lock = await lockResults(results, { command: 'doctor --clean', create: false });
      try {
        for (const dir of runTempDirs(results)) rmSync(dir, { recursive: true, force: true });
        removed = true;
      } finally {
        lock.release();
      }
    } catch (error) {
      if (!(error instanceof ResultsBusyError)) throw error;
      resultsNote = `${results} is in use, its half-written runs are its holder's: ${error.message}`;
    }
  }
  for (const dir of temps) {
    items.push({ kind: 'run-temp', path: dir, description: `${dir} (a half-written run folder; the next run on ${results} removes it too)`, stale: !inUse, ...(flags.clean ? { cleaned: removed } : {}) });
  }
  return { items, ...(resultsNote ? { resultsNote } : {}) };
}
