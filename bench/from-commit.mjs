// What making a task from a commit costs against running the repository's tests by hand: a
// generated Python repository with about 500 pytest tests (TESTS, in files of 10) and a fix
// commit that changes one module and one test file. Timed: `bakeoff task from-commit` (write
// the task, then the admission checks: baseline twice, gold twice, shifted clock, in the
// sandbox) against the bare setup (none: pytest from the machine) + one `python -m pytest -q`
// on a checkout of the fix. The figure: from-commit + validate as a multiple of the bare time.
// Usage: npm run build && node bench/from-commit.mjs [tests=500] [repeats=3]
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const BIN = path.join(ROOT, 'bin/bakeoff.js');
const TESTS = Number(process.argv[2] ?? 500);
const REPEATS = Number(process.argv[3] ?? 3);
const PER_FILE = 10;

const work = mkdtempSync(path.join(os.tmpdir(), 'bench-from-commit-'));
const repo = path.join(work, 'repo');
const git = (...args) => execFileSync('git', ['-c', 'user.name=b', '-c', 'user.email=b@b', '-c', 'commit.gpgsign=false', ...args], { cwd: repo, env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null' }, stdio: ['ignore', 'pipe', 'inherit'] });
const put = (rel, text) => {
  mkdirSync(path.dirname(path.join(repo, rel)), { recursive: true });
  writeFileSync(path.join(repo, rel), text);
};

mkdirSync(repo, { recursive: true });
git('init', '-q', '-b', 'main');
put('pyproject.toml', '[project]\nname = "benchlib"\nversion = "0.1.0"\n');
put('benchlib/__init__.py', '');
const files = Math.ceil(TESTS / PER_FILE);
for (let f = 0; f < files; f++) {
  put(`benchlib/m${f}.py`, `def f${f}(x):\n    return x * ${f + 1}\n`);
  const tests = Array.from({ length: Math.min(PER_FILE, TESTS - f * PER_FILE) }, (_, t) => `def test_f${f}_${t}():\n    assert f${f}(${t}) == ${t * (f + 1)}\n`);
  put(`tests/test_m${f}.py`, `from benchlib.m${f} import f${f}\n\n\n${tests.join('\n\n')}`);
}
put('benchlib/clamp.py', 'def clamp(x, lo, hi):\n    return hi if x < lo else min(x, hi)\n');
put('tests/test_clamp.py', 'from benchlib.clamp import clamp\n\n\ndef test_inside():\n    assert clamp(5, 0, 10) == 5\n');
git('add', '-A');
git('commit', '-q', '-m', 'benchlib');
put('benchlib/clamp.py', 'def clamp(x, lo, hi):\n    return lo if x < lo else min(x, hi)\n');
put('tests/test_clamp.py', 'from benchlib.clamp import clamp\n\n\ndef test_inside():\n    assert clamp(5, 0, 10) == 5\n\n\ndef test_below():\n    assert clamp(-3, 0, 10) == 0\n');
git('add', '-A');
git('commit', '-q', '-m', 'Fix clamp() below the range');

const timed = (file, args, cwd) => {
  const started = performance.now();
  try {
    execFileSync(file, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (error) {
    if (file !== process.execPath) throw error;
    throw new Error(`bakeoff ${args.join(' ')} failed: ${error.stderr}`);
  }
  return (performance.now() - started) / 1000;
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const bare = [];
const made = [];
for (let k = 0; k < REPEATS; k++) {
  const checkout = path.join(work, `checkout-${k}`);
  execFileSync('git', ['clone', '-q', repo, checkout]);
  // bare: no setup (pytest from the machine), one test run
  bare.push(timed('python3', ['-m', 'pytest', '-q', '-p', 'no:cacheprovider'], checkout));
  made.push(timed(process.execPath, [BIN, 'task', 'from-commit', repo, 'HEAD', '--suite', path.join(work, `suite-${k}`), '--id', 'clamp', '--json'], work));
}
const [b, m] = [median(bare), median(made)];
console.log(
  `from-commit + validate, ${TESTS + 2} tests: ${m.toFixed(1)} s (median of ${REPEATS}: ${made.map((s) => s.toFixed(1)).join(', ')}) ` +
    `against bare setup + test ${b.toFixed(2)} s (${bare.map((s) => s.toFixed(2)).join(', ')}) = ${(m / b).toFixed(1)}x`,
);
rmSync(work, { recursive: true, force: true });
