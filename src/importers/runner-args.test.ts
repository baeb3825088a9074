import { describe, expect, it } from 'vitest';
import { joinWords, mochaArgsOf, pytestArgsOf, runnerCall, splitWords, substituteTox } from './runner-args.js';

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

describe('runnerCall and words', () => {
  it("finds the runner's part of a script after other commands and wrappers", () => {
    const isMocha = (w: string) => /(^|\/)_?mocha$/.test(w);
    expect(runnerCall('npm run lint && nyc --reporter=text mocha --check-leaks test/', isMocha)).toEqual(['--check-leaks', 'test/']);
    expect(runnerCall('node ./node_modules/mocha/bin/_mocha -b', isMocha)).toEqual(['-b']);
    expect(runnerCall('jest', isMocha)).toBeNull();
  });

  it('splits as sh does for plain words and quotes what the shell would split', () => {
    expect(splitWords(`a 'b c' "d\\"" e\\ f`)).toEqual(['a', 'b c', 'd"', 'e f']);
    expect(joinWords(['-k', 'not slow', 'tests/x.py'])).toBe("-k 'not slow' tests/x.py");
  });
});
