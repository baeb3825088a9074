import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { bakeoff, FIXTURES } from './helpers.js';
import { commitAll, git, tempDir, type Files } from './git-fixtures.js';

/*
 * Guesses that run (issue 33): `task mine --add` on repositories in the shapes real ones have,
 * with no override of any guess. A src-layout Python package whose tox.ini runs `py.test
 * --basetemp={envtmpdir} --cov=… --cov-report term-missing {posargs}` (the guess sets
 * PYTHONPATH=src, which must not unload bakeoff's pytest plugin; the substitutions and the
 * coverage options go with their values; its tests sleep — `time.sleep` in a thread, an Event's
 * timeout, `asyncio.sleep` — which the date check's shifted clock must not break); a TypeScript package on vitest whose package.json names
 * pnpm in `packageManager` (the machine has no pnpm: setup runs it through npx, from the npm
 * registry, as the existing tests' `npm ci` does) and whose test script runs `vitest --dir test
 * --reporter=dot --coverage` through `npm run test:unit` (the folder is kept, the reporter and
 * coverage — no provider installed — left out and named); a mocha package on mocha 2.2.5 (no `--no-bail`, no `--reporter-option`:
 * bakeoff's reporter takes its file from the environment and turns bail off itself) whose test script says
 * `--check-leaks --reporter dot --bail` (its bug is a leaked global, which only --check-leaks
 * sees, so the task is admitted only if the option is kept; --bail would stop the baseline at that
 * failure and lose the tests after it). Each is admitted with the expected counts; one bake
 * of gold and noop over the three: gold solves, noop fails. A repository whose only candidate
 * is rejected still gets its JSON document on stdout.
 */

interface MineJson {
  mined: { commits: number; candidates: number; admitted: number; added: string[]; verdicts: { sha: string; subject: string; admitted?: boolean; reason?: string; failToPass?: number; passToPass?: number }[] };
  tasks?: { id: string; admitted: boolean; failToPass: number; passToPass: number }[];
}

const LRU_BEFORE = `class LRU:
    def __init__(self, size):
        self.size = size
        self.items = {}

    def get(self, key):
        value = self.items.pop(key)
        self.items[key] = value
        return value

    def put(self, key, value):
        self.items.pop(key, None)
        self.items[key] = value
        if len(self.items) > self.size:
            newest = list(self.items)[-2]
            del self.items[newest]
`;
const LRU_FIX = LRU_BEFORE.replace('            newest = list(self.items)[-2]\n            del self.items[newest]', '            oldest = next(iter(self.items))\n            del self.items[oldest]');
// the tests sleep as real ones do (a writer thread, an event's timeout, asyncio): the date check's
// shifted clock must leave every one of these sleeps working, or the task is rejected as date-dependent
const SLEEPS = `

def test_waits_for_a_writer_thread():
    c = LRU(2)
    done = threading.Event()

    def writer():
        time.sleep(0.02)
        c.put("w", 1)
        done.set()

    t = threading.Thread(target=writer)
    t.start()
    assert done.wait(timeout=30)
    t.join(timeout=30)
    assert not threading.Event().wait(timeout=0.02)

    async def later():
        await asyncio.sleep(0.02)
        return c.get("w")

    assert asyncio.run(asyncio.wait_for(later(), timeout=30)) == 1
`;
const lruTest = (more: string) => `import asyncio\nimport threading\nimport time\n\nfrom cachekit import LRU\n\n\ndef test_keeps_what_fits():\n    c = LRU(2)\n    c.put("a", 1)\n    c.put("b", 2)\n    assert c.get("a") == 1\n${SLEEPS}${more}`;
const PYTHON: Files = {
  'pyproject.toml': '[project]\nname = "cachekit"\nversion = "0.1.0"\n\n[build-system]\nrequires = ["setuptools"]\nbuild-backend = "setuptools.build_meta"\n',
  'tox.ini': '[tox]\nenvlist = py3\n\n[testenv]\ndeps =\n    pytest\n    pytest-cov\ncommands =\n    py.test --basetemp={envtmpdir} --cov=cachekit --cov-report term-missing {posargs}\n',
  'src/cachekit/__init__.py': 'from .lru import LRU\n',
  'src/cachekit/lru.py': LRU_BEFORE,
  'tests/test_lru.py': lruTest(''),
};
const PYTHON_FIX: Files = {
  'src/cachekit/lru.py': LRU_FIX,
  'tests/test_lru.py': lruTest('\n\ndef test_evicts_the_least_recently_used():\n    c = LRU(2)\n    c.put("a", 1)\n    c.put("b", 2)\n    c.get("a")\n    c.put("c", 3)\n    assert sorted(c.items) == ["a", "c"]\n'),
};

const slugTest = (more: string) => `import { expect, test } from 'vitest';\nimport { slug } from '../src/slug';\ntest('lowercases', () => expect(slug('Ab')).toBe('ab'));\n${more}`;

// sloppy-mode CommonJS: `sum = 0` without a declaration makes a global, which only --check-leaks fails on
const STATS_BEFORE = 'exports.total = (xs) => {\n  sum = 0;\n  for (const x of xs) sum += x;\n  return sum;\n};\nexports.mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;\n';
const STATS_FIX = STATS_BEFORE.replace('  sum = 0;', '  let sum = 0;');
const statsTest = (more: string) => `const assert = require('node:assert');\nconst { mean, total } = require('../src/stats.js');\ndescribe('mean', () => {\n  it('averages', () => assert.strictEqual(mean([2, 4]), 3));\n});\n${more}`;
const STATS_TEST_FIX = statsTest(
  "describe('total', () => {\n  it('sums without leaking a global', () => assert.strictEqual(total([1, 2]), 3));\n  it('sums nothing to 0', () => assert.strictEqual(total([]), 0));\n});\ndescribe('mean of one', () => {\n  it('is the value', () => assert.strictEqual(mean([7]), 7));\n});\n",
);

/** An empty folder with this name (the name a task's origin.repo records for a clone without a remote). */
async function namedDir(name: string): Promise<string> {
  const dir = path.join(await tempDir('bakeoff-guess-'), name);
  await mkdir(dir);
  return dir;
}

describe('task mine --add admits real shapes with its own guesses', () => {
  const repos = new Map<string, string>();
  const mined = new Map<string, { exitCode: number | undefined; stdout: string; stderr: string }>();
  let suite: string;

  beforeAll(async () => {
    suite = path.join(await tempDir('bakeoff-guess-suite-'), 'guessed');
    const python = await namedDir('cachekit');
    await commitAll(python, [{ message: 'LRU cache', files: PYTHON }, { message: 'Fix LRU eviction dropping the newest entry', files: PYTHON_FIX }]);
    await git(python, 'remote', 'add', 'origin', 'https://example.com/acme/cachekit.git');

    const pnpmDir = path.join(FIXTURES, 'importers/pnpm-vitest');
    const pnpm = await namedDir('slugs');
    await commitAll(pnpm, [
      {
        message: 'slug()',
        files: {
          // the test script runs vitest through another script, with a folder to keep, and a reporter and coverage to leave out
          'package.json': JSON.stringify({ ...(JSON.parse(await readFile(path.join(pnpmDir, 'package.json'), 'utf8')) as object), scripts: { test: 'npm run test:unit', 'test:unit': 'vitest --dir test --reporter=dot --coverage' } }, null, 2) + '\n',
          'pnpm-lock.yaml': await readFile(path.join(pnpmDir, 'pnpm-lock.yaml'), 'utf8'),
          'src/slug.ts': "export function slug(s: string): string {\n  return s.toLowerCase().replace(' ', '-');\n}\n",
          'test/slug.test.ts': slugTest(''),
        },
      },
      {
        message: 'Fix slug() replacing only the first space',
        files: { 'src/slug.ts': "export function slug(s: string): string {\n  return s.toLowerCase().replace(/ /g, '-');\n}\n", 'test/slug.test.ts': slugTest("test('replaces every space', () => expect(slug('a b c')).toBe('a-b-c'));\n") },
      },
    ]);

    // mocha 2.2.5, as the jshttp packages of 2015 pinned it: its options parser refuses --no-bail and --reporter-option
    const mochaDir = path.join(FIXTURES, 'importers/mocha-2');
    const packageJson = JSON.parse(await readFile(path.join(mochaDir, 'package.json'), 'utf8')) as Record<string, unknown>;
    const mocha = await namedDir('stats');
    await commitAll(mocha, [
      {
        message: 'stats',
        files: {
          'package.json': JSON.stringify({ ...packageJson, scripts: { test: 'mocha --check-leaks --reporter dot --bail test/' } }, null, 2) + '\n',
          'package-lock.json': await readFile(path.join(mochaDir, 'package-lock.json'), 'utf8'),
          'src/stats.js': STATS_BEFORE,
          'test/stats.test.js': statsTest(''),
        },
      },
      { message: 'Stop total() leaking a global', files: { 'src/stats.js': STATS_FIX, 'test/stats.test.js': STATS_TEST_FIX } },
    ]);

    // one suite: each --add joins it (the later ones validate only their own task)
    for (const [id, repo] of [['python', python], ['pnpm', pnpm], ['mocha', mocha]] as const) {
      repos.set(id, repo);
      mined.set(id, await bakeoff(['task', 'mine', repo, '--add', suite, '--json']));
    }
  }, 900_000);

  const admitted = (id: string) => {
    const r = mined.get(id)!;
    expect(r.exitCode, `${id}: ${r.stderr}`).toBe(0);
    const json = JSON.parse(r.stdout) as MineJson;
    expect(json.mined).toMatchObject({ commits: 2, candidates: 1, admitted: 1 });
    expect(json.mined.verdicts).toEqual([expect.objectContaining({ admitted: true })]);
    const task = json.tasks!.find((t) => t.id === json.mined.added[0])!;
    return { json, task, stderr: r.stderr };
  };
  const taskYaml = async (id: string) => readFile(path.join(suite, 'tasks', (JSON.parse(mined.get(id)!.stdout) as MineJson).mined.added[0]!, 'task.yaml'), 'utf8');

  it('admits the src-layout Python package with its tox command parsed, the reporter loaded under PYTHONPATH=src and its sleeping tests passing under the shifted clock', async () => {
    const { task } = admitted('python');
    expect(task).toMatchObject({ admitted: true, failToPass: 1, passToPass: 2 });
    // the date check ran with the clock moved (not the time zone only): the sleeps held under it
    const lock = JSON.parse(await readFile(path.join(suite, 'bakeoff.lock.json'), 'utf8')) as { tasks: Record<string, { clockNotMoved?: string; orders: { passToPass: string[] }[] }> };
    const entry = lock.tasks[task.id]!;
    expect(entry).not.toHaveProperty('clockNotMoved');
    expect(entry.orders[0]!.passToPass).toContain('tests/test_lru.py::test_waits_for_a_writer_thread');
    const yaml = await taskYaml('python');
    expect(yaml).toContain('command: PYTHONPATH=src python -m pytest -q\n');
    expect(yaml).toContain('repo: https://example.com/acme/cachekit.git');
  });

  it("admits the pnpm package through npx pnpm at the packageManager version, with its script's vitest options kept or named as left out", async () => {
    const { task, stderr } = admitted('pnpm');
    expect(task).toMatchObject({ admitted: true, failToPass: 1, passToPass: 1 });
    const yaml = await taskYaml('pnpm');
    expect(yaml).toContain('setup: npx --yes pnpm@9.15.9 install --frozen-lockfile');
    expect(yaml).toContain('command: npx vitest run --dir test\n');
    expect(stderr).toMatch(/left out --reporter=dot \(the reporter: bakeoff sets its own\), --coverage \(coverage/);
    expect(yaml).toMatch(/origin:\n {2}kind: commit\n {2}repo: slugs\n/);
  });

  it("admits the mocha 2 package with the repository's --check-leaks kept and --bail left out, ids as a current mocha gives them", async () => {
    const { task } = admitted('mocha');
    // the leak fails only under --check-leaks; without --bail the tests after it ran at the baseline
    expect(task).toMatchObject({ admitted: true, failToPass: 1, passToPass: 3 });
    expect(await taskYaml('mocha')).toContain('command: npx mocha --check-leaks test/');
    const lock = JSON.parse(await readFile(path.join(suite, 'bakeoff.lock.json'), 'utf8')) as { tasks: Record<string, { orders: { failToPass: string[] }[] }> };
    expect(lock.tasks[task.id]!.orders[0]!.failToPass).toEqual(['test/stats.test.js::total > sums without leaking a global']);
  });

  it('gold solves and noop fails each of the three in one bake', async () => {
    const results = path.join(await tempDir(), 'results');
    const run = await bakeoff(['run', suite, '--agent', 'gold', '--agent', 'noop', '--runs', '1', '--out', results, '--json']);
    expect(run.exitCode, run.stderr).toBe(0);
    const report = JSON.parse((await bakeoff(['report', results, '--format', 'json'])).stdout) as { runs: { task: string; agent: string; outcome: string }[] };
    const outcomes = Object.fromEntries(report.runs.map((r) => [`${r.agent} ${r.task.replace(/-[0-9a-f]+$/, '')}`, r.outcome]));
    expect(Object.values(outcomes).sort()).toEqual(['failed', 'failed', 'failed', 'solved', 'solved', 'solved']);
    expect(report.runs.filter((r) => r.agent === 'gold').every((r) => r.outcome === 'solved')).toBe(true);
  }, 600_000);

  it('prints the JSON document with each verdict when nothing is admitted', async () => {
    const repo = await namedDir('clampy');
    const test = (more: string) => `import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { clamp } from '../src/clamp.js';\ntest('keeps values inside', () => assert.equal(clamp(5, 0, 10), 5));\n${more}`;
    const clamp = 'export function clamp(x, lo, hi) {\n  return Math.min(Math.max(x, lo), hi);\n}\n';
    await commitAll(repo, [
      { message: 'clamp', files: { 'package.json': '{ "type": "module", "scripts": { "test": "node --test test/" } }\n', 'src/clamp.js': clamp, 'test/clamp.test.js': test('') } },
      // the new test passes before the change too: nothing fails to pass
      { message: 'Document clamp()', files: { 'src/clamp.js': `/** Clamps x into [lo, hi]. */\n${clamp}`, 'test/clamp.test.js': test("test('raises values below', () => assert.equal(clamp(-3, 0, 10), 0));\n") } },
    ]);
    const target = path.join(await tempDir(), 'none');
    const r = await bakeoff(['task', 'mine', repo, '--add', target, '--json']);
    expect(r.exitCode, r.stderr).toBe(1);
    const json = JSON.parse(r.stdout) as MineJson;
    expect(json.mined).toMatchObject({ commits: 2, candidates: 1, admitted: 0, added: [] });
    expect(json.mined.verdicts).toEqual([expect.objectContaining({ subject: 'Document clamp()', admitted: false, reason: expect.stringMatching(/fail/) })]);
    expect(r.stderr).toContain('no admitted candidate');
  }, 300_000);
});
