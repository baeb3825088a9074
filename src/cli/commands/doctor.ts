import { existsSync, rmSync } from 'node:fs';
import { HARNESS_NAMES, harnessNamed } from '../../agents/harnesses/index.js';
import { installDirOf, probeInstalled } from '../../agents/install-harness.js';
import { ResultsBusyError, UserError } from '../../errors.js';
import { checkSandbox, cleanLeftovers, sandboxMounts, describeLeftover, findLeftovers, isStale, UNKNOWN_GRACE_SEC, type Check, type Leftover } from '../../sandbox/index.js';
import { DATABASE_NAME, lockResults, readHolder, resultsPaths, runTempDirs } from '../../store/index.js';
import { judgeProcess, mapBounded, noAnswerText, probeProgram } from '../../util/index.js';
import { fleetLeftovers } from '../../api/fleet-leftovers.js';
import { EXIT, placeOf, type CliIo } from '../io.js';

const TOOLCHAINS: readonly { name: string; cmd: string; args: string[]; fix: string }[] = [
  { name: 'git', cmd: 'git', args: ['--version'], fix: 'apt-get install git' },
  { name: 'faketime (validate)', cmd: 'faketime', args: ['--version'], fix: 'apt-get install faketime' },
  { name: 'node', cmd: 'node', args: ['--version'], fix: 'install Node.js 20+' },
  { name: 'npm', cmd: 'npm', args: ['--version'], fix: 'install npm' },
  { name: 'python3', cmd: 'python3', args: ['--version'], fix: 'apt-get install python3' },
  { name: 'pytest', cmd: 'python3', args: ['-m', 'pytest', '--version'], fix: 'pip install pytest' },
  { name: 'cargo', cmd: 'cargo', args: ['--version'], fix: 'install Rust with rustup' },
  { name: 'strace (--trace-network)', cmd: 'strace', args: ['-V'], fix: 'apt-get install strace' },
];

/** Programs doctor asks for their version at once. */
const PROBES_AT_ONCE = 2;

export interface DoctorFlags {
  readonly json: boolean;
  /** Remove the leftovers of killed bakeoffs: scratch roots and cgroups whose owner is gone, and (with `results`) half-written run folders. */
  readonly clean?: boolean;
  /** A results folder whose half-written run folders (`runs/.tmp-*`) to list too. */
  readonly results?: string;
}

/** `bakeoff doctor`: what works (sandbox, toolchains, agent harnesses), what to install, and what killed bakeoffs left behind. */
export async function doctorCommand(flags: DoctorFlags, io: CliIo): Promise<number> {
  if (flags.results !== undefined && !existsSync(resultsPaths(flags.results).database)) {
    throw new UserError(`${flags.results}: not a results folder (no ${DATABASE_NAME}); --results names a folder bakeoff run wrote`);
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
    const probe = await probeInstalled(harness, io.env);
    const pinned = `${harness.npmPackage}@${harness.version}`;
    if (probe.kind === 'no-answer') return { name, ok: false, detail: `${pinned} is installed but ${noAnswerText(probe)}`, fix: 'run bakeoff doctor again when the machine is less busy' };
    return probe.kind === 'missing'
      ? { name, ok: false, detail: `${pinned} not installed (only needed for ${name}:<model> agents)`, fix: `npx bakeoff agents install ${name}` }
      : { name, ok: true, detail: `${probe.version} (pinned ${harness.version}) in ${installDirOf(harness, io.env)}` };
  });
  const leftovers = await leftoversOf(flags, io);
  const mounts = await sandboxMounts(io.env.PATH);
  const sandboxOk = sandbox.every((c) => c.ok);
  if (flags.json) {
    io.stdout.write(JSON.stringify({ schemaVersion: 1, sandbox, mounts, toolchains: tools, agents, leftovers, ready: sandboxOk }, null, 2) + '\n');
  } else {
    const line = (c: Check): string => `  ${c.ok ? 'ok  ' : 'FAIL'}  ${c.name.padEnd(20)} ${c.detail}${!c.ok && c.fix ? `\n        → ${c.fix}` : ''}`;
    io.stdout.write(
      [
        'sandbox',
        ...sandbox.map(line),
        ...mountLines(mounts),
        'toolchains (needed by the tasks that use them)',
        ...tools.map(line),
        'agent harnesses (needed by the model agents that use them)',
        ...agents.map(line),
        ...leftoverLines(leftovers, flags),
        sandboxOk ? 'ready: bakeoff can run agents in its sandbox' : 'NOT ready: bakeoff run will refuse to run (see FAIL lines)',
      ].join('\n') + '\n',
    );
  }
  return sandboxOk ? EXIT.ok : EXIT.infra;
}

/** What every sandbox mounts read-only besides the task, with the package folders in it (a retrieval channel the task did not install). */
function mountLines(mounts: Awaited<ReturnType<typeof sandboxMounts>>): string[] {
  return [
    'read-only in every sandbox besides the task (no npm, pip or cargo download cache, no home folder)',
    ...mounts.flatMap((m) => [
      `  ${m.target.padEnd(20)} ${m.what}`,
      ...m.stores.map((s) => `        ${s.kind} ${s.path}: ${s.packages} package${s.packages === 1 ? '' : 's'} an agent can read`),
    ]),
    '  and in a model agent\'s sessions only: its pinned CLI\'s install folder (agents install)',
  ];
}

/** One leftover as doctor shows it (and prints with --json). */
interface LeftoverView {
  readonly kind: 'scratch' | 'cgroup' | 'run-temp' | 'fleet';
  readonly path: string;
  readonly description: string;
  /** Whether `doctor --clean` removes it (its owner is gone). */
  readonly stale: boolean;
  /** With --clean: removed, or why not. */
  readonly cleaned?: boolean;
  readonly error?: string;
}

interface LeftoversView {
  readonly items: readonly LeftoverView[];
  /** Why the results folder's half-written runs were not looked at or not removed, if so. */
  readonly resultsNote?: string;
}

async function leftoversOf(flags: DoctorFlags, io: CliIo): Promise<LeftoversView> {
  const found = await findLeftovers();
  const clean = flags.clean ? await cleanLeftovers(found, { includeUnknown: true }) : null;
  // a killed fleet worker's staging folders and half-unpacked bundles in this machine's cache folder
  const fleet = (await fleetLeftovers(placeOf(io), flags.clean === true)).map((l): LeftoverView => ({ kind: 'fleet', ...l }));
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
  if (flags.results === undefined) return { items };
  const temps = runTempDirs(flags.results);
  // a live holder may be writing them: they are its, not stale
  const holder = readHolder(flags.results);
  const inUse = holder !== null && judgeProcess(holder) !== 'gone';
  let resultsNote: string | undefined;
  let removed = false;
  if (flags.clean && temps.length > 0) {
    // only the folder's lock holder may touch its runs: a live bakeoff may be writing these
    try {
      const lock = await lockResults(flags.results, { command: 'doctor --clean', create: false });
      try {
        for (const dir of runTempDirs(flags.results)) rmSync(dir, { recursive: true, force: true });
        removed = true;
      } finally {
        lock.release();
      }
    } catch (error) {
      if (!(error instanceof ResultsBusyError)) throw error;
      resultsNote = `${flags.results} is in use, its half-written runs are its holder's: ${error.message}`;
    }
  }
  for (const dir of temps) {
    items.push({ kind: 'run-temp', path: dir, description: `${dir} (a half-written run folder; the next run on ${flags.results} removes it too)`, stale: !inUse, ...(flags.clean ? { cleaned: removed } : {}) });
  }
  return { items, ...(resultsNote ? { resultsNote } : {}) };
}

function leftoverLines(view: LeftoversView, flags: DoctorFlags): string[] {
  const title = `leftovers of killed bakeoffs (mounts, scratch folders, cgroups, fleet workers' staging folders${flags.results !== undefined ? `, half-written runs in ${flags.results}` : ''})`;
  if (view.items.length === 0) return [title, '  none', ...(view.resultsNote ? [`  ${view.resultsNote}`] : [])];
  const lines = view.items.map((item) => {
    const state = item.cleaned === true ? 'removed' : item.error !== undefined ? 'FAIL' : item.stale ? 'stale' : 'in use';
    return `  ${state.padEnd(7)} ${item.description}${item.error !== undefined ? `\n        → ${item.error}` : ''}`;
  });
  const stale = view.items.filter((i) => i.stale && i.cleaned !== true).length;
  const hint = flags.clean
    ? []
    : stale > 0
      ? [`  → bakeoff doctor --clean removes the ${stale} stale one${stale === 1 ? '' : 's'} (never anything a running bakeoff uses; folders without an owner file only after ${UNKNOWN_GRACE_SEC / 60} minutes)`]
      : [];
  return [title, ...lines, ...hint, ...(view.resultsNote ? [`  ${view.resultsNote}`] : [])];
}
