import { describe, expect, it } from 'vitest';
import { jestArgsOf, joinWords, mochaArgsOf, pytestArgsOf, runnerCall, scriptRunnerCall, splitWords, substituteTox, vitestArgsOf } from './runner-args.js';

describe('pytestArgsOf', () => {
  it('keeps the options that change what the tests do and leaves out the rest with their values', () => {
    const args = pytestArgsOf(splitWords('-p no:cacheprovider --cov pkg --cov-report term-missing -n 4 --junitxml out.xml -ra -vx -k "not slow" --doctest-modules tests'));
    expect(args.kept).toEqual(['-p', 'no:cacheprovider', '-ra', '-v', '-k', 'not slow', '--doctest-modules', 'tests']);
    expect(args.dropped.map((d) => d.words)).toEqual(['--cov pkg', '--cov-report term-missing', '-n 4', '--junitxml out.xml', '-x']);
    expect(args.dropped.at(-1)?.why).toMatch(/stops the run at the first failure/);
  });

  it('leaves out a substitution, and the option it is the value of', () => {
    const args = pytestArgsOf(splitWords(substituteTox('--basetemp {envtmpdir} --basetemp={envtmpdir} {posargs} {toxinidir}/tests [] {posargs:-m "not net"}')));
    expect(args.kept).toEqual(['./tests', '-m', 'not net']);
    expect(args.dropped).toEqual([
      { words: '--basetemp {envtmpdir}', why: 'its value is a tox substitution' },
      { words: '--basetemp={envtmpdir}', why: 'its value is a tox substitution' },
    ]);
  });
});

describe('mochaArgsOf', () => {
  it("keeps the repository's own options, drops the reporter and --bail and says why", () => {
    const args = mochaArgsOf(splitWords('--check-leaks --reporter spec -R dot --bail --ui qunit --require test/setup.js test/'));
    expect(args.kept).toEqual(['--check-leaks', '--ui', 'qunit', '--require', 'test/setup.js', 'test/']);
    expect(args.dropped.map((d) => d.words)).toEqual(['--reporter spec', '-R dot', '--bail']);
    expect(args.dropped[2]!.why).toMatch(/stops the run at the first failure/);
  });
});

describe('vitestArgsOf and jestArgsOf', () => {
  it("keeps vitest's config, root and filters, drops its command word, reporter, coverage, watch, -u and --bail, and says why", () => {
    const args = vitestArgsOf(splitWords('run --config vitest.unit.ts --dir src --coverage.reporter text --coverage --reporter=verbose -u --bail 1 --environment jsdom -t parse --changed HEAD~1 test/a.test.ts'));
    expect(args.kept).toEqual(['--config', 'vitest.unit.ts', '--dir', 'src', '--environment', 'jsdom', '-t', 'parse', 'test/a.test.ts']);
    expect(args.dropped.map((d) => d.words)).toEqual(['--coverage.reporter text', '--coverage', '--reporter=verbose', '-u', '--bail 1', '--changed HEAD~1']);
    expect(args.dropped.find((d) => d.words === '-u')?.why).toMatch(/rewrites the snapshots/);
    expect(args.dropped.find((d) => d.words === '--changed HEAD~1')?.why).toMatch(/only part of the tests/);
    expect(vitestArgsOf(splitWords('--run --root packages/core')).kept).toEqual(['--root', 'packages/core']);
    expect(vitestArgsOf(splitWords('watch')).kept).toEqual([]);
    expect(vitestArgsOf(splitWords('related src/a.ts')).dropped).toEqual([{ words: 'related src/a.ts', why: expect.stringMatching(/only part/) }]);
  });

  it("keeps jest's config and environment, drops its report, coverage, watch, -u and --bail options with their values", () => {
    const args = jestArgsOf(splitWords('--config jest.config.cjs --coverage --coverageReporters lcov --json --outputFile out.json --watchAll -u -b --runInBand --testEnvironment node --selectProjects unit'));
    expect(args.kept).toEqual(['--config', 'jest.config.cjs', '--runInBand', '--testEnvironment', 'node', '--selectProjects', 'unit']);
    expect(args.dropped.map((d) => d.words)).toEqual(['--coverage', '--coverageReporters lcov', '--json', '--outputFile out.json', '--watchAll', '-u', '-b']);
  });
});

describe('runnerCall and words', () => {
  it("finds the runner's part of a script after other commands and wrappers", () => {
    const isMocha = (w: string) => /(^|\/)_?mocha$/.test(w);
    expect(runnerCall('npm run lint && nyc --reporter=text mocha --check-leaks test/', isMocha)).toEqual(['--check-leaks', 'test/']);
    expect(runnerCall('node ./node_modules/mocha/bin/_mocha -b', isMocha)).toEqual(['-b']);
    expect(runnerCall('jest', isMocha)).toBeNull();
  });

  it('follows the scripts a script runs by name, each once', () => {
    const isVitest = (w: string) => w === 'vitest';
    const scripts = { test: 'npm run lint && npm run test:unit', lint: 'eslint .', 'test:unit': 'pnpm test:core', 'test:core': 'vitest run --dir src', loop: 'npm run loop' };
    expect(scriptRunnerCall(scripts, 'test', isVitest)).toEqual({ name: 'test:core', script: 'vitest run --dir src', words: ['run', '--dir', 'src'] });
    expect(scriptRunnerCall({ test: 'run-s build test:*', 'test:*': 'vitest' }, 'test', isVitest)?.name).toBe('test:*');
    expect(scriptRunnerCall({ test: 'npm run loop', loop: 'npm test' }, 'test', isVitest)).toBeNull();
    expect(scriptRunnerCall(scripts, 'missing', isVitest)).toBeNull();
  });

  it('splits as sh does for plain words and quotes what the shell would split', () => {
    expect(splitWords(`a 'b c' "d\\"" e\\ f`)).toEqual(['a', 'b c', 'd"', 'e f']);
    expect(joinWords(['-k', 'not slow', 'tests/x.py'])).toBe("-k 'not slow' tests/x.py");
  });
});
