import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bakeoff, tempDir } from './helpers.js';
import { runnersSuite } from './runners-suite.js';

/*
 * The test formats of issue 14 through the built CLI: `bakeoff validate` admits one small task
 * per format — mocha 12 with a .mocharc.json that requires a hooks file, TAP from tape, JUnit
 * XML from pytest (test.report) — and a pytest task whose tests are unittest.TestCase classes
 * (pytest collects them natively: no format of their own). Each installs its runner in setup
 * (npm ci from its lock, outside the sandbox), so the tests run offline in it. The lock holds
 * each format's ids; gold solves every task and noop fails it on the hidden tests.
 */

interface Lock { tasks: Record<string, { admitted: boolean; orders: { failToPass: string[]; passToPass: string[] }[] }> }
interface JsonRun { task: string; agent: string; outcome: string; failReason: string | null; outcomeDetail: string | null }

let root: string;
let lock: Lock;
let runs: JsonRun[];

beforeAll(async () => {
  root = await tempDir('bakeoff-formats-');
  const suite = await runnersSuite(root);
  lock = JSON.parse(await readFile(path.join(suite, 'bakeoff.lock.json'), 'utf8')) as Lock;
  const out = path.join(root, 'out');
  const r = await bakeoff(['run', suite, '--agent', 'gold', '--agent', 'noop', '--runs', '1', '--out', out, '--json']);
  expect(r.exitCode, r.stderr).toBe(0);
  runs = (JSON.parse((await bakeoff(['report', out, '--format', 'json'])).stdout) as { runs: JsonRun[] }).runs;
}, 600_000);

afterAll(() => rm(root, { recursive: true, force: true }));

const order = (task: string) => lock.tasks[task]!.orders[0]!;

describe('a task per new test format, validated and baked', () => {
  it('admits every task', () => {
    expect(Object.fromEntries(Object.entries(lock.tasks).map(([id, t]) => [id, t.admitted]))).toEqual({
      'mocha-slugify': true,
      'tape-clamp': true,
      'junit-median': true,
      'unittest-roman': true,
    });
  });

  it('mocha: ids are <file>::<describe> > … > <title>, visible and hidden files apart', () => {
    expect(order('mocha-slugify')).toMatchObject({
      failToPass: ['test/slugify.hidden.test.js::slugify > runs of separators > are dropped at the ends', 'test/slugify.hidden.test.js::slugify > runs of separators > become one dash'],
      passToPass: ['test/slugify.hidden.test.js::slugify > lowercases a single word', 'test/slugify.test.js::slugify > lowercases a single word'],
    });
  });

  it("tap: tape's tests by their files and names, each made of its assertions", () => {
    expect(order('tape-clamp')).toMatchObject({
      failToPass: ['test/clamp-below.js::limits a value below the range'],
      passToPass: ['test/clamp-below.js::keeps the bounds themselves', 'test/clamp.js::keeps a value inside the range', 'test/clamp.js::limits a value above the range'],
    });
  });

  it('junit: ids are <classname>::<name> from the XML pytest wrote at test.report', () => {
    expect(order('junit-median')).toMatchObject({
      failToPass: ['tests.test_median_even.EvenCounts::test_two_values', 'tests.test_median_even::test_even_count'],
      passToPass: ['tests.test_median::test_odd_count', 'tests.test_median_even.EvenCounts::test_odd_still_works'],
    });
  });

  it("unittest classes under pytest: pytest's own node ids, <file>::<class>::<method>", () => {
    expect(order('unittest-roman')).toMatchObject({
      failToPass: ['tests/test_roman_subtractive.py::Subtractive::test_four', 'tests/test_roman_subtractive.py::Subtractive::test_table'],
      passToPass: ['tests/test_roman.py::Additive::test_three', 'tests/test_roman_subtractive.py::Subtractive::test_additive_still_works'],
    });
  });

  it('gold solves every task; noop fails each on its hidden tests', () => {
    const verdicts = Object.fromEntries(runs.map((r) => [`${r.task} ${r.agent}`, `${r.outcome}${r.failReason ? ` ${r.failReason}` : ''}`]));
    expect(verdicts, JSON.stringify(runs.map((r) => r.outcomeDetail))).toEqual({
      'mocha-slugify gold': 'solved',
      'mocha-slugify noop': 'failed tests-failed',
      'tape-clamp gold': 'solved',
      'tape-clamp noop': 'failed tests-failed',
      'junit-median gold': 'solved',
      'junit-median noop': 'failed tests-failed',
      'unittest-roman gold': 'solved',
      'unittest-roman noop': 'failed tests-failed',
    });
    expect(runs.find((r) => r.task === 'tape-clamp' && r.agent === 'noop')!.outcomeDetail).toContain('test/clamp-below.js::limits a value below the range (fail)');
  });
});
