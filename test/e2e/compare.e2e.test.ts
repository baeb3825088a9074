import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { bakeoff, copySuite, FIXTURES, tempDir } from './helpers.js';

describe('report --compare, end to end', () => {
  let out: string;
  let hash: string;
  beforeAll(async () => {
    const suite = await copySuite(path.join(FIXTURES, 'suites/tiny'));
    const validate = await bakeoff(['validate', suite, '--json']);
    expect(validate.exitCode, validate.stderr).toBe(0);
    hash = (JSON.parse(validate.stdout) as { suite: { hash: string } }).suite.hash;
    out = await tempDir();
    const run = await bakeoff(['run', suite, '--agent', 'gold', '--agent', 'noop', '--runs', '2', '--out', out, '--json']);
    expect(run.exitCode, run.stderr).toBe(0);
  });

  it('prints the legal sentence, the suite hash, the controls, the void count, the rule and a p-value', async () => {
    const report = await bakeoff(['report', out, '--compare', 'gold', 'noop']);
    expect(report.exitCode, report.stderr).toBe(0);
    const lines = report.stdout.split('\n');
    expect(lines[0]).toBe('On tiny, with 2 attempts per task and a frozen oracle, gold won 2, noop won 0, 0 tied, 0 void.');
    expect(report.stdout).toContain(`hash ${hash}`);
    expect(report.stdout).toMatch(/controls digest \S+/);
    expect(report.stdout).toContain('void: 0 of 2 tasks');
    expect(report.stdout).toContain('no replay rule');
    // Two discordant tasks, both won by gold: p = 2 · 0.5² = 0.5.
    expect(report.stdout).toContain('exact McNemar (sign test): p = 0.5000');
    expect(report.stdout).toMatch(/mean paired difference \(gold − noop\): \+1\.000/);
  });

  it('gives the comparison as JSON with --format json', async () => {
    const report = await bakeoff(['report', out, '--format', 'json', '--compare', 'gold', 'noop']);
    expect(report.exitCode, report.stderr).toBe(0);
    const json = JSON.parse(report.stdout) as {
      suite: { id: string; hash: string };
      comparison: { a: string; b: string; aWins: number; bWins: number; ties: number; void: number; pValue: number; meanDifference: number; sentence: string; perTask: { task: string; result: string }[] };
    };
    expect(json.suite).toEqual({ id: 'tiny', hash });
    expect(json.comparison).toMatchObject({ a: 'gold', b: 'noop', aWins: 2, bWins: 0, ties: 0, void: 0, pValue: 0.5, meanDifference: 1 });
    expect(json.comparison.sentence).toMatch(/gold won 2, noop won 0, 0 tied, 0 void\.$/);
    expect(json.comparison.perTask.map((t) => t.result)).toEqual(['a-wins', 'a-wins']);
  });

  it('swaps the sides when the agents are given the other way round', async () => {
    const report = await bakeoff(['report', out, '--compare', 'noop', 'gold']);
    expect(report.exitCode, report.stderr).toBe(0);
    expect(report.stdout.split('\n')[0]).toMatch(/noop won 0, gold won 2, 0 tied, 0 void\.$/);
  });

  it('refuses an unknown agent with exit 2, naming the known agents', async () => {
    const report = await bakeoff(['report', out, '--compare', 'gold', 'nobody']);
    expect(report.exitCode).toBe(2);
    expect(report.stdout).toBe('');
    expect(report.stderr).toMatch(/unknown agent "nobody"; known agents: gold, noop/);
  });

  it('refuses --compare with other than two agent ids', async () => {
    const report = await bakeoff(['report', out, '--compare', 'gold']);
    expect(report.exitCode).toBe(2);
    expect(report.stderr).toMatch(/--compare expects two agent ids/);
  });
});
