import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { bakeoff, copySuite, FIXTURES, ROOT, tempDir } from './helpers.js';

// The runs come from examples/library.mjs: bakeoff through the library alone (validate, bake,
// report, verify, publish), so the CLI's report below reads what the library wrote.
describe('the library example, then report --compare on its results, end to end', () => {
  let out: string;
  let hash: string;
  let example: { exitCode: number | undefined; stdout: string; stderr: string };
  beforeAll(async () => {
    const suite = await copySuite(path.join(FIXTURES, 'suites/tiny'));
    out = await tempDir();
    const site = path.join(await tempDir(), 'site');
    const result = await execa(process.execPath, [path.join(ROOT, 'examples/library.mjs'), suite, out, site], { cwd: ROOT, reject: false });
    example = { exitCode: result.exitCode, stdout: String(result.stdout), stderr: String(result.stderr) };
    expect(example.exitCode, example.stderr).toBe(0);
    hash = /^suite hash (\S+)$/m.exec(example.stdout)![1]!;
  });

  it('the example validates, bakes, reports, verifies and publishes through the library entry points alone', async () => {
    const lines = example.stdout.split('\n');
    expect(lines[0]).toBe('validated tiny: 2 of 2 tasks admitted');
    expect(example.stdout).toContain('baked: 8 run(s) this time, 0 already done');
    expect(example.stdout).toContain('gold: solved 4 of 4');
    expect(example.stdout).toContain('noop: solved 0 of 4');
    expect(example.stdout).toContain('verified 8 runs: 0 mismatches');
    expect(example.stdout).toMatch(/^published \d+ pages to .*site$/m);
    // what the library stored is what the CLI reads
    const cli = await bakeoff(['report', out, '--format', 'json']);
    expect(cli.exitCode, cli.stderr).toBe(0);
    const agents = (JSON.parse(cli.stdout) as { agents: { id: string; solved: number; runs: number }[] }).agents;
    expect(agents.map((a) => [a.id, a.solved, a.runs])).toEqual([['gold', 4, 4], ['noop', 0, 4]]);
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
