/**
 * Every runner adapter against the real runner: the sample project in
 * `test/fixtures/reports/<format>/project/` is copied to a temp folder, its bare command is
 * instrumented and run with `sh -c`, and the parsed report must match `expected.json` there.
 * `BAKEOFF_UPDATE_GOLDENS=1` also copies the report files to `<format>/report/`, the golden
 * files the parser tests read.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { appendFile, cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import picomatch from 'picomatch';
import { moduleKind } from '../grading-tree.js';
import { drawTripwires, judgeTripwires, withoutTripwires, type Tripwire } from '../tripwires.js';
import type { ReportFormat, TestResult, TestRunner } from '../types.js';
import { listTree } from '../../util/fs.js';
import { getTestRunner } from './registry.js';
import { quoteShellArg } from '../../util/shell-quote.js';

const MAIN_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const FIXTURES = path.join(MAIN_ROOT, 'test/fixtures/reports');
const UPDATE_GOLDENS = process.env.BAKEOFF_UPDATE_GOLDENS === '1';

interface Sample {
  readonly format: ReportFormat;
  /** The bare test command, or why the runner cannot run on this machine. */
  readonly command: { readonly bare: string } | { readonly skip: string };
  /** Makes the project's imports resolve (vitest's test files import `vitest`). */
  readonly linkNodeModules?: boolean;
  /** The sample's test files, when they are not the runner's defaults (task.yaml `test.files`). */
  readonly testFiles?: readonly string[];
}

function succeeds(program: string, args: readonly string[]): boolean {
  return spawnSync(program, args, { stdio: 'ignore' }).status === 0;
}

function fromBin(bin: string | undefined, why: string): Sample['command'] {
  return bin !== undefined && existsSync(bin) ? { bare: quoteShellArg(bin) } : { skip: why };
}

const JEST_BINS = [process.env.BAKEOFF_JEST_BIN, fileURLToPath(new URL('../../../node_modules/.bin/jest', import.meta.url))];
const SAMPLES: readonly Sample[] = [
  {
    format: 'pytest',
    command: succeeds('python3', ['-m', 'pytest', '--version'])
      ? { bare: 'python3 -m pytest -q tests' }
      : { skip: 'python3 with pytest is not installed' },
  },
  { format: 'node-test', command: { bare: 'node --test test/' } },
  {
    format: 'vitest',
    command: fromBin(path.join(MAIN_ROOT, 'node_modules/.bin/vitest'), 'vitest is not installed in node_modules'),
    linkNodeModules: true,
    testFiles: ['checks/**/*.check.js'],
  },
  {
    format: 'jest',
    command: fromBin(
      JEST_BINS.find((bin) => bin !== undefined && existsSync(bin)),
      'jest (a devDependency) is missing: run ./scripts/install.sh, or set BAKEOFF_JEST_BIN',
    ),
  },
  {
    format: 'cargo',
    command: succeeds('cargo', ['--version']) ? { bare: 'cargo test' } : { skip: 'cargo is not installed' },
  },
];

/** The environment of a clean test run: no variables from the vitest run around this test. */
function childEnv(extra: Readonly<Record<string, string>>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^(VITEST|TEST$|NODE_ENV$|NODE_OPTIONS$)/.test(key)) env[key] = value;
  }
  return { ...env, CARGO_NET_OFFLINE: 'true', ...extra };
}

function runShell(command: string, cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', command], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
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

/** Appends tripwires to the sample's test files that pass through the runner cleanly (the first two). */
async function addTripwires(runner: TestRunner, repoDir: string, testFiles: readonly string[]): Promise<Tripwire[]> {
  const isTest = picomatch([...testFiles], { dot: true });
  // not the files that crash or fail in a hook on purpose: tripwires there cannot run as they must
  const files = (await listTree(repoDir)).map((e) => e.rel).filter((rel) => isTest(rel) && !/crash|after-all/.test(rel)).slice(0, 2);
  const wires: Tripwire[] = [];
  for (const rel of files) {
    const text = await readFile(path.join(repoDir, rel), 'utf8');
    const drawn = drawTripwires(rel, runner.testNamePrefix);
    await appendFile(path.join(repoDir, rel), runner.tripwireSource({ ...drawn.target, text, moduleKind: await moduleKind(repoDir, rel, text) }));
    wires.push(...drawn.wires);
  }
  return wires;
}

describe('every runner adapter', () => {
  for (const sample of SAMPLES) {
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
    it(`${sample.format}: reports the sample project's tests as the real runner ran them`, async () => {
      const runner = getTestRunner(sample.format);
      const work = await mkdtemp(path.join(os.tmpdir(), `bakeoff-${sample.format}-`));
      tempDirs.push(work);
      const repoDir = path.join(work, 'repo');
      // A space in the report folder checks that every adapter quotes its paths.
      const reportDir = path.join(work, 'report dir');
      await cp(path.join(FIXTURES, sample.format, 'project'), repoDir, { recursive: true });
      await mkdir(reportDir);
      if (sample.linkNodeModules) await symlink(path.join(MAIN_ROOT, 'node_modules'), path.join(repoDir, 'node_modules'));

      const instrumented = runner.instrument(command.bare, { reportDir });
      const output = await runShell(instrumented.command, repoDir, childEnv(instrumented.env));
      const report = await runner.parse({ reportDir, output, repoDir });

      if (UPDATE_GOLDENS) {
        const golden = path.join(FIXTURES, sample.format, 'report');
        await rm(golden, { recursive: true, force: true });
        await cp(reportDir, golden, { recursive: true });
        // cargo's report is its output
        if (sample.format === 'cargo') await writeFile(path.join(golden, 'cargo.out'), output);
      }
      const expected = JSON.parse(await readFile(path.join(FIXTURES, sample.format, 'expected.json'), 'utf8'));
      expect(byId(report.tests), output).toEqual(byId(expected.tests));
      expect([...report.problems].sort()).toEqual([...expected.problems].sort());
    }, 60_000);

    it(`${sample.format}: bakeoff's tripwire tests come out as they must under the real runner`, async () => {
      const runner = getTestRunner(sample.format);
      const work = await mkdtemp(path.join(os.tmpdir(), `bakeoff-${sample.format}-tw-`));
      tempDirs.push(work);
      const repoDir = path.join(work, 'repo');
      const reportDir = path.join(work, 'report');
      await cp(path.join(FIXTURES, sample.format, 'project'), repoDir, { recursive: true });
      await mkdir(reportDir);
      if (sample.linkNodeModules) await symlink(path.join(MAIN_ROOT, 'node_modules'), path.join(repoDir, 'node_modules'));
      const wires = await addTripwires(runner, repoDir, sample.testFiles ?? runner.testFiles);
      expect(wires.length).toBeGreaterThanOrEqual(3);
      const instrumented = runner.instrument(command.bare, { reportDir });
      const output = await runShell(instrumented.command, repoDir, childEnv(instrumented.env));
      const report = await runner.parse({ reportDir, output, repoDir });
      expect(judgeTripwires(report, wires), output).toEqual({ flipped: [], wrong: [] });
      // and the sample's own results are untouched by them
      const expected = JSON.parse(await readFile(path.join(FIXTURES, sample.format, 'expected.json'), 'utf8'));
      expect(byId(withoutTripwires(report, wires).tests)).toEqual(byId(expected.tests));
    }, 60_000);
  }
});
