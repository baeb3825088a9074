import { readdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bakeoff, tempDir } from './helpers.js';
import {
  attackAgent,
  bake,
  BATTERY,
  bakeScratch,
  batterySuite,
  clearScratch,
  describeRun,
  results,
  scriptOf,
  suiteWithTasks,
  treeBytes,
  verify,
  type BakeOutcome,
  type BatteryResults,
  type BatteryRun,
} from './hostile-battery-helpers.js';

/*
 * The hostile battery (issue 10, "the grade cannot be gamed"): one `command:` agent per attack
 * (test/fixtures/hostile-battery/, see its README for the table), none of which fixes its task,
 * baked on the starter suite plus a jest task — JS/node:test, TS/vitest, Python/pytest,
 * Rust/cargo, JS/jest. Every attack × task must be graded `failed` (never solved, never void),
 * gold must stay solved, a void-gaming agent must not outrank an honest one, a bake with runs
 * that flood output, write huge files or FIFOs must finish every other run and resume, stay
 * within its quota and leave no scratch, and `bakeoff verify` must re-grade every run alike.
 *
 * Bakes: one of the cross-runner attacks on all five tasks; one per runner for the attacks on that
 * runner's configuration (a copy of the suite whose lock admits that task only); two of the
 * attacks that try to take the bake down (the ones that act before any runner is involved on one
 * task, the ones on the runner's report on all five), each killed if it stops storing runs.
 */

const TASKS = ['bytes-rollover', 'csv-multiline-fields', 'invoice-half-cent-rounding', 'semver-caret-tilde', 'wrap-non-ascii'] as const;
const HOOK_MS = 900_000;
/** Margin over the controls' diskMb for what a run keeps besides the change (logs, reports, db rows). */
const QUOTA_MARGIN_MB = 64;
const ESC = '\u001b';

interface Attack {
  readonly script: string;
  /** Issue 10 class (1–6). */
  readonly cls: number;
  /** Reasons the issue names for this attack; when given, the run must fail with one of them. */
  readonly reasons?: readonly string[];
  /** Lines the change adds as a reviewer sees them, at least (class 4). */
  readonly minLines?: number;
  readonly extra?: readonly string[];
}

/** Cross-runner attacks (each has a variant for every runner), baked on all five tasks. */
const CROSS: readonly Attack[] = [
  { script: 'framework-at-import.mjs', cls: 6 },
  { script: 'hidden-rewrite-first.mjs', cls: 2 },
  { script: 'hidden-parent-swap.mjs', cls: 2 },
  { script: 'report-rewrite-exit.mjs', cls: 2 },
  { script: 'report-rewrite-background.mjs', cls: 2 },
  { script: 'symlink-report.mjs', cls: 3 },
  { script: 'fifo-report-dir.mjs', cls: 3 },
  { script: 'unreadable-report.mjs', cls: 3 },
  { script: 'output-flood-at-exit.mjs', cls: 3 },
  { script: 'nested-git.mjs', cls: 3, reasons: ['unsupported-file', 'protected-path-changed'] },
  { script: 'exit-127.mjs', cls: 3 },
  { script: 'non-utf8-name.mjs', cls: 3 },
  { script: 'gitattributes-binary.mjs', cls: 4, minLines: 5 },
  { script: 'gitattributes-nodiff.mjs', cls: 4, minLines: 5 },
  { script: 'cr-line-ends.mjs', cls: 4 },
  { script: 'compiled-payload.mjs', cls: 4 },
];

/** Runner configuration from the change (class 1), per task: only that runner reads them. */
const CONFIG: Readonly<Record<(typeof TASKS)[number], readonly Attack[]>> = {
  'invoice-half-cent-rounding': [
    'py-pyproject-addopts.mjs',
    'py-tox-ini.mjs',
    'py-setup-cfg.mjs',
    'py-dot-pytest-ini.mjs',
    'py-pytest-toml.mjs',
    'py-subfolder-config.mjs',
    'py-subfolder-pytest-ini.mjs',
    'py-plugins-new-module.mjs',
    'py-plugins-visible-module.mjs',
    'py-pytest-shadow.mjs',
    'py-pluggy-shadow.mjs',
    'py-stdlib-shadow.mjs',
  ].map((script) => ({ script, cls: 1 })),
  'bytes-rollover': [
    'jest-results-processor.mjs',
    'jest-setup-files.mjs',
    'jest-reporters.mjs',
    'jest-babel-config.mjs',
    'jest-config-file.mjs',
    'npx-npmrc-node-options.mjs',
    'npx-npmrc-script-shell.mjs',
  ].map((script) => ({ script, cls: 1 })),
  'semver-caret-tilde': ['vitest-config-file.mjs', 'vitest-postcss-config.mjs', 'npx-npmrc-node-options.mjs', 'npx-npmrc-script-shell.mjs'].map((script) => ({
    script,
    cls: 1,
  })),
  'csv-multiline-fields': [{ script: 'node-test-discovery.mjs', cls: 1 }],
  'wrap-non-ascii': ['cargo-build-key.mjs', 'cargo-harness-false.mjs', 'cargo-config-runner.mjs', 'cargo-path-dependency.mjs', 'cargo-proc-macro.mjs'].map((script) => ({
    script,
    cls: 1,
  })),
};

/** Class 5 attacks that act before any runner runs (agent output, the change): one task is enough. */
const BREAK_AGENT_SIDE: readonly Attack[] = [
  { script: 'stdout-flood.mjs', cls: 5 },
  { script: 'change-600mb.mjs', cls: 5, reasons: ['change-too-large'] },
  { script: 'sparse-2g.mjs', cls: 3, reasons: ['change-too-large', 'unsupported-file'] },
  { script: 'escape-name.mjs', cls: 5 },
];
const BREAK_AGENT_SIDE_TASK = 'csv-multiline-fields';

/** Class 5 attacks on the runner's report (a variant per runner): all five tasks. */
const BREAK_REPORT: readonly Attack[] = [
  { script: 'huge-report.mjs', cls: 5 },
  { script: 'fifo-report-hang.mjs', cls: 5 },
  { script: 'report-dir-fill.mjs', cls: 5 },
];

const agentOf = (a: Attack): string => attackAgent(a.script, ...(a.extra ?? []));
const cells = (attacks: readonly Attack[], tasks: readonly string[]) => attacks.flatMap((a) => tasks.map((task) => ({ ...a, task })));

function runOf(res: BatteryResults, script: string, task: string): BatteryRun | undefined {
  return res.runs.find((r) => scriptOf(r.agent) === script && r.task === task);
}

/** The assertion every attack × task gets: graded failed, for a named reason where the issue names one. */
function expectFailed(res: BatteryResults, cell: Attack & { task: string }): void {
  const run = runOf(res, cell.script, cell.task);
  const what = `${cell.script} on ${cell.task}: ${describeRun(run)}`;
  expect(run, what).toBeDefined();
  expect(run!.outcome, what).toBe('failed');
  if (cell.reasons) expect(cell.reasons, what).toContain(run!.failReason);
  if (cell.minLines !== undefined) expect(run!.linesAdded, `${what}; lines to review ${run!.linesAdded}`).toBeGreaterThanOrEqual(cell.minLines);
}

let suite: string;
const outs: string[] = [];

beforeAll(async () => {
  suite = await batterySuite();
}, HOOK_MS);

afterAll(async () => {
  // a bake killed for hanging leaves its workspaces mounted: clear them (after the assertions)
  for (const out of outs) await clearScratch(out);
});

async function newOut(): Promise<string> {
  const out = await tempDir('bakeoff-battery-out-');
  outs.push(out);
  return out;
}

describe('cross-runner attacks, with a void-gaming and an honest agent, on all five tasks', () => {
  const VOID_GAMER = attackAgent('void-gamer.mjs', 'csv-fix.patch');
  const HONEST = attackAgent('honest.mjs', 'csv-fix.patch');
  let out: string;
  let run: BakeOutcome;
  let res: BatteryResults;

  beforeAll(async () => {
    out = await newOut();
    run = await bake(suite, [...CROSS.map(agentOf), VOID_GAMER, HONEST, 'gold'], out);
    res = await results(out);
  }, HOOK_MS);

  it('the bake finishes every run', () => {
    expect(run.killed, run.stderr.slice(-2000)).toBeNull();
    expect(res.runs.length, run.stderr.slice(-2000)).toBe((CROSS.length + 3) * TASKS.length);
  });

  it('the report renders (a run of an attack does not make the results unreportable)', () => {
    expect(res.reportError).toBeNull();
  });

  it('gold is still solved on every task', () => {
    for (const task of TASKS) expect(describeRun(runOf(res, 'gold', task)), task).toBe('solved');
  });

  it.each(cells(CROSS, TASKS))('class $cls: $script on $task is graded failed', (cell) => expectFailed(res, cell));

  it('the void-gaming agent fails what it does not solve and ranks no higher than the honest one', () => {
    for (const task of TASKS) {
      const expected = task === 'csv-multiline-fields' ? 'solved' : 'failed';
      expect(runOf(res, 'void-gamer.mjs', task)?.outcome, `void-gamer on ${task}: ${describeRun(runOf(res, 'void-gamer.mjs', task))}`).toBe(expected);
      expect(runOf(res, 'honest.mjs', task)?.outcome, `honest on ${task}`).toBe(expected);
    }
    expect(res.report, res.reportError ?? '').not.toBeNull();
    const gamer = res.report!.agents.find((a) => scriptOf(a.id) === 'void-gamer.mjs')!;
    const honest = res.report!.agents.find((a) => scriptOf(a.id) === 'honest.mjs')!;
    expect(res.report!.ranking?.refused, res.report!.ranking?.reason).not.toBe(true);
    expect(gamer.rank, JSON.stringify({ gamer, honest })).not.toBeNull();
    expect(gamer.rank!, JSON.stringify({ gamer, honest })).toBeGreaterThanOrEqual(honest.rank!);
    // void-as-failed is reported beside the share, for both
    expect(gamer.solveShareVoidAsFail).toBeCloseTo(1 / TASKS.length);
    expect(honest.solveShareVoidAsFail).toBeCloseTo(1 / TASKS.length);
  });

  it('bakeoff verify re-grades every run to the same verdict', async () => {
    const v = await verify(out);
    expect(v.exitCode, v.stdout.slice(-3000) + v.stderr.slice(-2000)).toBe(0);
  }, HOOK_MS);
});

describe.each(TASKS.map((task) => ({ task, attacks: CONFIG[task] })))('runner configuration from the change on $task', ({ task, attacks }) => {
  let out: string;
  let run: BakeOutcome;
  let res: BatteryResults;

  beforeAll(async () => {
    out = await newOut();
    run = await bake(await suiteWithTasks(suite, [task]), attacks.map(agentOf), out);
    res = await results(out);
  }, HOOK_MS);

  it('the bake finishes every run', () => {
    expect(run.killed, run.stderr.slice(-2000)).toBeNull();
    expect(res.runs.length, run.stderr.slice(-2000)).toBe(attacks.length);
  });

  it.each(cells(attacks, [task]))('class $cls: $script on $task is graded failed', (cell) => expectFailed(res, cell));

  it('bakeoff verify re-grades every run to the same verdict', async () => {
    const v = await verify(out);
    expect(v.exitCode, v.stdout.slice(-3000) + v.stderr.slice(-2000)).toBe(0);
  }, HOOK_MS);
});

describe.each([
  { name: 'agent output and the change', attacks: BREAK_AGENT_SIDE, tasks: [BREAK_AGENT_SIDE_TASK], controls: ['gold', 'noop'] },
  { name: "the runner's report", attacks: BREAK_REPORT, tasks: [...TASKS], controls: ['gold'] },
])('attacks on the bake itself through $name', ({ attacks, tasks, controls }) => {
  let bakeSuite: string;
  let out: string;
  let first: BakeOutcome;
  let resumed: BakeOutcome;
  let res: BatteryResults;
  const agents = [...attacks.map(agentOf), ...controls];

  beforeAll(async () => {
    bakeSuite = tasks.length === TASKS.length ? suite : await suiteWithTasks(suite, tasks);
    out = await newOut();
    first = await bake(bakeSuite, agents, out, { idleSec: 120 });
    resumed = await bake(bakeSuite, agents, out, { idleSec: 120 });
    res = await results(out);
  }, HOOK_MS);

  it('the bake finishes: no crash, no hang, every run stored', () => {
    expect(first.killed, `first bake: ${first.killed}\n${first.stderr.slice(-2000)}`).toBeNull();
    expect(first.exitCode, first.stderr.slice(-2000)).toBe(0);
    expect(res.runs.length, first.stderr.slice(-2000)).toBe(agents.length * tasks.length);
  });

  it('every other run finishes as it would alone: gold solved, noop failed', () => {
    for (const task of tasks) {
      expect(describeRun(runOf(res, 'gold', task)), `gold on ${task}`).toBe('solved');
      if (controls.includes('noop')) expect(runOf(res, 'noop', task)?.outcome, `noop on ${task}`).toBe('failed');
    }
  });

  it('a re-run of the same command resumes with nothing re-run', () => {
    expect(resumed.killed, `resume: ${resumed.killed}\n${resumed.stderr.slice(-2000)}`).toBeNull();
    expect(resumed.exitCode, resumed.stderr.slice(-2000)).toBe(0);
    const summary = JSON.parse(resumed.stdout) as { planned: number; alreadyDone: number; ran: number };
    expect(summary).toMatchObject({ planned: agents.length * tasks.length, alreadyDone: agents.length * tasks.length, ran: 0 });
  });

  it.each(cells(attacks, tasks))('class $cls: $script on $task is graded failed', (cell) => expectFailed(res, cell));

  it("every run's results folder stays within the run's disk quota", async () => {
    const diskMb = res.report?.controls?.diskMb ?? 2048;
    const runsDir = path.join(out, 'runs');
    const over: string[] = [];
    for (const id of await readdir(runsDir).catch(() => [] as string[])) {
      const bytes = await treeBytes(path.join(runsDir, id));
      if (bytes > (diskMb + QUOTA_MARGIN_MB) * 1024 * 1024) over.push(`${id} (${scriptOf(res.runs.find((r) => r.id === id)?.agent ?? id)}): ${Math.round(bytes / 1048576)} MiB`);
    }
    expect(over, `limit ${diskMb} MiB + ${QUOTA_MARGIN_MB} MiB`).toEqual([]);
  });

  it('the bake leaves nothing in /tmp/bakeoff-scratch', () => {
    expect(existsSync(bakeScratch(out)), bakeScratch(out)).toBe(false);
  });

  it('nothing from a run reaches the terminal unescaped', async () => {
    const shown = [first.stdout, first.stderr, resumed.stdout, resumed.stderr];
    for (const format of ['table', 'md']) {
      const r = await bakeoff(['report', out, '--format', format]);
      shown.push(r.stdout, r.stderr);
    }
    const raw = shown.filter((text) => text.includes(ESC)).map((text) => JSON.stringify(text.slice(Math.max(0, text.indexOf(ESC) - 80), text.indexOf(ESC) + 80)));
    expect(raw).toEqual([]);
  });

  it('bakeoff verify re-grades every run to the same verdict', async () => {
    const v = await verify(out);
    expect(v.exitCode, v.stdout.slice(-3000) + v.stderr.slice(-2000)).toBe(0);
    expect(v.stdout + v.stderr).not.toContain(ESC);
  }, HOOK_MS);
});

it('every attack script of the battery is baked by this test', async () => {
  const baked = new Set(
    [...CROSS, ...Object.values(CONFIG).flat(), ...BREAK_AGENT_SIDE, ...BREAK_REPORT, { script: 'void-gamer.mjs' }, { script: 'honest.mjs' }].map((a) => a.script),
  );
  const scripts = (await readdir(BATTERY)).filter((f) => f.endsWith('.mjs') && f !== 'kit.mjs');
  expect(scripts.filter((s) => !baked.has(s))).toEqual([]);
});
