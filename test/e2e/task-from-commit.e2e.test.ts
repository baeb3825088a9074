import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { admitOnly, bakeoff, FIXTURES, tempDir } from './helpers.js';

/*
 * `bakeoff task from-commit` on git repositories with real histories that the test makes: a JS
 * library tested with node:test, a TS one with vitest (installed by npm ci from its lockfile),
 * a Python one with pytest, one with unittest (collected by pytest), JS ones with mocha and with
 * tape (npm ci from the runner fixtures' lockfiles), and a Rust crate with an
 * integration test. Each bug-fix commit becomes a task that admission admits, that gold solves
 * and noop fails; the refusals name their reason and write nothing.
 */

type Files = Record<string, string | Buffer>;

async function write(dir: string, files: Files): Promise<void> {
  for (const [rel, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await writeFile(path.join(dir, rel), content);
  }
}

const git = (dir: string, ...args: string[]) =>
  execa('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'commit.gpgsign=false', ...args], { cwd: dir, env: { GIT_CONFIG_GLOBAL: '/dev/null' } });

/** A repository whose history is one commit per entry, each writing its files (null deletes). */
async function repoWith(commits: readonly { message: string; files: Record<string, string | Buffer | null> }[]): Promise<string> {
  const dir = await tempDir('bakeoff-fc-repo-');
  await git(dir, 'init', '-q', '-b', 'main');
  for (const c of commits) {
    for (const [rel, content] of Object.entries(c.files)) {
      if (content === null) await git(dir, 'rm', '-q', rel);
      else await write(dir, { [rel]: content });
    }
    await git(dir, 'add', '-A');
    await git(dir, 'commit', '-q', '--allow-empty', '-m', c.message);
  }
  return dir;
}

const JS_BEFORE = {
  'package.json': '{ "name": "clampy", "type": "module", "scripts": { "test": "node --test test/" } }\n',
  'src/clamp.js': 'export function clamp(x, lo, hi) {\n  if (x < lo) return hi;\n  if (x > hi) return hi;\n  return x;\n}\n',
  'test/clamp.test.js': "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { clamp } from '../src/clamp.js';\ntest('keeps values inside', () => assert.equal(clamp(5, 0, 10), 5));\n",
};
const JS_FIX = {
  'src/clamp.js': 'export function clamp(x, lo, hi) {\n  if (x < lo) return lo;\n  if (x > hi) return hi;\n  return x;\n}\n',
  'test/clamp.test.js': JS_BEFORE['test/clamp.test.js'] + "test('raises values below the range', () => assert.equal(clamp(-3, 0, 10), 0));\n",
};

const PY_MODULE_BEFORE = 'def mean(xs):\n    return sum(xs) // len(xs)\n';
const PY_MODULE_FIX = 'def mean(xs):\n    if not xs:\n        raise ValueError("mean of nothing")\n    return sum(xs) / len(xs)\n';

describe('bakeoff task from-commit', () => {
  let suite: string;
  const made = new Map<string, { exitCode: number | undefined; stdout: string; stderr: string }>();
  /** The repositories by the id of the task made from each (their last commit is the fix). */
  const repos = new Map<string, string>();

  beforeAll(async () => {
    suite = path.join(await tempDir('bakeoff-fc-suite-'), 'from-commits');
    const js = await repoWith([{ message: 'Initial clampy', files: JS_BEFORE }, { message: 'Fix clamp() for values below the range', files: JS_FIX }]);

    const lockDir = path.join(FIXTURES, 'suites/real-repos/tasks/paths-extname-dot/repo');
    const tsBase = {
      'package.json': await readFile(path.join(lockDir, 'package.json'), 'utf8'),
      'package-lock.json': await readFile(path.join(lockDir, 'package-lock.json'), 'utf8'),
      'src/slug.ts': "export function slug(s: string): string {\n  return s.toLowerCase().replace(' ', '-');\n}\n",
      'test/slug.test.ts': "import { expect, test } from 'vitest';\nimport { slug } from '../src/slug';\ntest('lowercases', () => expect(slug('Ab')).toBe('ab'));\n",
    };
    const ts = await repoWith([
      { message: 'slug()', files: tsBase },
      {
        message: 'Fix slug() replacing only the first space',
        files: {
          'src/slug.ts': "export function slug(s: string): string {\n  return s.toLowerCase().replace(/ /g, '-');\n}\n",
          'test/slug.test.ts': tsBase['test/slug.test.ts'] + "test('replaces every space', () => expect(slug('a b c')).toBe('a-b-c'));\n",
        },
      },
    ]);

    const pyTest = (body: string) => `from stats import mean\nimport pytest\n\ndef test_whole():\n    assert mean([2, 4]) == 3\n${body}`;
    const py = await repoWith([
      { message: 'stats.mean', files: { 'stats.py': PY_MODULE_BEFORE, 'tests/test_stats.py': pyTest('') } },
      {
        message: 'Fix mean() of halves and of an empty list',
        files: { 'stats.py': PY_MODULE_FIX, 'tests/test_stats.py': pyTest('\ndef test_halves():\n    assert mean([1, 2]) == 1.5\n\ndef test_empty():\n    with pytest.raises(ValueError):\n        mean([])\n') },
      },
    ]);

    const unitTest = (body: string) => `import unittest\nfrom stats import mean\n\nclass MeanTest(unittest.TestCase):\n    def test_whole(self):\n        self.assertEqual(mean([2, 4]), 3)\n${body}`;
    const unit = await repoWith([
      { message: 'stats.mean', files: { 'stats.py': PY_MODULE_BEFORE, 'tests/test_mean.py': unitTest('') } },
      { message: 'Fix mean() of halves', files: { 'stats.py': PY_MODULE_FIX, 'tests/test_mean.py': unitTest('\n    def test_halves(self):\n        self.assertEqual(mean([1, 2]), 1.5)\n') } },
    ]);

    const cargo = '[package]\nname = "countwords"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n';
    const rustTest = (body: string) => `use countwords::count;\n\n#[test]\nfn counts_spaces() {\n    assert_eq!(count("a b"), 2);\n}\n${body}`;
    const rust = await repoWith([
      { message: 'count()', files: { 'Cargo.toml': cargo, 'Cargo.lock': '# This file is automatically @generated by Cargo.\nversion = 3\n\n[[package]]\nname = "countwords"\nversion = "0.1.0"\n', 'src/lib.rs': 'pub fn count(s: &str) -> usize {\n    s.split(\' \').count()\n}\n', 'tests/count.rs': rustTest('') } },
      {
        message: 'Fix count() of runs of whitespace',
        files: { 'src/lib.rs': 'pub fn count(s: &str) -> usize {\n    s.split_whitespace().count()\n}\n', 'tests/count.rs': rustTest('\n#[test]\nfn counts_runs() {\n    assert_eq!(count(" a  b\\t"), 2);\n}\n') },
      },
    ]);

    const runners = path.join(FIXTURES, 'suites/runners/tasks');
    const npmOf = async (task: string) => ({
      'package.json': await readFile(path.join(runners, task, 'repo/package.json'), 'utf8'),
      'package-lock.json': await readFile(path.join(runners, task, 'repo/package-lock.json'), 'utf8'),
    });
    const cjsClamp = (fixed: boolean) => `exports.clamp = (x, lo, hi) => (x < lo ? ${fixed ? 'lo' : 'hi'} : x > hi ? hi : x);\n`;
    const mochaTest = (more: string) => `const assert = require('node:assert');\nconst { clamp } = require('../src/clamp.js');\ndescribe('clamp', () => {\n  it('keeps values inside', () => assert.strictEqual(clamp(5, 0, 10), 5));\n${more}});\n`;
    const mocha = await repoWith([
      { message: 'clamp', files: { ...(await npmOf('mocha-slugify')), 'src/clamp.js': cjsClamp(false), 'test/clamp.test.js': mochaTest('') } },
      { message: 'Fix clamp() below the range', files: { 'src/clamp.js': cjsClamp(true), 'test/clamp.test.js': mochaTest("  it('raises values below', () => assert.strictEqual(clamp(-3, 0, 10), 0));\n") } },
    ]);
    const tapeTest = (more: string) => `const test = require('tape');\nconst { clamp } = require('../index.js');\ntest('keeps values inside', (t) => { t.equal(clamp(5, 0, 10), 5); t.end(); });\n${more}`;
    const tape = await repoWith([
      { message: 'clamp', files: { ...(await npmOf('tape-clamp')), 'index.js': cjsClamp(false), 'test/clamp.js': tapeTest('') } },
      { message: 'Fix clamp() below the range', files: { 'index.js': cjsClamp(true), 'test/clamp.js': tapeTest("test('raises values below', (t) => { t.equal(clamp(-3, 0, 10), 0); t.end(); });\n") } },
    ]);

    // the first task makes the suite (no lock: the whole suite is validated); the others join it (validate --task)
    for (const [id, repo] of [['clamp', js], ['slug', ts], ['mean', py], ['mean-unittest', unit], ['countwords', rust], ['clamp-mocha', mocha], ['clamp-tape', tape]] as const) {
      repos.set(id, repo);
      made.set(id, await bakeoff(['task', 'from-commit', repo, 'HEAD', '--suite', suite, '--id', id, '--json']));
    }
  }, 600_000);

  it('admits a task per language and runner, with the expected fail-to-pass and pass-to-pass counts', () => {
    const expected: Record<string, [number, number]> = { clamp: [1, 1], slug: [1, 1], mean: [2, 1], 'mean-unittest': [1, 1], countwords: [1, 1], 'clamp-mocha': [1, 1], 'clamp-tape': [1, 1] };
    for (const [id, [f2p, p2p]] of Object.entries(expected)) {
      const result = made.get(id)!;
      expect(result.exitCode, `${id}: ${result.stderr}`).toBe(0);
      const json = JSON.parse(result.stdout) as { fromCommit: { id: string; testFiles: string[] }; tasks: { id: string; admitted: boolean; failToPass: number; passToPass: number }[] };
      expect(json.fromCommit.id).toBe(id);
      const verdict = json.tasks.find((t) => t.id === id)!;
      expect(verdict, `${id}: ${JSON.stringify(json.tasks)}`).toMatchObject({ admitted: true, failToPass: f2p, passToPass: p2p });
    }
    // guesses are printed for the author to confirm
    expect(made.get('slug')!.stderr).toMatch(/setup: npm ci\s+\(guessed: package-lock.json\)/);
    expect(made.get('slug')!.stderr).toMatch(/test: npx vitest run \(format vitest\)/);
    expect(made.get('countwords')!.stderr).toMatch(/setup: cargo build --tests --offline/);
  });

  it('writes repo/ as the parent tree, hidden/ as the changed tests, the rest as gold.patch, a draft prompt and the origin', async () => {
    const task = path.join(suite, 'tasks', 'clamp');
    expect(await readFile(path.join(task, 'repo/src/clamp.js'), 'utf8')).toBe(JS_BEFORE['src/clamp.js']);
    expect(await readFile(path.join(task, 'repo/test/clamp.test.js'), 'utf8')).toBe(JS_BEFORE['test/clamp.test.js']);
    expect(existsSync(path.join(task, 'repo/.git'))).toBe(false);
    expect(await readFile(path.join(task, 'orders/1/hidden/test/clamp.test.js'), 'utf8')).toBe(JS_FIX['test/clamp.test.js']);
    const gold = await readFile(path.join(task, 'orders/1/gold.patch'), 'utf8');
    expect(gold).toContain('+++ b/src/clamp.js');
    expect(gold).not.toContain('test/clamp.test.js');
    const prompt = await readFile(path.join(task, 'orders/1/prompt.md'), 'utf8');
    expect(prompt.startsWith('<!-- bakeoff: DRAFT prompt')).toBe(true);
    expect(prompt).toContain('Fix clamp() for values below the range');
    const yaml = await readFile(path.join(task, 'task.yaml'), 'utf8');
    expect(yaml).toMatch(/origin:\n  kind: commit\n  repo: bakeoff-fc-repo-\w+\n  commit: [0-9a-f]{40}/);
    expect(yaml).toContain('command: node --test test/');
  });

  it('gold solves and noop fails in a bake (admission ran both on every task; the bake runs two, to keep the test short)', async () => {
    const baked = path.join(await tempDir(), 'suite');
    await cp(suite, baked, { recursive: true });
    await admitOnly(baked, ['clamp', 'mean']);
    const results = path.join(await tempDir(), 'results');
    const run = await bakeoff(['run', baked, '--agent', 'gold', '--agent', 'noop', '--runs', '1', '--out', results, '--json']);
    expect(run.exitCode, run.stderr).toBe(0);
    const report = JSON.parse((await bakeoff(['report', results, '--format', 'json'])).stdout) as { agents: { id: string; solved: number; runs: number }[] };
    expect(report.agents.find((a) => a.id === 'gold')).toMatchObject({ solved: 2, runs: 2 });
    expect(report.agents.find((a) => a.id === 'noop')).toMatchObject({ solved: 0, runs: 2 });
    // the prompts are still drafts: validate says so, and publish refuses them unless told
    const validate = await bakeoff(['validate', baked, '--check', '--task', 'clamp']);
    expect(validate.stderr).toContain('is a draft bakeoff wrote');
    // a tampered artifact: a re-check would refuse it as a mismatch (exit 1), so exit 2 and the
    // draft sentence show that drafts are refused before the minutes-long re-check
    const run0 = (await readdir(path.join(results, 'runs'))).find((d) => !d.startsWith('.'))!;
    await writeFile(path.join(results, 'runs', run0, 'order-1', 'change.patch'), '\n', { flag: 'a' });
    const site = path.join(await tempDir(), 'site');
    const refused = await bakeoff(['publish', results, '--out', site]);
    expect(refused.exitCode, refused.stderr).toBe(2);
    expect(refused.stderr).toMatch(/7 prompts are drafts bakeoff wrote .*--allow-draft-prompts/);
    expect(refused.stderr).not.toContain('mismatch');
    expect(existsSync(site)).toBe(false);
    // with --allow-draft-prompts the re-check runs, and finds the tampered run
    const allowed = await bakeoff(['publish', results, '--out', site, '--allow-draft-prompts']);
    expect(allowed.exitCode, allowed.stderr).toBe(1);
    expect(allowed.stderr).toContain(`run ${run0}`);
  }, 300_000);

  it('refuses commits it cannot make a task of, saying why, and writes nothing', async () => {
    const base = { message: 'Initial clampy', files: JS_BEFORE };
    const cases: [string, string, RegExp][] = [
      [await repoWith([base, { message: 'Fix clamp', files: { 'src/clamp.js': JS_FIX['src/clamp.js'] } }]), 'HEAD', /changes no test file by the test-file rule/],
      [await repoWith([base, { message: 'Only tests', files: { 'test/clamp.test.js': JS_FIX['test/clamp.test.js'] } }]), 'HEAD', /changes only test files \(test\/clamp.test.js\)/],
      [await repoWith([base, { message: 'Drop a test', files: { 'src/clamp.js': JS_FIX['src/clamp.js'], 'test/clamp.test.js': null, 'test/other.test.js': JS_FIX['test/clamp.test.js'] } }]), 'HEAD', /deletes \(or renames, or turns into a link\) test files: test\/clamp.test.js/],
      [await repoWith([base, { message: 'Logo', files: { 'src/clamp.js': JS_FIX['src/clamp.js'], 'test/clamp.test.js': JS_FIX['test/clamp.test.js'], 'logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 0, 255]) } }]), 'HEAD', /changes binary files \(logo.png\)/],
      [await repoWith([base]), 'HEAD', /is the repository's first commit/],
      [await repoWith([base]), 'no-such-branch', /no-such-branch: not a commit of/],
    ];
    // a merge commit
    const merged = await repoWith([base]);
    await git(merged, 'checkout', '-q', '-b', 'side');
    await write(merged, JS_FIX);
    await git(merged, 'commit', '-qam', 'Fix on a side branch');
    await git(merged, 'checkout', '-q', 'main');
    await write(merged, { 'README.md': 'clampy\n' });
    await git(merged, 'add', '-A');
    await git(merged, 'commit', '-qm', 'readme');
    await git(merged, 'merge', '-q', '--no-ff', '-m', 'Merge side', 'side');
    cases.push([merged, 'HEAD', /is a merge \(2 parents\)/]);
    // a shallow clone without the fix's parent
    const upstream = await repoWith([base, { message: 'Fix clamp() for values below the range', files: JS_FIX }]);
    const shallow = path.join(await tempDir(), 'shallow');
    await execa('git', ['clone', '-q', '--depth', '1', `file://${upstream}`, shallow]);
    cases.push([shallow, 'HEAD', /its parent [0-9a-f]{12} is not in .* \(the clone is shallow: run `git fetch --deepen=1`/]);

    for (const [repo, rev, reason] of cases) {
      const target = path.join(await tempDir(), 'suite');
      const result = await bakeoff(['task', 'from-commit', repo, rev, '--suite', target]);
      expect(result.exitCode, `${rev} in ${repo}: ${result.stderr}`).toBe(2);
      expect(result.stderr).toMatch(reason);
      expect(existsSync(target) ? await readdir(target) : []).toEqual([]);
    }
  }, 120_000);

  it('refuses a parent tree with a submodule', async () => {
    const inner = await repoWith([{ message: 'inner', files: { 'x.txt': 'x\n' } }]);
    const outer = await repoWith([{ message: 'Initial clampy', files: JS_BEFORE }]);
    await git(outer, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', inner, 'vendor/inner');
    await git(outer, 'commit', '-qm', 'vendor inner');
    await write(outer, JS_FIX);
    await git(outer, 'commit', '-qam', 'Fix clamp');
    const target = path.join(await tempDir(), 'suite');
    const result = await bakeoff(['task', 'from-commit', outer, 'HEAD', '--suite', target]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/has submodules \(vendor\/inner\)/);
    expect((await git(outer, 'status', '--porcelain')).stdout).toBe(''); // the repository was only read
  });

  it('mine lists the candidate commits with why the others are not, and --validate admits the candidate', async () => {
    const repo = await repoWith([
      { message: 'Initial clampy', files: JS_BEFORE },
      { message: 'Fix clamp() for values below the range', files: JS_FIX },
      { message: 'Docs', files: { 'README.md': 'clampy\n' } },
      { message: 'More tests', files: { 'test/more.test.js': JS_FIX['test/clamp.test.js'] } },
      { message: 'Port to Python', files: { 'clamp.py': 'def clamp(x, lo, hi):\n    return max(lo, min(x, hi))\n', 'src/other.js': 'export const x = 1;\n', 'test/py.test.js': '// x\n' } },
    ]);
    const listed = await bakeoff(['task', 'mine', repo, '--json']);
    expect(listed.exitCode, listed.stderr).toBe(0);
    const json = JSON.parse(listed.stdout) as { commits: { subject: string; skipped: string | null }[]; candidates: number };
    expect(json.commits.map((c) => [c.subject, c.skipped])).toEqual([
      ['Port to Python', 'code in js and python'],
      ['More tests', 'tests only'],
      ['Docs', 'no test change'],
      ['Fix clamp() for values below the range', null],
      ['Initial clampy', 'first commit'],
    ]);
    const checked = await bakeoff(['task', 'mine', repo, '--validate']);
    expect(checked.exitCode, checked.stderr).toBe(0);
    expect(checked.stdout).toMatch(/admitted \(F→P 1, P→P 1\)\s+Fix clamp\(\) for values below the range/);
    expect(checked.stdout).toContain('5 commits looked at, 1 candidates, 1 admitted');
    // --range and --limit choose the commits looked at
    const ranged = JSON.parse((await bakeoff(['task', 'mine', repo, '--range', 'HEAD~3..HEAD~1', '--json'])).stdout) as { commits: { subject: string }[] };
    expect(ranged.commits.map((c) => c.subject)).toEqual(['More tests', 'Docs']);
    const limited = JSON.parse((await bakeoff(['task', 'mine', repo, '--limit', '2', '--json'])).stdout) as { commits: { subject: string }[] };
    expect(limited.commits.map((c) => c.subject)).toEqual(['Port to Python', 'More tests']);
  });

  it("mine finds the fix as the one candidate in every runner's repository (mocha, tape, vitest, pytest, unittest, cargo); --add writes it into a suite, admitted", async () => {
    // Admission of each of these commits already ran above (from-commit validates the task it
    // writes; mine --validate writes and validates the same way, api/mine-tasks.ts), and mine
    // --validate ran on the JavaScript repository: here mine lists each runner's repository,
    // and --add admits one.
    const added = path.join(await tempDir(), 'mined');
    const looked: Record<string, number> = { 'clamp-mocha': 2, 'clamp-tape': 2, slug: 2, 'mean-unittest': 2, countwords: 2 };
    const [add, ...listed] = await Promise.all([
      bakeoff(['task', 'mine', repos.get('mean')!, '--add', added, '--json']),
      ...Object.keys(looked).map((id) => bakeoff(['task', 'mine', repos.get(id)!, '--json'])),
    ]);
    for (const [i, [id, commits]] of Object.entries(looked).entries()) {
      const r = listed[i]!;
      expect(r.exitCode, `${id}: ${r.stderr}`).toBe(0);
      const json = JSON.parse(r.stdout) as { commits: { subject: string; skipped: string | null }[]; candidates: number };
      expect({ id, looked: json.commits.length, candidates: json.candidates }, JSON.stringify(json.commits)).toEqual({ id, looked: commits, candidates: 1 });
      expect(json.commits[0]!.skipped, id).toBeNull();
    }
    expect(add!.exitCode, add!.stderr).toBe(0);
    const json = JSON.parse(add!.stdout) as { mined: { commits: number; candidates: number; added: string[] }; tasks: { id: string; admitted: boolean; failToPass: number; passToPass: number }[]; keptVerdicts: string[] };
    expect(json.mined).toMatchObject({ commits: 2, candidates: 1 });
    expect(json.mined.added).toHaveLength(1);
    // admitted once: the scratch suite's admission of the candidate is kept when it is added under its own id
    expect(json.keptVerdicts).toEqual(json.mined.added);
    expect(json.tasks).toEqual([expect.objectContaining({ id: json.mined.added[0], admitted: true, failToPass: 2, passToPass: 1 })]);
    expect(existsSync(path.join(added, 'tasks', json.mined.added[0]!, 'orders/1/gold.patch'))).toBe(true);
  }, 900_000);

  it('refuses a commit with Git LFS pointers, and mine lists it as such without --validate', async () => {
    const pointer = 'version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 12345\n';
    const repo = await repoWith([
      { message: 'Initial clampy', files: { ...JS_BEFORE, '.gitattributes': 'assets/*.png filter=lfs diff=lfs merge=lfs -text\n', 'assets/logo.png': pointer } },
      { message: 'Fix clamp() for values below the range', files: JS_FIX },
    ]);
    const target = path.join(await tempDir(), 'suite');
    const refused = await bakeoff(['task', 'from-commit', repo, 'HEAD', '--suite', target]);
    expect(refused.exitCode, refused.stderr).toBe(2);
    expect(refused.stderr).toMatch(/has Git LFS pointers instead of files \(assets\/logo.png\): bakeoff reads the object database only/);
    expect(existsSync(target)).toBe(false);
    const listed = JSON.parse((await bakeoff(['task', 'mine', repo, '--json'])).stdout) as { commits: { subject: string; skipped: string | null }[]; candidates: number };
    expect(listed.commits[0]).toMatchObject({ subject: 'Fix clamp() for values below the range', skipped: 'LFS files' });
    expect(listed.candidates).toBe(0);
  });

  it('takes --issue, --tests, --setup, --test, --format junit with --report and --kind over its guesses', async () => {
    const check = (more: string) => `import unittest\nfrom calc import double\n\n\nclass CalcTest(unittest.TestCase):\n    def test_positive(self):\n        self.assertEqual(double(2), 4)\n${more}`;
    const repo = await repoWith([
      { message: 'double()', files: { 'calc.py': 'def double(x):\n    return x + x if x > 0 else x\n', 'checks/calc_check.py': check('') } },
      {
        message: 'Fix double() of negative numbers\n\nThe commit message body, which the prompt must not hold.',
        files: { 'calc.py': 'def double(x):\n    return x * 2\n', 'checks/calc_check.py': check('\n    def test_negative(self):\n        self.assertEqual(double(-3), -6)\n') },
      },
    ]);
    const issue = path.join(await tempDir(), 'ISSUE.md');
    await writeFile(issue, 'double(-3) gives -3.\n\nI expected -6, as for positive numbers.\n');
    const target = path.join(await tempDir(), 'suite');
    const command = 'python3 -m pytest -q -p no:cacheprovider --junitxml=reports/junit.xml checks/calc_check.py';
    const base = ['task', 'from-commit', repo, 'HEAD', '--suite', target, '--id', 'double', '--tests', 'checks/**', '--test', command, '--format', 'junit'];
    // without --report, junit has no report to read: refused before anything is written
    const noReport = await bakeoff(base);
    expect(noReport.exitCode).toBe(2);
    expect(noReport.stderr).toMatch(/test\.report \(--report\): format junit needs test\.report/);
    expect(existsSync(target)).toBe(false);

    const r = await bakeoff([...base, '--report', 'reports/junit.xml', '--setup', 'mkdir -p reports', '--kind', 'feature', '--issue', issue, '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const json = JSON.parse(r.stdout) as { fromCommit: { testFiles: string[]; guesses: { field: string }[] }; tasks: { id: string; admitted: boolean; failToPass: number; passToPass: number }[] };
    expect(json.fromCommit.testFiles).toEqual(['checks/calc_check.py']);
    expect(json.fromCommit.guesses.map((g) => g.field)).toEqual(['language']);
    expect(json.tasks.find((t) => t.id === 'double')).toMatchObject({ admitted: true, failToPass: 1, passToPass: 1 });
    const task = path.join(target, 'tasks', 'double');
    const yaml = await readFile(path.join(task, 'task.yaml'), 'utf8');
    expect(yaml).toContain('kind: feature');
    expect(yaml).toContain('setup: mkdir -p reports');
    expect(yaml).toMatch(/test:\n  command: python3 -m pytest .*checks\/calc_check.py\n  format: junit\n  report: reports\/junit.xml\n  files:\n    - checks\/\*\*\n/);
    const prompt = await readFile(path.join(task, 'orders/1/prompt.md'), 'utf8');
    expect(prompt).toMatch(/^<!-- bakeoff: DRAFT prompt.*the issue ISSUE.md/);
    expect(prompt).toContain('I expected -6, as for positive numbers.');
    expect(prompt).not.toContain('The commit message body');
  }, 300_000);
});
