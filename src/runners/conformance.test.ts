/**
 * Every registered runner adapter (`registry.ts`) against the real runner, on every sample
 * project found for it (conformance-samples.test-support.ts: `<sample>/sample.json` under
 * test/fixtures/reports/): the sample's `project/` is copied to a temp folder, its bare command
 * is instrumented and run with `sh -c`, and the parsed report must match `expected.json` there.
 * A registered runner without a sample fails, and so does a sample of no registered runner.
 * `BAKEOFF_UPDATE_GOLDENS=1` also copies the report files to `<sample>/report/`, the golden
 * files the parser tests read. mocha, tape, node-tap and mocha-junit-reporter are not bakeoff's
 * dependencies: `test/fixtures/reports/js-runners/` pins them, installed once per lock with
 * `npm ci` into a folder of the temp dir (the registry is needed the first time).
 * `BAKEOFF_CONFORMANCE_ONLY=<format,…>` runs only those registered runners (a runner being
 * written; the added-plugins test's copy of src/); `BAKEOFF_CONFORMANCE_SAMPLES=<dir:…>` reads
 * samples from those folders too.
 */
import { createHash } from 'node:crypto';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { appendFile, cp, mkdir, mkdtemp, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import picomatch from 'picomatch';
import { moduleKind } from '../grade/grading-tree.js';
import { drawTripwires, judgeTripwires, withoutTripwires, type Tripwire } from '../grade/tripwires.js';
import type { ParsedReport, TestResult, TestRunner } from './types.js';
import { listTree } from '../util/fs.js';
import { builtins } from './registry.js';
import { planConformance, readSamples, type Sample } from './conformance-samples.test-support.js';

const MAIN_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURES = path.join(MAIN_ROOT, 'test/fixtures/reports');
const UPDATE_GOLDENS = process.env.BAKEOFF_UPDATE_GOLDENS === '1';
const RUNNERS: Readonly<Record<string, TestRunner>> = builtins;

const JS_RUNNERS = path.join(FIXTURES, 'js-runners');

/** The pinned runners of js-runners/, installed once per lock file under the temp dir; the folder with their node_modules. */
async function installJsRunners(): Promise<string> {
  const lock = await readFile(path.join(JS_RUNNERS, 'package-lock.json'));
  const dir = path.join(os.tmpdir(), `bakeoff-js-runners-${createHash('sha256').update(lock).digest('hex').slice(0, 16)}`);
  if (existsSync(path.join(dir, 'node_modules', '.package-lock.json'))) return dir;
  const building = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-js-runners-building-'));
  await cp(path.join(JS_RUNNERS, 'package.json'), path.join(building, 'package.json'));
  await cp(path.join(JS_RUNNERS, 'package-lock.json'), path.join(building, 'package-lock.json'));
  const npm = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--prefer-offline'], { cwd: building, encoding: 'utf8' });
  if (npm.status !== 0) throw new Error(`npm ci of test/fixtures/reports/js-runners failed (${npm.status}): ${npm.stderr.slice(-2000)}`);
  await rm(dir, { recursive: true, force: true });
  await rename(building, dir);
  return dir;
}

const list = (value: string | undefined, sep: string): string[] => (value ?? '').split(sep).map((s) => s.trim()).filter(Boolean);
const SAMPLE_DIRS = [FIXTURES, ...list(process.env.BAKEOFF_CONFORMANCE_SAMPLES, ':')];
const PLAN = planConformance(Object.keys(RUNNERS), readSamples(SAMPLE_DIRS, MAIN_ROOT), list(process.env.BAKEOFF_CONFORMANCE_ONLY, ','));

/** Copies a sample project into `work/repo`, with the node_modules it needs linked. */
async function prepareSample(sample: Sample, repoDir: string): Promise<void> {
  await cp(path.join(sample.dir, 'project'), repoDir, { recursive: true });
  if (sample.linkNodeModules) await symlink(path.join(MAIN_ROOT, 'node_modules'), path.join(repoDir, 'node_modules'));
  if (sample.jsRunners) await symlink(path.join(await installJsRunners(), 'node_modules'), path.join(repoDir, 'node_modules'));
}

/** The environment of a clean test run: no variables from the vitest run around this test. */
function childEnv(extra: Readonly<Record<string, string>>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^(VITEST|TEST$|NODE_ENV$|NODE_OPTIONS$)/.test(key)) env[key] = value;
  }
  return { ...env, CARGO_NET_OFFLINE: 'true', ...extra };
}

/** The command's stdout and stderr through one pipe, in the order they were written (as grading reads them: cargo's report is that order). */
function runShell(command: string, cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', `exec 2>&1\n${command}`], { cwd, env, stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', () => resolve(output));
  });
}

function byId(tests: readonly TestResult[]): { id: string; status: string }[] {
  return tests.map(({ id, status }) => ({ id, status })).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

const tempDirs: string[] = [];
afterAll(async () => {
  await Promise.all(tempDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

interface SampleRun {
  readonly runner: TestRunner;
  readonly repoDir: string;
  readonly reportDir: string;
}

/** The sample copied to a fresh temp folder, beside an empty report folder holding the runner's report files. */
async function setUpSample(sample: Sample, label: string, reportDirName: string): Promise<SampleRun> {
  const runner = RUNNERS[sample.format]!;
  const work = await mkdtemp(path.join(os.tmpdir(), `bakeoff-${label}-`));
  tempDirs.push(work);
  const repoDir = path.join(work, 'repo');
  const reportDir = path.join(work, reportDirName);
  await prepareSample(sample, repoDir);
  await mkdir(reportDir);
  for (const file of runner.reportFiles) await writeFile(path.join(reportDir, file), '');
  return { runner, repoDir, reportDir };
}

/** Runs the sample's bare command as the runner instruments it, and parses the report. */
async function runSample(sample: Sample, bare: string, { runner, repoDir, reportDir }: SampleRun): Promise<{ output: string; report: ParsedReport }> {
  const instrumented = runner.instrument(bare, { reportDir, report: sample.report });
  const output = await runShell(instrumented.command, repoDir, childEnv(instrumented.env));
  return { output, report: await runner.parse({ reportDir, output, repoDir, report: sample.report }) };
}

/** Appends tripwires to the sample's test files that pass through the runner cleanly (the first two). */
async function addTripwires(runner: TestRunner, repoDir: string, testFiles: readonly string[]): Promise<Tripwire[]> {
  const isTest = picomatch([...testFiles], { dot: true });
  // not the files that crash or fail in a hook on purpose: tripwires there cannot run as they
  // must; nor node-tap's file of bare assertions, whose ids the appended subtests change
  const files = (await listTree(repoDir)).map((e) => e.rel).filter((rel) => isTest(rel) && !/crash|after-all|flat/.test(rel)).slice(0, 2);
  const wires: Tripwire[] = [];
  for (const rel of files) {
    const text = await readFile(path.join(repoDir, rel), 'utf8');
    if (runner.holdsTripwires && !runner.holdsTripwires(text, rel)) continue;
    const drawn = drawTripwires(rel, runner.testNamePrefix);
    await appendFile(path.join(repoDir, rel), runner.tripwireSource({ ...drawn.target, text, moduleKind: await moduleKind(repoDir, rel, text) }));
    wires.push(...drawn.wires);
  }
  return wires;
}

describe('every registered runner adapter', () => {
  for (const format of PLAN.withoutSample) {
    it(`${format}: has a sample project to run (a registered runner owes its evidence)`, () => {
      throw new Error(`no sample project of format ${format} under ${SAMPLE_DIRS.join(', ')}: add <sample>/sample.json, project/ and expected.json (test/fixtures/reports/README.md)`);
    });
  }
  for (const sample of PLAN.unregistered) {
    it(`${sample.name}: is a sample of a registered runner`, () => {
      throw new Error(`${sample.dir}/sample.json names format ${sample.format}, which is not in src/runners/registry.ts (${Object.keys(RUNNERS).join(', ')})`);
    });
  }
  for (const format of PLAN.unknownOnly) {
    it(`${format}: is a registered runner (BAKEOFF_CONFORMANCE_ONLY)`, () => {
      throw new Error(`BAKEOFF_CONFORMANCE_ONLY names ${format}, which is not in src/runners/registry.ts (${Object.keys(RUNNERS).join(', ')})`);
    });
  }
  for (const sample of PLAN.samples) {
    const command = sample.command;
    if ('skip' in command) {
      // a missing runner fails the suite: only BAKEOFF_MISSING_RUNNERS=<format,…> says, out loud, to go on without it
      const allowed = (process.env.BAKEOFF_MISSING_RUNNERS ?? '').split(',').includes(sample.format);
      if (allowed) console.warn(`conformance: ${sample.format} not run (BAKEOFF_MISSING_RUNNERS): ${command.skip}`);
      (allowed ? it.skip : it)(`${sample.format}: its real runner is installed`, () => {
        throw new Error(`${sample.format}: ${command.skip}`);
      });
      continue;
    }
    const name = sample.name;
    it(`${name}: reports the sample project's tests as the real runner ran them`, async () => {
      // A space in the report folder checks that every adapter quotes its paths.
      const run = await setUpSample(sample, name, 'report dir');
      const { runner, reportDir } = run;
      const { output, report } = await runSample(sample, command.bare, run);

      if (UPDATE_GOLDENS) {
        const golden = path.join(sample.dir, 'report');
        await rm(golden, { recursive: true, force: true });
        await cp(reportDir, golden, { recursive: true });
        // cargo's and TAP's report is the command's output; junit's is in the repo
        if (runner.reportIsOutput) await writeFile(path.join(golden, `${sample.format}.out`), output);
        for (const source of report.sources ?? []) await writeFile(path.join(golden, source.name), source.text);
      }
      const expected = JSON.parse(await readFile(path.join(sample.dir, 'expected.json'), 'utf8'));
      expect(byId(report.tests), output).toEqual(byId(expected.tests));
      expect([...report.problems].sort()).toEqual([...expected.problems].sort());
    });

    it(`${name}: bakeoff's tripwire tests come out as they must under the real runner`, async () => {
      const run = await setUpSample(sample, `${name}-tw`, 'report');
      const wires = await addTripwires(run.runner, run.repoDir, sample.testFiles ?? run.runner.testFiles);
      // junit holds tripwires in Python test files only
      if (!sample.unwired) expect(wires.length).toBeGreaterThanOrEqual(3);
      const { output, report } = await runSample(sample, command.bare, run);
      expect(judgeTripwires(report, wires), output).toEqual({ flipped: [], wrong: [] });
      // and the sample's own results are untouched by them
      const expected = JSON.parse(await readFile(path.join(sample.dir, 'expected.json'), 'utf8'));
      expect(byId(withoutTripwires(report, wires).tests)).toEqual(byId(expected.tests));
    });
  }
});
